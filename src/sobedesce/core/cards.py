"""Cards, suits and ranks of the 40-card Portuguese pack, and bit-mask card sets.

A :class:`Card` is an ``int`` from 0 to 39 (``suit * 10 + strength``), so hot paths can use
it in bit masks directly while users still get ``str(card) == "AS"``.  Strength 9 is the
Ace and 0 the Two, so within a suit a higher index is a stronger card.

>>> Card.parse("7h")
Card('7H')
>>> Card('7H') is Card.parse("7h") is Card(18)
True
>>> Card.parse("AS") > Card.parse("7S")
True
>>> [str(c) for c in sorted_cards(parse_cards("2c ah 7h ks"))]
['KS', 'AH', '7H', '2C']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from . import _checks

__all__ = [
    "ALL_CARDS_MASK",
    "CARDS",
    "Card",
    "CardParseError",
    "Rank",
    "SUIT_MASKS",
    "Suit",
    "cards_of",
    "format_cards",
    "mask_of",
    "parse_cards",
    "sorted_cards",
]


class CardParseError(ValueError):
    """Text that does not name a card or a suit."""


class Suit(IntEnum):
    """The four suits, in the order used to sort hands: Spades, Hearts, Diamonds, Clubs."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def title(self) -> str:
        return ("Spades", "Hearts", "Diamonds", "Clubs")[self]

    def __str__(self) -> str:
        return self.letter

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter (``S H D C``, any case) or its English name."""
        if not isinstance(text, str):
            raise CardParseError(f"not a suit: {text!r} (a letter S, H, D or C)")
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.title.upper(), suit.symbol):
                return suit
        raise CardParseError(f"not a suit: {text!r} (expected one of S, H, D, C)")


class Rank(IntEnum):
    """Ranks by strength within a suit: ``A 7 K J Q 6 5 4 3 2`` from high to low."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    QUEEN = 5
    JACK = 6
    KING = 7
    SEVEN = 8
    ACE = 9

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]

    def __str__(self) -> str:
        return self.letter


_RANK_LETTERS = "23456QJK7A"
_RANK_BY_LETTER = {letter: strength for strength, letter in enumerate(_RANK_LETTERS)}
_SUIT_BY_LETTER = {"S": 0, "H": 1, "D": 2, "C": 3}


class Card(int):
    """One of the 40 cards; ``Card(i)`` returns the shared instance for index ``i``, and
    ``Card('7H')`` the card of that name (as :meth:`parse`), so a card's repr builds it."""

    __slots__ = ()

    def __new__(cls, index: int | str) -> Card:
        # A card as the actions take one (``_checks.card_index``): any integer (numpy's too) 0-39,
        # not a bool, nor a negative index (a tuple would count it from the end: Card(-1) was AC).
        number = _checks.card_index(index)
        if number >= 0:
            return CARDS[number]
        # A name only after the index: ``Card(i)`` costs what it cost before names were taken.
        if isinstance(index, str):
            return cls.parse(index)
        raise CardParseError(f"not a card index: {index!r} (0-39, or a name like '7H')")

    @property
    def suit(self) -> Suit:
        return Suit(self // 10)

    @property
    def rank(self) -> Rank:
        return Rank(self % 10)

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card('{_NAMES[self]}')"

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of ``rank`` (a :class:`Rank`, or its strength 0-9) in ``suit`` (a
        :class:`Suit`, or an int 0-3)."""
        strength = _checks.integer(rank)
        if strength is None or not 0 <= strength < 10:
            text = f"rank: must be a rank (a Rank, or an int 0-9), not {rank!r}"
            raise ValueError(text) if strength is not None else TypeError(text)
        index = _checks.suit_index(suit)
        if index < 0:
            raise _checks.suit_error("suit", suit)
        return CARDS[index * 10 + strength]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``7h``, ``qd``…: rank letter then suit letter, any case."""
        if not isinstance(text, str):
            raise CardParseError(f"not a card: {text!r}")
        card = _BY_NAME.get(text.strip().upper())
        if card is None:
            raise CardParseError(f"not a card: {text!r} (rank A 7 K J Q 6 5 4 3 2, then suit S H D C, e.g. 7H)")
        return card


def _make(index: int) -> Card:
    return int.__new__(Card, index)


CARDS: tuple[Card, ...] = tuple(_make(i) for i in range(40))
_NAMES = tuple(_RANK_LETTERS[i % 10] + "SHDC"[i // 10] for i in range(40))
_BY_NAME = {name: CARDS[i] for i, name in enumerate(_NAMES)}

SUIT_MASKS: tuple[int, int, int, int] = tuple(0x3FF << (10 * s) for s in range(4))  # type: ignore[assignment]
ALL_CARDS_MASK = (1 << 40) - 1


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, or from an iterable of names."""
    if not isinstance(text, str | Iterable) or isinstance(text, bytes):
        raise TypeError(f"cards are read from a string ('2C 3C') or an iterable of names, not {text!r}")
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(word) for word in words]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _suit_table(suit: int) -> tuple[tuple[Card, ...], ...]:
    base = 10 * suit
    return tuple(
        tuple(CARDS[base + strength] for strength in range(9, -1, -1) if bits >> strength & 1) for bits in range(1024)
    )


# _SUIT_CARDS[s][bits]: the cards of suit s whose strengths are set in the 10-bit ``bits``,
# high to low.  Four lookups turn any mask into a sorted hand without a bit loop.
_SUIT_CARDS = tuple(_suit_table(s) for s in range(4))


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in hand order: suits S H D C, each high to low."""
    t = _SUIT_CARDS
    return [*t[0][mask & 1023], *t[1][(mask >> 10) & 1023], *t[2][(mask >> 20) & 1023], *t[3][(mask >> 30) & 1023]]


def sorted_cards(cards: Iterable[int]) -> list[Card]:
    """Sort by suit ``S H D C`` then rank high to low, the order of hands and legal lists."""
    mask = 0
    for card in _iterate("sorted_cards", cards):
        mask |= 1 << (card if type(card) is Card else _checks.card("sorted_cards", card))
    return cards_of(mask)


def format_cards(cards: Iterable[int]) -> str:
    """The cards' names, separated by spaces, in the order given (``"AS 7H"``)."""
    return " ".join(
        [
            _NAMES[card if type(card) is Card else _checks.card("format_cards", card)]
            for card in _iterate("format_cards", cards)
        ]
    )


# What ``sorted_cards`` and ``format_cards`` say of what is no card (``mask_of`` and ``cards_of``,
# on hot paths, check nothing): a ``Card`` is one of the 40, anything else is checked as the
# actions check a card.


def _iterate(name: str, cards: object) -> Iterator[object]:
    if not isinstance(cards, str | bytes):
        try:
            return iter(cards)  # type: ignore[call-overload, no-any-return]
        except TypeError:
            pass
    hint = "; parse_cards reads names" if isinstance(cards, str) else ""
    raise TypeError(f"{name}: must be given cards ({_checks.CARD_NOTE}{hint}), not {cards!r}")
