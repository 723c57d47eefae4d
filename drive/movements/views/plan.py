"""The organiser's movement page: the plan with its quality report, and printable cards."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from drive.events.access import organised_event
from drive.core.seats import seat_letter

from drive.movements.selectors.movements import cards, movement_plan, quality_rows

MAX_PREVIEW_PLAYERS = 400


def _players(value):
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 4 <= number <= MAX_PREVIEW_PLAYERS else None


def _name(plan, number):
    """The player's name; a preview has numbers only, written as the cards write them."""
    return plan["names"].get(number) or f"№ {number}"


@login_required
def movement_page(request, event_id):
    event = organised_event(request.user, event_id)
    plan = movement_plan(event, players=_players(request.GET.get("players")))
    seats = [seat_letter(s) for s in "NESW"]  # С В Ю З in Russian
    rounds = [
        {"number": k, "tables": [{"table": i, "seats": [(s, _name(plan, p)) for s, p in zip(seats, t)]}
                                 for i, t in enumerate(r.tables, start=1)],
         "sit_out": [_name(plan, p) for p in r.sit_out]}
        for k, r in enumerate(plan["rounds"], start=1)
    ]
    printed = cards(plan)
    for card in printed["players"]:
        for row in card["rows"]:
            row["seat"] = seat_letter(row.get("seat") or "")
    context = {"event": event, "plan": plan, "rounds": rounds, "cards": printed, "seats": seats,
               "quality": quality_rows(plan["quality"])}
    return render(request, "movements/plan.html", context)
