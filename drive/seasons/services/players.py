"""One player across evenings: a walk-in added twice as two records is merged into one.

The seasons (and a player's history) count a person's evenings through their player
record. A walk-in added by name at the door, where the organiser could have picked the
club's existing player, leaves a second record: merging moves its registrations and its
evenings (entries) to the existing one and removes it. It is refused (409) when both
played in the same evening: one person cannot have sat in two seats.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.errors import Conflict, Invalid
from drive.events.access import require_organiser
from drive.events.models import Club, Event, Player, Registration
from drive.events.selectors.events import is_club_player
from drive.events.services.audit import log_action
from drive.events.services.events import locked_event
from drive.movements.models import Entrant
from drive.scoring.services.recompute import standings_changed
from drive.seasons.models import SeasonTable
from drive.seasons.selectors import seasons as selectors
from drive.seasons.services.grades import grades_changed
from drive.seasons.services.table import table_changed

Status = Registration.Status


def _events_of(*players: Player) -> list[int]:
    ids = {pk for pk in Registration.objects.filter(player__in=players).values_list("event_id", flat=True)}
    ids |= set(Entrant.objects.filter(player__in=players).values_list("event_id", flat=True))
    return sorted(ids)


def _locked_player(player: Player) -> Player:
    found = Player.objects.select_for_update().filter(pk=player.pk).first()
    if found is None:
        raise Conflict(_("This player is no longer there: they were merged or removed meanwhile."))
    return found


@transaction.atomic
def merge_players(*, actor: User, club: Club, duplicate: Player, into: Player) -> Player:
    """Merge `duplicate`, a walk-in of the club (no account), into `into`, one of the club's
    players: its registrations and evenings become `into`'s, it is removed, and the tables
    of the seasons those evenings count in, and the grades, follow. The club's organisers only; 409 when
    both played in one evening, or are both on the list of one evening (cancel one first)."""
    require_organiser(actor, club)
    if duplicate.pk == into.pk:
        raise Invalid(_("Choose two different players."), field="into")
    if duplicate.club_id != club.pk or not is_club_player(into, club):
        raise Invalid(_("Choose one of the club's players."), field="duplicate" if duplicate.club_id != club.pk
                      else "into")
    if duplicate.user_id is not None:
        raise Invalid(_("Only a walk-in, a player without an account, can be merged into another player."),
                      field="duplicate")
    # The evenings first, then the players: the order every check-in takes its locks in.
    events = _events_of(duplicate, into)
    for event_id in events:
        locked_event(event_id=event_id)
    locked = {player.pk: _locked_player(player) for player in sorted((duplicate, into), key=lambda p: p.pk)}
    duplicate, into = locked[duplicate.pk], locked[into.pk]
    if _events_of(duplicate, into) != events:
        raise Conflict(_("The players' evenings changed meanwhile: try again."))

    both_played = (Entrant.objects.filter(player=duplicate, event__in=Entrant.objects.filter(player=into)
                                          .values("event")).select_related("event").first())
    if both_played is not None:
        raise Conflict(_("%(a)s and %(b)s both played in %(event)s: they are two people.")
                       % {"a": duplicate.display_name, "b": into.display_name, "event": both_played.event.title})
    played = set(Entrant.objects.filter(player__in=(duplicate, into)).values_list("event_id", "player_id"))
    theirs = {r.event_id: r for r in Registration.objects.filter(player=into)}
    dropped, moved = [], []
    for registration in Registration.objects.filter(player=duplicate).select_related("event"):
        other = theirs.get(registration.event_id)
        if other is None:
            moved.append(registration)
            continue
        # One registration a player and evening: keep the one that counts, drop the other if
        # it is a cancelled one with no evening played behind it.
        keep, drop = _keep_and_drop(registration, other, played)
        if drop is None:
            raise Conflict(_("%(a)s and %(b)s are both on the list of %(event)s: cancel one of the two "
                             "registrations first.") % {"a": duplicate.display_name, "b": into.display_name,
                                                        "event": registration.event.title})
        dropped.append(drop)
        if keep is registration:
            moved.append(registration)
    for registration in dropped:
        registration.delete()
    Registration.objects.filter(pk__in=[r.pk for r in moved]).update(player=into)
    entries = list(Entrant.objects.filter(player=duplicate).values_list("event_id", flat=True))
    Entrant.objects.filter(player=duplicate).update(player=into)
    if not into.category and duplicate.category:
        into.category = duplicate.category
        into.save(update_fields=["category"])

    log_action(actor=actor, event=None, club=club, action="player.merged", obj=into,
               before={"player": duplicate.pk, "display_name": duplicate.display_name},
               after={"player": into.pk, "display_name": into.display_name,
                      "registrations": sorted(r.pk for r in moved), "dropped": sorted(r.pk for r in dropped),
                      "evenings": sorted(entries)})
    duplicate.delete()  # its season rows go with it; the tables below are computed again
    for event_id in sorted(set(entries)):
        # The same lines under one name: the renderings, the seasons' sources and the grades
        # (which replay from the first of these evenings) see the evening as changed.
        standings_changed(event_id=event_id)
    if entries:
        grades_changed()
    seasons = sorted({season for event in Event.objects.filter(pk__in=entries)
                      for season in selectors.seasons_counting(event)})
    SeasonTable.objects.filter(season__in=seasons).update(source={})  # behind until computed again
    for season_id in seasons:
        table_changed(season_id=season_id)
    into.refresh_from_db()
    return into


def _keep_and_drop(mine: Registration, theirs: Registration,
                   played: set[tuple[int, int]]) -> tuple[Registration, Registration | None]:
    """Of two registrations of one evening (the duplicate's, `into`'s): the one to keep and
    the one to drop, None when neither may go (both on the list, or a cancelled one with an
    evening played behind it)."""
    def counts(registration: Registration) -> bool:
        return (registration.event_id, registration.player_id) in played or registration.status != Status.CANCELLED

    if counts(mine) and counts(theirs):
        return theirs, None
    return (mine, theirs) if counts(mine) else (theirs, mine)
