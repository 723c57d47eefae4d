"""bench/engine.py's lean per-action state, the ceiling the game state is read against, plays
short whist as the engine does: the same legal actions, tricks and record for the same
deal and choices, and an illegal action refused with nothing changed."""
import importlib.util
import random
from pathlib import Path

import pytest

from engine.actions import parse_action
from engine.cards import CARD_TEXT, SUIT_OF
from engine.deal import dealt_masks
from engine.play import HandState

spec = importlib.util.spec_from_file_location("bench_engine", Path(__file__).parents[2] / "bench" / "engine.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


@pytest.mark.parametrize("seed", range(20))
def test_the_lean_state_plays_as_the_engine(seed):
    dealer = seed & 3
    lean = bench.LeanHand(random.Random(seed), dealer)
    hands, last = dealt_masks(random.Random(seed), dealer)
    core = HandState(hands, dealer, SUIT_OF[last], last)
    choose = random.Random(seed + 100)
    while lean.playing:
        legal = lean.legal_actions()
        assert legal == core.legal_actions()
        action = legal[choose.randrange(len(legal))]
        lean.apply(action)
        core.play(action.card)
    assert core.complete
    assert lean.tricks == core.tricks
    assert lean.record == [CARD_TEXT[c] for c in core.plays]


def test_the_lean_state_refuses_before_it_changes_anything():
    lean = bench.LeanHand(random.Random(3), 0)
    lead = next(a for a in lean.legal_actions()         # a lead the next seat can follow
                if lean.hands[(lean.turn + 1) & 3] >> 13 * SUIT_OF[a.card] & 0x1FFF)
    lean.apply(lead)
    held, led = lean.hands[lean.turn], SUIT_OF[lead.card]
    renounce = next(c for c in range(52) if held >> c & 1 and SUIT_OF[c] != led)
    not_held = next(c for c in range(52) if not held >> c & 1 and c != lead.card)
    before = (list(lean.hands), lean.turn, lean.n, list(lean.record))
    for wrong in (CARD_TEXT[renounce], CARD_TEXT[not_held], "pass"):
        with pytest.raises(ValueError):
            lean.apply(parse_action(wrong))
    assert (list(lean.hands), lean.turn, lean.n, list(lean.record)) == before
