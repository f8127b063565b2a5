"""The checks of the values the core's constructors take from a caller, worded alike.

``Round.from_position``, ``Match(...)`` and the action types build their state from values a
caller passes; each value is checked once, here, with one wording:

- ``scores: must hold four scores, not 3`` (a sequence of the wrong length: ``ValueError``;
  not a sequence: ``TypeError``);
- ``scores[1]: must be a whole number, not '20'`` (``TypeError``; numpy's integers are whole
  numbers, as they are cards);
- ``sat_out_before[2]: must be 0 to 2, not 5`` (``ValueError``);
- ``stock[0]: must be a card (an int 0-39 from the core's card functions), not 'AS'``;
- ``NameTrump: must be a suit (a Suit, or an int 0-3; NameTrump.of reads a letter), not 'H'``.

A card or a suit is an integer of any type ``operator.index`` takes (an ``int``, a ``Card`` or a
``Suit``, numpy's integers), never a bool: ``Card(...)``, the actions and every check here
agree on it (``Card(...)`` also reads a card's name, ``Card('7H')``, as its repr shows it; the
actions' ``of`` read names, their constructors take cards).

(The record reader words a record's fields the same way, with JSON's spelling of the values;
it has checks of its own because a record is JSON, not Python.)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

LARGEST = 10**9
"""The largest size of a score, or of a number in a rule set.  Real scores stay within a few
hundred; one of hundreds of digits was taken, and its match's riscos (a share of the losers'
scores, a float) could not be computed: an ``OverflowError``."""

CARD_NOTE = "an int 0-39 from the core's card functions"
SUIT_NOTE = "a Suit, or an int 0-3"


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
    numbers: list[int] = []
    for i, value in enumerate(values):
        # Any integer type operator.index takes, as for cards: list(array) gives numpy's.
        number = integer(value)
        if number is None:
            raise TypeError(f"{name}[{i}]: must be a whole number, not {value!r}")
        if size is not None and not 0 <= number < size:
            raise ValueError(f"{name}[{i}]: must be 0 to {size - 1}, not {number_text(number)}")
        if size is None and not -LARGEST <= number <= LARGEST:
            raise ValueError(f"{name}[{i}]: must be {-LARGEST} to {LARGEST}, not {number_text(number)}")
        numbers.append(int(number))
    return tuple(numbers)


def number_text(value: int) -> str:
    """``value`` for a message: a number of many digits by its size, not its hundreds of digits."""
    digits = len(str(abs(value)))
    return str(value) if digits <= 20 else f"{'-' if value < 0 else ''}a number of {digits} digits"


def integer(value: object) -> int | None:
    """``value`` as an ``int`` when it is an integer of a type ``operator.index`` takes (an
    ``int`` or a subclass, numpy's integers), never a bool (nor numpy's, which ``operator.index``
    refuses); ``None`` for anything else."""
    if isinstance(value, int):
        return None if isinstance(value, bool) else value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def card_index(value: object) -> int:
    """The card index of ``value`` (0-39) when it is a card, an :func:`integer` 0-39 (a ``Card``
    is one); -1 otherwise."""
    number = integer(value)
    return number if number is not None and 0 <= number < 40 else -1


def is_card(value: object) -> bool:
    """Whether ``value`` is a card (see :func:`card_index`, which gives its index as an int)."""
    return card_index(value) >= 0


def card_error(name: str, value: object) -> TypeError | ValueError:
    """The error for ``value`` where ``name`` needs a card: ``ValueError`` for an integer out of
    range, ``TypeError`` for anything else."""
    text = f"{name}: must be a card ({CARD_NOTE}), not {value!r}"
    return ValueError(text) if integer(value) is not None else TypeError(text)


def suit_index(value: object) -> int:
    """The suit of ``value`` (0-3) when it is a suit, an :func:`integer` 0-3 (a ``Suit`` is
    one); -1 otherwise."""
    number = integer(value)
    return number if number is not None and 0 <= number < 4 else -1


def suit_error(name: str, value: object, hint: str = "") -> TypeError | ValueError:
    """The error for ``value`` where ``name`` needs a suit, as :func:`card_error`; ``hint`` ends
    the parenthesis (``"; NameTrump.of reads a letter"``)."""
    text = f"{name}: must be a suit ({SUIT_NOTE}{hint}), not {value!r}"
    return ValueError(text) if integer(value) is not None else TypeError(text)


def card(name: str, value: object) -> int:
    """The card index of ``value`` (:func:`card_index`), or :func:`card_error` raised for it."""
    index = card_index(value)
    if index < 0:
        raise card_error(name, value)
    return index


def cards(name: str, values: object) -> list[int]:
    """``values``, a sequence of cards, as card indices."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise TypeError(f"{name}: must be a sequence of cards ({CARD_NOTE}), not {values!r}")
    return [card(f"{name}[{i}]", value) for i, value in enumerate(values)]
