"""Template tags online play lends to pages of lower floors: the event page and the
player's evening link to their online table; the login page says whose table an
invitation link opens."""
from __future__ import annotations

import re
import secrets
from urllib.parse import parse_qs, urlsplit

from django import template
from django.utils.translation import gettext as _

from drive.games.models import PlayTable
from drive.games.selectors.evening import my_online_table
from drive.play.views.presets import preset_label

register = template.Library()
TABLE_PATH = re.compile(r"^/play/(\d+)/$")


@register.simple_tag
def online_table_of(user, event) -> str | None:
    """The page of the user's online table in the evening's round in play, or None."""
    return my_online_table(user=user, event_id=event.pk)


@register.simple_tag
def invite_note(next_url: str) -> str:
    """"Ann invites you to a table of Short whist, to 5 points" when the page after sign-in
    is a table's invitation link (its secret right), else ""."""
    parts = urlsplit(next_url or "")
    match = TABLE_PATH.match(parts.path)
    invite = (parse_qs(parts.query).get("invite") or [""])[0]
    if match is None or not invite:
        return ""
    table = (PlayTable.objects.select_related("created_by").filter(pk=int(match.group(1)), event__isnull=True,
                                                                   finished_at__isnull=True).first())
    if table is None or not secrets.compare_digest(table.invite, invite):
        return ""
    creator = table.created_by
    name = ""
    if creator is not None:  # hasattr is False when the account has no player
        name = (creator.player.display_name if hasattr(creator, "player") else "") or (
            creator.get_full_name() or creator.get_username())
    rules = table.rules if isinstance(table.rules, str) else table.rules.get("name", "")
    game = preset_label(rules)
    game = game[:1].lower() + game[1:]  # inside the sentence
    if not name:
        return _("You are invited to a table of %(game)s.") % {"game": game}
    return _("%(name)s invites you to a table of %(game)s.") % {"name": name, "game": game}
