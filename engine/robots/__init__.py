"""Robots for every variant: they see one seat's view and answer an action.

    robot = ROBOTS["rules"](seed=7)
    robot.choose(game.view(game.to_act))        # any variant (JSON view)
    robot.choose_card(hand_state.view(seat))    # plain whist, fast (SeatView)

``python -m engine match`` plays them against each other (match.py).
"""

from .base import LiveView, Robot
from .pimc import PimcRobot
from .random_robot import RandomRobot
from .rules import RulesRobot
from .strong import StrongRobot

ROBOTS: dict[str, type[Robot]] = {
    "random": RandomRobot,
    "rules": RulesRobot,
    "strong": StrongRobot,
    "pimc": PimcRobot,
}

__all__ = ["ROBOTS", "LiveView", "PimcRobot", "RandomRobot", "Robot", "RulesRobot", "StrongRobot"]
