"""Bots: each gets only a seat's view and an injected random generator.

>>> make_bot("random").name
'random'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from .base import Bot, OmniscientBot, Option
from .basic import BasicBot
from .oracle import OracleBot
from .random_bot import RandomBot
from .strong import StrongBot

__all__ = ["BOTS", "LEVELS", "Bot", "OmniscientBot", "Option", "make_bot"]

BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot, "basic": BasicBot, "strong": StrongBot, "oracle": OracleBot}

# Difficulty levels offered to people at a table, mapped onto bots and settings.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("basic", {}),
    "hard": ("strong", {"play_samples": 16, "exchange_samples": 60, "trump_samples": 30}),
    "expert": ("strong", {}),
}


def make_bot(name: str, **settings: Any) -> Any:
    """A bot by name (``random``, ``basic``, ``strong``, ``oracle``) or level (``easy``…).

    Settings can also follow the name, each after a colon, so that one text names a tuned
    bot wherever a bot name is taken (the arena's ``--bots``):

    >>> make_bot("strong:play_samples=100:rivalry=0.5").play_samples
    100
    >>> make_bot("strong:samples=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bot 'strong' has no setting 'samples' (its settings: play_samples, exchange_samples, ...)
    """
    key, *pairs = name.strip().lower().split(":")
    key = key.strip()
    if key in LEVELS:
        key, defaults = LEVELS[key]
        settings = {**defaults, **settings}
    if key not in BOTS:
        known = ", ".join([*BOTS, *LEVELS])
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    factory = BOTS[key]
    parameters = inspect.signature(factory).parameters
    for pair in pairs:
        setting, sep, text = pair.partition("=")
        setting = setting.strip()
        if not sep or not setting:
            raise ValueError(f"bad bot setting {pair!r} in {name!r}: write name:setting=value")
        value = _value(text.strip())
        if setting in parameters and not _same_kind(value, parameters[setting].default):
            raise ValueError(
                f"bad settings for bot {key!r}: {setting}={text.strip()} "
                f"(expected a value like {parameters[setting].default!r})"
            )
        settings[setting] = value
    for setting in settings:
        if setting not in parameters:
            known = ", ".join(parameters) or "none"
            raise ValueError(f"bot {key!r} has no setting {setting!r} (its settings: {known})")
    try:
        return factory(**settings)
    except (TypeError, ValueError) as error:
        raise ValueError(f"bad settings for bot {key!r}: {error}") from None


def _same_kind(value: Any, default: Any) -> bool:
    """Whether a setting read from text fits the kind of its default."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float)) and (isinstance(default, float) or isinstance(value, int))
    if default is None:
        return value is None or isinstance(value, (int, float))
    return isinstance(value, type(default))


def _value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
