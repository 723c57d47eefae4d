"""Every organiser write leaves an audit entry: the services are found by
walking the `drive` package, so a new organiser service without a scenario here (and
so, without a checked audit entry) fails the first test."""
import importlib
import inspect
import pkgutil
from datetime import date, timedelta

import pytest
from django.utils import timezone

import drive
from drive.backup.services.backup import export_for_organiser
from drive.events.services import events
from drive.events.services import arrivals as arrival_services
from drive.events.services import registration as registration_services
from drive.events.models import AuditEntry, Event, Registration
from drive.live.services import announcements
from drive.live.services import screen
from drive.movements.models import Entrant, Movement
from drive.scoring.services import online_tables as play_evening
from drive.scoring.services import claims
from drive.scoring.services import evening as ev
from drive.scoring.services import results
from drive.scoring.models import HandResult, Round, Table
from drive.seasons.services import players as player_services
from drive.seasons.services import seasons as season_services

pytestmark = pytest.mark.django_db

# Services an actor calls for themselves, not as organiser of the event.
PLAYER_SERVICES = {"drive.events.services.registration.register", "drive.events.services.registration.register_or_get",
                   "drive.events.services.arrivals.self_check_in",
                   "drive.events.services.audit.log_action",
                   "drive.play.services.display.set_display"}  # the person's own cards' display
SKIPPED_MODULE_PREFIXES = ("views", "api", "urls", "admin", "consumers", "tasks", "receivers")


def organiser_services():
    """Every function of `drive` with a keyword-only `actor`, views and the like aside."""
    found = set()
    for info in pkgutil.walk_packages(drive.__path__, "drive."):
        if any(part.startswith(SKIPPED_MODULE_PREFIXES) for part in info.name.split(".")[1:]) or ".migrations" in info.name or ".management" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != info.name:
                continue
            parameter = inspect.signature(fn).parameters.get("actor")
            if parameter is not None and parameter.kind == inspect.Parameter.KEYWORD_ONLY:
                found.add(f"{info.name}.{name}")
    return found - PLAYER_SERVICES


def _registration(event, status=Registration.Status.REGISTERED, name="Ann"):
    from drive.events.models import Player

    return Registration.objects.create(event=event, player=Player.objects.create(display_name=name), status=status,
                                       registered_at=timezone.now())


def _soon(make_event, **fields):
    return make_event(starts_at=timezone.now() + timedelta(minutes=10), **fields)


def _club_creator(make_user):
    """Staff with the admin's add-club permission: who may create a club."""
    from django.contrib.auth.models import Permission

    user = make_user("staff", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="add_club", content_type__app_label="events"))
    return type(user).objects.get(pk=user.pk)  # a fresh copy: permissions are cached on the instance


def _seated(evening):
    Round.objects.filter(event=evening, number=1).update(state=Round.State.SEATED)
    return evening


def _finished(evening):
    Event.objects.filter(pk=evening.pk).update(phase=Event.Phase.FINISHED)
    evening.refresh_from_db()
    return evening


def _failed_movement(evening):
    Movement.objects.create(event=evening, kind="individual", players=9, rounds=2, status="failed", plan={})
    return evening


def _with_hand(evening, organiser):
    table = Table.objects.get(event=evening, number=1)
    HandResult.objects.create(round=evening.evening_rounds.get(number=1), table=table, hand_number=1, ns_tricks=7,
                              trump="S", status="confirmed")
    return table


def _claimed(evening):
    table = Table.objects.get(event=evening, number=1)
    claims.claim_seat(table=table, position="N")
    return table


# One scenario a service: (fixtures it needs, what it does). `o` is the organiser.
SCENARIOS = {
    "drive.events.services.events.create_event": lambda o, f: events.create_event(
        actor=o, club=f("club"), title="New", starts_at=timezone.now() + timedelta(days=3), capacity=8),
    "drive.events.services.events.update_event": lambda o, f: events.update_event(actor=o, event=f("event"), title="Renamed"),
    "drive.events.services.registration.cancel_registration": lambda o, f: registration_services.cancel_registration(
        actor=o, registration=_registration(f("event"))),
    "drive.events.services.arrivals.check_in": lambda o, f: arrival_services.check_in(actor=o, registration=_registration(f("event"))),
    "drive.events.services.arrivals.mark_no_show": lambda o, f: arrival_services.mark_no_show(
        actor=o, registration=_registration(f("event"))),
    "drive.events.services.arrivals.add_walk_in": lambda o, f: arrival_services.add_walk_in(actor=o, event=f("event"), display_name="Bo"),
    "drive.events.services.arrivals.set_fixed_table": lambda o, f: arrival_services.set_fixed_table(
        actor=o, registration=_registration(f("event")), table=1),
    "drive.events.services.arrivals.mark_absent_as_no_shows": lambda o, f: arrival_services.mark_absent_as_no_shows(
        actor=o, event=_registration(f("event")).event),
    "drive.events.services.events.create_club": lambda o, f: events.create_club(
        actor=_club_creator(f("make_user")), name="New Club", slug="new-club"),
    "drive.events.services.events.open_registration": lambda o, f: events.open_registration(
        actor=o, event=f("make_event")(published=False)),
    "drive.events.services.events.reissue_door_code": lambda o, f: events.reissue_door_code(actor=o, event=f("event")),
    "drive.events.services.events.close_registration": lambda o, f: events.close_registration(actor=o, event=f("event")),
    "drive.scoring.services.evening.start_evening": lambda o, f: ev.start_evening(actor=o, event=_walk_ins(f("make_event"), o)),
    "drive.scoring.services.evening.start_round": lambda o, f: ev.start_round(actor=o, event=_seated(f("evening"))),
    "drive.scoring.services.evening.pause_clock": lambda o, f: ev.pause_clock(actor=o, event=f("evening")),
    "drive.scoring.services.evening.evening_move": lambda o, f: ev.evening_move(
        actor=o, event=f("evening"), action="pause", shown_round=1),
    "drive.scoring.services.evening.resume_clock": lambda o, f: ev.resume_clock(
        actor=o, event=ev.pause_clock(actor=o, event=f("evening")).event),
    "drive.scoring.services.evening.end_round": lambda o, f: ev.end_round(actor=o, event=_last_round(f("evening"))),
    "drive.scoring.services.evening.publish_results": lambda o, f: ev.publish_results(actor=o, event=_finished(f("evening"))),
    "drive.scoring.services.evening.retry_movement": lambda o, f: ev.retry_movement(
        actor=o, event=_failed_movement(f("evening"))),
    "drive.scoring.services.evening.add_late_arrival": lambda o, f: ev.add_late_arrival(
        actor=o, event=f("evening"), registration=_registration(f("evening"), Registration.Status.CHECKED_IN, "Late")),
    "drive.scoring.services.evening.remove_leaver": lambda o, f: ev.remove_leaver(
        actor=o, event=f("evening"), entrant=Entrant.objects.get(event=f("evening"), number=9)),
    "drive.scoring.services.evening.leave_on_cancellation": lambda o, f: ev.leave_on_cancellation(
        actor=o, event=f("evening"), player_id=Entrant.objects.get(event=f("evening"), number=9).player_id),
    "drive.scoring.services.results.correct_result": lambda o, f: results.correct_result(
        actor=o, table=Table.objects.get(event=f("evening"), number=1), round_number=1, hand_number=1, ns_tricks=8,
        trump="S", reason="card misread"),
    "drive.scoring.services.results.apply_revoke_penalty": lambda o, f: results.apply_revoke_penalty(
        actor=o, table=_with_hand(f("evening"), o), round_number=1, hand_number=1, offending_side="NS",
        reason="revoke at trick 5"),
    "drive.scoring.services.claims.release_claim": lambda o, f: claims.release_claim(
        actor=o, table=_claimed(f("evening")), position="N"),
    "drive.scoring.services.claims.reissue_table_link": lambda o, f: claims.reissue_table_link(
        actor=o, table=Table.objects.get(event=f("evening"), number=1)),
    "drive.live.services.screen.issue_screen_link": lambda o, f: screen.issue_screen_link(actor=o, event=f("event")),
    "drive.live.services.screen.revoke_screen_link": lambda o, f: screen.revoke_screen_link(actor=o, event=f("event")),
    "drive.live.services.screen.set_screen_chime": lambda o, f: screen.set_screen_chime(actor=o, event=f("event"), chime=True),
    "drive.backup.services.backup.export_for_organiser": lambda o, f: export_for_organiser(actor=o, event=f("event")),
    "drive.live.services.announcements.announce": lambda o, f: announcements.announce(actor=o, event=f("event"), text="Tea"),
    "drive.live.services.announcements.take_down": lambda o, f: announcements.take_down(
        actor=o, announcement=announcements.announce(actor=o, event=f("event"), text="Tea")),
    "drive.scoring.services.online_tables.set_online_tables": lambda o, f: play_evening.set_online_tables(
        actor=o, event=f("event"), mode="mixed", tables=[1]),
    "drive.seasons.services.seasons.create_season": lambda o, f: _season(o, f("club")),
    "drive.seasons.services.seasons.update_season": lambda o, f: season_services.update_season(
        actor=o, season=_season(o, f("club")), best_of=None),
    "drive.seasons.services.seasons.delete_season": lambda o, f: season_services.delete_season(
        actor=o, season=_season(o, f("club"))),
    "drive.seasons.services.players.merge_players": lambda o, f: player_services.merge_players(
        actor=o, club=f("club"), **_two_walk_ins(o, f("make_event"))),
}


def _season(organiser, club):
    return season_services.create_season(actor=organiser, club=club, name="Winter", starts_on=date(2026, 12, 1),
                                         ends_on=date(2027, 2, 28), score="total", best_of=6)


def _two_walk_ins(organiser, make_event):
    """One person added by name at two evenings: two records, the second to merge."""
    first = arrival_services.add_walk_in(actor=organiser, event=make_event(), display_name="Bo").player
    second = arrival_services.add_walk_in(actor=organiser, event=make_event(), display_name="Bo").player
    return {"duplicate": second, "into": first}


def _walk_ins(make_event, organiser):
    event = _soon(make_event)
    for i in range(4):
        arrival_services.add_walk_in(actor=organiser, event=event, display_name=f"W{i}")
    return event


def _last_round(evening):
    Round.objects.filter(event=evening, number=2).delete()
    Event.objects.filter(pk=evening.pk).update(rounds=1)
    Round.objects.filter(event=evening, number=1).update(deadline=timezone.now() - timedelta(seconds=1))
    evening.refresh_from_db()
    return evening


def test_every_organiser_service_has_an_audit_scenario():
    missing = organiser_services() - set(SCENARIOS)
    assert not missing, f"organiser services with no audit scenario here: {sorted(missing)}"


@pytest.mark.parametrize("service", sorted(SCENARIOS))
def test_the_service_leaves_an_audit_entry(service, organiser, request, django_capture_on_commit_callbacks):
    assert service in organiser_services()  # a renamed or removed service drops its scenario
    before = set(AuditEntry.objects.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=False):  # the write, not the tasks it enqueues
        SCENARIOS[service](organiser, request.getfixturevalue)
    new = AuditEntry.objects.exclude(pk__in=before).order_by("-id").first()
    assert new is not None, f"{service} left no audit entry"
    assert new.actor is not None and new.actor_label and new.action
    assert new.after is not None or new.before is not None  # what changed, not just that something did
