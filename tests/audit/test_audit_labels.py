"""The audit log names every value it shows in the reader's language, including the
keys that are no field of the logged row (counts, flags, another row's fields)."""
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from drive.events.services.audit import KEY_LABELS, log_action, readable_changes
from drive.events.models import AuditEntry
from drive.live.services.screen import set_screen_chime

pytestmark = pytest.mark.django_db


def test_an_evening_start_reads_as_its_players(client, event, organiser):
    # "entrants" is the event's reverse relation: it has no label of its own (it was a 500)
    log_action(actor=organiser, event=event, action="evening.started", before={"phase": "registration"},
               after={"phase": "in_progress", "entrants": 18}, obj=event)
    client.force_login(organiser)
    page = client.get(reverse("console-audit", args=[event.pk]))
    assert page.status_code == 200
    assert "players: — → <strong>18</strong>" in page.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    assert "игроки: — → <strong>18</strong>" in client.get(reverse("console-audit", args=[event.pk])).content.decode()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_key_label_is_translated(lang):
    entry = AuditEntry(action="registration.walk_in_added", object_type="events.registration",
                       after={key: 1 for key in KEY_LABELS})
    with translation.override(lang):
        labels = [label for label, _old, _new in readable_changes(entry=entry)]
    english = [str(KEY_LABELS[key]) for key in KEY_LABELS]
    assert len(labels) == len(KEY_LABELS)
    assert not set(labels) & set(english), f"{lang}: untranslated {sorted(set(labels) & set(english))}"


@pytest.mark.parametrize("lang, seat, new", [("ru", "С", "новый"), ("uk", "Пн", "новий"), ("en", "N", "a new one")])
def test_seats_and_the_new_door_code_read_in_the_readers_language(lang, seat, new):
    released = AuditEntry(action="seat_claim.released", object_type="scoring.table",
                          before={"round": 1, "table": 2, "seat": "N", "signed_in": "", "claimed_at": None})
    door = AuditEntry(action="event.door_code_reissued", object_type="events.event", after={"door_code": "new"})
    with translation.override(lang):
        shown = {str(label): value for label, value, _new in readable_changes(entry=released)}
        assert shown[translation.gettext("seat")] == seat
        [(_label, _old, code)] = readable_changes(entry=door)
        assert str(code) == new


def test_a_prize_reads_with_its_usual_name_translated():
    entry = AuditEntry(action="event.changed", object_type="events.event",
                       before={"prizes": []}, after={"prizes": [{"name": "Booby prize: spoon", "kind": "booby"}]})
    with translation.override("uk"):
        [(_label, _old, new)] = readable_changes(entry=entry)
    assert new == "Втішний приз: spoon (втішний)"


@pytest.mark.parametrize("lang, label, on", [("en", "chime at the end of the round", "yes"),
                                             ("ru", "сигнал в конце тура", "да"), ("uk", "сигнал наприкінці туру", "так")])
def test_the_chime_reads_by_its_name_though_it_lives_on_the_screen(organiser, event, lang, label, on):
    set_screen_chime(actor=organiser, event=event, chime=True)
    entry = AuditEntry.objects.get(action="screen.chime_set")
    assert (entry.object_type, entry.before, entry.after) == ("events.event", {"screen_chime": False},
                                                              {"screen_chime": True})
    with translation.override(lang):
        [(shown, _old, new)] = readable_changes(entry=entry)
        assert (str(shown), str(new)) == (label, on)
