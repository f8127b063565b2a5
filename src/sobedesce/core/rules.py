"""Rule sets: every row of RULES.md §6 is a named setting, presets are looked up by name.

>>> find_rules("table").turn_up_allowed
False
>>> Rules.from_spec({"preset": "classic", "min_discard": 1}).min_discard
1
>>> Rules.from_spec({"preset": "classic", "min_discard": 0}) == find_rules("classic")
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from ._checks import LARGEST
from .cards import Suit

__all__ = ["CLASSIC", "PRESETS", "Rules", "RulesError", "TABLE", "find_rules"]


class RulesError(ValueError):
    """An unknown preset or setting, or a setting of the wrong type."""


# The presets' names (``PRESETS``, below, holds their rule sets): a rule set's name is one of
# them, or one followed by ``+`` (``classic+custom``), and its records name that preset.
_PRESET_NAMES: Final = ("classic", "table")


@dataclass(frozen=True, slots=True)
class Rules:
    """A rule set.  Use :func:`find_rules` for the presets ``classic`` and ``table``."""

    name: str
    direction: Literal["clockwise", "counter-clockwise"]
    """How seats are drawn around a table; the order of play is always seat 0, 1, 2, 3."""
    turn_up_allowed: bool
    """The chooser may turn up the 13th card instead of naming a suit."""
    min_discard: int
    max_discard: int
    chooser_must_play: bool
    must_play_at_or_below: int | None
    """A player whose score is at or below this must play (``None``: no such rule)."""
    max_sit_outs_in_row: int
    all_play_suit: Suit | None
    """When this suit is trump, nobody may sit out."""
    must_beat_following: bool
    """A player following suit must head the trick when able."""
    must_undertrump: bool
    """A player void in the suit led who holds only trumps too low must still play one."""
    doubled_suit: Suit | None
    """When this suit is trump, gains and losses are multiplied by ``doubled_multiplier``."""
    doubled_multiplier: int = 2
    no_trick_penalty: int = 5
    must_lead_trump_ace: bool = True
    start_score: int = 20
    target_score: int = 0

    def __post_init__(self) -> None:
        # Checked once here, as ``from_spec`` checks a record's settings: a rule set made directly
        # (``Rules(...)``, ``dataclasses.replace(CLASSIC, ...)``) with a setting of the wrong type
        # or out of range was taken as it was, and played wrongly (``min_discard=9``: a seat that
        # must play had no legal action) or failed later (a name of no preset: a bare KeyError
        # when its record was written).
        name: object = self.name
        if not isinstance(name, str) or name.split("+", 1)[0] not in _PRESET_NAMES:
            raise RulesError(
                f"rules.name must be a preset's name ({', '.join(_PRESET_NAMES)}), or one followed by"
                f" '+' and more (classic+custom), not {name!r}"
            )
        for field in dataclasses.fields(self):
            key = field.name
            value: object = getattr(self, key)
            if key in _SUIT_SETTINGS:
                if value is not None and not isinstance(value, Suit):
                    raise RulesError(f"rules.{key} must be a Suit or None (from_spec reads a letter), not {value!r}")
            elif key != "name":
                _check_setting(key, value)
        if not 0 <= self.min_discard <= self.max_discard <= 5:
            raise RulesError("rules need 0 <= min_discard <= max_discard <= 5")

    def __reduce__(self) -> tuple[type[Rules], tuple[object, ...]]:
        # Pickled through the constructor: a frozen dataclass compiled by mypyc cannot be
        # restored field by field (its fields refuse assignment).
        return (type(self), tuple(getattr(self, item.name) for item in dataclasses.fields(self)))

    @property
    def preset(self) -> str:
        return self.name.split("+", 1)[0]

    def multiplier(self, trump: int) -> int:
        return self.doubled_multiplier if self.doubled_suit is not None and trump == self.doubled_suit else 1

    def overrides(self) -> dict[str, object]:
        """The settings that differ from this rule set's preset, as record values."""
        base = PRESETS[self.preset]
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            if field.name == "name":
                continue
            value = getattr(self, field.name)
            if value != getattr(base, field.name):
                out[field.name] = value.letter if isinstance(value, Suit) else value
        return out

    def to_spec(self) -> str | dict[str, object]:
        """The record's ``rules`` value: the preset name, or an object with overrides."""
        overrides = self.overrides()
        if not overrides:
            return self.preset
        return {"preset": self.preset, **overrides}

    @classmethod
    def from_spec(cls, spec: object) -> Rules:
        """Read a record's ``rules`` value: a preset name or ``{"preset": NAME, ...}``."""
        if spec is None:
            return CLASSIC
        if isinstance(spec, str):
            return find_rules(spec)
        if not isinstance(spec, Mapping):
            raise RulesError(f"rules must be a preset name or an object, not {type(spec).__name__}")
        settings = dict(spec)
        preset_name = settings.pop("preset", "classic")
        if not isinstance(preset_name, str):
            raise RulesError("rules.preset must be a preset name")
        base = find_rules(preset_name)
        changes: dict[str, object] = {}
        for key, value in settings.items():
            checked = _check_setting(key, value)
            # A setting repeating the preset's own value changes nothing: {"preset": "classic",
            # "min_discard": 0} is the classic preset itself (before, "classic+custom", unequal
            # to CLASSIC with no override to name).
            if checked != getattr(base, key):
                changes[key] = checked
        if not changes:
            return base
        # (The rule set checks its settings together: 0 <= min_discard <= max_discard <= 5.)
        return dataclasses.replace(base, name=f"{base.name}+custom", **changes)  # type: ignore[arg-type]


_BOOL_SETTINGS = {
    "turn_up_allowed",
    "chooser_must_play",
    "must_beat_following",
    "must_undertrump",
    "must_lead_trump_ace",
}
_INT_SETTINGS = {
    "min_discard",
    "max_discard",
    "max_sit_outs_in_row",
    "doubled_multiplier",
    "no_trick_penalty",
    "start_score",
    "target_score",
}
_SUIT_SETTINGS = {"all_play_suit", "doubled_suit"}


def _check_setting(key: str, value: object) -> object:
    if key in _BOOL_SETTINGS:
        if not isinstance(value, bool):
            raise RulesError(f"rules.{key} must be true or false")
        return value
    if key in _INT_SETTINGS:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= LARGEST:
            raise RulesError(f"rules.{key} must be a whole number 0 to {LARGEST}")
        return value
    if key == "must_play_at_or_below":
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not -LARGEST <= value <= LARGEST
        ):
            raise RulesError(f"rules.{key} must be a whole number {-LARGEST} to {LARGEST}, or null")
        return value
    if key in _SUIT_SETTINGS:
        if value is None:
            return None
        if not isinstance(value, str):
            raise RulesError(f"rules.{key} must be a suit letter or null")
        try:
            return Suit.parse(value)
        except ValueError as error:
            raise RulesError(f"rules.{key}: {error}") from None
    if key == "direction":
        if value not in ("clockwise", "counter-clockwise"):
            raise RulesError('rules.direction must be "clockwise" or "counter-clockwise"')
        return value
    known = sorted(_BOOL_SETTINGS | _INT_SETTINGS | _SUIT_SETTINGS | {"direction", "must_play_at_or_below"})
    raise RulesError(f"unknown rules setting {key!r} (known: {', '.join(known)})")


CLASSIC = Rules(
    name="classic",
    direction="counter-clockwise",
    turn_up_allowed=True,
    min_discard=0,
    max_discard=5,
    chooser_must_play=True,
    must_play_at_or_below=5,
    max_sit_outs_in_row=2,
    all_play_suit=Suit.HEARTS,
    must_beat_following=False,
    must_undertrump=False,
    doubled_suit=Suit.CLUBS,
)

TABLE = Rules(
    name="table",
    direction="clockwise",
    turn_up_allowed=False,
    min_discard=1,
    max_discard=5,
    chooser_must_play=False,
    must_play_at_or_below=None,
    max_sit_outs_in_row=2,
    all_play_suit=Suit.HEARTS,
    must_beat_following=True,
    must_undertrump=True,
    doubled_suit=Suit.CLUBS,
)

PRESETS: dict[str, Rules] = {"classic": CLASSIC, "table": TABLE}


def find_rules(name: str | Rules = "classic") -> Rules:
    """The preset called ``name`` (``classic`` or ``table``, any case)."""
    if isinstance(name, Rules):
        return name
    rules = PRESETS.get(name.strip().lower()) if isinstance(name, str) else None
    if rules is None:
        raise RulesError(f"unknown rule set {name!r} (known: {', '.join(PRESETS)})")
    return rules
