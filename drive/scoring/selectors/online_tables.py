"""Reads of an evening's online tables (hosted a floor down, drive.games): which tables
play online, the rules they are dealt with, and the tables of each round with their
players and hand-history links.

A table played online takes no paper result (results.submit_result refuses it, 409), its
phone page says where it is played instead of asking for tricks, and the organiser's console
marks it, with a link to watch it (a round's tables at once: one question for the grid)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from drive.core.clock import seconds_left
from drive.events.models import Event
from drive.games.models import PlaySeat, PlayTable
from drive.games.selectors import evening as games
from drive.scoring.models import HandResult, OnlineTables, Round, Table
from drive.scoring.rules import event_ruleset, evening_hand_index


def online_setting(*, event: Event) -> OnlineTables:
    """The event's setting (on paper until the organiser says otherwise; not stored then)."""
    return OnlineTables.objects.filter(event=event).first() or OnlineTables(event=event)


def table_rules(*, event: Event, round_number: int) -> dict[str, Any] | str:
    """The rules an online table of the round is dealt with: the event's drive ruleset
    (drive.scoring.rules: each hand scored alone, `hands_per_round` hands, the event's
    trump rule), played as a drive whatever the preset (rule D1). A trump rotation runs over
    the whole evening (D2): the table's game starts it where the round's first hand is."""
    rules = replace(event_ruleset(event), scoring="drive")
    if rules.trump == "rotation":
        start = evening_hand_index(event, round_number, 1) % len(rules.rotation)
        rules = replace(rules, rotation=rules.rotation[start:] + rules.rotation[:start])
    return rules.to_json()


def online_table_url(round_: Round | None, table: Table) -> str | None:
    """The page where this table plays the round online, or None (played on paper)."""
    if round_ is None:
        return None
    return games.online_table_url(event_id=round_.event_id, round_number=round_.number, table_number=table.number)


def online_table_urls(round_: Round | None) -> dict[int, str]:
    """Every table playing the round online, {table number: its page}, in one question
    (the console's grid of the round); a table not in it is played on paper."""
    if round_ is None:
        return {}
    return games.online_table_urls(event_id=round_.event_id, round_number=round_.number)


def evening_tables(*, event: Event) -> dict[str, Any]:
    """The setting and every online table of the evening, round by round: its players
    (a person's name, or the robot playing the seat), whether its game is over, the hands
    robots finished, and the links to the table and its hand history."""
    setting = online_setting(event=event)
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    flagged: dict[tuple[int | None, int | None], list[int]] = {}  # (round, table) as the rows hold them
    for row in HandResult.objects.filter(round__event=event, change_kind=HandResult.ChangeKind.ROBOTS).values(
            "round__number", "table__number", "hand_number").order_by("hand_number"):
        flagged.setdefault((row["round__number"], row["table__number"]), []).append(row["hand_number"])
    tables = []
    for table in PlayTable.objects.filter(event=event).prefetch_related("seats__user").order_by(
            "round_number", "table_number"):
        round_ = rounds.get(table.round_number) if table.round_number is not None else None
        tables.append({
            "id": table.pk, "round": table.round_number, "table": table.table_number, "phase": table.phase,
            "over": table.phase == PlayTable.Phase.OVER, "round_closed": table.finished_at is not None,
            "seconds_left": seconds_left(round_) if round_ and round_.state == Round.State.PLAYING else None,
            "seats": [{"seat": s.seat, "name": _name(s), "robot": s.robot, "standin": s.standin}
                      for s in sorted(table.seats.all(), key=lambda s: "NESW".index(s.seat))],
            "finished_by_robots": flagged.get((table.round_number, table.table_number), []),
            "url": games.table_url(table.pk), "hands_url": f"/play/{table.pk}/hands/",
        })
    return {"event": event.pk, "mode": setting.mode, "tables": sorted(setting.tables), "robot": setting.robot,
            "online": tables}


def _name(seat: PlaySeat) -> str:
    if seat.user is None:  # prefetched with the seats: no query
        return ""
    return seat.user.get_full_name() or seat.user.get_username()
