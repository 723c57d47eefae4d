"""Demo data: a club with its autumn season (three evenings played and published), an
upcoming drive (30 registered, 3 waitlisted) and an evening in progress."""
import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from drive.events.services import events as services

from drive.events.services import arrivals as arrival_services

from drive.events.services import registration as registration_services
from drive.events.models import Club, Event, Player, Registration
from drive.scoring.services import claims
from drive.scoring.services import evening
from drive.scoring.services import results
from drive.scoring.models import Seat, Table
from drive.scoring.selectors.rounds import current_round
from drive.seasons.services import seasons as season_services

FIRST = "Margaret Arthur Joan Dennis Irene Stanley Doris Harold Eileen Norman Olga Mykola Sheila Kenneth Iryna Bernard".split()
LAST = "Hughes Pritchard Bell Doyle Evans Fenwick Griffiths Hale Ivanova Jones Kovalenko Lloyd Morgan Nash Owen Price".split()
ORGANISER = ("organiser", "whist-organiser")
PLAYER_PASSWORD = "whist-player"
# The club's evenings of the last three weeks, played and published: (title, days ago, first of the 16 players).
PAST_EVENINGS = [("Harvest Supper Drive", 21, 0), ("Bonfire Night Drive", 14, 4), ("St Andrew's Drive", 7, 8)]
SEASON = "Autumn 2026"


def demo_names(count):
    return [f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}" for i in range(count)]


class Command(BaseCommand):
    help = ("Load a demo club with its season of three published evenings, an upcoming drive with a "
            "waitlist and an evening in progress (idempotent).")

    def add_arguments(self, parser):
        parser.add_argument("--quiet", action="store_true")

    def handle(self, *args, quiet=False, **options):
        if Club.objects.filter(slug="st-marys").exists():
            if not quiet:
                self.stdout.write("Demo data already loaded.")
            return
        with transaction.atomic():
            organiser, tonight, past = self._club_and_events()
        for event in past:  # after commit, as tonight: the movement task needs the rows
            self._play_past(event, organiser)
        season_services.create_season(actor=organiser, club=tonight.club, name=SEASON,
                                      starts_on=(past[0].starts_at - timedelta(days=7)).date(),
                                      ends_on=(tonight.starts_at + timedelta(days=28)).date(),
                                      score="placing_points", placing_points=[10, 8, 6, 5, 4, 3, 2, 1],
                                      best_of=4, min_evenings=2)
        self._play_tonight(tonight, organiser)
        if not quiet:
            self.stdout.write(self.style.SUCCESS(
                f"Demo loaded: organiser login {ORGANISER[0]} / {ORGANISER[1]}; players player1..player40 / {PLAYER_PASSWORD}."
            ))

    def _club_and_events(self):
        User = get_user_model()
        organiser = User.objects.create_user(username=ORGANISER[0], password=ORGANISER[1], email="organiser@example.org",
                                             first_name="Pat", last_name="Organiser", is_staff=True)
        club = Club.objects.create(name="St Mary's Whist Club", slug="st-marys")
        club.organisers.add(organiser)
        self.password_hash = make_password(PLAYER_PASSWORD)  # hashed once: forty hashes would take seconds
        users = [self._player_user(i, name) for i, name in enumerate(demo_names(40))]
        now = timezone.now()
        upcoming = services.create_event(
            actor=organiser, club=club, title="Christmas Whist Drive", venue="St Mary's Church Hall",
            starts_at=(now + timedelta(days=14)).replace(hour=19, minute=0, second=0, microsecond=0),
            capacity=30, rounds=8, hands_per_round=3, round_minutes=20, published=True,
            prizes=[{"name": "First prize: hamper", "kind": "overall"}, {"name": "Second prize: wine", "kind": "overall"},
                    {"name": "Ladies' prize: Regent Street voucher", "kind": "ladies"},
                    {"name": "Gents' prize: bottle of port", "kind": "gents"},
                    {"name": "Booby prize: wooden spoon", "kind": "booby"}],
        )
        for user in users[:33]:
            registration_services.register(actor=user, event=upcoming)
        tonight = services.create_event(
            actor=organiser, club=club, title="Friday Whist Drive", venue="Village Hall",
            starts_at=now - timedelta(minutes=40), capacity=24, rounds=6, hands_per_round=4, round_minutes=24,
            published=True, prizes=[{"name": "First prize", "kind": "overall"}, {"name": "Second prize", "kind": "overall"},
                                    {"name": "Half-time prize", "kind": "half_time"},
                                    {"name": "Booby prize", "kind": "booby"}],
        )
        self._fill_tonight(tonight, users[20:40], organiser)
        past = [self._past_event(club, organiser, title, days, users[first:first + 16])
                for title, days, first in PAST_EVENINGS]
        return organiser, tonight, past

    def _past_event(self, club, organiser, title, days_ago, users):
        starts_at = (timezone.now() - timedelta(days=days_ago)).replace(hour=19, minute=30, second=0, microsecond=0)
        event = services.create_event(
            actor=organiser, club=club, title=title, venue="Village Hall", starts_at=starts_at, capacity=24,
            rounds=4, hands_per_round=4, round_minutes=24, published=True,
            result_confirmation=Event.Confirmation.SINGLE,  # one phone a table enters each hand
            prizes=[{"name": "First prize", "kind": "overall"}, {"name": "Second prize", "kind": "overall"},
                    {"name": "Booby prize", "kind": "booby"}],
        )
        self._arrived(event, users, arrived=len(users))
        return event

    def _play_past(self, event, organiser):
        """A whole evening, each hand entered by a table's phone, then published."""
        evening.start_evening(actor=organiser, event=event)
        if current_round(event) is None:  # a Celery worker would seat it a moment later: seat it now
            evening.plan_and_seat_first_round(event_id=event.pk)
        tricks = random.Random(event.title)  # noqa: S311 - made-up scores, the same on every load
        event.refresh_from_db()
        while event.phase == Event.Phase.IN_PROGRESS:
            round_ = evening.start_round(actor=organiser, event=event)
            with transaction.atomic():  # the round's entries in one go: its standings computed once, not a hand at a time
                for table in Table.objects.filter(event=event, seats__round=round_).distinct():
                    phone = claims.claim_seat(table=table, position="N")[1]
                    for hand in range(1, event.hands_per_round + 1):
                        ns = min(13, max(0, round(tricks.gauss(6.5, 2.2))))
                        results.submit_result(table=table, claim=phone, hand_number=hand, ns_tricks=ns,
                                              trump="HDSC"[hand % 4])
            evening.end_round(actor=organiser, event=event)
            event.refresh_from_db()
        evening.publish_results(actor=organiser, event=event)

    def _play_tonight(self, event, organiser):
        """Tonight is under way: round 1 playing, most tables in, one hand disputed. Each
        table's North claimed their seat signed in, East's phone claimed it anonymously."""
        evening.start_evening(actor=organiser, event=event)
        event.refresh_from_db()
        round_ = current_round(event)
        if round_ is None:  # with a Celery worker the seating comes a moment later
            return
        evening.start_round(actor=organiser, event=event)
        tables = list(Table.objects.filter(event=event, seats__round=round_).distinct().order_by("number"))
        phones = {}
        for table in tables[:-1]:
            north = Seat.objects.select_related("entrant__player").get(round=round_, table=table, position="N")
            phones[table.pk] = (claims.claim_seat(table=table, position="N", user=north.entrant.player.user)[1],
                                claims.claim_seat(table=table, position="E")[1])
            for hand in range(1, event.hands_per_round):
                ns = 5 + (table.number * 3 + hand) % 5
                for phone in phones[table.pk]:
                    results.submit_result(table=table, claim=phone, hand_number=hand, ns_tricks=ns,
                                          trump="HDSC"[hand % 4])
        first = tables[0]
        for phone, ns in zip(phones[first.pk], (8, 7)):
            results.submit_result(table=first, claim=phone, hand_number=event.hands_per_round, ns_tricks=ns, trump="S")

    def _arrived(self, event, users, *, arrived):
        """The event has started, so registration is closed: its rows are seeded directly,
        the first `arrived` players checked in."""
        start = event.starts_at - timedelta(days=3)
        for i, user in enumerate(users):
            came = i < arrived
            Registration.objects.create(
                event=event, player=user.player, registered_at=start + timedelta(minutes=i),
                status=Registration.Status.CHECKED_IN if came else Registration.Status.REGISTERED,
                checked_in_at=event.starts_at - timedelta(minutes=30 - i) if came else None,
            )

    def _player_user(self, index, name):
        first, last = name.split(" ", 1)
        user = get_user_model().objects.create(
            username=f"player{index + 1}", password=self.password_hash, first_name=first, last_name=last,
            email=f"player{index + 1}@example.org",
        )
        # The first names alternate lady, gent (FIRST): the ladies' and gents' prizes have their lists.
        Player.objects.create(user=user, display_name=name,
                              category=Player.Category.LADY if index % 2 == 0 else Player.Category.GENT)
        return user

    def _fill_tonight(self, event, users, organiser):
        self._arrived(event, users, arrived=18)
        for name in ("Vera Walk-in", "Tom Walk-in"):
            arrival_services.add_walk_in(actor=organiser, event=event, display_name=name)
