"""The standings line and its prizes (rule D4): who takes each prize the organiser listed,
ties and missed rounds included. Pure: no database, no request; the standings' reads
(drive.scoring.selectors.results) make the lines and hand them here."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable

from django.utils.functional import Promise

from drive.events.prizes import CATEGORY_OF, PrizeKind


def rounds_text(rounds: Iterable[int]) -> str:
    """Round numbers as runs: [1, 3, 4, 5] -> "1, 3–5"."""
    runs: list[list[int]] = []
    for number in sorted(rounds):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


@dataclass
class Award:
    name: str
    kind: str  # a PrizeKind value
    category: str  # the category of player its list is drawn from (ladies, gents), else ""
    winners: list[StandingLine]  # standings lines: several when they share the place
    shared: bool

    @property
    def kind_label(self) -> Promise:
        return PrizeKind(self.kind).label


def award_prizes(prizes: list[dict[str, str]], lines: list[StandingLine], *, missed_rounds: str = "not_eligible",
                 half_after_round: int = 0) -> list[Award]:
    """The prizes in the order the organiser listed them (rule D4), each by its kind.

    Overall prizes go down the standings place by place: the first to place 1, the next
    to the next place down. Players tied for a place share its prize, and the next prize
    goes to the next place (two tied first share the first prize; the second goes to the
    third-placed). A booby prize goes to the lowest, the next booby prize to the next
    lowest, ties alike. A half-time prize goes to the best first half, ties alike. A
    ladies' or gents' prize is awarded down that category's own list. `prizes` are {name, kind}; `lines` are the
    standings lines (place, total, first_half, hands_played, sit_out_hands, category,
    missed_rounds), best first; nobody wins anything before a hand counts.

    A player who missed rounds (arrived late, left early) stays listed; under the event's
    "not_eligible" rule they win nothing and each prize goes to the next eligible player.
    Under "average" (the standings rank on the average per hand) they may win, but the
    half-time prize needs every round of the first half played (`half_after_round`).
    """
    played = [line for line in lines if line.hands_played or line.sit_out_hands]
    counters: defaultdict[str, int] = defaultdict(int)
    awards: list[Award] = []
    for prize in prizes:
        kind = prize["kind"]
        category = CATEGORY_OF.get(kind, "")
        pool = [line for line in played if (not category or line.category == category)
                and may_win(line, kind, missed_rounds, half_after_round)]
        index = counters[kind]
        counters[kind] += 1
        if kind == PrizeKind.HALF_TIME:
            by_half = sorted(pool, key=lambda line: -line.first_half)
            groups = [group for group in _tied(by_half, lambda line: line.first_half) if group[0].first_half > 0]
        else:
            groups = _tied(pool, lambda line: line.place)
            groups = groups[::-1] if kind == PrizeKind.BOOBY else groups  # booby prizes count from the bottom
        winners = groups[index] if index < len(groups) else []
        awards.append(Award(name=prize["name"], kind=kind, category=category, winners=winners,
                            shared=len({_unit(line) for line in winners}) > 1))
    return awards


def _tied(lines: list[StandingLine], key: Callable[[StandingLine], Any]) -> list[list[StandingLine]]:
    """The lines in runs of equal `key`, in their order: one run per place a prize can go
    to. Tied players share the prize their place takes, and the next prize goes to the
    next place down (rule D4): two tied first share the first prize, the second goes to
    the third-placed. A pair (fixed partners) shares its place, so it is one run too."""
    runs: list[list[StandingLine]] = []
    for line in lines:
        if runs and key(runs[-1][0]) == key(line):
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _unit(line: StandingLine) -> int:
    """What wins a prize: the entrant, or in a fixed-partner drive their pair."""
    return getattr(line, "unit", 0) or id(line)


def may_win(line: StandingLine, kind: str, missed_rounds: str = "not_eligible", half_after_round: int = 0) -> bool:
    """Whether a standings line may take a prize of this kind under the event's rule for
    missed rounds (see `award_prizes`)."""
    if not line.missed_rounds:
        return True
    if missed_rounds != "average":
        return False
    return kind != PrizeKind.HALF_TIME or all(r > half_after_round for r in line.missed_rounds)


@dataclass
class StandingLine:
    place: int
    shared: bool
    number: int
    entrant_id: int
    name: str
    category: str
    total: Decimal
    hands_played: int
    hands_won: int
    sit_out_hands: int
    first_half: Decimal
    second_half: Decimal
    prizes: list[str] = field(default_factory=list)  # the names of the prizes it takes
    unit: int = 0  # what is ranked: the entrant, or in a fixed-partner drive the pair
    average: Decimal = Decimal(0)  # per hand counted
    missed_rounds: list[int] = field(default_factory=list)  # arrived late or left early (not sit-outs)
    eligible: bool = True  # may win an overall prize under the event's rule for missed rounds
    # filled by the pages that show them: the prizes won (_final_line), the hands and the rounds
    # sat out with their credit (results_of), the score grid (the results page)
    awards: list[Award] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    sat_out_rounds: list[int] = field(default_factory=list)
    sit_out_credit: Decimal = Decimal(0)
    grid: list[tuple[str, int | None]] = field(default_factory=list)

    @property
    def missed_text(self) -> str:
        return rounds_text(self.missed_rounds)
