"""Stores the standings: read every seat and confirmed result, compute, replace the rows.

Never incremented in place, so running it twice, or out of order, gives the same table.
"""
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from drive import broadcast
from drive.events.models import Event
from drive.movements.models import Entrant

from . import standings
from .models import HandResult, Seat, Standing
from .rules import event_ruleset


def load_results(event):
    """{(round, table): {hand: ns_tricks}} of the hands that count (entered ones too:
    an unconfirmed hand is the table's word until someone disputes it)."""
    results = {}
    rows = HandResult.objects.filter(round__event=event).exclude(status=HandResult.Status.DISPUTED)
    for round_number, table, hand, ns in rows.values_list("round__number", "table__number", "hand_number", "ns_tricks"):
        results.setdefault((round_number, table), {})[hand] = ns
    return results


def load_seats(event):
    rows = Seat.objects.filter(round__event=event).values_list("round__number", "entrant_id", "table__number", "position")
    return [(r, e, t, "NS" if p in ("N", "S") else "EW") for r, e, t, p in rows]


def compute_for(event):
    return standings.compute(
        entrants=list(Entrant.objects.filter(event=event).values_list("id", flat=True)),
        seats=load_seats(event),
        results=load_results(event),
        rules=event_ruleset(event),
        hands_per_round=event.hands_per_round,
        half_after_round=event.rounds // 2,
        sit_out_method=event.sit_out_score,
        tie_break=event.tie_break_rule,
        lot_seed=event.pk,
    )


@transaction.atomic
def recompute_standings(*, event_id):
    event = Event.objects.select_for_update().get(pk=event_id)  # one recomputation at a time per event
    now = timezone.now()
    rows = [
        Standing(event=event, entrant_id=line.entrant, place=place, shared=shared, total=line.total,
                 hands_played=len(line.scores), hands_won=line.won,
                 sit_out_hands=len(line.sat_out_rounds) * event.hands_per_round,
                 first_half=Decimal(line.first_half), second_half=Decimal(line.second_half), computed_at=now)
        for place, shared, line in compute_for(event)
    ]
    Standing.objects.filter(event=event).delete()
    Standing.objects.bulk_create(rows)
    broadcast.publish(event.pk, "standings")
    return len(rows)
