"""python manage.py movement --players V --kind individual|pairs [--rounds R] --json

An exact contract (issue 4): outside checks read its JSON.
"""
import json

from django.core.management.base import BaseCommand, CommandError

from drive.movements.build import build_movement


class Command(BaseCommand):
    help = "Print a movement for V players: a whist design, optimised rounds, or a pairs round robin."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--kind", choices=("individual", "pairs"), required=True)
        parser.add_argument("--rounds", type=int, default=None)
        parser.add_argument("--time-budget", type=float, default=1.0, help="seconds for the optimiser")
        parser.add_argument("--json", action="store_true", help="print JSON (the default, and the contract)")

    def handle(self, *args, players, kind, rounds, time_budget, **opts):
        try:
            movement = build_movement(players, kind, rounds, time_budget=time_budget)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(movement.to_json(movement.meta["quality"])))
