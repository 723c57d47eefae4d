"""Accounts and their players: sign-up, and the player record of a logged-in user."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from drive.core.errors import Invalid
from drive.core.names import clean_name
from drive.core.accounts import Account, User
from drive.events.access import require_login
from drive.events.models import Player


def player_for_user(*, user: User) -> Player:
    """The player record of a logged-in user, created on first use."""
    account = require_login(user)
    player = Player.objects.filter(user=account).first()
    if player:
        return player
    name = account.get_full_name() or account.get_username()
    try:
        with transaction.atomic():
            return Player.objects.create(user=account, display_name=name[:80])
    except IntegrityError:  # created by a concurrent request of the same user
        return Player.objects.get(user=account)


def password_problems(*, password: str, username: object = None, email: object = None) -> list[str]:
    """What the site's password rules (AUTH_PASSWORD_VALIDATORS) find wrong with a new
    account's password, the username and email given for the similarity check."""
    account = get_user_model()(username=username if isinstance(username, str) else "",
                               email=email if isinstance(email, str) else "")
    try:
        validate_password(password, account)
    except ValidationError as exc:
        return list(exc.messages)
    return []


@transaction.atomic
def sign_up(*, username: str, password: str, email: str = "", display_name: str,
            language: str = "") -> Account:
    """A new user account with its player record (emails go out in `language`)."""
    User = get_user_model()
    username = clean_name(username, field="username")
    display_name = clean_name(display_name, field="display_name") if (display_name or "").strip() else ""
    if User.objects.filter(username__iexact=username).exists():
        raise Invalid(_("This username is taken."), field="username")
    problems = password_problems(password=password, username=username, email=email)
    if problems:
        raise Invalid(" ".join(problems), field="password")
    user = User.objects.create_user(username=username, password=password, email=email or "")
    language = language if language in dict(settings.LANGUAGES) else ""
    Player.objects.create(user=user, display_name=display_name[:80] or username, language=language)
    return user
