"""The round state machine: deal, trump, play-or-sit-out, tricks, scoring (the match that
chains rounds is :mod:`sobedesce.core.match`).

Everything here is pure and synchronous.  Hands are bit masks of card indices (see
:mod:`sobedesce.core.cards`), which keeps legal-move generation and copying cheap enough for
search bots to simulate thousands of rounds a second.  In the compiled build (``SOBEDESCE_COMPILE=1``,
see setup.py) mypyc compiles this module.

>>> from sobedesce.core.cards import CARDS
>>> from sobedesce.core.rules import find_rules
>>> current = Round(find_rules("classic"), 0, CARDS)
>>> current.phase
<Phase.TRUMP: 1>
>>> [str(a) for a in current.legal_actions()]
['S', 'H', 'D', 'C', 'turn']
"""

from __future__ import annotations

import operator
import random as _random
from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum
from operator import itemgetter
from typing import Final, overload

from . import _checks
from .actions import (
    KIND_EXCHANGE,
    KIND_PLAY,
    KIND_SIT_OUT,
    KIND_TRUMP,
    KIND_TURN,
    PLAYS,
    SIT_OUT,
    TRUMP_ACTIONS,
    TURN_UP,
    Action,
    Exchange,
    IllegalActionError,
    NameTrump,
    Play,
    SitOut,
    TurnUp,
    describe,
)
from .cards import CARDS, SUIT_MASKS, Card, Suit
from .logic import (
    _SUIT_MASKS,
    ABOVE,
    BEATERS,
    MAY_SIT_OUT,
    MUST_PLAY_CHOOSER,
    MUST_PLAY_SCORE,
    MUST_PLAY_STREAK,
    MUST_PLAY_TRUMP,
    SEATINGS,
    STOCK,
    SUIT_OF,
    TRICKS_PER_ROUND,
    TURNED,
    chooser_of,
    first_leader,
    first_packets,
    legal_card_mask,
    must_play,
    riscos_for,
    score_changes,
    second_packets,
    trick_seats,
    trick_winner,
)
from .rules import Rules

__all__ = ["HAND_SIZE", "Phase", "Round", "TRICKS_PER_ROUND", "check_deck", "legal_card_mask", "riscos_for"]

# Module constants are ``Final``: compiled by mypyc, they are C variables instead of names
# looked up in the module's dictionary at every use.
HAND_SIZE: Final = 5
SEATS: Final = 4


class Phase(IntEnum):
    """What the match waits for."""

    DEAL = 0
    TRUMP = 1
    EXCHANGE = 2
    PLAY = 3
    ROUND_OVER = 4
    MATCH_OVER = 5

    @property
    def label(self) -> str:
        return self.name.lower()

    def __str__(self) -> str:
        return self.label


_TRUMP: Final = 1
_EXCHANGE: Final = 2
_PLAY: Final = 3
_OVER: Final = 4
_NUMBER_WORDS: Final = ("no", "one", "two", "three", "four", "five")
# What this module uses of the cards module (which the compiled build leaves interpreted).
_CARDS: Final[tuple[Card, ...]] = CARDS
# ``Suit`` by value: a lookup, where ``Suit(value)`` runs the enum's Python-level call.
_SUITS: Final = tuple(Suit)


def _suit_plays(suit: int) -> tuple[tuple[Play, ...], ...]:
    base = 10 * suit
    return tuple(
        tuple(PLAYS[base + strength] for strength in range(9, -1, -1) if bits >> strength & 1) for bits in range(1024)
    )


def _suit_cards(suit: int) -> tuple[tuple[Card, ...], ...]:
    base = 10 * suit
    return tuple(
        tuple(_CARDS[base + strength] for strength in range(9, -1, -1) if bits >> strength & 1) for bits in range(1024)
    )


# _SPn[bits] (_SCn[bits]): the plays (the cards) of suit n whose strengths are set in the
# 10-bit ``bits``, high to low: four lookups turn a mask into the sorted plays (cards).
_SUIT_PLAYS: Final = tuple(_suit_plays(s) for s in range(4))
_SP0: Final = _SUIT_PLAYS[0]
_SP1: Final = _SUIT_PLAYS[1]
_SP2: Final = _SUIT_PLAYS[2]
_SP3: Final = _SUIT_PLAYS[3]
_SUIT_CARDS: Final = tuple(_suit_cards(s) for s in range(4))
_SC0: Final = _SUIT_CARDS[0]
_SC1: Final = _SUIT_CARDS[1]
_SC2: Final = _SUIT_CARDS[2]
_SC3: Final = _SUIT_CARDS[3]


def _hand_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in hand order (what :func:`~sobedesce.core.cards.cards_of` gives,
    as a tuple, and compiled with the rest of this module in the compiled build)."""
    return _SC0[mask & 1023] + _SC1[(mask >> 10) & 1023] + _SC2[(mask >> 20) & 1023] + _SC3[mask >> 30]


class ExchangeChoices(Sequence[Action]):
    """The legal exchange decisions of a seat, built lazily: sitting out (when allowed), then
    every discard of ``min_discard`` to ``max_discard`` cards of the hand.

    Indexing builds a single action, so drawing one at random costs almost nothing.
    """

    __slots__ = ("_count", "_pickers", "hand", "max_discard", "may_sit_out", "min_discard")

    def __init__(
        self,
        hand: int,
        may_sit_out: bool,
        min_discard: int,
        max_discard: int,
        pickers: tuple[_Picker, ...] | None = None,
    ) -> None:
        self.hand = hand
        self.may_sit_out = may_sit_out
        self.min_discard = min_discard
        self.max_discard = max_discard
        # ``pickers``: what ``subset_pickers(hand.bit_count(), min_discard, max_discard)`` gives,
        # when the caller (the round, once a round) already looked it up.
        self._pickers = pickers = (
            subset_pickers(hand.bit_count(), min_discard, max_discard) if pickers is None else pickers
        )
        # ``random.choice`` asks for the length twice and a ``while legal:`` once more.
        self._count = len(pickers) + may_sit_out

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(len(self))[index]]
            try:
                index = operator.index(index)  # as a tuple takes it: an int, a bool, numpy's ints
            except TypeError:
                raise TypeError(
                    f"ExchangeChoices indices must be integers or slices, not {type(index).__name__}"
                ) from None
        if index < 0:
            index += self._count
            if index < 0:
                raise IndexError("ExchangeChoices index out of range")
        if self.may_sit_out:
            if index == 0:
                return SIT_OUT
            index -= 1
        hand = self.hand  # _hand_cards(hand), inlined
        cards = _SC0[hand & 1023] + _SC1[(hand >> 10) & 1023] + _SC2[(hand >> 20) & 1023] + _SC3[hand >> 30]
        chosen = self._pickers[index](cards)
        mask = 0
        for card in chosen:
            mask |= _BITS[card]
        action = _new_exchange(Exchange)
        _set_discard(action, chosen)
        _set_mask(action, mask)
        return action

    def __iter__(self) -> Iterator[Action]:
        for index in range(len(self)):
            yield self[index]

    def __contains__(self, action: object) -> bool:
        if action is SIT_OUT or (isinstance(action, Action) and action.kind == KIND_SIT_OUT):
            return self.may_sit_out
        if isinstance(action, Exchange):
            count = len(action.discard)
            return (
                action.mask & self.hand == action.mask
                and action.mask.bit_count() == count
                and self.min_discard <= count <= self.max_discard
            )
        return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExchangeChoices):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[int, bool, int, int]:
        return self.hand, self.may_sit_out, self.min_discard, self.max_discard

    def __repr__(self) -> str:
        return f"<ExchangeChoices may_sit_out={self.may_sit_out} discard {self.min_discard}..{self.max_discard} of {self.hand.bit_count()}>"


# ``Exchange.__new__``, not ``object.__new__``: the same function in the pure build, and the
# one that is safe for a class compiled by mypyc.
_new_exchange: Final = Exchange.__new__
# The fields' own setters (the frozen dataclass refuses ``action.discard = ...``): a third faster
# than ``object.__setattr__(action, "discard", ...)``, which looks the name up first.
_set_discard: Final[Callable[[Exchange, tuple[Card, ...]], None]] = getattr(Exchange, "discard").__set__  # noqa: B009 (mypy: instance-only on the class)
_set_mask: Final[Callable[[Exchange, int], None]] = getattr(Exchange, "mask").__set__  # noqa: B009
_Picker = Callable[[Sequence[Card]], tuple[Card, ...]]
_PICKERS: Final[dict[tuple[int, int, int], tuple[_Picker, ...]]] = {}


def subset_pickers(n: int, low: int, high: int) -> tuple[_Picker, ...]:
    """The pickers of the discards of ``low..high`` of ``n`` cards, built once and kept."""
    key = (n, low, high)
    pickers = _PICKERS.get(key)
    if pickers is None:
        pickers = _PICKERS[key] = _subset_pickers(n, low, high)
    return pickers


def _subset_pickers(n: int, low: int, high: int) -> tuple[_Picker, ...]:
    """For each discard of ``low..high`` of ``n`` cards (smallest first), an ``itemgetter`` that
    picks those cards out of the sorted hand (a tuple) as a tuple, at C speed: a slice for none
    or one card, the positions for more."""
    pickers: list[_Picker] = []
    for size in range(low, min(high, n) + 1):
        for bits in range(1 << n):
            if bits.bit_count() != size:
                continue
            positions = [p for p in range(n) if bits >> p & 1]
            if size <= 1:
                start = positions[0] if positions else 0
                pickers.append(itemgetter(slice(start, start + size)))
            else:
                pickers.append(itemgetter(*positions))
    return tuple(pickers)


def _lehmer_groups() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The radices 40, 39, ..., 2 in groups whose products stay below 2**62 (machine ints)."""
    groups: list[tuple[int, tuple[int, ...]]] = []
    product = 1
    radices: list[int] = []
    for radix in range(40, 1, -1):
        if product * radix >= 1 << 62:
            groups.append((product, tuple(radices)))
            product = 1
            radices = []
        product *= radix
        radices.append(radix)
    groups.append((product, tuple(radices)))
    return tuple(groups)


def _lehmer_steps() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The groups of :func:`_lehmer_groups` with, per radix ``r``, the step ``(r, r - 1)``: the
    digit in radix ``r`` picks the card that swaps into position ``r - 1``."""
    return tuple((product, tuple([(radix, radix - 1) for radix in radices])) for product, radices in _lehmer_groups())


_LEHMER_STEPS: Final = _lehmer_steps()
_INDICES: Final = tuple(range(40))
_BITS: Final = tuple([1 << card for card in range(40)])


def _shuffled_indices(rng: _random.Random) -> list[int]:
    """The card indices (plain ints) of :func:`shuffled_deck`, in the same order."""
    code = rng.getrandbits(256)
    # Objects, not ints, to the compiled build: a swap moves references instead of unboxing
    # and boxing both cards.
    deck: list[object] = [*_INDICES]
    # The digits of ``code`` in the mixed radix 40, 39, ..., 2, lowest first, drawn a group at
    # a time: one division of the big number per group, then the group's digits from an int
    # that fits a machine word.  The same digits as one divmod by 40, 39, ... each.  (Two digits
    # a step from a table of the 11,000 digit pairs, as this was, measured slower, most of all
    # in play, where the table crowds the processor's cache.)
    for product, steps in _LEHMER_STEPS:
        code, rest = divmod(code, product)  # one division of the big number, not two
        for radix, i in steps:
            j = rest % radix
            rest //= radix
            deck[i], deck[j] = deck[j], deck[i]
    return deck  # type: ignore[return-value]


def shuffled_deck(rng: _random.Random) -> list[Card]:
    """A uniformly shuffled deck: the Lehmer code of 256 random bits (bias below 1e-28),
    about half the cost of ``rng.shuffle`` and as reproducible for a seeded ``rng``."""
    return [_CARDS[i] for i in _shuffled_indices(rng)]


_MUST_PLAY_TEXT: Final = {
    MUST_PLAY_TRUMP: "must play: {suit} are trumps",
    MUST_PLAY_STREAK: "must play: sat out the {streak} previous rounds",
    MUST_PLAY_CHOOSER: "must play: the chooser must play",
    MUST_PLAY_SCORE: "must play: a score of {floor} or less must play",
}

# An exchange decision as a round keeps it: the discarded card indices of an ``Exchange`` (as
# ``bytes``, which the garbage collector never tracks: see ``Round._freeze``), ``None`` for
# sitting out.
_Decision = bytes | None


def _unpacked(decision: _Decision) -> Action:
    if decision is None:
        return SIT_OUT
    return Exchange(tuple([_CARDS[card] for card in decision]))


class Round:
    """One round, from the dealt deck to the score changes.

    Build one with ``Round(rules, dealer, deck, scores, streaks)`` (a deal; usually through
    :meth:`Match.deal`) or :meth:`Round.from_position` (a position with the hidden cards filled
    in, for search).  Seats act in the order :attr:`to_act` gives; :meth:`apply` checks every
    action against the rules and raises :class:`IllegalActionError` with the reason a player
    would read.  Everything else is read-only: the properties return snapshots (tuples), so
    reading a round never changes it.
    """

    __slots__ = (
        "_active",
        "_beaters",
        "_cards_played",
        "_chooser",
        "_codes",
        "_dealer",
        "_decided",
        "_deck",
        "_deltas",
        "_discards",
        "_exchanges",
        "_hands",
        "_lead_ace",
        "_lead_suit",
        "_leader",
        "_leaders",
        "_legal",
        "_must_beat",
        "_must_undertrump",
        "_n_active",
        "_next_active",
        "_on_over",
        "_phase",
        "_pickers",
        "_played",
        "_rules",
        "_scores",
        "_stock",
        "_stock_pos",
        "_streaks",
        "_to_act",
        "_tricks_won",
        "_trump",
        "_trump_action",
        "_turned_card",
        "_win_card",
        "_win_seat",
    )

    # Cards are kept as plain ints (indices) and become ``Card`` objects in what the properties
    # return (in the pure build a trick in play holds the ``Card`` of each ``Play``).  The
    # containers typed ``Sequence`` are lists while the round is in play, and tuples or
    # ``bytes`` once it is over (``_freeze``): a match keeps every round, and the garbage
    # collector stops tracking a tuple of ints and never tracks ``bytes``, but always a list.
    _rules: Rules
    _dealer: int
    _chooser: int
    _deck: bytes | None  # the card indices, top first
    _scores: tuple[int, ...]
    _streaks: tuple[int, ...]
    _phase: int
    _to_act: int
    _trump: int
    _turned_card: Card | None
    _trump_action: Action | None
    _hands: Sequence[int]
    _stock: bytes
    _stock_pos: int
    _active: Sequence[int]
    _discards: Sequence[int]
    _exchanges: Sequence[_Decision]
    _decided: int
    _played: int  # the mask of the seats that decided to play (bit ``s`` for seat ``s``)
    _codes: bytes  # per seat, a ``MUST_PLAY_*`` code or ``MAY_SIT_OUT``
    _n_active: int
    _next_active: tuple[int, ...]
    # Every card played this round in order: trick ``k`` is ``_cards_played[k * n : (k + 1) * n]``
    # (``n`` seats play each trick), the trick in play the cards after the last whole trick.
    _cards_played: Sequence[int]
    _leader: int
    _leaders: Sequence[int]
    _lead_suit: int
    _win_card: int
    _win_seat: int
    _beaters: tuple[int, ...]
    _tricks_won: Sequence[int]
    _deltas: tuple[int, ...] | None
    _on_over: Callable[[Round], None] | None
    # The mask of the legal cards of the seat to play, once computed; -1 in the play phase until
    # it is, and 0 in every other phase (no card may be played), so that ``apply`` needs no
    # test of the phase before a card.
    _legal: int
    _pickers: tuple[_Picker, ...]  # the exchange choices' pickers for a hand of HAND_SIZE cards
    # What the legal-card test needs of the rules (``legal_card_mask``'s last three arguments).
    _must_beat: bool
    _must_undertrump: bool
    _lead_ace: bool

    def __new__(cls, *args: object, **kwargs: object) -> Round:
        # A round whose slots are still unset, for :meth:`copy` and :meth:`from_position` to
        # fill (``Round.__new__(Round)``); ``Round(...)`` then runs ``__init__``.  Defined because
        # the constructor of a class compiled by mypyc otherwise always runs ``__init__``.
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        deck: Sequence[Card],
        scores: Sequence[int] = (20, 20, 20, 20),
        streaks: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        """Deal ``deck`` (top card first; see :func:`check_deck`) with ``dealer`` dealing.

        Every value is checked (``TypeError`` for a value of the wrong type, ``ValueError`` for
        one out of range or a deck that is not the 40 cards once each); :meth:`Match.deal`
        builds its shuffled rounds without this constructor.
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules (find_rules reads a name), not {rules!r}")
        dealer = _checks.index("dealer", dealer, 4)
        check_deck(deck)
        scores = _checks.whole_numbers("scores", scores, "four scores")
        streaks = _checks.whole_numbers("streaks", streaks, "four counts", size=rules.max_sit_outs_in_row + 1)
        self._deal(rules, dealer, bytes([int(card) for card in deck]), scores, streaks)

    def _deal(self, rules: Rules, dealer: int, deck: bytes, scores: Sequence[int], streaks: Sequence[int]) -> None:
        self._blank(rules, dealer, deck, scores, streaks)
        self._hands = first_packets(deck, self._chooser)
        # The stock is the rest of the deck: no tuple of its own.
        self._stock = deck
        self._stock_pos = STOCK

    def _blank(
        self, rules: Rules, dealer: int, deck: bytes | None, scores: Sequence[int], streaks: Sequence[int]
    ) -> None:
        """Every slot at its value before the trump is chosen."""
        self._rules = rules
        self._dealer = dealer
        self._chooser = chooser = chooser_of(dealer)
        self._deck = deck
        self._scores = tuple(scores)
        self._streaks = tuple(streaks)
        self._phase = _TRUMP
        self._to_act = chooser
        self._trump = -1
        self._turned_card = None
        self._trump_action = None
        self._hands = [0, 0, 0, 0]
        self._stock = b""
        self._stock_pos = 0
        self._active = [-1, -1, -1, -1]
        self._discards = [0, 0, 0, 0]
        self._exchanges = []
        self._decided = 0
        self._played = 0
        self._codes = _ALL_MAY_SIT_OUT
        self._n_active = 0
        self._next_active = (0, 0, 0, 0)
        self._cards_played = []
        self._leader = -1
        self._leaders = []
        self._lead_suit = -1
        self._win_card = -1
        self._win_seat = -1
        self._beaters = BEATERS[0]
        self._tricks_won = [0, 0, 0, 0]
        self._deltas = None
        self._on_over = None
        self._legal = 0  # no card may be played before the play phase (see ``_legal``)
        self._must_beat = rules.must_beat_following
        self._must_undertrump = rules.must_undertrump
        self._lead_ace = rules.must_lead_trump_ace
        self._pickers = subset_pickers(HAND_SIZE, rules.min_discard, rules.max_discard)

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        *,
        dealer: int,
        scores: Sequence[int],
        streaks: Sequence[int],
        trump: int,
        turned_card: Card | None,
        hands: Sequence[int],
        stock: Sequence[Card],
        active: Sequence[int],
        discards: Sequence[int],
        tricks: Sequence[Sequence[Card]],
        leaders: Sequence[int],
        tricks_won: Sequence[int],
    ) -> Round:
        """A round in the exchange or the play phase, at the position these facts describe.

        ``hands`` are every seat's cards now (masks), ``stock`` the cards still to be drawn (top
        first), ``active`` per seat 1 (plays), 0 (sits out) or -1 (not decided yet; the seats
        decide in order from the chooser), ``discards`` the number of cards each exchanged,
        ``tricks`` the cards of this round's tricks in order of play (the one in play last,
        possibly empty) and ``leaders`` who led each.  The deck is unknown (``deck`` is
        ``None``).  This is how search bots build a *determinization* of what they cannot see
        (see :func:`~sobedesce.core.view.round_from_view`).  A position no deal could reach (a
        card in two places, a seat that plays holding the wrong number of cards, a stock that
        does not match the draws, leaders or tricks won that the tricks contradict) raises
        ``ValueError`` naming the problem; a value of the wrong type, ``TypeError``.
        """
        # Every fact is checked (this builds a position from a caller's sampling, not from
        # play): values first, then that the cards are where one deal could have put them.
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {rules!r}")
        dealer = _checks.index("dealer", dealer, SEATS)
        trump = _checks.index("trump", trump, 4)
        scores = _checks.whole_numbers("scores", scores, "four scores")
        streaks = _checks.whole_numbers("streaks", streaks, "four counts", size=rules.max_sit_outs_in_row + 1)
        hand_masks = _checks.whole_numbers("hands", hands, "four masks", size=1 << 40)
        active_list = list(_checks.whole_numbers("active", active, "four of 1, 0 and -1"))  # each: _check_decisions
        discard_list = list(_checks.whole_numbers("discards", discards, "four counts", size=HAND_SIZE + 1))
        stock_cards = _checks.cards("stock", stock)
        played = [_checks.cards(f"tricks[{k}]", trick) for k, trick in enumerate(tricks)]
        leader_list = list(_checks.whole_numbers("leaders", leaders, "a seat a trick", length=len(played), size=SEATS))
        won_list = list(_checks.whole_numbers("tricks_won", tricks_won, "four counts", size=TRICKS_PER_ROUND + 1))
        if turned_card is not None:
            turned = _checks.index("turned_card", turned_card, 40)
            if not rules.turn_up_allowed:
                raise ValueError(f"turned_card: turning up is not allowed under {rules.preset} rules")
            if SUIT_OF[turned] != trump:
                raise ValueError(f"turned_card: {_CARDS[turned]} is not of the trump suit {_SUITS[trump].letter}")
        new = cls.__new__(cls)
        new._blank(rules, dealer, None, scores, streaks)
        new._trump = trump
        new._turned_card = _CARDS[turned_card] if turned_card is not None else None
        new._beaters = BEATERS[trump]
        new._codes = bytes(must_play(rules, trump, new._chooser, new._scores, new._streaks))
        new._hands = list(hand_masks)
        new._stock = bytes(stock_cards)
        new._active = active_list
        new._discards = discard_list
        new._decided = sum(a >= 0 for a in active_list)
        new._played = sum(1 << seat for seat in range(4) if active_list[seat] == 1)
        new._phase = _EXCHANGE  # trump is known: ``must_play_reason`` words the codes above
        _check_cards(new._hands, stock_cards, [card for cards in played for card in cards])
        new._check_decisions()
        if new._decided < 4:
            if tricks:
                raise ValueError("tricks are played only once every seat has decided")
            if any(hand.bit_count() != HAND_SIZE for hand in new._hands):
                raise ValueError(f"every hand holds {HAND_SIZE} cards in the exchange phase")
            new._to_act = (new._chooser + new._decided) % 4
            return new
        new._n_active, _, new._next_active = SEATINGS[new._played]
        if new._n_active < 2:
            raise ValueError("fewer than two seats play: the round is over")
        new._phase = _PLAY
        new._legal = -1
        new._leaders = leader_list
        if not played or len(new._leaders) != len(played):
            raise ValueError("a round in play has a trick in play, and a leader for each trick")
        if any(len(cards) != new._n_active for cards in played[:-1]) or len(played[-1]) >= new._n_active:
            raise ValueError(f"every trick but the one in play has {new._n_active} cards, that one fewer")
        new._cards_played = [card for cards in played for card in cards]
        new._tricks_won = won_list
        new._check_tricks(played)
        trick = played[-1]
        new._leader = new._leaders[-1]
        new._to_act = new._leader
        if trick:
            seats = trick_seats(new._leader, len(trick), new._next_active)
            best = trick_winner(trick, trump)
            new._lead_suit = SUIT_OF[trick[0]]
            new._win_card = trick[best]
            new._win_seat = seats[best]
            new._to_act = new._next_active[seats[-1]]
        return new

    def _check_decisions(self) -> None:
        """For :meth:`from_position`: the seats decided in order from the chooser, none sat out
        that had to play, each discarded a number the rules allow, and the stock is what is
        left of it after the draws."""
        rules = self._rules
        active = self._active
        drawn = 0
        for step in range(4):
            seat = (self._chooser + step) % 4
            code = active[seat]
            if code not in (-1, 0, 1):
                raise ValueError(f"active[{seat}]: must be 1 (plays), 0 (sits out) or -1 (not decided), not {code}")
            if (code >= 0) != (step < self._decided):
                raise ValueError(f"the seats decide in order from the chooser (seat {self._chooser}): active {active}")
            count = self._discards[seat]
            if code == 0 and self._codes[seat] != MAY_SIT_OUT:
                raise ValueError(f"seat {seat} sat out, but {self.must_play_reason(seat)}")
            if code == 1 and not rules.min_discard <= count <= rules.max_discard:
                raise ValueError(
                    f"discards[{seat}]: must be {rules.min_discard} to {rules.max_discard} for a seat that plays, not {count}"
                )
            if code != 1 and count:
                raise ValueError(f"discards[{seat}]: must be 0 for a seat that does not play, not {count}")
            drawn += count
        if len(self._stock) != STOCK - drawn:
            raise ValueError(
                f"the stock holds {STOCK - drawn} cards ({STOCK} less the {drawn} drawn), not {len(self._stock)}"
            )

    def _check_tricks(self, played: list[list[int]]) -> None:
        """For :meth:`from_position`, in the play phase: who led each trick and won the finished
        ones, and the cards each seat that plays holds (five less those it played)."""
        leaders = self._leaders
        next_active = self._next_active
        leader = first_leader(self._chooser, self._active, next_active)
        won = [0, 0, 0, 0]
        count = [0, 0, 0, 0]
        for k, cards in enumerate(played):
            if leaders[k] != leader:
                why = "the first leader" if k == 0 else f"the winner of trick {k}"
                raise ValueError(f"leaders[{k}]: must be seat {leader}, {why}, not {leaders[k]}")
            seats = trick_seats(leader, len(cards), next_active)
            for seat in seats:
                count[seat] += 1
            if len(cards) == self._n_active:
                leader = seats[trick_winner(cards, self._trump)]
                won[leader] += 1
        if list(self._tricks_won) != won:
            raise ValueError(f"tricks_won: the tricks played give {won}, not {list(self._tricks_won)}")
        for seat in range(4):
            size = self._hands[seat].bit_count()
            if self._active[seat] == 1 and size != HAND_SIZE - count[seat]:
                raise ValueError(
                    f"seat {seat} plays and has played {count[seat]} cards: it holds {HAND_SIZE - count[seat]}, not {size}"
                )

    def __repr__(self) -> str:
        trump = "SHDC"[self._trump] if self._trump >= 0 else None
        phase = Phase(self._phase).label
        return f"<Round dealer={self._dealer} trump={trump} phase={phase} to_act={self._to_act}>"

    def copy(self) -> Round:
        """An independent copy: applying actions to it leaves this round unchanged."""
        new = Round.__new__(Round)
        new._rules = self._rules
        new._dealer = self._dealer
        new._chooser = self._chooser
        new._deck = self._deck
        new._scores = self._scores
        new._streaks = self._streaks
        new._phase = self._phase
        new._to_act = self._to_act
        new._trump = self._trump
        new._turned_card = self._turned_card
        new._trump_action = self._trump_action
        new._hands = [*self._hands]
        new._stock = self._stock
        new._stock_pos = self._stock_pos
        new._active = [*self._active]
        new._discards = [*self._discards]
        new._exchanges = [*self._exchanges]
        new._decided = self._decided
        new._played = self._played
        new._codes = self._codes
        new._n_active = self._n_active
        new._next_active = self._next_active
        new._cards_played = [*self._cards_played]
        new._leaders = [*self._leaders]
        new._leader = self._leader
        new._must_beat = self._must_beat
        new._must_undertrump = self._must_undertrump
        new._lead_ace = self._lead_ace
        new._pickers = self._pickers
        new._lead_suit = self._lead_suit
        new._win_card = self._win_card
        new._win_seat = self._win_seat
        new._beaters = self._beaters
        new._tricks_won = [*self._tricks_won]
        new._deltas = self._deltas
        new._on_over = None
        new._legal = self._legal
        return new

    # -- what it is ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def chooser(self) -> int:
        """The seat that chooses trump, decides first and leads first if it plays."""
        return self._chooser

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The dealt deck, top card first (``None`` for a round built by :meth:`from_position`)."""
        deck = self._deck
        return tuple([_CARDS[card] for card in deck]) if deck is not None else None

    @property
    def scores(self) -> tuple[int, ...]:
        """The scores before this round."""
        return self._scores

    @property
    def streaks(self) -> tuple[int, ...]:
        """Per seat, the rounds it sat out in a row before this one."""
        return self._streaks

    @property
    def phase(self) -> Phase:
        """``TRUMP``, ``EXCHANGE``, ``PLAY`` or, once over, ``ROUND_OVER``."""
        return Phase(self._phase)

    @property
    def to_act(self) -> int | None:
        """The seat to act, ``None`` once the round is over."""
        return self._to_act if self._to_act >= 0 else None

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def trump(self) -> Suit | None:
        return _SUITS[self._trump] if self._trump >= 0 else None

    @property
    def turned(self) -> bool:
        """Whether the chooser turned up the trump card."""
        return self._turned_card is not None

    @property
    def turned_card(self) -> Card | None:
        """The turned-up card (everyone saw it), or ``None``."""
        return self._turned_card

    @property
    def trump_action(self) -> Action | None:
        """The chooser's decision (``None`` before it, and in a round from a position)."""
        return self._trump_action

    @property
    def hands(self) -> tuple[int, ...]:
        """Per seat, its cards now as a mask (a seat that sits out keeps its hand)."""
        return tuple(self._hands)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards of ``seat`` now, sorted."""
        return _hand_cards(self._hands[_checks.index("seat", seat, 4)])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still in the stock, top first."""
        return tuple([_CARDS[card] for card in self._stock[self._stock_pos :]])

    @property
    def stock_count(self) -> int:
        return len(self._stock) - self._stock_pos

    @property
    def active(self) -> tuple[bool | None, ...]:
        """Per seat: plays (``True``), sits out (``False``), or has not decided (``None``)."""
        return tuple(None if a < 0 else a == 1 for a in self._active)

    @property
    def n_active(self) -> int:
        """How many seats play the round (0 until every seat has decided)."""
        return self._n_active

    @property
    def discards(self) -> tuple[int, ...]:
        """Per seat, how many cards it exchanged (0 for a seat that sat out or has not decided)."""
        return tuple(self._discards)

    @property
    def exchanges(self) -> tuple[Action, ...]:
        """The play-or-sit-out decisions so far, in order from the chooser."""
        return tuple([_unpacked(decision) for decision in self._exchanges])

    def _discarded(self, index: int) -> tuple[Card, ...]:
        """The cards discarded by exchange decision ``index`` (none for sitting out)."""
        decision = self._exchanges[index]
        if decision is None:
            return ()
        return tuple([_CARDS[card] for card in decision])

    @property
    def tricks(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of each trick in order of play, the one in play (possibly empty) last."""
        return tuple([tuple([_CARDS[card] for card in self._trick_cards(k)]) for k in range(len(self._leaders))])

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seat that led each trick of :attr:`tricks`."""
        return tuple(self._leaders)

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """The cards of the trick in play (empty outside the play phase)."""
        if self._phase != _PLAY:
            return ()
        return tuple([_CARDS[card] for card in self._trick_cards(len(self._leaders) - 1)])

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._tricks_won)

    @property
    def deltas(self) -> tuple[int, ...] | None:
        """The score changes, once the round is over."""
        return self._deltas

    def _trick_cards(self, index: int) -> Sequence[int]:
        """The cards (indices) of trick ``index`` (``index`` < ``len(self._leaders)``)."""
        n = self._n_active
        return self._cards_played[index * n : index * n + n]

    def trick_seats(self, index: int) -> tuple[int, ...]:
        """The seats that played the cards of trick ``index`` (0-based, a trick of :attr:`tricks`),
        in order."""
        index = _checks.index("index", index, TRICKS_PER_ROUND)
        count = len(self._leaders)
        if index >= count:
            so_far = f"0 to {count - 1}" if count else "none yet"
            raise ValueError(f"index: must be a trick of this round so far ({so_far}), not {index}")
        return tuple(trick_seats(self._leaders[index], len(self._trick_cards(index)), self._next_active))

    def trick_winner(self, index: int) -> int | None:
        """The seat that won completed trick ``index`` (0 to 4), else ``None``."""
        index = _checks.index("index", index, TRICKS_PER_ROUND)
        if index >= len(self._leaders) or len(self._trick_cards(index)) < self._n_active:
            return None
        if index + 1 < len(self._leaders):
            return self._leaders[index + 1]
        cards = self._trick_cards(index)
        return trick_seats(self._leaders[index], len(cards), self._next_active)[trick_winner(cards, self._trump)]

    def exchange_seat(self, index: int) -> int:
        """The seat that takes exchange decision ``index`` (0 is the chooser, 3 the last)."""
        return (self._chooser + _checks.index("index", index, 4)) % 4

    # -- what may be done -------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act (empty once the round is over)."""
        phase = self._phase
        if phase == _PLAY:
            mask = self._legal
            if mask < 0:
                # ``legal_card_mask`` inlined (this runs at every card decision, and the call
                # with its seven arguments cost as much as its body); the property tests hold both to the
                # rules text and to each other.
                hand: int = self._hands[self._to_act]
                lead = self._lead_suit
                if lead < 0:
                    mask = hand
                    if self._lead_ace:
                        ace = _TRUMP_ACES[self._trump]
                        if hand & ace:
                            mask = ace
                else:
                    # ``logic._SUIT_MASKS``, a ``Final`` of the compiled modules: compiled, the
                    # ``SUIT_MASKS`` of the interpreted cards.py is looked up in its module's
                    # dictionary at every use (a round ran 8% slower with it).
                    mask = hand & _SUIT_MASKS[lead]
                    if mask:
                        if self._must_beat:
                            beaters = mask & self._beaters[self._win_card]
                            if beaters:
                                mask = beaters
                    else:
                        mask = hand & _SUIT_MASKS[self._trump]
                        if mask:
                            beaters = mask & self._beaters[self._win_card]
                            if beaters:
                                mask = beaters
                            elif not self._must_undertrump:
                                mask = hand
                        else:
                            mask = hand
                self._legal = mask
            return _SP0[mask & 1023] + _SP1[(mask >> 10) & 1023] + _SP2[(mask >> 20) & 1023] + _SP3[mask >> 30]
        if phase == _EXCHANGE:
            seat = self._to_act
            rules = self._rules
            # Every hand holds HAND_SIZE cards in the exchange phase (``from_position`` checks it).
            return ExchangeChoices(
                self._hands[seat], self._codes[seat] == MAY_SIT_OUT, rules.min_discard, rules.max_discard, self._pickers
            )
        if phase == _TRUMP:
            return _TRUMP_WITH_TURN if self._rules.turn_up_allowed else TRUMP_ACTIONS
        return ()

    def legal_cards(self) -> int:
        """The legal cards of the seat to play, as a mask (0 outside the play phase)."""
        if self._phase != _PLAY:
            return 0
        mask = self._legal
        if mask < 0:
            mask = self._legal = self._legal_play_mask(self._to_act)
        return mask

    def may_sit_out(self, seat: int) -> bool:
        """Whether ``seat`` may sit out this round (known once trump is chosen)."""
        seat = _checks.index("seat", seat, 4)
        return self._phase != _TRUMP and self._codes[seat] == MAY_SIT_OUT

    def must_play_reason(self, seat: int) -> str | None:
        """Why ``seat`` may not sit out this round, or ``None`` if it may."""
        rules = self._rules
        codes: Sequence[int] = self._codes
        if self._phase == _TRUMP:
            # Before trump is known, the reasons that do not depend on it.
            codes = must_play(rules, -1, self._chooser, self._scores, self._streaks)
        code = codes[_checks.index("seat", seat, 4)]
        if code == MAY_SIT_OUT:
            return None
        limit = rules.max_sit_outs_in_row
        if code == MUST_PLAY_STREAK and limit < 2:
            # A variant's limit: "sat out the no previous rounds" said nothing.
            return "must play: sat out the previous round" if limit else "must play: these rules allow no sitting out"
        return _MUST_PLAY_TEXT[code].format(
            suit=Suit(self._trump).title if self._trump >= 0 else "",
            streak=_NUMBER_WORDS[limit] if limit < len(_NUMBER_WORDS) else limit,
            floor=rules.must_play_at_or_below,
        )

    def _legal_play_mask(self, seat: int) -> int:
        return legal_card_mask(
            self._hands[seat],
            self._lead_suit,
            self._win_card,
            self._trump,
            self._must_beat,
            self._must_undertrump,
            self._lead_ace,
        )

    def _play_reason(self, seat: int, card: int) -> str:
        """Why ``card`` is not legal for ``seat`` now (call only when it is not)."""
        if not 0 <= card < 40:
            # Only a ``Play`` changed after it was made (its constructor checks the card).
            return str(_checks.card_error("Play", card))
        hand = self._hands[seat]
        if not hand >> card & 1:
            return f"does not hold {_CARDS[card]}"
        lead = self._lead_suit
        if lead < 0:
            return "must lead the Ace of trumps"
        win = self._win_card
        if hand & SUIT_MASKS[lead]:
            if SUIT_OF[card] != lead:
                return f"must follow suit {Suit(lead).letter}"
            return f"must beat {_CARDS[win]}, the winning card"
        trump = self._trump
        if SUIT_OF[win] != trump:
            return f"must trump: void in {Suit(lead).letter}"
        if hand & SUIT_MASKS[trump] & ABOVE[win]:
            return f"must overtrump {_CARDS[win]}"
        return f"must play a trump: void in {Suit(lead).letter}"

    # -- doing it ---------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply the action of the seat to act; raises :class:`IllegalActionError`."""
        if type(action) is Play:
            # The hot path of every search and simulation: kept inline on purpose.  Outside the
            # play phase ``_legal`` is 0, so a card is refused there without a test of the phase.
            card: int = action.card
            seat = self._to_act
            legal = self._legal
            if legal < 0:
                legal = self._legal_play_mask(seat)
            if not legal >> card & 1:
                if self._phase != _PLAY:
                    raise IllegalActionError(self._wrong_phase(action), seat=seat, action=action)
                raise IllegalActionError(self._play_reason(seat, card), seat=seat, action=action)
            self._legal = -1
            # A round in play holds lists (see the slots' types); typed so, not asserted, since
            # an ``if TYPE_CHECKING:`` costs a global lookup and a jump at run time.
            hands: list[int] = self._hands  # type: ignore[assignment]
            played: list[int] = self._cards_played  # type: ignore[assignment]
            hand: int = hands[seat]  # typed, and not ``^=``, for mypyc's sake
            hands[seat] = hand ^ 1 << card
            played.append(card)
            leader = self._leader
            if seat == leader:
                self._lead_suit = SUIT_OF[card]
                self._win_card = card
                self._win_seat = seat
            elif self._beaters[self._win_card] >> card & 1:
                self._win_card = card
                self._win_seat = seat
            following = self._next_active[seat]
            if following != leader:
                self._to_act = following
                return
            winner = self._win_seat
            leaders: list[int] = self._leaders  # type: ignore[assignment]
            tricks_won: list[int] = self._tricks_won  # type: ignore[assignment]
            won: int = tricks_won[winner]
            tricks_won[winner] = won + 1
            if len(leaders) == TRICKS_PER_ROUND:
                self._finish()
                return
            leaders.append(winner)
            self._leader = winner
            self._lead_suit = -1
            self._to_act = winner
            return
        # The other decisions by the exact type first (a pointer comparison), then by ``kind``
        # for subclasses of the action types.
        cls = type(action)
        phase = self._phase
        if phase == _EXCHANGE and (cls is Exchange or cls is SitOut):
            self._exchange(action)
            return
        if phase == _TRUMP and (cls is NameTrump or cls is TurnUp):
            self._choose_trump(action)
            return
        if not isinstance(action, _ACTION_TYPES):
            raise TypeError(not_an_action(action))
        kind = action.kind
        if kind == KIND_PLAY and phase == _PLAY:
            # A subclass of ``Play``: the same as the shared ``Play`` of its card (checked when
            # the action was made).
            self.apply(PLAYS[action.card])  # type: ignore[union-attr]
        elif phase == _EXCHANGE and kind in (KIND_EXCHANGE, KIND_SIT_OUT):
            self._exchange(action)
        elif phase == _TRUMP and kind in (KIND_TRUMP, KIND_TURN):
            self._choose_trump(action)
        else:
            raise IllegalActionError(self._wrong_phase(action), seat=self._to_act, action=action)

    def _wrong_phase(self, action: Action) -> str:
        if self._phase == _OVER:
            return "the round is over"
        wanted = {_TRUMP: "choose trump", _EXCHANGE: "play or sit out", _PLAY: "play a card"}[self._phase]
        return f"cannot {describe(action).split(' ')[0].rstrip('s')} now: seat {self._to_act} is to {wanted}"

    def _choose_trump(self, action: Action) -> None:
        deck = self._deck
        assert deck is not None
        if action.kind == KIND_TURN:
            if not self._rules.turn_up_allowed:
                raise IllegalActionError(
                    f"turning up is not allowed under {self._rules.preset} rules", seat=self._to_act, action=action
                )
            turned = deck[TURNED]
            self._turned_card = _CARDS[turned]
            self._trump = SUIT_OF[turned]
        else:
            trump = int(action.suit)  # type: ignore[attr-defined]
            if not 0 <= trump < 4:  # only a ``NameTrump`` changed after it was made
                raise IllegalActionError(f"not a suit: {trump}", seat=self._to_act, action=action)
            self._trump = trump
        self._trump_action = action
        second = second_packets(deck, self._chooser)
        first = self._hands
        self._hands = [first[0] | second[0], first[1] | second[1], first[2] | second[2], first[3] | second[3]]
        self._phase = _EXCHANGE
        self._codes = bytes(must_play(self._rules, self._trump, self._chooser, self._scores, self._streaks))
        self._beaters = BEATERS[self._trump]

    def _exchange(self, action: Action) -> None:
        seat = self._to_act
        active: list[int] = self._active  # type: ignore[assignment]
        exchanges: list[_Decision] = self._exchanges  # type: ignore[assignment]
        if type(action) is not Exchange and action.kind == KIND_SIT_OUT:
            if self._codes[seat] != MAY_SIT_OUT:
                raise IllegalActionError(self.must_play_reason(seat) or "may not sit out", seat=seat, action=action)
            active[seat] = 0
            exchanges.append(None)
        else:
            # ``apply`` sends only an ``Exchange`` (or a subclass) here.
            exchange: Exchange = action  # type: ignore[assignment]
            mask: int = exchange.mask
            count = len(exchange.discard)
            hands: list[int] = self._hands  # type: ignore[assignment]
            discards: list[int] = self._discards  # type: ignore[assignment]
            hand: int = hands[seat]
            if mask & hand != mask:
                missing = [str(c) for c in exchange.discard if not hand >> c & 1]
                raise IllegalActionError(f"does not hold {' '.join(missing)}", seat=seat, action=action)
            if mask.bit_count() != count:
                twice = sorted({str(c) for c in exchange.discard if exchange.discard.count(c) > 1})
                raise IllegalActionError(f"discards {' '.join(twice)} twice", seat=seat, action=action)
            rules = self._rules
            if not rules.min_discard <= count <= rules.max_discard:
                if rules.min_discard == rules.max_discard:
                    wanted = f"exactly {rules.min_discard}"
                elif count < rules.min_discard:
                    wanted = f"at least {rules.min_discard}"
                else:
                    wanted = f"at most {rules.max_discard}"
                raise IllegalActionError(
                    f"must discard {wanted} card{'s' if wanted[-1] != '1' else ''} to play", seat=seat, action=action
                )
            if count:
                pos = self._stock_pos
                drawn = 0
                for card in self._stock[pos : pos + count]:
                    drawn |= 1 << card
                self._stock_pos = pos + count
                hands[seat] = (hand ^ mask) | drawn
            active[seat] = 1
            self._played |= 1 << seat
            discards[seat] = count
            # The cards' indices (a ``Card`` is an ``int``): what ``exchanges`` rebuilds.
            exchanges.append(bytes(exchange.discard))
        self._decided += 1
        if self._decided < 4:
            self._to_act = (seat + 1) % 4
            return
        self._start_play()

    def _start_play(self) -> None:
        active = self._active
        self._n_active, credited, self._next_active = SEATINGS[self._played]
        if credited is not None:
            self._tricks_won = credited
            self._finish()
            return
        leader = first_leader(self._chooser, active, self._next_active)
        self._phase = _PLAY
        self._to_act = leader
        self._leaders = [leader]
        self._leader = leader
        self._legal = -1

    def _finish(self) -> None:
        self._deltas = tuple(score_changes(self._rules, self._trump, self._active, self._tricks_won))
        self._phase = _OVER
        self._to_act = -1
        self._legal = 0
        self._freeze()
        if self._on_over is not None:
            self._on_over(self)

    def _freeze(self) -> None:
        """Once the round is over nothing in it changes: its lists become tuples of ints and
        ``bytes``, which the garbage collector does not track (a tuple of ints is untracked at
        its first collection, ``bytes`` never are).  A match keeps every round, so otherwise each
        collection of the older generations would scan every round's lists and actions again."""
        self._hands = tuple(self._hands)
        # Every seat has decided (0 or 1); counts of cards, tricks and seats: ``bytes``, which
        # the collector never tracks, not even before its first collection (a new tuple is
        # tracked until then, and so counts towards the next collection).
        self._active = bytes(self._active)
        self._discards = bytes(self._discards)
        # The exchanges are ``bytes`` (or ``None``) already: the collector untracks a tuple of
        # them at its first collection, as a tuple of ints.
        self._exchanges = tuple(self._exchanges)
        self._cards_played = bytes(self._cards_played)
        self._leaders = bytes(self._leaders)
        self._tricks_won = bytes(self._tricks_won)
        self._pickers = ()  # shared, but a tracked tuple all the same; a finished round needs none


_ALL_MAY_SIT_OUT: Final = bytes([MAY_SIT_OUT] * 4)
_ACTION_TYPES: Final = (NameTrump, TurnUp, SitOut, Exchange, Play)


def not_an_action(value: object) -> str:
    """What :meth:`Round.apply` (and :meth:`Match.apply`) say of a value that is no action."""
    return f"apply needs an action (a NameTrump, TurnUp, SitOut, Exchange or Play of sobedesce.core), not {value!r}"


# Per trump suit, the mask of its Ace (the card a leader holding it must lead, RULES.md §4).
_TRUMP_ACES: Final = tuple([1 << (suit * 10 + 9) for suit in range(4)])
_TRUMP_WITH_TURN: Final[tuple[Action, ...]] = (*TRUMP_ACTIONS, TURN_UP)


def _check_cards(hands: Sequence[int], stock: Sequence[int], played: Sequence[int]) -> None:
    """Each card in one place at most: one seat's hand, the stock, or the tricks played."""
    where: dict[int, str] = {}
    places = [(f"held by seat {seat}", _hand_cards(hands[seat])) for seat in range(SEATS)]
    places += [("in the stock", tuple([_CARDS[card] for card in stock]))]
    places += [("played", tuple([_CARDS[card] for card in played]))]
    for place, cards in places:
        for card in cards:
            first = where.get(card)
            if first is not None:
                twice = f"{first} twice" if first == place else f"{first} and {place}"
                raise ValueError(f"{_CARDS[card]} is {twice}: a card is in one place")
            where[card] = place


def check_deck(deck: Sequence[object]) -> None:
    """Raise ``ValueError`` unless ``deck`` holds each of the 40 cards exactly once."""
    # As an object: compiled by mypyc, ``deck`` narrowed to ``str | bytes`` below would be cast to
    # it, and a deck of another type refused with "union[str, bytes] object expected; got int".
    given: object = deck
    if isinstance(given, str | bytes) or not isinstance(given, Sequence):
        raise TypeError(f"deck must be a sequence of the 40 cards (a list or tuple, top card first), not {given!r}")
    seen: set[object] = set()
    for card in deck:
        if not isinstance(card, Card):
            # A deck is the cards themselves: an index or a name is one, made with Card().
            raise ValueError(f"not a card: {card!r} (a deck holds Card values: Card(0), Card('7H'))")
        if card in seen:
            raise ValueError(f"card {card} appears twice in the deck")
        seen.add(card)
    if len(seen) != 40:
        missing = [str(c) for c in _CARDS if c not in seen]
        raise ValueError(f"the deck lacks {' '.join(missing)}")
