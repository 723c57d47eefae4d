"""The movement as the organiser reads and prints it: the plan, its quality, the cards."""
from __future__ import annotations

import re
from typing import Any, TypedDict

from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from engine import SEATS
from drive.events.models import Event, Registration

from drive.movements.algorithms.build import Budget, build_movement, quality_report
from drive.movements.models import Entrant
from drive.movements.algorithms.schedule import Round, player_card, table_card

PREVIEW_WORK = 3_000  # steps: a preview is computed in the request, keep it short
PREVIEW_SAFETY_SECONDS = 30.0
QUALITY_LABELS = {
    "perfect": _("Perfect (both lower bounds met, sit-outs within one)"),
    "partner_max": _("Most times one pair partners"),
    "bound_partner_max": _("… lower bound"),
    "partner_repeats_total": _("Partner repeats in all"),
    "opponent_max": _("Most times one player opposes another"),
    "same_table_max": _("Most times two players share a table"),
    "bound_same_table_max": _("… lower bound"),
    "same_table_histogram": _("How often two players sit at the same table"),
    "distinct_partners_min": _("Fewest different partners of any player"),
    "sit_out_spread": _("Sit-outs: most minus fewest"),
    "sit_out_longest_run": _("Longest run of sit-outs"),
    "left_right_imbalance_max": _("Left/right opponent imbalance"),
    "source": _("Construction"),
}


def quality_rows(quality: dict[str, Any]) -> list[tuple[Promise, Any]]:
    """(label, value) in a reading order, for the organiser."""
    return [(label, _readable(key, quality[key])) for key, label in QUALITY_LABELS.items() if key in quality]


def _readable(key: str, value: Any) -> Any:
    if key == "same_table_histogram":
        return table_meetings(value)
    return construction(value) if key == "source" else value


# How a movement was built, as the pure builders name it (stored in English); a whist
# design's name, Wh(v), is a name and stays as it is.
CONSTRUCTIONS = {
    "optimised": _("optimised"),
    "a near design": _("a near design"),
    "mitchell": _("Mitchell"),
    "round robin": _("round robin"),
    "progressive: round 1 in number order": _("progressive: round 1 in number order"),
}


def construction(source: str) -> str:
    """The stored construction in the reader's language: "optimised from Wh(12) with a
    phantom" -> "оптимизация; исходная схема: Wh(12) с фантомным игроком"."""
    if match := re.fullmatch(r"optimised from (.+)", source or ""):
        return _("optimised from %(start)s") % {"start": construction(match[1])}
    if match := re.fullmatch(r"(Wh\(\d+\)) with a phantom", source or ""):
        return _("%(design)s with a phantom") % {"design": match[1]}
    if match := re.fullmatch(r"(Wh\(\d+\)) plus one", source or ""):
        return _("%(design)s plus one") % {"design": match[1]}
    return str(CONSTRUCTIONS.get(source, source))


def table_meetings(histogram: dict[str, int]) -> str:
    """The pairs of players counted by how often they sit at one table, in words:
    {"0": 160, "1": 30} -> "never: 160 pairs; once: 30 pairs"."""
    parts = []
    for times, pairs in sorted((int(k), n) for k, n in histogram.items()):
        if times == 0:
            when = pgettext("how often", "never")
        elif times == 1:
            when = pgettext("how often", "once")
        else:
            when = ngettext("%(k)s time", "%(k)s times", times) % {"k": times}
        parts.append(ngettext("%(when)s: %(n)s pair", "%(when)s: %(n)s pairs", pairs) % {"when": when, "n": pairs})
    return "; ".join(parts)


def expected_players(event: Event) -> int:
    """Before the start: those checked in, or else those registered."""
    arrived = event.registrations.filter(status=Registration.Status.CHECKED_IN).count()
    return arrived or event.registrations.filter(status__in=Registration.HOLDS_PLACE).count()


class MovementPlan(TypedDict):
    players: int
    kind: str  # an Event.MovementKind
    preview: bool
    rounds: list[Round]
    quality: dict[str, Any]
    names: dict[int, str]  # entrant number -> display name (none in a preview)


def movement_plan(event: Event, players: int | None = None) -> MovementPlan:
    """The stored movement once the evening started, else a preview for `players`.

    Returns {"players", "kind", "preview", "rounds" (pure Rounds), "quality", "names"}.
    """
    stored = getattr(event, "movement", None)
    if stored is not None and stored.status == stored.Status.READY and players is None:
        rounds = [_round(r) for r in stored.plan["rounds"]]
        names = dict(Entrant.objects.filter(event=event).values_list("number", "player__display_name"))
        return {"players": stored.players, "kind": stored.kind, "preview": False, "rounds": rounds,
                "quality": stored.quality, "names": names}
    players = max(4, players or expected_players(event))
    budget = Budget(min(PREVIEW_WORK, settings.MOVEMENT_WORK_BUDGET), PREVIEW_SAFETY_SECONDS)
    built = build_movement(players=players, kind=event.movement_kind, rounds=event.rounds, budget=budget)
    return {"players": players, "kind": event.movement_kind, "preview": True, "rounds": built.rounds,
            "quality": quality_report(built), "names": {}}


def _round(data: dict[str, Any]) -> Round:
    tables = tuple(tuple(row[p] for p in SEATS) for row in sorted(data["tables"], key=lambda r: r["table"]))
    return Round(tables, tuple(data["sit_out"]))


def cards(plan: MovementPlan) -> dict[str, list[dict[str, Any]]]:
    """A card per player (round, table, seat, partner) and per table (round: N E S W)."""
    rounds, names = plan["rounds"], plan["names"]

    def name(number: int | None) -> str:
        return names.get(number, f"№ {number}") if number else ""

    players = [
        {"number": p, "name": name(p),
         "rows": [{**row, "partner": name(row["partner"])} for row in player_card(rounds, p)]}
        for p in range(1, plan["players"] + 1)
    ]
    tables = max((len(r.tables) for r in rounds), default=0)
    per_table = [
        {"table": t, "rows": [{"round": row["round"], **{s: name(row[s]) for s in SEATS}} for row in table_card(rounds, t)]}
        for t in range(1, tables + 1)
    ]
    return {"players": players, "tables": per_table}
