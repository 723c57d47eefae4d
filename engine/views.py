"""What one seat may see of a hand (hidden information, rule S5, L2c)."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:  # play.py builds its views here
    from .play import HandState

Played: TypeAlias = tuple[int, int]                 # (seat, card)
Quitted: TypeAlias = tuple[int, list[int], int]     # a completed trick: (leader, cards, winner)
Seen: TypeAlias = tuple[int, Sequence[int], int | None]  # a completed trick as a robot recalls it


class CardView(Protocol):
    """What the fast card play reads of a seat's view: ``SeatView``, the match's
    ``LiveView`` and the sampler's replayed views all have it."""

    @property
    def seat(self) -> int: ...
    @property
    def hand(self) -> int: ...
    @property
    def trump(self) -> int: ...
    @property
    def current_trick(self) -> Sequence[Played]: ...
    @property
    def quitted_tricks(self) -> Sequence[Seen]: ...
    @property
    def played(self) -> int: ...


@dataclass(frozen=True)
class SeatView:
    seat: int
    hand: int                 # own cards still held (mask)
    to_play: int | None
    legal: tuple[int, ...]    # own legal cards when it is this seat's turn, else ()
    trump: int
    trump_card: int | None    # the turned card while it still shows (S5)
    current_trick: list[Played]  # [(seat, card)] of the trick in progress
    quitted_tricks: list[Quitted]  # the last ``look_back`` completed tricks (L2c)
    played: int               # every card played so far (mask): all saw them fall
    tricks: tuple[int, ...]   # (N-S, E-W)
    dealer: int
    open_hands: dict[int, int]  # seat -> mask of hands lying open (a dummy, L12)


def seat_view(state: "HandState", seat: int, look_back: int = 1,
              open_seats: Iterable[int] = ()) -> SeatView:
    done = len(state.winners)
    shown = [state.trick(t) for t in range(max(0, done - look_back), done)]
    mine = state.to_play == seat
    return SeatView(
        seat=seat,
        hand=state.hands[seat],
        to_play=state.to_play,
        legal=state.legal_moves() if mine else (),
        trump=state.trump,
        trump_card=state.trump_card if state.trump_card_visible else None,
        current_trick=state.current_trick(),
        quitted_tricks=shown,
        played=state.played_mask(),
        tricks=tuple(state.tricks),
        dealer=state.dealer,
        open_hands={s: state.hands[s] for s in open_seats if s != seat},
    )
