"""endplay's own API, the outside oracle of the double-dummy tests (test_dds_agreement,
test_analysis), imported when a test first asks for it: endplay pulls numpy and
matplotlib, about 0.5 s of CPU that every test process would pay at collection though
one of them runs these tests. (For its cost, not to dodge a cycle.)"""
from functools import cache
from types import SimpleNamespace

from engine.cards import NO_TRUMP, RANK_LETTERS


@cache
def endplay() -> SimpleNamespace:
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Card, Deal, Denom, Player
    return SimpleNamespace(solve_board=solve_board, SolveMode=SolveMode, Card=Card, Deal=Deal, Denom=Denom,
                           Player=Player)


def pbn(hands) -> str:
    """Our masks map straight onto DDS's layout: 13 bits a suit, S H D C."""
    def one(mask):
        return ".".join("".join(RANK_LETTERS[r] for r in range(12, -1, -1)
                                if mask >> (13 * s + r) & 1) for s in range(4))
    return "N:" + " ".join(one(h) for h in hands)


def dds_deal(hands, first: int, trump: int):
    """An endplay deal of these four hands, ``first`` to lead, ``trump`` (ours) as trumps."""
    ep = endplay()
    deal = ep.Deal(pbn(hands))
    deal.first = ep.Player(first)
    deal.trump = ep.Denom(4 if trump == NO_TRUMP else trump)
    return deal


def best_tricks(hands, first: int, trump: int) -> int:
    """The tricks the side of ``first`` takes from here with perfect play, by endplay."""
    ep = endplay()
    return max(score for _, score in ep.solve_board(dds_deal(hands, first, trump), ep.SolveMode.OptimalAll))
