"""Every page a user can reach speaks Russian and Ukrainian, with no English left.

The demo club (`load_demo`: its season of three published evenings, an upcoming drive with
a waitlist, tonight's drive under way with a disputed hand) is walked once through a whole evening: before the start, a round
being played, between rounds, finished, results published. At each step every page of
the public, a player, a table's phone, the room's screen, the season's pages and the organiser's console is
rendered in ru and in uk (the language cookie, as the switcher sets it: `Walk`); its visible text
(tags, scripts and styles stripped; titles, placeholders, labels and confirmations kept)
must hold no English word. What may stay in Latin letters is short and listed below.
The 400, 403 and 500 pages are rendered by their handlers (no page leads to them).

Not walked: Django's admin and the API (its Swagger page and DRF's browsable pages), which
are the developers' and staff's, and the JSON export, which is data.
"""
import re
from dataclasses import dataclass, field
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from drive.events.models import Club, Event, Player
from drive.events.prizes import USUAL_NAMES
from drive.live.services import announcements
from drive.live.selectors.screen import screen_token
from drive.live.services.screen import issue_screen_link
from drive.scoring.services import claims
from drive.scoring.services import evening
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round, Seat, SeatClaim, Standing, Table
from drive.seasons.models import Season
from drive.scoring.selectors.rounds import current_round

pytestmark = pytest.mark.django_db(transaction=True)  # the demo commits, as on a real start

LANGS = ["ru", "uk"]

# What may stay in Latin letters on a Russian or Ukrainian page, and why:
ALLOWED = {
    "English",                 # the language switcher names each language in itself
    "QR",                      # "QR code": the same letters in Russian and Ukrainian
    "CSV", "JSON",             # file formats of the downloads
    "A6",                      # the paper size of the table cards
    "Wh",                      # a whist tournament design's name, Wh(9), as the literature writes it
}
# Rule numbers (docs/rules.md) are codes: "(правило D5)".
RULE_NUMBER = re.compile(r"^(?:HA|[SDLPBYRH])\d+(?:\.\d+)?[a-z]?$")
# What the organiser and the players typed is theirs (names, titles, venues, prizes,
# announcements, seasons, reasons): those texts, read from the database and this test's own
# inputs, are taken out of a page before it is read.
TYPED_HERE = ["Tea at half time", "miscounted the last trick", "revoke in trick 7"]

WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")


class VisibleText(HTMLParser):
    """The text a user sees or hears: text nodes outside script/style, and the attributes
    browsers show (titles, placeholders, alt text, labels, button values, confirmations)."""

    SHOWN_ATTRS = ("title", "placeholder", "alt", "aria-label", "data-confirm", "data-over-text", "data-label")
    HIDDEN = {"script", "style", "template"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self._hidden = [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.HIDDEN:
            self._hidden += 1
        for name in self.SHOWN_ATTRS:
            if attrs.get(name):
                self.parts.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button", "reset") and attrs.get("value"):
            self.parts.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return "\n".join(parser.parts)


def _gift(prize: str) -> str:
    """What is the organiser's own in a prize's name: all of it, or the gift after one of the
    usual names ("Booby prize: wooden spoon"), whose usual part must read translated."""
    head, _colon, gift = prize.partition(": ")
    return gift if head in USUAL_NAMES else ("" if prize in USUAL_NAMES else prize)


def typed_texts() -> list[str]:
    """What the users typed, longest first: names, titles, venues, prizes, announcements."""
    texts = list(TYPED_HERE)
    texts += Club.objects.values_list("name", flat=True)
    for title, venue, prizes in Event.objects.values_list("title", "venue", "prizes"):
        texts += [title, venue, *(_gift(p["name"] if isinstance(p, dict) else p) for p in prizes)]
    texts += Player.objects.values_list("display_name", flat=True)
    for user in get_user_model().objects.all():
        texts += [user.get_full_name(), user.username, user.first_name, user.last_name, user.email]
    texts += announcements.Announcement.objects.values_list("text", flat=True)
    texts += Season.objects.values_list("name", flat=True)
    return sorted({text for text in texts if text}, key=len, reverse=True)


# Shown for copying or reading as they are: links (a table's or the door's), and the
# ISO times of the CSV export.
VERBATIM = re.compile(r"https?://\S+|\b\d{4}-\d\d-\d\dT[\d:.+-]+")


def english_words(text: str, typed: list[str]) -> list[str]:
    for phrase in typed:
        text = text.replace(phrase, " ")
    left = []
    for match in WORD.finditer(VERBATIM.sub(" ", text)):
        word = match.group(0)
        if word in ALLOWED or RULE_NUMBER.match(word):
            continue
        # A typed name cut short for the screen ("Kenneth Mor…") is still the name.
        cut = match.string[match.end():match.end() + 1] == "…"
        if cut and any(w.startswith(word) for phrase in typed for w in WORD.findall(phrase)):
            continue
        left.append(word)
    return left


@dataclass
class Walk:
    """The pages seen so far in each language, and the English left on each.

    One walk through the evening for both languages: every page reached by GET is read in
    each (the same client, its language cookie switched, so a phone keeps its seat and a
    user their session). A POST changes the evening, so it is sent once, in each language
    in turn, and the page it leads to (after a redirect) is read again in the other one.
    What only a POST's own answer says (a form's errors, a one-time message) is read in
    one language: that both catalogues translate every such text is test_i18n's
    `test_catalogue_is_complete`."""
    found: dict = field(default_factory=dict)
    seen: dict = field(default_factory=lambda: dict.fromkeys(LANGS, 0))
    typed: list = field(default_factory=list)
    posts: int = 0

    def client(self, user=None):
        client = Client(raise_request_exception=False)  # a 500 is reported with the rest
        if user is not None:
            client.force_login(user)
        return client

    def look(self, step, client, url, status=200, method="get", data=None, follow=False):
        if method == "get":
            for lang in LANGS:  # nothing typed in between: the names are read once
                response = self._read(lang, step, client, url, status, method, data, follow, lang == LANGS[0])
            return response
        lang = LANGS[self.posts % len(LANGS)]
        self.posts += 1
        response = self._read(lang, step, client, url, status, method, data, follow, True)
        chain = getattr(response, "redirect_chain", None)
        if chain and response.status_code == 200:  # where the POST led, in the other language
            for other in LANGS:
                if other != lang:
                    self._read(other, step, client, chain[-1][0], 200, "get", None, False, False)
        return response

    def _read(self, lang, step, client, url, status, method, data, follow, typed_since):
        """One request in `lang`; `typed_since`: the users may have typed something since the
        last read (their texts are read again)."""
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        response = getattr(client, method)(url, data or {}, follow=follow)
        if response.status_code != status:
            self.found[f"{lang}, {step}: {method.upper()} {url}"] = [f"answered {response.status_code}, not {status}"]
            return response
        body = response.content.decode()
        text = body if ".csv" in url else visible_text(body)
        self.seen[lang] += 1
        if typed_since or not self.typed:
            self.typed = typed_texts()
        words = english_words(text, self.typed)
        if words:
            key = f"{lang}, {step}: {url}"
            self.found[key] = sorted(set(words) | set(self.found.get(key, [])))
            lines = [line for line in text.splitlines() if english_words(line, self.typed)]
            self.found[key + " lines"] = lines
        return response


def _claim_and_play(event, round_, ns_for):
    """Every table of the round enters every hand, one phone of each side."""
    for table in Table.objects.filter(event=event, seats__round=round_).distinct().order_by("number"):
        phones = []
        taken = set(SeatClaim.objects.filter(round=round_, table=table).values_list("position", flat=True))
        for side in ("NS", "EW"):  # a seat of each side that no phone holds yet (the demo's hold some)
            position = next(p for p in side if p not in taken)
            seat = Seat.objects.get(round=round_, table=table, position=position)
            user = seat.entrant.player.user
            made = claims.claim_seat(table=table, position=position, user=user)
            phones.append((made[1], user))
        for hand in range(1, event.hands_per_round + 1):
            if HandResult.objects.filter(round=round_, table=table, hand_number=hand, status="confirmed").exists():
                continue
            for secret, user in phones:
                results.submit_result(table=table, claim=secret, user=user, hand_number=hand,
                                      ns_tricks=ns_for(table.number, hand), trump="HDSC"[hand % 4])


def _started(organiser, club, kind, players):
    """A small evening of another movement, started: walk-ins checked in, round 1 seated."""
    from drive.events.services import events
    from drive.events.services import arrivals as arrival_services
    event = events.create_event(actor=organiser, club=club, title=f"Drive {kind}", venue="Hall",
                                starts_at=timezone.now() + timedelta(hours=1), capacity=players, rounds=3,
                                hands_per_round=2, movement_kind=kind, published=True)
    for number in range(1, players + 1):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"Guest {kind} {number}")
    evening.start_evening(actor=organiser, event=event)
    return event


def _settle_disputes(event, organiser):
    for result in HandResult.objects.filter(round__event=event, status="disputed").select_related("round", "table"):
        results.correct_result(actor=organiser, table=result.table, round_number=result.round.number,
                               hand_number=result.hand_number, ns_tricks=result.ns_tricks,
                               reason="miscounted the last trick")


def walk_the_evening(walk: Walk):
    call_command("load_demo", quiet=True)
    User = get_user_model()
    organiser = User.objects.get(username="organiser")
    christmas = Event.objects.get(title="Christmas Whist Drive")
    friday = Event.objects.get(title="Friday Whist Drive")
    club = friday.club
    anonymous, boss = walk.client(), walk.client(organiser)
    waiting = christmas.registrations.filter(status="waitlisted").first()
    registered = walk.client(christmas.registrations.filter(status="registered").first().player.user)
    entrant = friday.entrants.select_related("player__user").filter(player__user__isnull=False).first()
    player = walk.client(entrant.player.user)
    X, F = christmas.pk, friday.pk

    def public(step):
        for url in ("/", f"/events/{X}/", f"/events/{F}/", f"/events/{F}/standings/"):
            walk.look(step, anonymous, url)

    def console(step, event_id):
        base = f"/console/events/{event_id}/"
        for url in ("", "edit/", "registrations/", "audit/", "screen-link/", "movement/", "evening/",
                    "corrections/", "players/", "scorecards/", "table-cards/"):
            walk.look(step, boss, base + url)

    def screen(step, event):
        event.refresh_from_db()
        walk.look(step, anonymous, f"/screen/{screen_token(event)}/")

    def tables(step, event):
        round_ = current_round(event)
        for table in Table.objects.filter(event=event, seats__round=round_).distinct().order_by("number")[:2]:
            walk.look(step, boss, f"/console/events/{event.pk}/evening/rounds/{round_.number}/tables/{table.number}/")
            walk.look(step, walk.client(), f"/t/{table.token}/")

    season = Season.objects.get(club=club)  # the demo's, over its three published evenings and these two
    # A winner of a published evening: their history lists the prize too.
    regular = (Standing.objects.filter(event__phase=Event.Phase.RESULTS_PUBLISHED, place=1,
                                       entrant__player__user__isnull=False)
               .order_by("event__starts_at", "entrant_id").first().entrant)

    def seasons(step):
        for url in (f"/seasons/{season.pk}/", f"/seasons/{season.pk}/screen/", f"/seasons/{season.pk}/table.csv"):
            walk.look(step, anonymous, url)
        walk.look(step, walk.client(regular.player.user), f"/players/{regular.player_id}/history/")
        for url in (f"/console/clubs/{club.pk}/seasons/", f"/console/clubs/{club.pk}/seasons/new/",
                    f"/console/seasons/{season.pk}/edit/", f"/console/clubs/{club.pk}/players/"):
            walk.look(step, boss, url)

    def move(step, action, status=200, **data):
        walk.look(step, boss, f"/console/events/{F}/evening/moves/{action}/", method="post", status=status,
                  data={"round": current_round(friday).number, **data}, follow=status == 200)

    # Before the evening: the upcoming drive (registration, waitlist, check-in), its console.
    step = "before the evening"
    issue_screen_link(actor=organiser, event=christmas)
    issue_screen_link(actor=organiser, event=friday)
    public(step)
    for url in ("/accounts/login/", "/accounts/signup/"):
        walk.look(step, anonymous, url)
    walk.look(step, anonymous, "/no-such-page/", status=404)
    walk.look(step, anonymous, "/accounts/login/", method="post", data={"username": "x", "password": "y"})
    walk.look(step, anonymous, "/accounts/signup/", method="post", data={"username": "x", "password1": "a"})
    newcomer = walk.client()
    walk.look(step, newcomer, "/accounts/signup/", method="post", follow=True, data={
        "username": "newcomer", "display_name": "Newcomer", "email": "newcomer@example.org",
        "password1": "a-Long-pass-2026", "password2": "a-Long-pass-2026"})
    walk.look(step, newcomer, f"/events/{X}/register/", method="post", follow=True)  # onto the waitlist
    walk.look(step, newcomer, "/me/")
    walk.look(step, newcomer, f"/events/{X}/door/{christmas.door_code}/")  # not registered
    walk.look(step, newcomer, f"/events/{X}/cancel/", method="post", follow=True)
    walk.look(step, newcomer, "/me/")
    walk.look(step, registered, "/me/")
    walk.look(step, registered, f"/events/{X}/")
    walk.look(step, registered, f"/events/{X}/door/{christmas.door_code}/")
    walk.look(step, walk.client(waiting.player.user), f"/events/{X}/")
    walk.look(step, player, f"/console/events/{F}/", status=403)
    walk.look(step, boss, "/console/")
    walk.look(step, boss, f"/console/clubs/{club.pk}/events/new/")
    walk.look(step, boss, f"/console/clubs/{club.pk}/events/new/", method="post", data={"title": ""})
    registration = christmas.registrations.filter(status="registered").last()
    walk.look(step, boss, f"/console/registrations/{registration.pk}/check-in/", method="post", follow=True)
    walk.look(step, boss, f"/console/events/{X}/walk-in/", method="post", follow=True,
              data={"display_name": "Vera Walk-in", "category": ""})
    walk.look(step, boss, f"/console/events/{X}/walk-in/", method="post", status=400, data={"display_name": " "})
    walk.look(step, boss, f"/console/events/{X}/door-code/", method="post", follow=True)
    walk.look(step, boss, f"/console/events/{X}/close-registration/", method="post", follow=True)
    walk.look(step, boss, f"/console/events/{X}/screen-link/chime/", method="post", follow=True)
    console(step, X)
    screen(step, christmas)
    seasons(step)
    for kind, players in (("individual", 9), ("pairs", 8)):
        other = _started(organiser, club, kind, players)
        for url in ("movement/", "evening/", "players/"):
            walk.look(f"{step}, {kind}", boss, f"/console/events/{other.pk}/{url}")
        walk.look(f"{step}, {kind}", anonymous, f"/events/{other.pk}/standings/")

    # Round 1 being played: a disputed hand, a table not in yet, phones at the tables.
    step = "round 1 playing"
    public(step)
    console(step, F)
    tables(step, friday)
    screen(step, friday)
    walk.look(step, player, "/me/")
    walk.look(step, player, f"/events/{F}/my-evening/")
    last = Table.objects.filter(event=friday, seats__round=current_round(friday)).distinct().order_by("-number")[0]
    south, north = walk.client(), walk.client()

    def send(phone, hand, ns, trump):
        walk.look(step, phone, f"/t/{last.token}/hands/", method="post",
                  data={"hand_number": str(hand), "ns_tricks": str(ns), "trump": trump})

    walk.look(step, south, f"/t/{last.token}/")
    walk.look(step, south, f"/t/{last.token}/me/", method="post", data={"seat": "S"}, follow=True)
    walk.look(step, south, f"/t/{last.token}/hands/", method="post", status=400,
              data={"hand_number": "1", "ns_tricks": "20", "trump": "S"})
    send(south, 1, 7, "S")
    walk.look(step, north, f"/t/{last.token}/me/", method="post", data={"seat": "S"}, status=409)
    walk.look(step, north, f"/t/{last.token}/me/", method="post", data={"seat": "W"}, follow=True)
    send(north, 1, 7, "S")  # confirmed
    send(south, 2, 6, "H")
    send(north, 2, 8, "H")  # disputed
    walk.look(step, south, f"/t/{last.token}/")
    east = walk.client()
    walk.look(step, east, f"/t/{last.token}/me/", method="post", data={"seat": "E"}, follow=True)
    walk.look(step, east, f"/t/{last.token}/me/", method="post", data={"seat": ""}, follow=True)  # "Not you?"
    second = f"/console/events/{F}/evening/rounds/1/tables/2/"
    walk.look(step, boss, second + "claims/N/release/", method="post", follow=True)
    walk.look(step, boss, second + "link/", method="post", follow=True)
    move(step, "pause")
    move(step, "end-round", status=409)
    move(step, "resume")
    walk.look(step, boss, f"/console/events/{F}/announcements/", method="post", follow=True,
              data={"text": "Tea at half time"})
    walk.look(step, boss, f"/console/events/{F}/edit/", method="post",
              data={"title": "Friday Whist Drive", "rounds": "9"})  # a started evening's shape: refused
    playing = current_round(friday)
    for seconds in (90, 0):  # the last two minutes, then time is up
        Round.objects.filter(pk=playing.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))
        screen(f"{step}, {seconds} s left", friday)
        walk.look(f"{step}, {seconds} s left", boss, f"/console/events/{F}/evening/")

    # Between rounds: disputes settled on the table's page, a revoke penalty, a late arrival.
    step = "between rounds"
    table_url = f"/console/events/{F}/evening/rounds/1/tables/1/"
    walk.look(step, boss, table_url + "hands/1/correct/", method="post", status=400,
              data={"h1-ns_tricks": "", "h1-reason": ""})
    walk.look(step, boss, table_url + "hands/2/revoke/", method="post", follow=True,
              data={"r2-offending_side": "EW", "r2-reason": "revoke in trick 7"})
    _settle_disputes(friday, organiser)
    _claim_and_play(friday, current_round(friday), lambda table, hand: 5 + (table * 3 + hand) % 5)
    announcements.announce(actor=organiser, event=friday, text="Tea at half time")
    late = friday.registrations.filter(status="registered").first()
    walk.look(step, boss, f"/console/registrations/{late.pk}/check-in/", method="post", follow=True)
    walk.look(step, boss, f"/console/events/{F}/players/join/{late.pk}/", method="post", follow=True)
    move(step, "end-round")
    public(step)
    console(step, F)
    tables(step, friday)
    screen(step, friday)
    walk.look(step, player, f"/events/{F}/my-evening/")
    walk.look(step, south, f"/t/{last.token}/")

    # Round 2 playing, with a sit-out.
    step = "round 2 playing"
    move(step, "start-round")
    console(step, F)
    tables(step, friday)
    screen(step, friday)
    walk.look(step, player, f"/events/{F}/my-evening/")
    leaver = Seat.objects.filter(round=current_round(friday), table__number=2, position="N").get().entrant
    walk.look(step, boss, f"/console/events/{F}/players/leave/{leaver.pk}/", method="post", follow=True)
    if leaver.player.user:
        walk.look(step, walk.client(leaver.player.user), f"/events/{F}/my-evening/")
    sitting_out = Seat.objects.filter(round=current_round(friday), table=None).select_related("entrant__player__user")
    for seat in sitting_out:
        if seat.entrant.player.user:
            walk.look(step, walk.client(seat.entrant.player.user), f"/events/{F}/my-evening/")

    # The rest of the evening: finished, then published.
    while friday.phase == Event.Phase.IN_PROGRESS:
        round_ = current_round(friday)
        if round_.state == Round.State.SEATED:
            evening.start_round(actor=organiser, event=friday)
        _claim_and_play(friday, round_, lambda table, hand: 4 + (table + hand * 5 + round_.number) % 6)
        evening.end_round(actor=organiser, event=friday)
        friday.refresh_from_db()
    step = "finished"
    public(step)
    console(step, F)
    screen(step, friday)
    walk.look(step, player, f"/events/{F}/my-evening/")
    walk.look(step, player, f"/events/{F}/")
    walk.look(step, south, f"/t/{last.token}/")

    step = "results published"
    walk.look(step, boss, f"/console/events/{F}/evening/moves/publish-results/", method="post", follow=True)
    friday.refresh_from_db()
    public(step)
    console(step, F)
    screen(step, friday)
    walk.look(step, player, f"/events/{F}/my-evening/")
    walk.look(step, player, "/me/")
    for url in (f"/events/{F}/results/", f"/events/{F}/results.csv", f"/events/{F}/corrections.csv"):
        walk.look(step, anonymous, url)
    seasons(step)
    walk.look(step, south, f"/t/{last.token}/", status=404)


def test_no_english_left_on_any_page():
    walk = Walk()
    walk_the_evening(walk)
    assert all(seen > 80 for seen in walk.seen.values()), walk.seen
    report = "\n".join(f"  {page}: {words}" for page, words in walk.found.items())
    assert not walk.found, f"English left on {len(walk.found)} pages:\n{report}"


@pytest.mark.parametrize("lang", LANGS)
def test_error_pages_no_page_leads_to(lang):
    from django.core.exceptions import PermissionDenied
    from django.test import RequestFactory
    from django.utils import translation
    from django.views import defaults

    from drive import urls

    request = RequestFactory().get("/events/1/")
    with translation.override(lang):
        pages = {"400": urls.handler400(request, ValueError()),
                 "403": defaults.permission_denied(request, PermissionDenied()),
                 "500": urls.handler500(request)}
    left = {code: english_words(visible_text(page.content.decode()), []) for code, page in pages.items()}
    assert not any(left.values()), f"{lang}: English left on the error pages: {left}"
