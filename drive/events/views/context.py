from drive.events.selectors.events import organised_clubs


def organiser_flag(request):
    """Lets the navigation show the console link to organisers only."""
    user = getattr(request, "user", None)
    return {"is_organiser": bool(user and user.is_authenticated and organised_clubs(user).exists())}
