"""Reads of one player across evenings: the club's walk-ins that look like another of its
players (a name typed again at the door), offered to the organiser to merge."""
from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.db.models import Count, Max, Q

from drive.events.models import Club, Player, Registration
from drive.events.selectors.events import club_players, name_key

MOST_SUGGESTIONS = 50


class PlayerLine(TypedDict):
    id: int
    name: str
    account: bool
    evenings: int  # the club's evenings they were checked in at
    last_seen: datetime | None


class Suggestion(TypedDict):
    duplicate: PlayerLine  # a walk-in: the record merged and removed
    into: PlayerLine  # the one kept


def _initial(word: str) -> str | None:
    """"a" or "a." -> "a"; None for a whole word."""
    bare = word.rstrip(".")
    return bare if len(bare) == 1 else None


def _same_first_word(a: str, b: str) -> bool:
    if a == b:
        return True
    initial_a, initial_b = _initial(a), _initial(b)
    if initial_a and initial_b:
        return initial_a == initial_b
    return bool(initial_a and b.startswith(initial_a) or initial_b and a.startswith(initial_b))


def alike(a: str, b: str) -> bool:
    """Two names that may be one person's: the first words the same (or one of them its
    initial), every other word of the shorter beginning a word of the longer ("Ada L" and
    "ada lovelace"; "Ada" and "Ada Lovelace"; "A. Lovelace" and "Ada Lovelace"; never "Ada"
    and "Adam Smith")."""
    short, long_ = sorted((name_key(a).split(), name_key(b).split()), key=len)
    if not short:
        return False
    if not _same_first_word(short[0], long_[0]):
        return False
    return all(any(word.startswith(part.rstrip(".")) for word in long_[1:]) for part in short[1:])


def _lines(ids: list[int], club: Club) -> dict[int, PlayerLine]:
    arrived = Q(registrations__event__club=club, registrations__status=Registration.Status.CHECKED_IN)
    players = Player.objects.filter(pk__in=ids).annotate(
        evenings=Count("registrations", filter=arrived), last_seen=Max("registrations__event__starts_at", filter=arrived))
    return {p.pk: {"id": p.pk, "name": p.display_name, "account": p.user_id is not None, "evenings": p.evenings,
                   "last_seen": p.last_seen} for p in players}


def merge_suggestions(club: Club, limit: int = MOST_SUGGESTIONS) -> list[Suggestion]:
    """Each walk-in of the club (no account) beside another of its players with a name alike:
    into the one with an account, else the older record. Names by name, at most `limit`."""
    everyone = list(club_players(club).values_list("pk", "display_name", "user_id", "club_id"))
    names = {pk: name for pk, name, *_ in everyone}
    pairs: list[tuple[int, int]] = []  # (duplicate, into)
    for pk, name, user_id, club_id in everyone:
        if user_id is not None or club_id != club.pk:
            continue
        for other, other_name, other_user, _club in everyone:
            if other == pk or not alike(name, other_name):
                continue
            if other_user is None and other > pk:
                continue  # two walk-ins: the newer merges into the older, offered once
            pairs.append((pk, other))
    pairs.sort(key=lambda pair: (name_key(names[pair[1]]), name_key(names[pair[0]]), pair))
    pairs = pairs[:limit]
    lines = _lines(sorted({pk for pair in pairs for pk in pair}), club)
    return [{"duplicate": lines[a], "into": lines[b]} for a, b in pairs]
