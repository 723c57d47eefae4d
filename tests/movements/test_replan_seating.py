"""Late arrivals and leavers; table numbers, seats and pinned players."""
from drive.movements.algorithms.build import Budget, build_movement
from drive.movements.algorithms.individual import individual
from drive.movements.algorithms.quality import problems, report
from drive.movements.algorithms.replan import replan
from drive.movements.algorithms.seating import assign_tables, moves


def test_late_arrival_keeps_played_rounds_and_seated_players():
    plan, _ = individual(16, 8, budget=Budget(2_000))
    played, current = plan[:3], plan[3]
    seated = set(current.tables[0]) | set(current.tables[1])
    new = replan(played, list(range(1, 18)), 5, current=current, seated=seated, planned=plan[3:],
                 budget=Budget(5_000))
    assert len(new) == 5
    for t in current.tables[:2]:  # seated tables untouched
        assert t in new[0].tables
    assert not problems(new, 17)
    q = report(played + new, 17)
    assert q["partner_max"] <= 1 and q["opponent_max"] <= 2


def test_leaver_seat_is_filled_and_others_keep_their_seats():
    plan, _ = individual(21, 6, budget=Budget(2_000))
    current = plan[2]
    leaver = current.tables[0][1]
    present = [p for p in range(1, 22) if p != leaver]
    seated = set(current.tables[0]) - {leaver}
    new = replan(plan[:2], present, 4, current=current, seated=seated, budget=Budget(5_000))
    t0 = current.tables[0]
    kept = next(t for t in new[0].tables if t0[0] in t)
    assert [kept[i] for i in (0, 2, 3)] == [t0[i] for i in (0, 2, 3)] and kept[1] != leaver
    assert all(leaver not in r.players() for r in new)
    assert all(sorted(r.players()) == sorted(present) for r in new)


def test_seating_cuts_walking_and_keeps_the_design():
    plan, _ = individual(40, 10, budget=Budget(2_000))
    seated, clashes = assign_tables(plan)
    assert moves(seated) < moves(plan) and not clashes
    assert report(seated, 40) == report(plan, 40)  # rotations keep partners and left/right


def test_pinned_player_keeps_their_table():
    m = build_movement(24, "individual", rounds=8, pinned={7: 3}, budget=Budget(5_000))
    assert all(r.tables[2].count(7) == 1 for r in m.rounds)
    assert m.meta["quality"]["pin_clashes"] == []


def test_player_and_table_cards():
    from drive.movements.algorithms.schedule import player_card, table_card

    m = build_movement(13, "individual")
    card = player_card(m.rounds, 5)
    assert len(card) == 13 and sum(c["table"] is None for c in card) == 1
    partners = [c["partner"] for c in card if c["partner"]]
    assert sorted(partners) == [p for p in range(1, 14) if p != 5]  # each other player once
    assert table_card(m.rounds, 1)[0]["N"] == m.rounds[0].tables[0][0]
