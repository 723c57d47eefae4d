"""The stored whist grades follow the published evenings (drive.seasons.services.grades):
rated by a task when an evening is published or corrected, incrementally, and exactly what
rating every hand from scratch gives; robots' hands left out (issue 22)."""
import pytest
from django.contrib.auth import get_user_model

from drive.events.models import Event
from drive.scoring.models import Table
from drive.scoring.services import evening as evenings
from drive.scoring.services import results
from drive.scoring.services.results import record_played_hand
from drive.seasons import grade, tasks
from drive.seasons.grade import Hand
from drive.seasons.models import GradeBook, GradedEvening, GradePoint, PlayerGrade
from drive.seasons.services import grades as services
from tests.seasons.conftest import local

pytestmark = pytest.mark.django_db


def stored():
    """Everything the grades store, as plain values (floats exactly)."""
    return {
        "grades": {g.player_id: (g.mu, g.sigma, g.hands) for g in PlayerGrade.objects.all()},
        "points": {(p.evening.event_id, p.player_id): (p.mu, p.sigma, p.hands)
                   for p in GradePoint.objects.select_related("evening")},
        "evenings": [(e.event_id, e.results_version, e.hands, e.average) for e in GradedEvening.objects.all()],
    }


def hands_of(rounds):
    """The hands of an evening as `play` takes its rounds, in order of play."""
    return [Hand(ns=(n.pk, s.pk), ew=(e.pk, w.pk), ns_tricks=tricks)
            for round_ in rounds for (n, e, s, w), hand_tricks in round_ for tricks in hand_tricks]


def expected(*evenings_rounds):
    ratings = {}
    for rounds in evenings_rounds:
        ratings, _ = grade.rate(ratings, hands_of(rounds))
    return {player: (r.mu, r.sigma, r.hands) for player, r in ratings.items()}


@pytest.fixture
def eight(people):
    return people("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal")


def evening_a(p):
    a, b, c, d, e, f, g, h = p
    return [[((a, b, c, d), [9, 4, 7]), ((e, f, g, h), [6, 8, 2])],
            [((a, e, c, g), [10, 7, 3]), ((b, f, d, h), [5, 5, 11])]]


def evening_b(p):
    a, b, c, d, e, f, g, h = p
    return [[((a, h, e, d), [8, 8, 1]), ((b, c, f, g), [7, 6, 12])],
            [((h, a, g, b), [4, 9, 9]), ((c, d, e, f), [13, 0, 7])]]


def evening_c(p):
    a, b, c, d, e, f, g, h = p
    return [[((g, a, h, b), [7, 7, 7]), ((c, e, d, f), [6, 6, 6])]]


def test_publishing_an_evening_rates_its_hands_by_itself(play, eight):
    assert not PlayerGrade.objects.exists()
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))  # the signal, then the task (eager)
    assert stored()["grades"] == expected(evening_a(eight))
    assert {hands for _, _, hands in stored()["grades"].values()} == {6}
    evening = GradedEvening.objects.get()
    assert evening.hands == 12 and evening.results_version > 0


def test_from_scratch_equals_incremental_exactly(play, eight, organiser, django_capture_on_commit_callbacks):
    first = play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))
    play(evening_b(eight), starts_at=local(2026, 12, 11, 19, 30))
    # Published late but played before the second: the grades replay from it.
    play(evening_c(eight), starts_at=local(2026, 12, 8, 19, 30))
    incremental = stored()
    assert incremental["grades"] == expected(evening_a(eight), evening_c(eight), evening_b(eight))
    assert services.update_grades() is None  # nothing had changed
    assert services.update_grades(from_scratch=True) == 3
    assert stored() == incremental

    # A correction after publishing, in the first evening: everything after it moves, and
    # the incremental replay is again exactly what from scratch gives.
    kept = GradedEvening.objects.get(event=first).pk
    with django_capture_on_commit_callbacks(execute=True):
        results.correct_result(actor=organiser, table=Table.objects.get(event=first, number=1), round_number=1,
                               hand_number=2, ns_tricks=12, reason="N-S took twelve: recounted")
    corrected = stored()
    assert corrected != incremental
    assert GradedEvening.objects.get(event=first).pk != kept  # rated again from the first evening
    fixed = evening_a(eight)
    fixed[0][0] = (fixed[0][0][0], [9, 12, 7])
    assert corrected["grades"] == expected(fixed, evening_c(eight), evening_b(eight))
    services.update_grades(from_scratch=True)
    assert stored() == corrected


def test_a_correction_in_the_last_evening_replays_only_it(play, eight, organiser, django_capture_on_commit_callbacks):
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))
    last = play(evening_b(eight), starts_at=local(2026, 12, 11, 19, 30))
    kept = GradedEvening.objects.order_by("starts_at").first().pk
    with django_capture_on_commit_callbacks(execute=True):
        results.correct_result(actor=organiser, table=Table.objects.get(event=last, number=2), round_number=2,
                               hand_number=1, ns_tricks=1, reason="recount")
    assert GradedEvening.objects.order_by("starts_at").first().pk == kept  # the first evening stands
    incremental = stored()
    services.update_grades(from_scratch=True)
    assert stored() == incremental


def test_robots_hands_do_not_move_any_grade(play, people, organiser, django_capture_on_commit_callbacks):
    a, b, c, d, e, f, g, h = people("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal")
    rounds = [[((a, b, c, d), [9, 4, 7]), ((e, f, g, h), [6, 8, 2])]]
    event = play(rounds, starts_at=local(2026, 12, 4, 19, 30), publish=False)
    with django_capture_on_commit_callbacks(execute=True):
        # Table 2 finished by robots at the deadline; at table 1 a robot stood in for hand 3.
        for hand in (1, 2, 3):
            record_played_hand(event_id=event.pk, round_number=1, table_number=2, hand_number=hand, ns_tricks=5,
                               trump="H", by_robots=True)
        record_played_hand(event_id=event.pk, round_number=1, table_number=1, hand_number=3, ns_tricks=12,
                           trump="H", stood_in=True)
        evenings.publish_results(actor=organiser, event=event)
    assert stored()["grades"] == expected([[((a, b, c, d), [9, 4])]])
    assert not PlayerGrade.objects.filter(player__in=[e, f, g, h]).exists()
    # An organiser's later correction of a robots' hand leaves it the robots'.
    with django_capture_on_commit_callbacks(execute=True):
        results.correct_result(actor=organiser, table=Table.objects.get(event=event, number=2), round_number=1,
                               hand_number=1, ns_tricks=9, reason="recount")
    assert stored()["grades"] == expected([[((a, b, c, d), [9, 4])]])


def test_an_online_hand_at_a_seat_without_an_account_was_a_robots(play, people, organiser,
                                                                  django_capture_on_commit_callbacks):
    a, b, c, d, e, f, g, h = people("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal")
    for n, player in enumerate((a, b, c, d), start=1):  # table 1's players have accounts
        player.user = get_user_model().objects.create_user(username=f"p{n}", password="pw-Whist-2026")
        player.save()
    rounds = [[((a, b, c, d), [9, 4]), ((e, f, g, h), [6, 8])]]
    event = play(rounds, starts_at=local(2026, 12, 4, 19, 30), publish=False)
    with django_capture_on_commit_callbacks(execute=True):
        for table in (1, 2):  # both tables played online, nobody stood in
            for hand in (1, 2):
                record_played_hand(event_id=event.pk, round_number=1, table_number=table, hand_number=hand,
                                   ns_tricks=10, trump="H")
        evenings.publish_results(actor=organiser, event=event)
    # Table 2's seats had no account: robots played them (drive.play), the hands are left out.
    assert stored()["grades"] == expected([[((a, b, c, d), [10, 10])]])


def test_results_changed_asks_for_the_task(play, eight, monkeypatch):
    asked = []
    monkeypatch.setattr(tasks.update_grades, "delay", lambda *args: asked.append(args))
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))
    assert asked == [()]
    assert not PlayerGrade.objects.exists()


def test_a_lost_task_is_made_up_by_the_next_read(play, eight, monkeypatch):
    monkeypatch.setattr(tasks.update_grades, "delay", lambda *args: None)  # the broker lost it
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))
    assert not PlayerGrade.objects.exists()
    services.fresh_grades()
    assert stored()["grades"] == expected(evening_a(eight))


def test_an_evening_deleted_after_rating_is_taken_out_of_the_grades(play, people):
    a, b, c, d, e, f, g, h = people("Ada", "Bob", "Cy", "Di", "Eve", "Fay", "Gil", "Hal")
    first = [[((a, b, c, d), [9, 4, 7])]]
    play(first, starts_at=local(2026, 12, 4, 19, 30))
    gone = play([[((a, e, c, g), [1, 2, 3])]], starts_at=local(2026, 12, 11, 19, 30))
    Event.objects.filter(pk=gone.pk).delete()  # e.g. in the admin: its graded evening goes with it
    services.fresh_grades()
    assert stored()["grades"] == expected(first)
    assert GradeBook.objects.get().evenings == 1


def test_an_evening_not_published_is_not_rated(play, eight):
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30), publish=False)
    services.fresh_grades()
    assert not PlayerGrade.objects.exists() and not GradedEvening.objects.exists()


def test_evenings_of_every_club_are_one_field(play, eight, other_club):
    play(evening_a(eight), starts_at=local(2026, 12, 4, 19, 30))
    second = play(evening_b(eight), starts_at=local(2026, 12, 11, 19, 30))
    Event.objects.filter(pk=second.pk).update(club=other_club)
    services.fresh_grades()
    assert stored()["grades"] == expected(evening_a(eight), evening_b(eight))
