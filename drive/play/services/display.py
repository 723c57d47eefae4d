"""A person's display preference (issue 20): a four-colour deck, high contrast. Only
the person themselves sets theirs; a value left out keeps what was stored."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from drive.core.accounts import User
from drive.core.errors import Forbidden, Invalid
from drive.games.access import signed_in
from drive.play.models import PlayerDisplay
from drive.play.selectors.display import Display, display_of


@transaction.atomic
def set_display(*, actor: User | None, owner: User | None = None, four_colour: bool | None = None,
                high_contrast: bool | None = None) -> Display:
    """Store `actor`'s choice (or `owner`'s, which must be the actor: nobody changes
    another person's display) and answer the preference as now stored."""
    account = signed_in(actor)
    if owner is not None and owner.pk != account.pk:
        raise Forbidden(_("You may change only your own display."))
    changes = {}
    for field, value in (("four_colour", four_colour), ("high_contrast", high_contrast)):
        if value is None:
            continue
        if not isinstance(value, bool):
            raise Invalid(_("Must be true or false."), field=field)
        changes[field] = value
    row, _created = PlayerDisplay.objects.select_for_update().get_or_create(user=account)
    if changes:
        for field, value in changes.items():
            setattr(row, field, value)
        row.save()
    return display_of(user=actor)
