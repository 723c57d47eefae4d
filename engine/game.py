"""Games and rubbers (rules S7.2, S7.3, S9, L2, L2b, L3, L6, L9, L10)."""

import random
from collections.abc import Iterable, Sequence

from .errors import EngineError
from .rules import SHORT, Ruleset
from .scoring import HandScore, Pair, game_value, score_hand



class GameOver(EngineError):
    """A hand was added after the game (or rubber) was already decided."""


class Game:
    """One game: points below the line add up until a side reaches the target
    after a hand (S7.2; L3 targets 5, 7, 10). There is no draw: only one side
    scores tricks in a hand, and when the other reaches the target on honours
    counted like tricks (L4) in the same hand, the tricks count first. The
    ruleset is fixed for the whole game (S9)."""

    def __init__(self, rules: Ruleset = SHORT, start: Pair = (0, 0), special_suit: int | None = None) -> None:
        self._rules = rules
        self.below = list(start)      # enfilade carry (L10) starts a game above zero
        self.above = [0, 0]
        self.special_suit = special_suit  # turned at the start of the game (L9)
        self.hands: list[HandScore] = []
        self.winner: int | None = None

    @property
    def rules(self) -> Ruleset:
        return self._rules

    def add_hand(self, tricks: Sequence[int], *, deal_hands: Sequence[int] | None = None,
                 trump: int | None = None, revoke_by: int | None = None) -> HandScore:
        if self.winner is not None:
            raise GameOver("the game is already won")
        hs = score_hand(tricks, self._rules, deal_hands=deal_hands, trump=trump,
                        special_suit=self.special_suit, revoke_by=revoke_by)
        return self.add_score(hs)

    def add_score(self, hs: HandScore) -> HandScore:
        """Write a hand scored elsewhere (two-handed honours, Humburg's
        multiplier: P1-P3); the game is won as by ``add_hand``."""
        if self.winner is not None:
            raise GameOver("the game is already won")
        below, above = self.below, self.above
        below[0] += hs.below[0]
        below[1] += hs.below[1]
        above[0] += hs.above[0]
        above[1] += hs.above[1]
        self.hands.append(hs)
        target = self._rules.target
        if below[0] >= target and below[1] >= target:
            # one side there by its tricks, the other by honours counted like tricks
            # (L4): tricks score before honours, so the side of the tricks wins
            by_honours = {side for what, side, _ in hs.items if what == "honours"}
            self.winner = next((s for s in (0, 1) if s not in by_honours), 0)
        elif below[0] >= target:
            self.winner = 0
        elif below[1] >= target:
            self.winner = 1
        return hs

    @property
    def carry(self) -> Pair:
        """Points beyond the target carried to the next game (L10 enfilade)."""
        if self.winner is None or not self._rules.enfilade:
            return (0, 0)
        extra = self.below[self.winner] - self._rules.target
        return (extra, 0) if self.winner == 0 else (0, extra)

    @property
    def value(self) -> int:
        """Single, double or treble (L2b), once won."""
        if self.winner is None:
            return 0
        return game_value(self.below[1 - self.winner], self._rules)


def play_game(rules: Ruleset, tricks_per_hand: Iterable[Sequence[int]]) -> tuple[Game, int]:
    """Score hands in order until one wins the game; returns the game and
    the number of hands used (later hands are ignored)."""
    game = Game(rules)
    used = 0
    for tricks in tricks_per_hand:
        game.add_hand(tuple(tricks))
        used += 1
        if game.winner is not None:
            break
    return game, used


class Rubber:
    """Best of three games (L2): the third is not played after 2-0.
    Players cut again for partners afterwards (``deal.cut_for_partners``)."""

    def __init__(self, rules: Ruleset, rng: random.Random | None = None) -> None:
        if not rules.rubbers:
            raise EngineError(f"rules {rules.name!r} do not play rubbers")
        self._rules = rules
        self._rng = rng
        self.games = [Game(rules, special_suit=self._turn_special())]
        self.winner: int | None = None      # the side that won two games, once one has (_next_game)

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def current(self) -> Game:
        return self.games[-1]

    def _turn_special(self) -> int | None:
        """A special suit is turned at the start of each game (L9)."""
        return self._rng.randrange(4) if self._rules.special_suit and self._rng else None

    @property
    def games_won(self) -> Pair:
        ns = ew = 0
        for g in self.games:         # asked after every hand: no lists made
            if g.winner == 0:
                ns += 1
            elif g.winner == 1:
                ew += 1
        return (ns, ew)

    @property
    def cut_again(self) -> bool:
        """After each rubber the players cut again for partners (L2)."""
        return self.winner is not None

    def add_hand(self, tricks: Sequence[int], *, deal_hands: Sequence[int] | None = None,
                 trump: int | None = None, revoke_by: int | None = None) -> HandScore:
        if self.winner is not None:
            raise GameOver("the rubber is already won")
        hs = self.current.add_hand(tricks, deal_hands=deal_hands, trump=trump, revoke_by=revoke_by)
        return self._next_game(self.current, hs)

    def add_score(self, hs: HandScore) -> HandScore:
        """Write a hand scored elsewhere (P1-P3), as ``add_hand``."""
        if self.winner is not None:
            raise GameOver("the rubber is already won")
        return self._next_game(self.current, self.current.add_score(hs))

    def _next_game(self, game: Game, hs: HandScore) -> HandScore:
        """After a hand: a game won ends the rubber at two games won, else the next begins."""
        if game.winner is not None and self.winner is None:
            won = self.games_won
            if 2 in won:
                self.winner = won.index(2)
            else:
                self.games.append(Game(self._rules, start=game.carry, special_suit=self._turn_special()))
        return hs

    def points(self) -> Pair:
        """The rubber's score, as points for each side (net: one is zero).

        English (L2b): the winners score the values of their games plus the
        rubber bonus, less the value of a game the losers won.
        Russian (L5, L6): every point above and below the line, plus the game
        bonus per game won and the rubber bonus; the difference is the result.
        """
        w = self.winner
        if w is None:
            raise GameOver("the rubber is not finished")
        r = self._rules
        done = [g for g in self.games if g.winner is not None]
        if r.game_values == "russian":
            tot = [0, 0]
            for g in self.games:
                for s in (0, 1):
                    tot[s] += g.below[s] + g.above[s]
            for won in (g.winner for g in done if g.winner is not None):
                tot[won] += r.game_bonus
            tot[w] += r.rubber_bonus
            d = tot[0] - tot[1]   # a game may be won "with nothing" (seed 001)
            return (max(d, 0), max(-d, 0))
        net = r.rubber_bonus + sum(g.value if g.winner == w else -g.value for g in done)
        return (net, 0) if w == 0 else (0, net)

