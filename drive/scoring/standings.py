"""Standings computed from the hand results alone (rules D3-D5).

`compute` is pure: seats and results in, one line per entrant out. The service that
stores it rewrites every line from scratch each time (writing those that changed), so
running it twice gives the same table.
"""
import random
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from engine import drive_hand_score, hand_won, rank, sit_out_score

TWO_PLACES = Decimal("0.01")


@dataclass
class Line:
    entrant: int
    scores: list = field(default_factory=list)  # (round, score) for each hand played
    hand_scores: list = field(default_factory=list)  # (round, hand, score): the same, hand by hand
    won: int = 0
    sat_out_rounds: list = field(default_factory=list)
    compensation: Decimal = Decimal(0)
    credits: dict = field(default_factory=dict)  # round sat out -> its credit (rule D5)
    credit_per_hand: Decimal = Decimal(0)  # the average each credited hand is worth
    credit_hands: dict = field(default_factory=dict)  # round sat out -> hands of it credited so far
    first_half: Decimal = Decimal(0)
    second_half: Decimal = Decimal(0)
    played: int = 0  # the sum of `scores`: hand scores are whole numbers
    played_first_half: int = 0
    missed_rounds: list = field(default_factory=list)  # rounds the room played without them

    @property
    def total(self):
        return Decimal(self.played) + self.compensation

    @property
    def hands_counted(self):
        """Hands in the total: played, or sat out and credited (rule D5)."""
        return len(self.scores) + sum(self.credit_hands.values())

    @property
    def average(self) -> Fraction:
        """The total per hand counted, exactly (ranking on it makes no ties of rounding)."""
        return Fraction(self.total) / self.hands_counted if self.hands_counted else Fraction(0)

    @property
    def average_shown(self) -> Decimal:
        average = self.average
        return (Decimal(average.numerator) / Decimal(average.denominator)).quantize(TWO_PLACES, ROUND_HALF_UP)


MISSED_ROUNDS_RULES = ("not_eligible", "average")  # Event.MissedRounds


def compute(*, entrants, seats, results, rules, hands_per_round, half_after_round, sit_out_method, tie_break,
            lot_seed=0, partners=None, missed_rounds="not_eligible"):
    """Standings lines, best first, as (place, shared, Line).

    partners: {entrant: partner} in a fixed-partner drive, which ranks pairs: both
    partners take their pair's place (rule D4b "partner" drives).

    A round missed (the room played it, the entrant had no seat in it: arrived late or
    left early) scores nothing and is listed on the line. `missed_rounds` is the event's
    rule for them: "not_eligible" ranks on totals (the prizes pass them by, see the
    selectors), "average" ranks everyone on their total per hand counted. A round sat out
    is not missed: it is credited (rule D5).

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
        line.hand_scores.extend((round_number, hand, s) for hand, s in zip(table_scores["hands"], scores, strict=True))
        line.played += points
        line.won += won
        if round_number <= half_after_round:
            line.played_first_half += points
    _compensate_sit_outs(lines.values(), results, hands_per_round, sit_out_method)
    _find_missed_rounds(lines, seats, results)
    for line in lines.values():
        line.first_half = _half(line, Decimal(line.played_first_half), lambda r: r <= half_after_round)
        line.second_half = _half(line, Decimal(line.played - line.played_first_half), lambda r: r > half_after_round)
    if missed_rounds not in MISSED_ROUNDS_RULES:
        raise ValueError(f"missed_rounds must be one of {MISSED_ROUNDS_RULES}")
    return _ranked(lines, tie_break, lot_seed, partners or {}, by_average=missed_rounds == "average")


def _find_missed_rounds(lines, seats, results):
    """The rounds with a result somewhere in the room in which an entrant had no seat, not
    even a sit-out: they joined later or had left (a round not yet played is missed by nobody)."""
    played = {round_number for round_number, _table in results}
    seated = {(round_number, entrant) for round_number, entrant, _table, _side in seats}
    for entrant, line in lines.items():
        line.missed_rounds = sorted(r for r in played if (r, entrant) not in seated)


def _score_tables(results, rules):
    """Each hand scored once per side (rule D3): {(round, table): {side: (scores, sum, hands won),
    "hands": the hands' numbers, in the scores' order}}.

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
        scored[key] = {"NS": (ns_scores, sum(ns_scores), ns_won), "EW": (ew_scores, sum(ew_scores), ew_won),
                       "hands": list(hands)}
    return scored


def _hands_played_by_round(results, hands_per_round):
    """How many hands of each round the room has played so far: the most any table entered."""
    played: dict[int, int] = {}
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
        line.credit_per_hand = per_hand
        line.credit_hands = {r: played[r] for r in rounds}
        line.credits = {r: _credit(per_hand, played[r]) for r in rounds}
        line.compensation = sum(line.credits.values(), Decimal(0))


def _credit(per_hand, hands):
    """The credit for `hands` hands of a round sat out, to the penny (rule D5)."""
    return (per_hand * hands).quantize(TWO_PLACES, ROUND_HALF_UP)


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


def _ranked(lines, tie_break, lot_seed, partners, by_average=False):
    members: dict[int, list[int]] = {}  # unit -> its entrants
    for e in lines:
        members.setdefault(pair_unit(e, partners), []).append(e)
    entries = {
        unit: {"total": lines[unit].average if by_average else lines[unit].total, "hands_won": lines[unit].won,
               "second_half": lines[unit].second_half}
        for unit in members
    }
    # The lot is drawn from the event's own seed, so recomputing never reshuffles it.
    rng = random.Random(lot_seed) if tie_break == "lot" else None
    placed = rank(entries, tiebreaks=TIE_BREAKS[tie_break], rng=rng)
    sharing = Counter(place for place, _ in placed)
    return [(place, sharing[place] > 1, lines[e]) for place, unit in placed for e in sorted(members[unit])]


# --- the leaders' running totals (the room's chart) ------------------------------------


@dataclass
class Run:
    """One line of the leaders' chart: an entrant, or in a fixed-partner drive a pair."""

    place: int
    shared: bool
    entrants: list  # the ranked unit's entrants, as the standings list them
    points: list  # (hand of the evening, running total), from (0, 0) to the last hand played
    name: str = ""  # filled in by the selector

    @property
    def total(self):
        return self.points[-1][1]


def hand_of_evening(round_number, hand, hands_per_round):
    """Hands counted over the whole evening from 1: (round - 1) * hands per round + hand."""
    return (round_number - 1) * hands_per_round + hand


def running_totals(ranked, *, hands_per_round, partners=None, top=5):
    """The first `top` units of the standings with their running totals after each hand
    of the evening played so far; [] before any hand counts.

    ranked: `compute`'s lines as it returns them (its order, its places: ties as the
    standings rank them); partners as for `compute`: a pair is one run, scored from its
    ranked line as `compute` ranks it. Every run has a point at every hand from 0 to the
    last the room has played (a table behind stays level until its result comes in). A
    round sat out is credited hand by hand as the room plays it, at the per-hand average
    the standings use now (rule D5), rounded the way `compute` rounds the round's credit,
    so each run ends on its standings total to the penny.
    """
    partners = partners or {}
    lines = [line for _, _, line in ranked]
    last = max((hand_of_evening(r, hand, hands_per_round) for line in lines for r, hand, _ in line.hand_scores),
               default=0)
    last = max([last, *(hand_of_evening(r, n, hands_per_round) for line in lines for r, n in line.credit_hands.items())])
    if not last:
        return []
    by_unit: dict[int, Run] = {}
    runs: list[Run] = []
    by_entrant = {line.entrant: line for line in lines}
    for place, shared, line in ranked:
        unit = pair_unit(line.entrant, partners)
        if unit in by_unit:
            by_unit[unit].entrants.append(line.entrant)
        elif len(runs) < top:
            run = Run(place=place, shared=shared, entrants=[line.entrant],
                      points=_running(by_entrant.get(unit, line), hands_per_round, last))
            by_unit[unit] = run
            runs.append(run)
    return runs


def _running(line, hands_per_round, last):
    steps = [Decimal(0)] * (last + 1)
    for round_number, hand, score in line.hand_scores:
        steps[hand_of_evening(round_number, hand, hands_per_round)] += score
    for round_number, hands in line.credit_hands.items():
        for hand in range(1, hands + 1):  # the credit so far, less the credit before this hand
            step = _credit(line.credit_per_hand, hand) - _credit(line.credit_per_hand, hand - 1)
            steps[hand_of_evening(round_number, hand, hands_per_round)] += step
    points, total = [], Decimal(0)
    for x, step in enumerate(steps):
        total += step
        points.append((x, total))
    return points
