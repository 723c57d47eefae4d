"""The engine's presets as the lobby offers them, named in the reader's language."""
from __future__ import annotations

from django.utils.translation import gettext as _

from engine import VARIANTS


def labels() -> dict[str, str]:
    return {
        "short": _("Short whist, to 5 points"),
        "short7": _("Short whist, to 7 points"),
        "short10": _("Short whist, to 10 points"),
        "drive": _("Whist drive hands"),
        "drive_over_six": _("Whist drive hands, tricks over six"),
        "drive_rotation": _("Whist drive hands, trumps in rotation"),
        "drive_rotation_nt": _("Whist drive hands, trumps in rotation with no trump"),
        "long": _("Long whist, to 10 points"),
        "rubber": _("Whist, a rubber"),
        "russian": _("Russian whist"),
        "special_suit": _("Whist with a special suit"),
        "enfilade": _("Whist with an enfilade"),
        "no_trump": _("Whist without trumps"),
        "siberian": _("Siberian whist"),
        "siberian_200": _("Siberian whist, to 200"),
        "bid": _("Bid whist"),
        "bid_min3": _("Bid whist, bids from 3"),
        "dummy": _("Dummy whist, three players"),
        "double_dummy": _("Double dummy whist, two players"),
        "three_handed": _("Whist for three"),
        "two_handed": _("Whist for two"),
        "prussian": _("Prussian whist, two players"),
        "humbug": _("Humbug, two players"),
        "humburg": _("Humburg, two players"),
    }


def preset_label(name: str) -> str:
    return labels().get(name, name)


def presets() -> list[dict]:
    return [{"name": name, "label": preset_label(name), "seats": list(variant.seats)}
            for name, variant in VARIANTS.items()]


def quick_groups() -> list[dict]:
    """Every preset, by how many play it (four, three, two): the lobby's quick games."""
    every = presets()
    groups = ((4, _("Four players")), (3, _("Three players")), (2, _("Two players")))
    return [{"title": title, "presets": [p for p in every if len(p["seats"]) == count]}
            for count, title in groups]
