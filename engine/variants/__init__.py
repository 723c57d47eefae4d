"""The registry of variants: every game of docs/rules.md as a named preset.

    find_variant("siberian").new_game(rng=new_rng(1))
    for name, variant in VARIANTS.items(): ...

Each module of this package plays one family and lists its presets.
"""

from ..errors import EngineError
from ..rules import RulesError
from ..variant import Variant
from . import bid, classic, dummy, handed, prussian, siberian

VARIANTS: dict[str, Variant] = {v.name: v for family in (classic, siberian, bid, dummy, handed,
                                                         prussian)
                              for v in family.VARIANTS}


def find_variant(rules: object) -> Variant:
    """A preset by name, or ``{"name": preset, ...options}`` with options
    changed; raises RulesError naming the presets."""
    changes: dict[str, object]
    if isinstance(rules, str):
        name, changes = rules, {}
    elif isinstance(rules, dict) and isinstance(rules.get("name", "short"), str):
        changes = {k: v for k, v in rules.items() if k != "name"}
        name = rules.get("name", "short")
    else:
        raise RulesError(f"rules must be a preset name or an object, not {rules!r}")
    try:
        variant = VARIANTS[name]
    except KeyError:
        raise RulesError(f"unknown rules {name!r}; presets: {', '.join(VARIANTS)}") from None
    if not changes:
        return variant
    try:
        return variant.with_options(**changes)
    except EngineError as exc:
        raise RulesError(str(exc)) from None
