"""python manage.py movement --players V --kind individual|pairs [--rounds R] [--seed S] --json

An exact contract: outside checks read its JSON. The same arguments print the
same movement on any machine (the search spends steps, not seconds); quality.search
gives the seed, the steps taken and whether the safety net in seconds cut it short.
"""
import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from drive.movements.algorithms.build import Budget, build_movement


class Command(BaseCommand):
    help = "Print a movement for V players: a whist design, optimised rounds, or a pairs round robin."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--kind", choices=("individual", "pairs"), required=True)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--work-budget", type=int, default=None,
                            help="annealing steps for the optimiser (default: MOVEMENT_WORK_BUDGET)")
        parser.add_argument("--seed", type=int, default=0, help="the search's seed: another seed, another movement")
        parser.add_argument("--safety-seconds", type=float, default=None,
                            help="wall-clock safety net, reported when hit (default: MOVEMENT_SAFETY_SECONDS)")
        parser.add_argument("--json", action="store_true", help="print JSON (the default, and the contract)")

    def handle(self, *args, players, kind, rounds, work_budget, seed, safety_seconds, **opts):
        budget = Budget(work_budget or settings.MOVEMENT_WORK_BUDGET, safety_seconds or settings.MOVEMENT_SAFETY_SECONDS)
        try:
            movement = build_movement(players, kind, rounds, budget=budget, seed=seed)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(movement.to_json(movement.meta["quality"])))
