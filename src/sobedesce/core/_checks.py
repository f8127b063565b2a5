"""The checks of the values the core's constructors take from a caller, worded alike.

``Round.from_position``, ``Match(...)`` and the action types build their state from values a
caller passes; each value is checked once, here, with one wording:

- ``scores: must hold four scores, not 3`` (a sequence of the wrong length: ``ValueError``;
  not a sequence: ``TypeError``);
- ``scores[1]: must be a whole number, not '20'`` (``TypeError``);
- ``sat_out_before[2]: must be 0 to 2, not 5`` (``ValueError``);
- ``stock[0]: must be a card (an int 0-39 from the core's card functions), not 'AS'``.

(The record reader words a record's fields the same way, with JSON's spelling of the values;
it has checks of its own because a record is JSON, not Python.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

CARD_NOTE = "an int 0-39 from the core's card functions"


def index(name: str, value: object, size: int) -> int:
    """``value``, an int 0 to ``size - 1``.  A bool passes as an int: this checks arguments
    typed ``int``, which a mypyc-compiled function receives as ints, bools included, so the
    pure and compiled builds agree."""
    if not isinstance(value, int):
        raise TypeError(f"{name}: must be a whole number 0 to {size - 1}, not {value!r}")
    if not 0 <= value < size:
        raise ValueError(f"{name}: must be 0 to {size - 1}, not {value}")
    return value


def whole_numbers(name: str, values: object, what: str, *, length: int = 4, size: int | None = None) -> tuple[int, ...]:
    """``values``, a sequence of ``length`` ints (not bools; each 0 to ``size - 1`` when
    ``size`` is given); ``what`` names them in the error (``"four scores"``)."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise TypeError(f"{name}: must hold {what}, not {values!r}")
    if len(values) != length:
        raise ValueError(f"{name}: must hold {what}, not {len(values)}")
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}[{i}]: must be a whole number, not {value!r}")
        if size is not None and not 0 <= value < size:
            raise ValueError(f"{name}[{i}]: must be 0 to {size - 1}, not {value}")
    return tuple([int(value) for value in values])


def is_card(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a card's index: an int 0-39, not a bool (a ``Card`` is one)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 40


def card_error(name: str, value: object) -> TypeError | ValueError:
    """The error for ``value`` where ``name`` needs a card: ``ValueError`` for an int out of
    range, ``TypeError`` for anything else."""
    text = f"{name}: must be a card ({CARD_NOTE}), not {value!r}"
    return ValueError(text) if isinstance(value, int) and not isinstance(value, bool) else TypeError(text)


def cards(name: str, values: object) -> list[int]:
    """``values``, a sequence of cards, as card indices."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise TypeError(f"{name}: must be a sequence of cards ({CARD_NOTE}), not {values!r}")
    for i, value in enumerate(values):
        if not is_card(value):
            raise card_error(f"{name}[{i}]", value)
    return [int(value) for value in values]
