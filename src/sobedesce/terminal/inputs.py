"""Reading what a person types at a prompt: a command, or a decision for the current phase.

Cards are typed rank then suit (``7h``, ``KS``, ``q♦``) or by their position in the hand as
displayed (``1`` … ``5``).  Whether a decision is *legal* is not checked here: the rules core
answers that, with the reason a player reads.

>>> from sobedesce.core import Card
>>> hand = tuple(Card.parse(c) for c in "AS 7H KH QD 3C".split())
>>> parse_input("2 5", Phase.EXCHANGE, hand)
Exchange(discard=(Card('7H'), Card('3C')))
>>> parse_input("hint", Phase.PLAY, hand)
Command(name='hint')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sobedesce.core import (
    Action,
    Card,
    CardParseError,
    Exchange,
    NameTrump,
    Phase,
    Play,
    SitOut,
    Suit,
    TurnUp,
)

__all__ = ["COMMANDS", "Command", "InputError", "parse_card_word", "parse_input"]


class InputError(ValueError):
    """Text that cannot be read as a command or a decision; the message says what to type."""


@dataclass(frozen=True, slots=True)
class Command:
    """A request that is not a decision: ``hint`` (``hint all``: every option, not only the
    best few), ``rules``, ``history``, ``help``, ``quit``."""

    name: str


COMMANDS: dict[str, str] = {
    "hint": "hint",
    "hint all": "hint all",
    "hints": "hint all",
    "all hints": "hint all",
    "rules": "rules",
    "history": "history",
    "hist": "history",
    "tricks": "history",
    "help": "help",
    "?": "help",
    "quit": "quit",
    "exit": "quit",
}

_SUIT_WORDS: dict[str, Suit] = {}
for _suit in Suit:
    for _word in (_suit.letter, _suit.symbol, _suit.title, _suit.title[:-1]):
        _SUIT_WORDS[_word.lower()] = _suit
_SUIT_WORDS.update({"copas": Suit.HEARTS, "espadas": Suit.SPADES, "ouros": Suit.DIAMONDS, "paus": Suit.CLUBS})
_SYMBOL_LETTER = {suit.symbol: suit.letter for suit in Suit}
_TURN_WORDS = {"turn", "t", "up", "turn up", "turnup"}
_SIT_WORDS = {"sit", "sit out", "sitout", "sit-out", "out", "pass"}
_KEEP_WORDS = {"keep", "none", "0", "-", "play", "stay"}


ECHO_LIMIT = 24
"""The most characters of a wrong answer repeated in the message that refuses it: something
pasted by mistake is not echoed whole (it would push the table off the screen)."""


def echo(text: str) -> str:
    """``text`` quoted as typed, cut to :data:`ECHO_LIMIT` characters.

    >>> echo("zz")
    "'zz'"
    >>> echo("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxx…'"
    """
    return repr(text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…")


def _shown(card: Card) -> str:
    """A card as the screen shows it: ``A♠``."""
    return f"{card.rank.letter}{card.suit.symbol}"


def parse_card_word(word: str, hand: Sequence[Card]) -> Card:
    """A card typed as ``7h``/``7♥`` or as a 1-based position in ``hand``."""
    # isdecimal, not isdigit: '²' and '①' are digits that int() refuses (a crash, before).
    if word.isdecimal():
        position = int(word) if len(word) <= 3 else -1  # no int() of thousands of digits
        if not 1 <= position <= len(hand):
            if not hand:
                raise InputError("you hold no cards")
            number = str(position) if position >= 0 else echo(word)
            raise InputError(f"there is no card {number}: number the cards of your hand 1 to {len(hand)}")
        return hand[position - 1]
    text = word.strip()
    if text and text[-1] in _SYMBOL_LETTER:
        text = text[:-1] + _SYMBOL_LETTER[text[-1]]
    try:
        return Card.parse(text)
    except CardParseError:
        raise InputError(
            f"{echo(word)} is not a card: type e.g. 7h (rank A7KJQ65432, suit SHDC) or its number"
        ) from None


def parse_input(
    text: str,
    phase: Phase,
    hand: Sequence[Card],
    *,
    turn_allowed: bool = True,
    keep_allowed: bool = True,
    sit_allowed: bool = True,
) -> Action | Command:
    """Read ``text`` typed when the person is to act in ``phase`` holding ``hand`` (as shown);
    ``turn_allowed``, ``keep_allowed``, ``sit_allowed``: whether the rules let the person turn
    up a card, keep all five cards, sit out now (only the error messages depend on them: such
    an answer is still read, and the table refuses it with the rules' reason).

    Raises :class:`InputError` for text that is neither a command nor a decision.
    """
    key = " ".join(text.replace(",", " ").split()).lower()
    if key in COMMANDS:
        return Command(COMMANDS[key])
    if not key:
        raise InputError(_what_to_type(phase, turn_allowed, keep_allowed, sit_allowed))
    if key in ("q", ":q", "bye", "leave", "stop"):
        # What other programs quit with: said, not done (a stray key would end the match).
        raise InputError(f"{echo(text.strip())} does not leave: type 'quit' to leave the table")
    if phase == Phase.TRUMP:
        if key in _TURN_WORDS:
            return TurnUp()
        suit = _SUIT_WORDS.get(key)
        if suit is None:
            turn = ", or 'turn'" if turn_allowed else ""
            raise InputError(f"{echo(text.strip())} is not a suit: type S, H, D or C (or spades, hearts…){turn}")
        return NameTrump(suit)
    words = key.split()
    if phase == Phase.EXCHANGE:
        if key in _SIT_WORDS:
            return SitOut()
        if key in _KEEP_WORDS:
            return Exchange(())
        cards = [parse_card_word(word, hand) for word in words]
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise InputError(f"you named {' '.join(_shown(c) for c in twice)} twice")
        return Exchange(tuple(cards))
    if phase == Phase.PLAY:
        if len(words) != 1:
            raise InputError("play one card: type it (e.g. 7h) or its number in your hand")
        return Play(parse_card_word(words[0], hand))
    raise InputError("there is nothing to decide now")


def _what_to_type(phase: Phase, turn_allowed: bool = True, keep_allowed: bool = True, sit_allowed: bool = True) -> str:
    if phase == Phase.TRUMP:
        turn = " or type 'turn'" if turn_allowed else ""
        return f"name a trump suit (S, H, D or C){turn}; 'help' for more"
    if phase == Phase.EXCHANGE:
        keep = ", 'keep' for none" if keep_allowed else ""
        sit = ", or 'sit'" if sit_allowed else ""
        return f"type the cards to discard (e.g. '2c 5h' or '1 4'){keep}{sit}; 'help' for more"
    return "type a card (e.g. 7h) or its number in your hand; 'help' for more"
