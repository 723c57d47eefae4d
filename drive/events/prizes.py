"""An event's prizes (rule D4): each one a name and a kind the organiser chose.

The kind says who a prize goes to; the name is only what the room reads ("Regent Street
voucher" is whatever kind the organiser said, never guessed from its words). Prizes
saved before kinds existed were plain names: `legacy_kind` is the guess the results
page used to make from them, kept only to convert such rows (old backups) faithfully.
"""
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from drive.core.errors import Invalid

NAME_MAX = 80
MOST = 50  # prizes an evening can list


class PrizeKind(models.TextChoices):
    OVERALL = "overall", gettext_lazy("overall")
    LADIES = "ladies", gettext_lazy("ladies")
    GENTS = "gents", gettext_lazy("gents")
    HALF_TIME = "half_time", gettext_lazy("half-time")
    BOOBY = "booby", gettext_lazy("booby")


# The category of player a kind's list is drawn from (Player.Category values).
CATEGORY_OF: dict[str, str] = {PrizeKind.LADIES: "lady", PrizeKind.GENTS: "gent"}  # a prize's kind, stored as text

# The old guess from a prize's name: these words marked the special ones.
_BOOBY_WORDS = ("booby", "утеш", "втіш")
_HALF_WORDS = ("half", "полов")
_LADY_WORDS = ("lady", "ladies", "дам", "женщ", "жін")
_GENT_WORDS = ("gent", "джент", "мужч", "чолов")


def legacy_kind(name: str) -> str:
    """The kind a prize saved as a bare name was given when kinds were guessed from names."""
    lowered = name.lower()
    if any(w in lowered for w in _BOOBY_WORDS):
        return PrizeKind.BOOBY
    if any(w in lowered for w in _HALF_WORDS):
        return PrizeKind.HALF_TIME
    if any(w in lowered for w in _LADY_WORDS):
        return PrizeKind.LADIES
    if any(w in lowered for w in _GENT_WORDS):
        return PrizeKind.GENTS
    return PrizeKind.OVERALL


def from_legacy(prizes) -> list:
    """A stored prize list with any bare name turned into {name, kind} (see `legacy_kind`);
    prizes that already have a kind are kept as they are."""
    return [{"name": p, "kind": str(legacy_kind(p))} if isinstance(p, str) else p for p in prizes or []]


def prize_list(event) -> list[dict]:
    """The event's prizes as {name, kind}, in the organiser's order."""
    return from_legacy(event.prizes)


def clean_prizes(prizes) -> list[dict]:
    """The prizes as the services store them, or Invalid naming the first bad one."""
    if not isinstance(prizes, list):
        raise Invalid(_("Prizes must be a list of prizes, each with a name and a kind."), field="prizes")
    if len(prizes) > MOST:
        raise Invalid(_("At most %(n)s prizes.") % {"n": MOST}, field="prizes")
    cleaned = []
    for number, prize in enumerate(prizes, start=1):
        if not isinstance(prize, dict) or set(prize) - {"name", "kind"}:
            raise Invalid(_("Prize %(n)s: give a name and a kind.") % {"n": number}, field="prizes")
        name, kind = prize.get("name"), prize.get("kind")
        if not isinstance(name, str) or not name.strip():
            raise Invalid(_("Prize %(n)s: give it a name.") % {"n": number}, field="prizes")
        if len(name.strip()) > NAME_MAX:
            raise Invalid(_("Prize %(n)s: keep the name under %(max)s characters.") % {"n": number, "max": NAME_MAX},
                          field="prizes")
        if kind not in PrizeKind.values:
            raise Invalid(_("Prize %(n)s: the kind must be one of %(kinds)s.")
                          % {"n": number, "kinds": ", ".join(PrizeKind.values)}, field="prizes")
        cleaned.append({"name": name.strip(), "kind": kind})
    return cleaned


# The usual names, as the demo writes them: a prize named by one of them (alone, or before
# ": " and the gift) reads in the room's language; any other name is shown as typed.
USUAL_NAMES = (gettext_noop("First prize"), gettext_noop("Second prize"), gettext_noop("Third prize"),
               gettext_noop("Ladies' prize"), gettext_noop("Gents' prize"), gettext_noop("Half-time prize"),
               gettext_noop("Booby prize"))


def shown_name(name: str) -> str:
    """"Booby prize: wooden spoon" -> "Утешительный приз: wooden spoon" in Russian."""
    head, colon, gift = str(name).partition(": ")
    return _(head) + colon + gift if head in USUAL_NAMES else name
