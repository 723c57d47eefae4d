"""The leaders' chart on the room's screen: the running totals hand by hand (a
pure function beside the standings' own), the SVG drawn from them, and the screen states
that show it."""
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from itertools import pairwise

import pytest
from django.template.loader import render_to_string

from drive.events.models import Event, Player
from drive.live import chart as charts
from drive.live.selectors.screen import screen_token
from drive.live.services import screen as screens
from drive.live.selectors import screen as screen_reads
from drive.movements.models import Entrant
from drive.scoring.services import ranking
from drive.scoring.models import Round, Table
from drive.scoring.selectors.results import leaders
from drive.scoring.standings import Run, compute, running_totals
from engine.rules import preset
from tests import seats

SVG = "{http://www.w3.org/2000/svg}"
RULES = preset("drive")

# An individual drive of nine: two tables, two rounds of two hands; 9 sits out round 1, 3 round 2.
SEATS = [
    (1, 1, 1, "NS"), (1, 2, 1, "EW"), (1, 3, 1, "NS"), (1, 4, 1, "EW"),
    (1, 5, 2, "NS"), (1, 6, 2, "EW"), (1, 7, 2, "NS"), (1, 8, 2, "EW"), (1, 9, None, "NS"),
    (2, 5, 1, "NS"), (2, 6, 1, "EW"), (2, 7, 1, "NS"), (2, 9, 1, "EW"),
    (2, 2, 2, "NS"), (2, 1, 2, "EW"), (2, 4, 2, "NS"), (2, 8, 2, "EW"), (2, 3, None, "NS"),
]


def ranked(results, seats=SEATS, entrants=range(1, 10), method="own_average", tie_break="hands_won",
           partners=None, hands_per_round=2):
    return compute(entrants=list(entrants), seats=seats, results=results, rules=RULES,
                   hands_per_round=hands_per_round, half_after_round=1, sit_out_method=method,
                   tie_break=tie_break, partners=partners)


def totals(placed):
    return {line.entrant: line.total for _, _, line in placed}


# --- the running totals -------------------------------------------------------------------


def test_running_totals_hand_by_hand_end_on_the_standings_total():
    played = {(1, 1): {1: 9, 2: 6}, (1, 2): {1: 7, 2: 8}, (2, 1): {1: 10}, (2, 2): {1: 5}}
    placed = ranked(played)
    runs = running_totals(placed, hands_per_round=2, top=9)
    by = {run.entrants[0]: run for run in runs}
    # entrant 1: N-S at table 1 (9, 6), then E-W at table 2 in round 2 (13 - 5 = 8)
    assert by[1].points == [(0, 0), (1, 9), (2, 15), (3, 23)]
    # entrant 9 sat out round 1: credited its own average (3 a hand, rule D5) as the room played it
    assert by[9].points == [(0, 0), (1, 3), (2, 6), (3, 9)]
    # entrant 3 sits out round 2: its average (7.5) for the one hand the room has played of it
    assert by[3].points[-1] == (3, Decimal("22.50"))
    for run in runs:
        assert run.total == totals(placed)[run.entrants[0]]
        assert [x for x, _ in run.points] == [0, 1, 2, 3]
    assert [run.entrants[0] for run in runs] == [line.entrant for _, _, line in placed]  # the standings' order
    assert [(run.place, run.shared) for run in runs] == [(place, shared) for place, shared, _ in placed]


def test_an_uneven_average_is_spread_to_the_penny_and_ends_on_the_standings_total():
    seats = [(1, 1, 1, "NS"), (1, 2, 1, "EW"), (1, 3, 1, "NS"), (1, 4, 1, "EW"), (1, 5, None, "NS"),
             (2, 5, 1, "NS"), (2, 2, 1, "EW"), (2, 3, 1, "NS"), (2, 4, 1, "EW"), (2, 1, None, "NS")]
    played = {(1, 1): {1: 9, 2: 6, 3: 5}, (2, 1): {1: 8, 2: 4, 3: 7}}
    placed = ranked(played, seats=seats, entrants=range(1, 6), method="own_average", hands_per_round=3)
    runs = running_totals(placed, hands_per_round=3, top=5)
    one = next(run for run in runs if run.entrants == [1])
    # entrant 1 sat out round 2 at its own average, 20 / 3 a hand: 6.67, 13.33, 20.00
    assert [y for _, y in one.points[3:]] == [Decimal(20), Decimal("26.67"), Decimal("33.33"), Decimal("40.00")]
    for run in runs:
        assert run.total == totals(placed)[run.entrants[0]]


def test_top_n_in_standings_order_and_ties_as_the_standings_rank_them():
    played = {(1, 1): {1: 7, 2: 7}, (1, 2): {1: 6, 2: 6}}  # N-S of table 1 (1, 3) level at 14
    placed = ranked(played, tie_break="shared")
    assert placed[0][:2] == (1, True) and placed[1][:2] == (1, True)
    runs = running_totals(placed, hands_per_round=2)
    assert len(runs) == 5
    assert [run.entrants[0] for run in runs] == [line.entrant for _, _, line in placed[:5]]
    assert [run.entrants[0] for run in runs[:2]] == [1, 3] and runs[0].total == runs[1].total == 14
    assert [run.entrants[0] for run in running_totals(placed, hands_per_round=2, top=1)] == [1]


def test_a_table_behind_stays_level_until_its_result_comes_in():
    placed = ranked({(1, 1): {1: 9, 2: 6}, (1, 2): {1: 7}})
    runs = {run.entrants[0]: run for run in running_totals(placed, hands_per_round=2, top=9)}
    assert runs[5].points == [(0, 0), (1, 7), (2, 7)]


def test_nothing_before_the_first_hand():
    assert running_totals(ranked({}), hands_per_round=2) == []


PAIR_SEATS = [  # pairs (1, 3), (2, 4), (5, 7), (6, 8) sit together every round
    (1, 1, 1, "NS"), (1, 2, 1, "EW"), (1, 3, 1, "NS"), (1, 4, 1, "EW"),
    (1, 5, 2, "NS"), (1, 6, 2, "EW"), (1, 7, 2, "NS"), (1, 8, 2, "EW"),
    (2, 1, 1, "NS"), (2, 6, 1, "EW"), (2, 3, 1, "NS"), (2, 8, 1, "EW"),
    (2, 5, 2, "NS"), (2, 2, 2, "EW"), (2, 7, 2, "NS"), (2, 4, 2, "EW"),
]
PARTNERS = {1: 3, 3: 1, 2: 4, 4: 2, 5: 7, 7: 5, 6: 8, 8: 6}


def test_a_pair_drive_charts_pairs():
    played = {(1, 1): {1: 9, 2: 6}, (1, 2): {1: 5, 2: 4}, (2, 1): {1: 8}, (2, 2): {1: 7}}
    placed = ranked(played, seats=PAIR_SEATS, entrants=range(1, 9), partners=PARTNERS)
    runs = running_totals(placed, hands_per_round=2, partners=PARTNERS)
    assert len(runs) == 4  # four pairs, each once
    assert sorted(tuple(sorted(run.entrants)) for run in runs) == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert runs[0].entrants == [1, 3] and runs[0].points == [(0, 0), (1, 9), (2, 15), (3, 23)]
    for run in runs:
        assert run.total == totals(placed)[run.entrants[0]] == totals(placed)[run.entrants[1]]
    assert [tuple(run.entrants) for run in running_totals(placed, hands_per_round=2, partners=PARTNERS, top=2)] == [
        tuple(run.entrants) for run in runs[:2]]


# --- the SVG --------------------------------------------------------------------------------


def run(name, points, place=1):
    return Run(place=place, shared=False, entrants=[place], points=[(x, Decimal(y)) for x, y in enumerate(points)],
               name=name)


def svg_of(html):
    found = re.search(r"<svg\b.*?</svg>", html, re.DOTALL)
    assert found, "no chart"
    return ET.fromstring(found.group(0))


def draw(runs, frame="side", rounds=4, hands_per_round=4):
    layout = charts.chart(runs, rounds=rounds, hands_per_round=hands_per_round, frame=frame)
    return render_to_string("live/_chart.html", {"chart": layout}), layout


def test_the_svg_is_valid_xml_with_a_path_per_leader_and_names_escaped():
    runs = [run("<script>alert(1)</script>", [0, 9, 17, 24], 1), run("O'Brien & Co", [0, 7, 15, 22], 2),
            run("Ann Lee", [0, 6, 12, 20], 3), run("Ivan Petrov", [0, 4, 11, 19], 4),
            run("Margaret Ellis-Whitworth-Smythe", [0, 5, 10, 15], 5)]
    html, layout = draw(runs)
    assert "<script>" not in html and "&lt;script&gt;" in html and "O&#x27;Brien &amp; Co" in html
    svg = svg_of(html)
    assert svg.get("viewBox") == "0 0 800 640"
    assert len(svg.findall(f".//{SVG}path[@class='chart-run']")) == 5
    names = [t.text for t in svg.findall(f".//{SVG}tspan[@class='chart-name']")]
    assert names[-1].startswith("<script>")  # the leader, drawn last (on top)
    assert "O'Brien & Co" in names
    assert any(name.endswith("…") and name.startswith("Margaret") for name in names)  # shortened, never overflowing
    dashes = [p.get("stroke-dasharray") for p in svg.findall(f".//{SVG}path[@class='chart-run']")]
    assert len(set(dashes)) == 5  # every line its own dash (the leader's is solid)
    shapes = [g.get("data-shape") for g in svg.findall(f"{SVG}g[@class='chart-line']")]
    assert len(set(shapes)) == 5
    totals_text = [t.text for t in svg.findall(f".//{SVG}tspan[@class='chart-total']")]
    assert sorted(totals_text) == sorted(["24", "22", "20", "19", "15"])
    assert [r["n"] for r in layout["rounds"]] == [1, 2, 3, 4]
    assert [t.text for t in svg.findall(f".//{SVG}text")].count("R2") == 1


def test_labels_of_equal_totals_do_not_overlap():
    runs = [run(f"Player {n}", [0, 5, 10, 14], n) for n in range(1, 6)]
    html, layout = draw(runs)
    ys = sorted(float(line["label_y"]) for line in layout["lines"])
    assert all(b - a >= layout["font"] for a, b in pairwise(ys))
    assert all(0 < y < layout["height"] for y in ys)
    svg = svg_of(html)
    label_ys = sorted(float(t.get("y")) for t in svg.findall(f".//{SVG}text[@class='chart-label']"))
    assert label_ys == ys
    # the better placed label stays on top
    by_rank = {line["rank"]: float(line["label_y"]) for line in layout["lines"]}
    assert by_rank[1] < by_rank[2] < by_rank[5]


def test_labels_near_zero_are_pushed_up_inside_the_chart():
    runs = [run(f"P{n}", [0, 0], n) for n in range(1, 6)]
    _, layout = draw(runs, frame="wide")
    ys = sorted(float(line["label_y"]) for line in layout["lines"])
    assert ys[-1] <= float(layout["bottom"]) and ys[0] > 0
    assert all(b - a >= layout["font"] for a, b in pairwise(ys))


def test_every_line_has_its_own_colour_dash_and_mark():
    runs = [run(f"Player {n}", [0, 5, 10, 14], n) for n in range(1, 6)]
    svg = svg_of(draw(runs)[0])
    groups = svg.findall(f"{SVG}g[@class='chart-line']")
    colours = [g.get("color") for g in groups]
    assert len(set(colours)) == 5 and all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
    assert len({g.get("data-shape") for g in groups}) == 5
    assert len({g.find(f"{SVG}path[@class='chart-run']").get("stroke-dasharray") for g in groups}) == 5
    for g in groups:  # drawn in the line's colour: the run, its marks and its label
        assert g.find(f"{SVG}path[@class='chart-run']").get("stroke") == "currentColor"
    assert colours[-1] == charts.COLOURS[0]  # the leader (drawn last, on top) in white


LABEL_HALF = 0.6  # half a label's height, in ems: ascenders and descenders


def boxes(layout):
    """Each label's box (x0, y0, x1, y1), and the boxes of the axis: its line, its figures,
    the rounds' names. Widths from the same conservative ems as the chart's own."""
    f, small = layout["font"], layout["small"]
    half, small_half = f * LABEL_HALF, small * LABEL_HALF
    labels = []
    for line in layout["lines"]:
        y, text_x = float(line["label_y"]), float(line["text_x"])
        mark_left = text_x - f * 0.4 - 2 * f * 0.3
        width = (charts.ems(charts.total_text(line["total"])) + 0.35) * f + charts.ems(line["name"]) * f
        labels.append((mark_left, y - half, text_x + width, y + half))
    bottom, stroke = float(layout["bottom"]), 4  # the axis line's stroke-width
    axis = [(float(layout["left"]), bottom - stroke / 2, float(layout["right"]), bottom + stroke / 2)]
    tick_x = float(layout["tick_x"])
    axis += [(tick_x - charts.ems(str(t["value"])) * small, float(t["y"]) - small_half, tick_x,
              float(t["y"]) + small_half) for t in layout["ticks"]]
    round_y = float(layout["round_y"])
    axis += [(float(m["label_x"]) - charts.ems(f"R{m['n']}") * small / 2, round_y - small_half,
              float(m["label_x"]) + charts.ems(f"R{m['n']}") * small / 2, round_y + small_half)
             for m in layout["rounds"] if m["labelled"]]
    return labels, axis


def overlap(a, b, touch=0.01):
    """Boxes that share more than an edge (a hundredth of a unit: coordinates are rounded)."""
    return a[0] < b[2] - touch and b[0] < a[2] - touch and a[1] < b[3] - touch and b[1] < a[3] - touch


LEADERS = {  # the leaders' running totals, hand by hand
    "all level at nought": [[0, 0]] * 5,
    "tied at the top": [[0, 7, 14]] * 5,
    "near-tied": [[0, 7, 14], [0, 7, 13.75], [0, 6, 13.5], [0, 7, 13.5], [0, 6, 13.25]],
    "tied low, early in a long evening": [[0, 1]] * 3 + [[0, 0]] * 2,
    "two groups": [[0, 9, 18], [0, 9, 18], [0, 8, 17.5], [0, 2, 4], [0, 2, 4]],
}


@pytest.mark.parametrize("frame", ["side", "wide"])
@pytest.mark.parametrize("case", LEADERS)
def test_labels_never_overlap_each_other_or_the_axis(case, frame):
    runs = [run(f"Margaret Featherstonehaugh {n}", points, n) for n, points in enumerate(LEADERS[case], start=1)]
    _, layout = draw(runs, frame=frame, rounds=6, hands_per_round=4)
    labels, axis = boxes(layout)
    for i, a in enumerate(labels):
        assert 0 <= a[0] and a[2] <= layout["width"] and 0 <= a[1] and a[3] <= layout["height"], (case, i, a)
        for b in labels[i + 1:]:
            assert not overlap(a, b), (case, a, b)
        for b in axis:
            assert not overlap(a, b), (case, "the axis", a, b)


def test_no_chart_before_a_hand_is_played():
    assert charts.chart([], rounds=4, hands_per_round=4) is None
    assert render_to_string("live/_chart.html", {"chart": None}).strip() == ""


def test_coordinates_are_never_localised(settings):
    from django.utils import translation

    runs = [run("Анна", [0, Decimal("6.5"), Decimal("13.25")], 1)]
    with translation.override("ru"):
        html, _ = draw(runs, rounds=2, hands_per_round=2)
    svg = svg_of(html)
    for path in svg.iter(f"{SVG}path"):
        assert "," not in path.get("d")
    assert [t.text for t in svg.findall(f".//{SVG}tspan[@class='chart-total']")] == ["13,25"]  # the figure is


def test_nice_steps_and_spreading():
    assert charts.nice_step(9) == 2 and charts.nice_step(24) == 5 and charts.nice_step(130) == 50
    assert charts.nice_step(0) == 1 and charts.nice_step(3) == 1
    assert charts.spread([100, 100, 100], gap=10, low=0, high=500) == [100, 110, 120]
    assert charts.spread([500, 500], gap=10, low=0, high=500) == [490, 500]


# --- on the screen ----------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytest.fixture
def linked(evening, organiser):
    return screens.issue_screen_link(actor=organiser, event=evening)


def screen_html(client, event):
    return client.get(f"/screen/{screen_token(event)}/").content.decode()


def play(table, hand, ns):
    """A hand entered and confirmed: the live standings count confirmed hands only."""
    seats.enter(table=table, seat="N", hand_number=hand, ns_tricks=ns, trump="H")
    seats.enter(table=table, seat="E", hand_number=hand, ns_tricks=ns, trump="H")


@pytestmark_db
def test_the_screen_shows_the_chart_while_playing_between_rounds_and_with_the_prizes(
        client, linked, table1, django_capture_on_commit_callbacks):
    html = screen_html(client, linked)
    assert 'data-state="playing"' in html and "data-chart" not in html  # no hand yet: nothing drawn
    with django_capture_on_commit_callbacks(execute=True):
        play(table1, 1, 9)
        play(Table.objects.get(event=linked, number=2), 1, 6)
    html = screen_html(client, linked)
    svg = svg_of(html)
    assert len(svg.findall(f".//{SVG}path[@class='chart-run']")) == 5
    assert html.index('class="side"') < html.index("data-chart")  # beside the standings
    assert html.index("<header") < html.index("data-chart") and "data-chart" not in html[:html.index("</header>")]
    names = [t.text for t in svg.findall(f".//{SVG}tspan[@class='chart-name']")][::-1]  # drawn leader last
    assert names[:2] == ["P1", "P3"]

    Round.objects.filter(event=linked, number=1).update(state=Round.State.CLOSED)
    html = screen_html(client, linked)
    assert 'data-state="between"' in html and "data-chart" in html

    Event.objects.filter(pk=linked.pk).update(phase=Event.Phase.FINISHED, prizes=["First"])
    assert "data-chart" not in screen_html(client, linked)
    Event.objects.filter(pk=linked.pk).update(phase=Event.Phase.RESULTS_PUBLISHED)
    html = screen_html(client, linked)
    assert 'data-state="published"' in html and 'class="chart chart-wide"' in html
    assert html.index('class="prizes"') < html.index("data-chart")


@pytestmark_db
def test_the_seating_state_has_no_chart(client, linked, table1):
    from tests.scoring.conftest import seat_round

    play(table1, 1, 9)
    first, second = linked.evening_rounds.order_by("number")
    Round.objects.filter(pk=first.pk).update(state=Round.State.CLOSED)
    seat_round(second, {1: (5, 6, 7, 9), 2: (2, 1, 4, 8)}, sit_out=(3,))
    Round.objects.filter(pk=second.pk).update(state=Round.State.SEATED)
    html = screen_html(client, linked)
    assert 'data-state="seating"' in html and "data-chart" not in html


@pytestmark_db
def test_the_chart_agrees_with_the_stored_standings(evening, table1):
    play(table1, 1, 9)
    play(table1, 2, 6)
    ranking.recompute_standings(event_id=evening.pk)
    stored = {s.entrant_id: s for s in evening.standings.all()}
    runs = leaders(evening)
    assert len(runs) == 5
    ordered = sorted(stored.values(), key=lambda s: (s.place, s.entrant.number))
    assert [run.entrants[0] for run in runs] == [s.entrant_id for s in ordered[:5]]
    for r in runs:
        assert r.total == stored[r.entrants[0]].total
    sit_out = next(r for r in runs if r.name == "P9")  # the room's average, 6.5 a hand (rule D5)
    assert [y for _, y in sit_out.points] == [0, Decimal("6.50"), Decimal("13.00")]


@pytestmark_db
def test_leaders_reads_a_handful_of_queries_whatever_the_room(evening, table1, django_assert_max_num_queries):
    play(table1, 1, 9)
    with django_assert_max_num_queries(5):
        assert len(leaders(evening)) == 5


@pytestmark_db
def test_a_pair_drive_names_its_pairs(make_event, django_assert_max_num_queries):
    from tests.scoring.conftest import seat_round

    event = make_event(hands_per_round=2, rounds=1, phase=Event.Phase.IN_PROGRESS, movement_kind="pairs")
    names = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan"}
    for number, name in names.items():
        Entrant.objects.create(event=event, player=Player.objects.create(display_name=name), number=number)
    table = Table.objects.create(event=event, number=1)
    seat_round(Round.objects.create(event=event, number=1), {1: (1, 2, 3, 4)})
    play(table, 1, 9)
    with django_assert_max_num_queries(7):
        runs = leaders(event)
    assert [(r.name, r.total) for r in runs] == [("Ann & Cat", 9), ("Bob & Dan", 4)]


@pytestmark_db
def test_the_chart_is_computed_once_per_stored_standings(linked, table1, monkeypatch,
                                                         django_capture_on_commit_callbacks):
    """Every screen refreshes up to four times a second: the runs (as costly as the
    standings themselves) are computed once per recomputation and reused until the next."""
    computed = []
    real = screen_reads.leaders
    monkeypatch.setattr(screen_reads, "leaders", lambda event: computed.append(event.pk) or real(event))
    with django_capture_on_commit_callbacks(execute=True):
        play(table1, 1, 9)
    first = screens.screen_state(event=linked)["chart"]
    assert screens.screen_state(event=linked)["chart"] == first and len(computed) == 1
    with django_capture_on_commit_callbacks(execute=True):
        play(table1, 2, 4)  # a new recomputation, a new stamp: drawn anew
    second = screens.screen_state(event=linked)["chart"]
    assert len(computed) == 2 and second != first
    assert second == charts.chart(real(linked), rounds=1, hands_per_round=linked.hands_per_round, frame="side")
