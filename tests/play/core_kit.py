"""Shared helpers of the online-play tests: tables made through the services, the game
read back from the record, and the cards a seat may not see."""
import json

from drive.games.models import PlayTable
from drive.games.selectors.tables import game_of
from drive.games.services import tables

THREE_ROBOTS = {"E": "rules", "S": "rules", "W": "rules"}
# A seed for the seeded_deals fixture: short whist's first legal (or last legal) action
# against three rules robots ends the game in two hands (random deals gave one to five).
TWO_HAND_GAME = 7


def robot_table(user, rules="short", robots=None, capture=None, **extra) -> PlayTable:
    """A table with `user` at N and robots elsewhere (robots' moves run when `capture` is
    django_capture_on_commit_callbacks)."""
    if capture is None:
        return tables.create_table(user=user, rules=rules, robots=robots or THREE_ROBOTS, **extra)
    with capture(execute=True):
        return tables.create_table(user=user, rules=rules, robots=robots or THREE_ROBOTS, **extra)


def four_people(make_user, rules="short"):
    """A table of four people, seat letter -> user, no robots."""
    people = {seat: make_user(f"{rules}-{seat}") for seat in "NESW"}
    table = tables.create_table(user=people["N"], rules=rules, robots={}, seat="N")
    for seat in "ESW":
        tables.take_seat(user=people[seat], table_id=table.pk, seat=seat, invite=table.invite)
    return table, people


def fresh(table) -> PlayTable:
    return PlayTable.objects.get(pk=table.pk)


def hidden_cards(table, seat) -> set[str]:
    """Cards other seats hold that `seat` may not see: their hands, less what lies face
    up (dummies, the turned trump card)."""
    game = game_of(fresh(table))
    public = json.dumps({k: v for k, v in game.view(seat).items() if k in ("open_hands", "trump_card")})
    hidden = set()
    for other in game.variant.seats:
        if other != seat:
            hidden |= {card for card in game.view(other)["hand"] if card not in public}
    return hidden


def shown_cards(view) -> set[str]:
    """Every card-like token anywhere in a view's JSON, except its last finished hand."""
    text = json.dumps({k: v for k, v in view.items() if k != "last_record"})
    return {token.strip('"[]{},: ') for token in text.split() if len(token.strip('"[]{},: ')) == 2}
