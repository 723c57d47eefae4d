"""Seats and sides: the one definition for the engine and the service.

Four seats clockwise; North-South partner East-West (rule S1). Seats are letters at the
edges (records, the API, the database) and indexes 0-3 inside the play core.
"""
from typing import Literal

Seat = Literal["N", "E", "S", "W"]
SEATS: tuple[Seat, ...] = ("N", "E", "S", "W")  # clockwise, index = seat number in the play core
SIDES = ("NS", "EW")
SIDE_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
