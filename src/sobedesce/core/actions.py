"""One action type per kind of decision, and the error raised for an illegal one.

>>> Play.of("7h")
Play(card=Card('7H'))
>>> Exchange.of("2c 3c") == Exchange.of("3C 2C")
True
>>> Exchange.of("as 2c as")
Traceback (most recent call last):
  ...
ValueError: Exchange: discards AS twice
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import ClassVar, Final, SupportsIndex

from . import _checks
from .cards import CARDS, Card, Suit, cards_of, format_cards, mask_of, parse_cards

__all__ = [
    "Action",
    "Exchange",
    "IllegalActionError",
    "NameTrump",
    "Play",
    "SIT_OUT",
    "SitOut",
    "TURN_UP",
    "TurnUp",
    "describe",
]

KIND_TRUMP: Final = 1
KIND_TURN: Final = 2
KIND_SIT_OUT: Final = 3
KIND_EXCHANGE: Final = 4
KIND_PLAY: Final = 5
_SUITS: Final = tuple(Suit)


def _checked_card(what: str, value: object) -> Card:
    """The shared ``Card`` of ``value``, a card (``_checks.card_index``: any integer 0-39, not a
    bool)."""
    return CARDS[_checks.card(what, value)]


def _checked_suit(value: object) -> Suit:
    """The :class:`Suit` of ``value``, a suit (``_checks.suit_index``: any integer 0-3, not a
    bool)."""
    index = _checks.suit_index(value)
    if index >= 0:
        return _SUITS[index]
    raise _checks.suit_error("NameTrump", value, "; NameTrump.of reads a letter")


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``reason`` is what a player would read."""

    def __init__(self, reason: str, *, seat: int | None = None, action: Action | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat
        self.action = action


class Action:
    """Base of the decision types; ``kind`` lets hot paths dispatch without ``isinstance``."""

    __slots__ = ()
    kind: ClassVar[int] = 0

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        # Pickled through the constructor: a frozen dataclass compiled by mypyc cannot be
        # restored field by field (its fields refuse assignment).  Every action type is one.
        found = fields(self)  # type: ignore[arg-type]
        return (type(self), tuple(getattr(self, item.name) for item in found if item.init))


@dataclass(frozen=True, slots=True)
class NameTrump(Action):
    """The chooser names a suit as trump."""

    suit: Suit

    def __post_init__(self) -> None:
        # Checked once here, so that applying it needs no check: a suit, or its index.
        object.__setattr__(self, "suit", _checked_suit(self.suit))

    def __str__(self) -> str:
        return self.suit.letter

    @classmethod
    def of(cls, suit: Suit | SupportsIndex | str) -> NameTrump:
        """The (shared) action naming ``suit``: a :class:`Suit`, its index or its letter."""
        given: object = suit  # as an object: compiled by mypyc, a narrowed union is cast, and may raise
        return TRUMP_ACTIONS[Suit.parse(given) if isinstance(given, str) else _checked_suit(given)]


@dataclass(frozen=True, slots=True)
class TurnUp(Action):
    """The chooser turns up the 13th card; its suit is trump (``classic`` only)."""

    def __str__(self) -> str:
        return "turn"


@dataclass(frozen=True, slots=True)
class SitOut(Action):
    """Sit out this round: the hand is put aside and the score does not change."""

    def __str__(self) -> str:
        return "sit out"


@dataclass(frozen=True, slots=True, eq=False)
class Exchange(Action):
    """Play the round, discarding these cards (possibly none) and drawing as many."""

    discard: tuple[Card, ...]
    mask: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Checked once here, so that applying it needs no check: each an int 0-39, kept as a
        # ``Card``, in a tuple.
        discard: object = self.discard
        if isinstance(discard, str | bytes) or not isinstance(discard, Iterable):
            raise TypeError(f"Exchange needs a tuple of cards (Exchange.of reads '2C 3C'), not {discard!r}")
        cards = tuple([_checked_card("Exchange", card) for card in discard])
        mask = mask_of(cards)
        if mask.bit_count() != len(cards):  # a card discarded twice: malformed, as a card 40 is
            twice = cards_of(mask_of([card for card in cards if cards.count(card) > 1]))
            raise ValueError(f"Exchange: discards {format_cards(twice)} twice")
        object.__setattr__(self, "discard", cards)
        object.__setattr__(self, "mask", mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Exchange) and other.mask == self.mask and len(other.discard) == len(self.discard)

    def __hash__(self) -> int:
        return hash(("exchange", self.mask))

    def __str__(self) -> str:
        return "discard " + (format_cards(self.discard) if self.discard else "nothing")

    @classmethod
    def of(cls, cards: str | Iterable[str | SupportsIndex]) -> Exchange:
        if isinstance(cards, str):
            return cls(tuple(parse_cards(cards)))
        given: object = cards  # as an object: compiled by mypyc, a narrowed union is cast, and may raise
        if isinstance(given, bytes) or not isinstance(given, Iterable):
            raise TypeError(f"Exchange.of reads cards from a string ('2C 3C') or an iterable, not {given!r}")
        return cls(tuple(Card.parse(c) if isinstance(c, str) else _checked_card("Exchange", c) for c in given))


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card

    def __post_init__(self) -> None:
        # Checked once here, so that applying it needs no check (the shared ``PLAYS`` are
        # built once; ``Round.apply`` tests the card's bit and nothing else).
        object.__setattr__(self, "card", _checked_card("Play", self.card))

    def __str__(self) -> str:
        return str(self.card)

    @classmethod
    def of(cls, card: str | SupportsIndex) -> Play:
        """The (shared) action playing ``card``: a :class:`Card`, its index or its notation."""
        given: object = card  # as an object: compiled by mypyc, a narrowed union is cast, and may raise
        return PLAYS[Card.parse(given) if isinstance(given, str) else _checked_card("Play", given)]


# Each type's ``kind`` is set after its class statement, not in its body: mypyc would make a
# ``ClassVar`` of a dataclass body a field of the compiled class.
NameTrump.kind = KIND_TRUMP
TurnUp.kind = KIND_TURN
SitOut.kind = KIND_SIT_OUT
Exchange.kind = KIND_EXCHANGE
Play.kind = KIND_PLAY

TRUMP_ACTIONS: Final[tuple[NameTrump, ...]] = tuple(NameTrump(suit) for suit in Suit)
TURN_UP: Final = TurnUp()
"""The one ``TurnUp`` action."""
SIT_OUT: Final = SitOut()
"""The one ``SitOut`` action."""
PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in CARDS)


def describe(action: Action) -> str:
    """The action as a verb phrase: ``plays KH``, ``names H``, ``discards 2C 3C``…"""
    if isinstance(action, Play):
        return f"plays {action.card}"
    if isinstance(action, NameTrump):
        return f"names {action.suit.letter}"
    if isinstance(action, TurnUp):
        return "turns up"
    if isinstance(action, SitOut):
        return "sits out"
    if isinstance(action, Exchange):
        return f"discards {format_cards(action.discard)}" if action.discard else "discards nothing"
    return repr(action)
