"""The evening's life: start, rounds on the clock, the end, results published.

Each function is an organiser action; a move that does not fit the evening's state is
refused with a Conflict that says why.
"""
from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from drive.core.clock import seconds_left
from drive.core import broadcast
from drive.core.errors import Conflict, NotFound
from drive.events.services.audit import log_action
from drive.events.models import Event, Registration
from drive.core.accounts import User
from drive.events.access import require_organiser
from drive.movements.services import movements
from drive.movements.models import Entrant
from drive.movements.algorithms.schedule import Movement as Plan

from drive.core import jobs

from drive.scoring.services import ranking
from drive.scoring.services import online_tables
from drive.scoring import signals
from drive.scoring.models import Round, Table
from drive.scoring.services.planning import (plan_round, seat_next_round, seats_as_planned, standings_moved,
                                             store_played_quality)
from drive.scoring.services.seating import tables_needed
from drive.scoring.selectors.rounds import current_round, tables_out

log = logging.getLogger(__name__)
Phase = Event.Phase
State = Round.State
MIN_PLAYERS = 4
PLAN_EVENING_TASK = "drive.scoring.tasks.plan_evening"  # computes the movement, seats round 1


def locked_event(*, event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _require_phase(event: Event, *phases: Event.Phase) -> None:
    if event.phase not in phases:
        raise Conflict(_("Not possible now: the evening is %(phase)s.") % {"phase": event.get_phase_display()})


@transaction.atomic
def start_evening(*, actor: User, event: Event) -> Event:
    """Freeze the checked-in players as entrants and ask for the movement (a Celery task)."""
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _require_phase(event, Phase.REGISTRATION)
    arrived = list(event.registrations.filter(status=Registration.Status.CHECKED_IN).select_related("player"))
    if len(arrived) < MIN_PLAYERS:
        raise Conflict(_("At least four players must be checked in to start."))
    if event.movement_kind == Event.MovementKind.PAIRS and len(arrived) % 2:
        raise Conflict(_("A fixed-pairs drive needs an even number of players: add or remove one."))
    secrets.SystemRandom().shuffle(arrived)  # numbers decide the first seating: draw them
    Entrant.objects.bulk_create(
        Entrant(event=event, player=registration.player, number=i, pinned_table=registration.fixed_table)
        for i, registration in enumerate(arrived, start=1)
    )
    Table.objects.bulk_create(Table(event=event, number=n) for n in range(1, tables_needed(players=len(arrived)) + 1))
    Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, event.rounds + 1))
    event.phase = Phase.IN_PROGRESS
    if not event.registration_closes_at or event.registration_closes_at > timezone.now():
        event.registration_closes_at = min(timezone.now(), event.starts_at)
    event.save(update_fields=["phase", "registration_closes_at", "updated_at"])
    log_action(actor=actor, event=event, action="evening.started", before={"phase": Phase.REGISTRATION},
               after={"phase": event.phase, "entrants": len(arrived)}, obj=event)
    movements.request_movement(event=event, players=len(arrived))
    jobs.after_commit(PLAN_EVENING_TASK, event.pk)
    broadcast.publish(event.pk, broadcast.Change.EVENING)
    return event


def plan_and_seat_first_round(*, event_id: int) -> int | None:
    """The task's work: compute the movement, then seat round 1 (safe to run twice).

    A failure is stored on the movement for the organiser to see and retry; it never
    undoes the evening's start.
    """
    try:
        movement = movements.compute_movement(event_id=event_id)
    except Exception as exc:  # noqa: BLE001 - shown to the organiser, traceback logged
        log.exception("movement for event %s failed", event_id)
        movements.mark_failed(event_id=event_id, error=f"{type(exc).__name__}: {exc}")
        return None
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        first = plan_round(event=event, movement=movement, number=1)
        seat_next_round(event=event, round_number=1, plan_round=first)
    return movement.pk


def _check_shown_round(event: Event, shown_round: int | None) -> None:
    """Under the event's lock: refuse a move made from a page that showed another round than
    the one in hand now (another organiser moved the evening on meanwhile): "end anyway"
    must end the round the organiser saw, never the next one."""
    if shown_round is None:
        return
    current = current_round(event)
    if current is None or current.number != shown_round:
        raise Conflict(_("The evening has moved on since this page was shown (round %(shown)s): look again "
                         "before you act.") % {"shown": shown_round})


@transaction.atomic
def start_round(*, actor: User, event: Event, shown_round: int | None = None) -> Round:
    """Start the clock of the seated round: the round lasts the event's round length."""
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _check_shown_round(event, shown_round)
    _require_phase(event, Phase.IN_PROGRESS)
    round_ = current_round(event)
    if round_ is None or round_.state != State.SEATED:
        raise Conflict(_("There is no seated round waiting to start."))
    now = timezone.now()
    round_.state, round_.started_at = State.PLAYING, now
    round_.deadline = now + timedelta(minutes=event.round_minutes)
    round_.save(update_fields=["state", "started_at", "deadline"])
    online_tables.open_round_tables(event=event, round_=round_)  # its online tables dealt, on the same clock
    log_action(actor=actor, event=event, action="round.started", before={"state": State.SEATED},
               after={"state": round_.state, "deadline": round_.deadline}, obj=round_)
    broadcast.publish(event.pk, broadcast.Change.CLOCK, round=round_.number)
    return round_


def _playing_round(actor: User, event: Event, shown_round: int | None) -> tuple[Event, Round]:
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _check_shown_round(event, shown_round)
    round_ = current_round(event)
    if round_ is None or round_.state != State.PLAYING:
        raise Conflict(_("No round is being played."))
    return event, round_


@transaction.atomic
def pause_clock(*, actor: User, event: Event, shown_round: int | None = None) -> Round:
    event, round_ = _playing_round(actor, event, shown_round)
    if round_.paused_at is None:
        round_.paused_at = timezone.now()
        round_.save(update_fields=["paused_at"])
        online_tables.stop_round_clock(event=event, round_=round_)  # online tables' robots wait
        log_action(actor=actor, event=event, action="round.clock_paused", before={"paused_at": None},
                   after={"paused_at": round_.paused_at}, obj=round_)
        broadcast.publish(event.pk, broadcast.Change.CLOCK, round=round_.number)
    return round_


@transaction.atomic
def resume_clock(*, actor: User, event: Event, shown_round: int | None = None) -> Round:
    """The pause does not count: the deadline moves on by its length."""
    event, round_ = _playing_round(actor, event, shown_round)
    if round_.paused_at is not None:
        before = {"paused_at": round_.paused_at, "deadline": round_.deadline}
        if round_.deadline is not None:  # set when the round started (start_round)
            round_.deadline += timezone.now() - round_.paused_at
        round_.paused_at = None
        round_.save(update_fields=["paused_at", "deadline"])
        online_tables.run_round_clock(event=event, round_=round_)  # online tables' robots play again
        log_action(actor=actor, event=event, action="round.clock_resumed", before=before,
                   after={"paused_at": None, "deadline": round_.deadline}, obj=round_)
        broadcast.publish(event.pk, broadcast.Change.CLOCK, round=round_.number)
    return round_


@transaction.atomic
def end_round(*, actor: User, event: Event, force: bool = False, shown_round: int | None = None) -> Round:
    """Close the round: early when every table is in, at the deadline with the late tables flagged.

    Then the next round is seated (a progressive movement from this round's results),
    or after the last round the evening is finished.
    """
    event, round_ = _playing_round(actor, event, shown_round)
    past_deadline = seconds_left(round_) == 0
    if past_deadline or force:
        online_tables.close_round_tables(event=event, round_=round_)  # robots finish the online hands (flagged)
    out = tables_out(round_)
    if out and not (past_deadline or force):
        raise Conflict(
            _("Tables not in yet (still playing, or a hand disputed): %(tables)s. "
              "Wait for the deadline or end the round anyway.")
            % {"tables": ", ".join(str(t) for t in out)},
            extra={"tables_out": out},
        )
    round_.state, round_.closed_at, round_.late_tables = State.CLOSED, timezone.now(), out
    round_.paused_at = None
    round_.save(update_fields=["state", "closed_at", "late_tables", "paused_at"])
    standings_moved(event=event)  # a closed round's sit-out credit is final now
    log_action(actor=actor, event=event, action="round.ended", before={"state": State.PLAYING},
               after={"state": round_.state, "late_tables": out, "forced": bool(force)}, obj=round_)
    if round_.number < event.rounds:
        following = plan_round(event=event, movement=event.movement, number=round_.number + 1)
        seat_next_round(event=event, round_number=round_.number + 1, plan_round=following)
    else:
        event.phase = Phase.FINISHED
        event.save(update_fields=["phase", "updated_at"])
        store_played_quality(event=event)
    broadcast.publish(event.pk, broadcast.Change.ROUND, round=round_.number, late_tables=out)
    return round_


@transaction.atomic
def publish_results(*, actor: User, event: Event) -> Event:
    require_organiser(actor, event.club)
    ranking.hold_recomputations(event_id=event.pk)  # first, then the event's row (see there)
    event = locked_event(event=event)
    _require_phase(event, Phase.FINISHED)
    # What goes out is recomputed from the rows now, under the event's recomputation lock
    # and in this transaction: never the stored standings a lost or late task left behind.
    ranking.recompute_standings(event_id=event.pk)
    event.phase = Phase.RESULTS_PUBLISHED
    event.save(update_fields=["phase", "updated_at"])
    log_action(actor=actor, event=event, action="results.published", before={"phase": Phase.FINISHED},
               after={"phase": event.phase}, obj=event)
    broadcast.publish(event.pk, broadcast.Change.RESULTS)
    signals.results_changed_on_commit(event.pk, signals.PUBLISHED)  # the floors above listen (seasons)
    return event


@transaction.atomic
def retry_movement(*, actor: User, event: Event) -> Event:
    """After a failed computation the organiser asks again."""
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _require_phase(event, Phase.IN_PROGRESS)
    movement = getattr(event, "movement", None)
    if movement is None or movement.status != movement.Status.FAILED:
        raise Conflict(_("The movement has not failed."))
    movements.request_movement(event=event, players=movement.players)
    log_action(actor=actor, event=event, action="movement.retried", before={"status": movement.Status.FAILED},
               after={"status": "requested"}, obj=event)
    jobs.after_commit(PLAN_EVENING_TASK, event.pk)
    broadcast.publish(event.pk, broadcast.Change.EVENING)
    return event


# --- late arrivals and leavers -------------------------------------------------------


def _next_round_number(event: Event) -> int:
    """The first round a change of players can still reach."""
    round_ = current_round(event)
    if round_ is None or round_.state == State.SEATED:
        return round_.number if round_ else 1
    return round_.number + 1


def _reseat_if_waiting(event: Event, number: int) -> None:
    """A round seated but not started is seated again for the new field of players."""
    round_ = event.evening_rounds.filter(number=number, state=State.SEATED).first()
    if round_ is None:
        return
    planned = seats_as_planned(round_=round_)
    round_.seats.all().delete()
    round_.state = State.PENDING
    round_.save(update_fields=["state"])
    again = Plan(len(planned.players()), event.movement_kind, [planned]).to_json()["rounds"][0]
    seat_next_round(event=event, round_number=number, plan_round=again)


@transaction.atomic
def add_late_arrival(*, actor: User, event: Event, registration: Registration) -> Entrant:
    """A checked-in player who arrived after the start joins from the next round."""
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _require_phase(event, Phase.IN_PROGRESS)
    if registration.event_id != event.pk or registration.status != Registration.Status.CHECKED_IN:
        raise Conflict(_("Check the player in first."))
    if Entrant.objects.filter(event=event, player=registration.player_id).exists():
        raise Conflict(_("This player is already in the evening."))
    number = _next_round_number(event)
    if number > event.rounds:
        raise Conflict(_("The last round has started."))
    top = Entrant.objects.filter(event=event).order_by("-number").values_list("number", flat=True).first() or 0
    entrant = Entrant.objects.create(event=event, player_id=registration.player_id, number=top + 1, joined_round=number)
    standings_moved(event=event)
    log_action(actor=actor, event=event, action="entrant.added",
               after={"player": registration.player_id, "number": entrant.number, "joined_round": number}, obj=entrant)
    _reseat_if_waiting(event, number)
    broadcast.publish(event.pk, broadcast.Change.EVENING)
    return entrant


def leave_on_cancellation(*, actor: User, event: Event, player_id: int) -> None:
    """A checked-in player whose registration is cancelled while the evening runs leaves it
    (`remove_leaver`); one not playing yet (a late arrival not added) has nothing to leave.
    Called by the cancellation, in its transaction (the events signal `player_leaving`)."""
    entrant = Entrant.objects.filter(event=event, player_id=player_id).first()
    if entrant is not None:
        remove_leaver(actor=actor, event=event, entrant=entrant)


@transaction.atomic
def remove_leaver(*, actor: User, event: Event, entrant: Entrant) -> Entrant:
    """A player who leaves plays no round after the current one."""
    require_organiser(actor, event.club)
    event = locked_event(event=event)
    _require_phase(event, Phase.IN_PROGRESS)
    entrant = Entrant.objects.get(pk=entrant.pk, event=event)
    number = _next_round_number(event)
    if entrant.left_after_round is not None:
        return entrant
    present = [e for e in Entrant.objects.filter(event=event) if e.plays_in(number) and e.pk != entrant.pk]
    if len(present) < MIN_PLAYERS:
        raise Conflict(_("Fewer than four players would be left."))
    entrant.left_after_round = number - 1
    entrant.save(update_fields=["left_after_round"])
    standings_moved(event=event)
    log_action(actor=actor, event=event, action="entrant.left", before={"left_after_round": None},
               after={"left_after_round": entrant.left_after_round}, obj=entrant)
    _reseat_if_waiting(event, number)
    broadcast.publish(event.pk, broadcast.Change.EVENING)
    return entrant


def evening_move(*, actor: User, event: Event, action: str, force: bool = False,
                 shown_round: int | None = None) -> Event | Round:
    """One organiser move of the evening by its name (the console's buttons and the API).
    `shown_round`: the round the organiser's page showed, checked under the event's lock."""
    if action == "start":
        return start_evening(actor=actor, event=event)
    if action == "publish-results":
        return publish_results(actor=actor, event=event)
    if action == "retry-movement":
        return retry_movement(actor=actor, event=event)
    moves = {"start-round": start_round, "pause": pause_clock, "resume": resume_clock}
    if action == "end-round":
        return end_round(actor=actor, event=event, force=force, shown_round=shown_round)
    if action in moves:
        return moves[action](actor=actor, event=event, shown_round=shown_round)
    raise NotFound(_("No such move."))
