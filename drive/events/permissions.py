"""Who may do what. Every service checks here; views only ask to show buttons."""
from django.utils.translation import gettext as _

from drive.errors import Forbidden


def is_organiser(user, club):
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.organisers.filter(pk=user.pk).exists()


def require_organiser(user, club):
    if not is_organiser(user, club):
        raise Forbidden(_("Only the club's organisers may do this."))


def may_create_club(user) -> bool:
    """The admin's rule, the only page that makes clubs: an active staff account with the
    add-club permission (a superuser has every permission)."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_active and user.is_staff and user.has_perm("events.add_club")


def require_club_creator(user):
    if not may_create_club(user):
        raise Forbidden(_("Only site staff allowed to add clubs may create one."))


def require_login(user):
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
