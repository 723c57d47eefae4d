"""The event's rules preset is the ruleset it is scored by, or is refused."""
from datetime import timedelta

import pytest
from django.utils import timezone

from drive.core.errors import Invalid
from drive.events.services import events as services
from drive.events.models import Event
from drive.scoring.services import ranking
from drive.scoring.services import results
from drive.scoring.models import HandResult, Standing, Table
from drive.scoring.rules import event_ruleset

pytestmark = pytest.mark.django_db


def confirmed(event, table_number, hand, ns):
    table = Table.objects.get(event=event, number=table_number)
    HandResult.objects.create(round=event.evening_rounds.get(number=1), table=table, hand_number=hand, ns_tricks=ns,
                              trump="S", status="confirmed")


def totals(event):
    ranking.recompute_standings(event_id=event.pk)
    return {s.entrant.number: s.total for s in Standing.objects.filter(event=event).select_related("entrant")}


def test_the_ruleset_is_the_events_preset(evening):
    assert event_ruleset(evening).name == "drive"
    Event.objects.filter(pk=evening.pk).update(rules_preset="short", scoring_rule="over_six")
    evening.refresh_from_db()
    rules = event_ruleset(evening)
    assert rules.name == "short" and rules.drive_score == "over_six"
    assert rules.hands_per_round == evening.hands_per_round  # rule D1: still a drive's rounds


def test_short_whist_scores_the_tricks_over_six_where_the_drive_scores_the_tricks(evening):
    confirmed(evening, 1, 1, 9)
    confirmed(evening, 1, 2, 5)
    drive = totals(evening)
    # rule D3: each partnership scores its tricks: N-S 9 + 5, E-W 4 + 8
    assert (drive[1], drive[2]) == (14, 12)
    Event.objects.filter(pk=evening.pk).update(rules_preset="short", scoring_rule="over_six")
    short = totals(evening)
    # rule S7.1: only the side with more than six tricks scores, one a trick over six
    assert (short[1], short[2]) == (3, 2)
    assert drive[1] > drive[2] and short[1] > short[2] and short != drive


def test_a_revoke_penalty_follows_the_preset_l8(evening, organiser):
    Event.objects.filter(pk=evening.pk).update(rules_preset="short", scoring_rule="over_six")
    confirmed(evening, 1, 1, 8)
    table = Table.objects.get(event=evening, number=1)
    results.apply_revoke_penalty(actor=organiser, table=table, round_number=1, hand_number=1, offending_side="NS",
                                 reason="revoke")
    # rule L8: three tricks pass to the opponents (8-5 -> 5-8); S7.1 then scores E-W 2, N-S 0
    assert HandResult.objects.get(table=table, hand_number=1).ns_tricks == 5
    by = totals(evening)
    assert (by[1], by[2]) == (0, 2)


def _new(**fields):
    return dict(title="Drive", starts_at=timezone.now() + timedelta(days=3), capacity=8, **fields)


def test_a_preset_paper_cannot_score_is_refused_at_creation(club, organiser):
    # rule L4: honours need the cards held; rule L2: rubbers run over games, not hands (D1)
    with pytest.raises(Invalid, match="cannot score a paper drive") as refused:
        services.create_event(actor=organiser, club=club, **_new(rules_preset="long"))
    assert refused.value.field == "rules_preset"
    # rule S7.1: short whist counts tricks over six, so "tricks taken" contradicts it
    with pytest.raises(Invalid, match="over six") as refused:
        services.create_event(actor=organiser, club=club, **_new(rules_preset="short"))
    assert refused.value.field == "scoring_rule"
    event = services.create_event(actor=organiser, club=club, **_new(rules_preset="short", scoring_rule="over_six"))
    assert event_ruleset(event).name == "short"


def test_the_api_answers_400_on_the_field(api, club, organiser, event):
    api.force_authenticate(organiser)
    body = {"club": club.pk, "title": "Long", "starts_at": (timezone.now() + timedelta(days=3)).isoformat(),
            "capacity": 8, "rules_preset": "long"}
    refused = api.post("/api/events/", body, format="json")
    assert refused.status_code == 400 and "rules_preset" in refused.json()
    assert not Event.objects.filter(title="Long").exists()
    patched = api.patch(f"/api/events/{event.pk}/", {"rules_preset": "long"}, format="json")
    assert patched.status_code == 400 and Event.objects.get(pk=event.pk).rules_preset == "drive"
