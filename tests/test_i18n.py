"""Russian and Ukrainian: the catalogues are complete and the pages speak them."""
import gettext
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone, translation

from drive.events.models import Club, Event, Player, Registration

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"
LANGS = ["ru", "uk"]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")

# What the public events page must say, as translated in locale/<lang>/LC_MESSAGES/django.po.
EXPECTED_ON_EVENT_LIST = {
    "ru": ["Турниры по висту", "Войти", "Турнир по висту", "мест занято", "2 человека в листе ожидания"],
    "uk": ["Турніри з вісту", "Увійти", "Турнір з вісту", "місць зайнято", "2 особи у списку очікування"],
}
ENGLISH_ON_EVENT_LIST = ["Whist drives", "Log in", "places taken", "on the waitlist"]


# --- a tiny .po reader -----------------------------------------------------------------


def _unquote(text):
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), text.strip()[1:-1])


def read_po(path):
    """The entries of a .po file: dicts with flags, msgid, msgid_plural, msgstr{index: text}.

    Obsolete entries (#~) are skipped: they are not compiled.
    """
    entries, entry, key = [], None, None

    def flush():
        if entry is not None and "msgid" in entry:
            entries.append(entry)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            entry, key = None, None
            continue
        if line.startswith("#~"):
            continue
        if entry is None:
            entry = {"flags": set(), "msgstr": {}}
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if key[0] == "msgstr":
                entry["msgstr"][key[1]] += _unquote(line)
            else:
                entry[key[0]] += _unquote(line)
        else:
            match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
            assert match, f"{path}: cannot read {raw!r}"
            name, index, text = match.groups()
            if name == "msgstr":
                key = ("msgstr", int(index or 0))
                entry["msgstr"][key[1]] = _unquote(text)
            else:
                key = (name, None)
                entry[name] = _unquote(text)
    flush()
    return entries


def po_path(lang):
    return LOCALE_DIR / lang / "LC_MESSAGES" / "django.po"


# --- the catalogues ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete(lang):
    entries = read_po(po_path(lang))
    header, messages = entries[0], entries[1:]
    assert header["msgid"] == "", "the header comes first"
    assert len(messages) > 50, "makemessages found the strings"
    head = header["msgstr"][0]
    assert f"Language: {lang}\n" in head
    assert "Plural-Forms: nplurals=3;" in head, "Russian and Ukrainian have 3 plural forms"
    assert "fuzzy" not in header["flags"]

    fuzzy = [e["msgid"] for e in messages if "fuzzy" in e["flags"]]
    assert not fuzzy, f"fuzzy entries in {lang}: {fuzzy}"
    untranslated = []
    for e in messages:
        expected = [0, 1, 2] if "msgid_plural" in e else [0]
        if sorted(e["msgstr"]) != expected or not all(e["msgstr"][i].strip() for i in expected):
            untranslated.append(e["msgid"])
    assert not untranslated, f"untranslated entries in {lang}: {untranslated}"


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_are_kept(lang):
    wrong = []
    for e in read_po(po_path(lang))[1:]:
        sources = [e["msgid"]] + ([e["msgid_plural"]] if "msgid_plural" in e else [])
        wanted = set().union(*(PLACEHOLDER.findall(s) for s in sources))
        for text in e["msgstr"].values():
            if set(PLACEHOLDER.findall(text)) != wanted:
                wrong.append((e["msgid"], text))
    assert not wrong, f"placeholders changed in {lang}: {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogue_matches_po(lang):
    """The .mo is compiled from the current .po (run compilemessages after editing)."""
    mo_path = po_path(lang).with_suffix(".mo")
    assert mo_path.exists(), "run: manage.py compilemessages --ignore=.venv"
    with mo_path.open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    stale = []
    for e in read_po(po_path(lang))[1:]:
        context = e.get("msgctxt")
        if "msgid_plural" in e:
            for n, index in ((1, 0), (3, 1), (5, 2)):
                got = (compiled.npgettext(context, e["msgid"], e["msgid_plural"], n) if context
                       else compiled.ngettext(e["msgid"], e["msgid_plural"], n))
                if got != e["msgstr"][index]:
                    stale.append(e["msgid"])
        else:
            got = compiled.pgettext(context, e["msgid"]) if context else compiled.gettext(e["msgid"])
            if got != e["msgstr"][0]:
                stale.append(e["msgid"])
    assert not stale, f"{lang}: .mo out of date for {stale}"


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_tricks_winner_is_named_first(lang):
    """On a phone the line under the trick is cut at its end when long: who took the
    trick comes first in every language, so a cut never hides it."""
    with translation.override(lang):
        said = translation.gettext("%(seat)s wins the trick") % {"seat": "Ю"}
    assert said.startswith("Ю "), said


@pytest.mark.parametrize(
    "lang, forms",
    [
        ("ru", {1: "1 сдача", 3: "3 сдачи", 5: "5 сдач", 11: "11 сдач", 21: "21 сдача", 24: "24 сдачи"}),
        ("uk", {1: "1 роздача", 3: "3 роздачі", 5: "5 роздач", 11: "11 роздач", 21: "21 роздача", 24: "24 роздачі"}),
    ],
)
def test_plural_forms(lang, forms):
    with translation.override(lang):
        for n, text in forms.items():
            assert translation.ngettext("%(n)s hand", "%(n)s hands", n) % {"n": n} == text


@pytest.mark.parametrize(
    "lang, words",
    [
        ("ru", {"trick": "взятк", "organiser": "организатор", "waitlist": r"\bлист\w* ожидания"}),
        ("uk", {"trick": "взятк", "organiser": "організатор", "waitlist": r"\bспис\w* очікування"}),
    ],
)
def test_glossary_terms(lang, words):
    texts = {e["msgid"]: " ".join(e["msgstr"].values()) for e in read_po(po_path(lang))[1:]}
    assert words["trick"] in texts["tricks taken"]
    assert words["organiser"] in texts["Organiser console"].lower()
    for msgid in ("Join the waitlist", "waitlisted", "You are number %(n)s on the waitlist."):
        assert re.search(words["waitlist"], texts[msgid]), texts[msgid]
    assert not any("хабар" in text.lower() for text in texts.values()), "a trick is a взятка, never a хабар"


# --- the pages -----------------------------------------------------------------------------


@pytest.fixture
def event_with_waitlist(db):
    club = Club.objects.create(name="St Mary's Whist Club", slug="st-marys-i18n")
    event = Event.objects.create(
        club=club, title="Christmas Whist Drive", starts_at=timezone.now() + timedelta(days=14),
        capacity=4, hands_per_round=3, published=True,
    )
    now = timezone.now()
    for i in range(6):
        player = Player.objects.create(display_name=f"Player {i}")
        waitlisted = i >= 4
        Registration.objects.create(
            event=event, player=player, registered_at=now,
            status=Registration.Status.WAITLISTED if waitlisted else Registration.Status.REGISTERED,
            waitlist_position=i - 3 if waitlisted else None,
        )
    return event


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_event_list_in_language_from_cookie(client, event_with_waitlist, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    for text in EXPECTED_ON_EVENT_LIST[lang]:
        assert text in html, f"{lang}: {text!r} missing from /"
    for text in ENGLISH_ON_EVENT_LIST:
        assert text not in html, f"{lang}: English {text!r} left on /"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "lang, texts",
    [
        ("ru", ["Туры", "3 сдачи", "Схема пересадок", "прогрессивная", "Козыри", "взятые взятки"]),
        ("uk", ["Тури", "3 роздачі", "Схема пересадок", "прогресивна", "Козирі", "взяті взятки"]),
    ],
)
def test_event_detail_in_language(client, event_with_waitlist, lang, texts):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    html = client.get(f"/events/{event_with_waitlist.pk}/").content.decode()
    for text in texts:
        assert text in html, f"{lang}: {text!r} missing from the event page"


@pytest.mark.django_db
def test_english_by_default(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Whist drives" in html and "Log in" in html


@pytest.mark.django_db
def test_language_switch(client):
    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "uk"
    html = client.get("/").content.decode()
    assert '<html lang="uk">' in html
    assert "Турніри з вісту" in html and "Увійти" in html

    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    html = client.get("/").content.decode()
    assert "Турниры по висту" in html and "Войти" in html
