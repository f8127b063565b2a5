"""The table driver shared by every frontend (the terminal, the online server): whose turn it
is, asking the bots, applying a person's decision, and saving after every decision."""

from .driver import (
    HINT_BOTS,
    Event,
    TableDriver,
    bot_label,
    level_of_name,
    resolve_bot,
    save_atomically,
)

__all__ = [
    "HINT_BOTS",
    "Event",
    "TableDriver",
    "bot_label",
    "level_of_name",
    "resolve_bot",
    "save_atomically",
]
