"""Standings computed from the hand results alone (rules D3-D5).

`compute` is pure: seats and results in, one line per entrant out. The service that
stores it rewrites every line from scratch each time (writing those that changed), so
running it twice gives the same table.
"""
import random
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from engine.drive_scoring import drive_hand_score, hand_won, rank, sit_out_score

TWO_PLACES = Decimal("0.01")


@dataclass
class Line:
    entrant: int
    scores: list = field(default_factory=list)  # (round, score) for each hand played
    won: int = 0
    sat_out_rounds: list = field(default_factory=list)
    compensation: Decimal = Decimal(0)
    credits: dict = field(default_factory=dict)  # round sat out -> its credit (rule D5)
    first_half: Decimal = Decimal(0)
    second_half: Decimal = Decimal(0)
    played: int = 0  # the sum of `scores`: hand scores are whole numbers
    played_first_half: int = 0

    @property
    def total(self):
        return Decimal(self.played) + self.compensation


def compute(*, entrants, seats, results, rules, hands_per_round, half_after_round, sit_out_method, tie_break,
            lot_seed=0, partners=None):
    """Standings lines, best first, as (place, shared, Line).

    partners: {entrant: partner} in a fixed-partner drive, which ranks pairs: both
    partners take their pair's place (rule D4b "partner" drives).

    entrants: entrant ids; seats: (round, entrant, table or None, side "NS"/"EW");
    results: {(round, table): {hand: ns_tricks}}. Only rounds with at least one
    result count towards sit-out compensation, so an unplayed round pays nothing.
    """
    lines = {e: Line(e) for e in entrants}
    scored = _score_tables(results, rules)
    for round_number, entrant, table, side in seats:
        line = lines[entrant]
        if table is None:
            line.sat_out_rounds.append(round_number)
            continue
        table_scores = scored.get((round_number, table))
        if table_scores is None:
            continue
        scores, points, won = table_scores[side]
        line.scores.extend((round_number, s) for s in scores)
        line.played += points
        line.won += won
        if round_number <= half_after_round:
            line.played_first_half += points
    _compensate_sit_outs(lines.values(), results, hands_per_round, sit_out_method)
    for line in lines.values():
        line.first_half = _half(line, Decimal(line.played_first_half), lambda r: r <= half_after_round)
        line.second_half = _half(line, Decimal(line.played - line.played_first_half), lambda r: r > half_after_round)
    return _ranked(lines, tie_break, lot_seed, partners or {})


def _score_tables(results, rules):
    """Each hand scored once per side (rule D3): {(round, table): {side: (scores, sum, hands won)}}.

    Both partners of a side record the same score, so the four players of a table share
    two lists instead of scoring every hand four times.
    """
    scored = {}
    for key, hands in results.items():
        ns_scores, ew_scores, ns_won, ew_won = [], [], 0, 0
        for ns in hands.values():
            ns_scores.append(drive_hand_score(ns, rules))
            ew_scores.append(drive_hand_score(13 - ns, rules))
            ns_won += hand_won(ns)
            ew_won += hand_won(13 - ns)
        scored[key] = {"NS": (ns_scores, sum(ns_scores), ns_won), "EW": (ew_scores, sum(ew_scores), ew_won)}
    return scored


def _hands_played_by_round(results, hands_per_round):
    """How many hands of each round the room has played so far: the most any table entered."""
    played = {}
    for (round_number, _table), hands in results.items():
        played[round_number] = min(hands_per_round, max(played.get(round_number, 0), len(hands)))
    return played


def _compensate_sit_outs(lines, results, hands_per_round, method):
    """Rule D5: a round sat out scores the documented average per hand, never zero by
    default, for as many hands as the room has played of it (a round under way pays as it
    goes, so a sit-out never leads the field on hands not yet played)."""
    played = _hands_played_by_round(results, hands_per_round)
    lines = list(lines)
    room = None  # every hand score of the room, gathered only if someone sat out a scored round
    for line in lines:
        rounds = [r for r in line.sat_out_rounds if played.get(r)]
        if not rounds:
            continue
        if room is None:
            room = [s for other in lines for _, s in other.scores]
        own = [s for _, s in line.scores]
        per_hand = Decimal(str(sit_out_score(own, room, method)))
        line.credits = {r: (per_hand * played[r]).quantize(TWO_PLACES, ROUND_HALF_UP) for r in rounds}
        line.compensation = sum(line.credits.values(), Decimal(0))


def _half(line, played, in_half):
    return played + sum((credit for r, credit in line.credits.items() if in_half(r)), Decimal(0))


TIE_BREAKS = {
    "hands_won": ("hands_won", "second_half"),
    "second_half": ("second_half",),
    "shared": (),
    "lot": (),
}


def pair_unit(entrant, partners):
    """The ranked unit of an entrant: itself, or in a fixed-partner drive its pair."""
    partner = partners.get(entrant)
    return min(entrant, partner) if partner is not None else entrant


def _ranked(lines, tie_break, lot_seed, partners):
    members = {}
    for e in lines:
        members.setdefault(pair_unit(e, partners), []).append(e)
    entries = {
        unit: {"total": lines[unit].total, "hands_won": lines[unit].won, "second_half": lines[unit].second_half}
        for unit in members
    }
    # The lot is drawn from the event's own seed, so recomputing never reshuffles it.
    rng = random.Random(lot_seed) if tie_break == "lot" else None
    placed = rank(entries, tiebreaks=TIE_BREAKS[tie_break], rng=rng)
    sharing = Counter(place for place, _ in placed)
    return [(place, sharing[place] > 1, lines[e]) for place, unit in placed for e in sorted(members[unit])]
