"""Playing at a terminal: a game driver shared with other frontends, a renderer, input parsing.

- :mod:`.driver` — whose turn, the bots, saving the record after every decision (no I/O);
- :mod:`.render` — the table drawn from one seat's view, for the window's size (80x24 at best);
- :mod:`.inputs` — what a person types, read as commands or decisions;
- :mod:`.app` — the terminal loop tying them together (``sobedesce play``).
"""

from sobedesce.table import Event, TableDriver, bot_label, level_of_name, resolve_bot, save_atomically

from .inputs import Command, InputError, parse_input

__all__ = [
    "Command",
    "Event",
    "InputError",
    "TableDriver",
    "bot_label",
    "level_of_name",
    "parse_input",
    "resolve_bot",
    "save_atomically",
]
