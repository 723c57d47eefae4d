"""What an online table tells the floors above it, without knowing them (DESIGN: a lower
floor learns nothing of a higher one; the higher one listens). The evening (drive.scoring)
hears its tables' hands this way and counts them in its results.

Both are sent in the transaction that made the change (a receiver's error undoes it, as a
refused card would), with sender=PlayTable:

- `hand_finished`: a hand was scored, before the next is dealt. table=<PlayTable>,
  hand=<the game's hands played>, tricks=<{side: tricks}, e.g. {"NS": 7, "EW": 6}>, trump=<"S", "H", "D", "C", "NT" or None>,
  by_robots=<robots played it out at the round's close or deadline>, stood_in=<a robot
  played for a person in it>.
- `table_finished`: the table's game is over. table=<PlayTable>.
"""
from __future__ import annotations

from django.dispatch import Signal

hand_finished = Signal()
table_finished = Signal()
