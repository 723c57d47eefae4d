"""The play advice of seed 001 (docs/rules.md part H) as tables on 13-bit holdings.

A holding is one suit's cards as bits in power order (bit 0 the lowest card,
bit 12 the ace in plain whist), so both the fast robot (bit masks of
``HandState``) and the general one (any ranking, mapped to power order) read
the same tables. Rules are cited as "seed 001, necessary rule N" (N1-N21) and
"additional rule N" (A1-A10), the seed's own numbering.
"""

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
_HONOUR_POINTS = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}


def _bits(h: int) -> list[int]:
    return [r for r in range(13) if h >> r & 1]


def top_sequence(h: int) -> int:
    """How many cards of the holding run down unbroken from its top."""
    if not h:
        return 0
    r, n = h.bit_length() - 1, 0
    while r >= 0 and h >> r & 1:
        n, r = n + 1, r - 1
    return n


def lead_rank(h: int) -> int:
    """The card to lead from a holding when nothing else is known."""
    ranks = _bits(h)
    n, top = len(ranks), ranks[-1]
    seq = top_sequence(h)
    if h >> ACE & 1 and h >> KING & 1:
        if h >> QUEEN & 1:
            return QUEEN                # the queen from A-K-Q (issue 13's summary of part H)
        return KING                     # seed 001, necessary rule 20: the king from A-K
    if seq >= 2 and top >= JACK:
        return top                      # seed 001, necessary rule 15: the higher of equal honours
    if n >= 4:
        return ranks[0]                 # seed 001, necessary rules 1 and 19: the lowest of a long suit
    if n == 3 and top in (ACE, KING, QUEEN):
        return ranks[0]                 # seed 001, necessary rule 18: not the ace, king or queen third
    return top                          # seed 001, necessary rules 2 and 18: the top of two or three


def lead_strength(h: int) -> int:
    """How good a suit is to open (seed 001, necessary rule 14: A-K, K-Q or a
    sequence; additional rules 1 and 7: suits with sequences first)."""
    if not h:
        return -1000
    n = bin(h).count("1")
    score = 2 * n
    seq = top_sequence(h)
    top = h.bit_length() - 1
    if h >> ACE & 1 and h >> KING & 1:
        score += 20                     # necessary rule 14
    elif h >> KING & 1 and h >> QUEEN & 1:
        score += 14                     # necessary rule 14
    elif seq >= 3 and top >= JACK:
        score += 10                     # necessary rule 14, additional rule 7
    if n <= 2 and top in (QUEEN, JACK):
        score -= 8                      # necessary rule 17: Q or J second only from a hopeless hand
    return score


def keep_value(h: int) -> int:
    """What a suit is worth keeping: honours, length, a tenace (additional
    rule 10: keep the suit with the first and third best cards). The first
    discard comes from the suit with the least (necessary rule 8)."""
    value = sum(p for r, p in _HONOUR_POINTS.items() if h >> r & 1) * 4 + bin(h).count("1")
    if h >> ACE & 1 and h >> QUEEN & 1 and not h >> KING & 1:
        value += 6                      # additional rule 10
    if h >> KING & 1 and not h >> QUEEN & 1 and bin(h).count("1") == 1:
        value -= 2                      # necessary rule 7: rather bare the king than the queen
    return value


LEAD_RANK = (0,) + tuple(lead_rank(h) for h in range(1, 8192))
LEAD_STRENGTH = tuple(lead_strength(h) for h in range(8192))
KEEP_VALUE = tuple(keep_value(h) for h in range(8192))

# How a lead is weighed beyond the suit's own strength (rules cited where used).
MASTER_BONUS = 40       # additional rule 2: when in doubt, take the trick
PARTNER_SUIT = 25       # necessary rule 16: return partner's suit
PARTNER_WEAK = 30       # necessary rule 8: not the suit partner discarded first
BOTH_OPPONENTS_VOID = 60  # necessary rule 13: not a suit neither opponent holds
ONE_OPPONENT_VOID = 15  # necessary rule 5: rather lead through weakness than strength
TRUMP_LEAD = 12         # necessary rule 4: trumps with four or more
NO_TRUMP_LEAD = 40      # necessary rule 4: not trumps with fewer than four
HONOUR = JACK           # the honours: J, Q, K, A
