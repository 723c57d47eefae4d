"""Who may do what. Every service checks here; views only ask to show buttons."""
from django.utils.translation import gettext as _

from drive.core.errors import Forbidden


def is_organiser(user, club):
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return club.organisers.filter(pk=user.pk).exists()


def require_organiser(user, club):
    if not is_organiser(user, club):
        raise Forbidden(_("Only the club's organisers may do this."))


def require_login(user):
    if user is None or not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
