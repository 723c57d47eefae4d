"""Progressive drives: round k+1's seating from round k's results (rule D4b).

Table 1 is the top table. `winners[i]` is "NS" or "EW" for the i-th table of
the round (ties are broken by the event's rule before calling). "Up" means
towards table 1. In every convention the table keeps four players; at a
table, the players who stay keep their seats where they can, the arrivals
take the others.

Conventions (each a named option of the event; names as the sources give them):
  winners_move   "progressive" (RULES D4b; the classic drive of the whist-drive
                 handbooks): winners move up one table and split, so partners
                 change every hand; the top table's winners stay, its losers go
                 to the bottom table. The winning "gent" (the N/E seat of the pair)
                 changes seat: each newcomer partners one who stayed.
  losers_move    the mirror image: losers move down one table and split; the
                 bottom table's losers stay and its winners go to the top.
  semi_partner   "semi-partner" (D4b): winners stay together at their table;
                 the losing lady moves up a table, the losing gent down (round
                 the ends), and the two newcomers partner each other.
  maidenhead     "Maidenhead" (D4b local variant): winners move, the gent
                 clockwise (one table up, round the room) and the lady
                 anticlockwise (one table down); losers stay and split.
  lady_up_gent_down  (D4b local variant) winning lady up one table, winning
                 gent down; the top lady and the bottom gent stay; losers stay
                 and split.
  partner        "partner" drive with fixed pairs (D4b): the winning pair moves
                 up together, the top table's winners stay, its losers go to the
                 bottom.
Gent/lady: the player in the N or E seat counts as the "gent" of a pair and S
or W as the "lady" unless `gents` (a set of players) says who the gents are.

Sit-outs (odd numbers, rule D5): those who sat out come back in, replacing
as many players who have sat out least (the lowest tables first), so
sit-outs stay within one over the evening.
"""
from __future__ import annotations

from drive.movements.algorithms.schedule import Round, Table, as_table

CONVENTIONS = ("winners_move", "losers_move", "semi_partner", "maidenhead", "lady_up_gent_down", "partner")


def sides(t: Table, winner: str):
    ns, ew = (t[0], t[2]), (t[1], t[3])
    return (ns, ew) if winner == "NS" else (ew, ns)


def gent_lady(pair, gents):
    a, b = pair
    if gents is not None and b in gents and a not in gents:
        return b, a
    return a, b


def seat(stay, arrive, split: bool) -> Table:
    """A table from two who stay and two who arrive; `split`: each arrival
    partners one who stayed, else the stayers stay partners."""
    (s1, s2), (a1, a2) = stay, arrive
    return (s1, a1, s2, a2) if not split else (s1, s2, a1, a2)


def next_tables(tables: list[Table], winners: list[str], convention: str, gents=None) -> list[Table]:
    n = len(tables)
    W = [sides(t, w)[0] for t, w in zip(tables, winners)]
    L = [sides(t, w)[1] for t, w in zip(tables, winners)]
    if n == 1 and convention != "partner":  # one table: winners split
        (w1, w2), (l1, l2) = W[0], L[0]
        return [(w1, w2, l1, l2)]
    if convention in ("winners_move", "partner"):
        split = convention == "winners_move"
        stay = [W[0]] + L[1:]
        arrive = [W[i + 1] for i in range(n - 1)] + [L[0]]
        return [seat(stay[i], arrive[i], split) for i in range(n)]
    if convention == "losers_move":
        stay = W[:-1] + [L[-1]]
        arrive = [W[-1]] + [L[i - 1] for i in range(1, n)]
        return [seat(stay[i], arrive[i], True) for i in range(n)]
    if convention == "semi_partner":
        lady = [gent_lady(p, gents)[1] for p in L]
        gent = [gent_lady(p, gents)[0] for p in L]
        # lady of table i+1 moves up to i; gent of table i-1 moves down to i
        return [seat(W[i], (lady[(i + 1) % n], gent[(i - 1) % n]), False) for i in range(n)]
    if convention == "maidenhead":
        gent = [gent_lady(p, gents)[0] for p in W]
        lady = [gent_lady(p, gents)[1] for p in W]
        return [seat(L[i], (gent[(i + 1) % n], lady[(i - 1) % n]), True) for i in range(n)]
    if convention == "lady_up_gent_down":
        gent = [gent_lady(p, gents)[0] for p in W]
        lady = [gent_lady(p, gents)[1] for p in W]
        # linear: the top lady and the bottom gent have nowhere to go and stay
        incoming = [(gent[i - 1] if i else lady[0], lady[i + 1] if i + 1 < n else gent[-1]) for i in range(n)]
        return [seat(L[i], incoming[i], True) for i in range(n)]
    raise ValueError(f"unknown convention {convention!r}; one of {CONVENTIONS}")


def next_progressive_round(current: Round, winners: list[str], convention: str = "winners_move", *,
                           gents=None, sit_out_counts: dict | None = None) -> Round:
    """Round k+1 from round k's seating and each table's winning side."""
    if len(winners) != len(current.tables):
        raise ValueError("one winner per table")
    tables = next_tables(list(current.tables), winners, convention, gents)
    back = list(current.sit_out)
    if not back:
        return Round(tuple(tables))
    counts = sit_out_counts or {}
    # who makes way: fewest sit-outs so far, lowest tables first
    order = sorted(
        ((counts.get(p, 0), -i, s, p) for i, t in enumerate(tables) for s, p in enumerate(t)),
    )
    leave = order[: len(back)]
    seats = [list(t) for t in tables]
    for (_, neg_i, s, p), q in zip(leave, back):
        seats[-neg_i][s] = q
    return Round(tuple(as_table(t) for t in seats), tuple(p for *_, p in leave))
