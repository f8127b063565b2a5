"""Bots: each gets only a seat's view and an injected random generator.

>>> make_bot("random").name
'random'
"""

from __future__ import annotations

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
    """A bot by name (``random``, ``basic``, ``strong``, ``oracle``) or level (``easy``…)."""
    key = name.strip().lower()
    if key in LEVELS:
        base, defaults = LEVELS[key]
        return BOTS[base](**{**defaults, **settings})
    if key not in BOTS:
        known = ", ".join([*BOTS, *LEVELS])
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    return BOTS[key](**settings)
