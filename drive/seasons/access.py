"""Who may read a player's history and grade: the player (the account of the record) and
the organisers of the player's clubs (drive.seasons.selectors.history.player_clubs); the
site's superusers as everywhere. Anyone else is refused (403), anonymous visitors first."""
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.errors import Forbidden
from drive.events.access import require_login
from drive.events.models import Club, Player
from drive.seasons.selectors import history as selectors


def may_read_history(user: User | None, player: Player) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser or (player.user_id is not None and player.user_id == user.pk):
        return True
    return Club.objects.filter(pk__in=selectors.player_clubs(player), organisers=user).exists()


def history_player(user: User | None, player_id: int) -> Player:
    """The player whose history `user` asks for: 403 for an anonymous visitor, 404 for no
    such player, 403 for someone who is neither the player nor an organiser of their clubs."""
    require_login(user)
    player = selectors.player_by_id(player_id)
    if not may_read_history(user, player):
        raise Forbidden(_("Only the player and the organisers of their clubs may see this history."))
    return player
