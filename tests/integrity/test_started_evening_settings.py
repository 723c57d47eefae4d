"""A started evening keeps its shape: the settings its movement, seats, hands and
scores were built from answer 409 naming the field, in the service, so the API and the
console form both refuse; other edits still go through."""
import pytest
from django.urls import reverse

from drive.core.errors import Conflict
from drive.events.services import events as services
from drive.events.services import arrivals as arrival_services
from drive.events.models import Event

pytestmark = pytest.mark.django_db

SHAPING = [
    ("rounds", 9), ("hands_per_round", 4), ("scoring_rule", "over_six"), ("trump_rule", "rotation"),
    ("movement_kind", "pairs"), ("rules_preset", "short"), ("sit_out_score", "room_average"),
    ("tie_break_rule", "lot"), ("result_confirmation", "single"), ("progressive_convention", "losers_move"),
]


@pytest.fixture
def started(make_event, organiser):
    event = make_event(capacity=8, movement_kind="individual")
    for i in range(6):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"P{i}")
    Event.objects.filter(pk=event.pk).update(phase=Event.Phase.IN_PROGRESS)
    event.refresh_from_db()
    return event


@pytest.mark.parametrize("field, value", SHAPING)
@pytest.mark.parametrize("phase", [Event.Phase.IN_PROGRESS, Event.Phase.FINISHED, Event.Phase.RESULTS_PUBLISHED])
def test_a_shaping_setting_is_refused_once_started(started, organiser, field, value, phase):
    Event.objects.filter(pk=started.pk).update(phase=phase)
    started.refresh_from_db()
    label = str(Event._meta.get_field(field).verbose_name)
    with pytest.raises(Conflict, match=label) as refused:
        services.update_event(actor=organiser, event=started, **{field: value})
    assert refused.value.extra["field"] == field
    assert getattr(Event.objects.get(pk=started.pk), field) == getattr(started, field)


def test_before_the_start_the_same_settings_change(make_event, organiser):
    event = make_event()
    changed = services.update_event(actor=organiser, event=event, **dict(SHAPING))
    assert all(getattr(changed, field) == value for field, value in SHAPING)


def test_the_same_value_again_and_other_fields_go_through(started, organiser):
    event = services.update_event(actor=organiser, event=started, rounds=started.rounds, title="Renamed",
                                  venue="Church hall", round_minutes=25,
                                  prizes=[{"name": "First", "kind": "overall"}, {"name": "Booby", "kind": "booby"}])
    assert (event.title, event.venue, event.round_minutes) == ("Renamed", "Church hall", 25)


def test_capacity_only_not_below_the_players_present(started, organiser):
    with pytest.raises(Conflict, match="6 players present") as refused:
        services.update_event(actor=organiser, event=started, capacity=5)
    assert refused.value.extra["field"] == "capacity"
    assert services.update_event(actor=organiser, event=started, capacity=6).capacity == 6
    assert services.update_event(actor=organiser, event=started, capacity=40).capacity == 40


def test_api_patch_answers_409_naming_the_field(api, started, organiser):
    api.force_authenticate(organiser)
    url = f"/api/events/{started.pk}/"
    refused = api.patch(url, {"hands_per_round": 5}, format="json")
    assert refused.status_code == 409
    assert "hands per round" in refused.json()["detail"] and refused.json()["field"] == "hands_per_round"
    below = api.patch(url, {"capacity": 4}, format="json")  # valid, but 6 players are present
    assert below.status_code == 409 and below.json()["field"] == "capacity"
    assert api.patch(url, {"title": "Still fine"}, format="json").status_code == 200
    assert Event.objects.get(pk=started.pk).hands_per_round == started.hands_per_round


def test_console_form_shows_the_refusal_and_keeps_the_event(client, started, organiser):
    client.force_login(organiser)
    url = reverse("console-event-edit", args=[started.pk])
    form = client.get(url).context["form"]
    data = {name: form[name].value() if form[name].value() is not None else "" for name in form.fields}
    data["prizes"] = ""
    data["starts_at"] = started.starts_at.strftime("%Y-%m-%dT%H:%M")
    data["trump_rule"] = "rotation"
    page = client.post(url, data)
    assert page.status_code == 200
    assert "“trumps” can no longer change" in page.content.decode()
    assert Event.objects.get(pk=started.pk).trump_rule == started.trump_rule
    data["trump_rule"], data["title"] = started.trump_rule, "Renamed on the night"
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(pk=started.pk).title == "Renamed on the night"

