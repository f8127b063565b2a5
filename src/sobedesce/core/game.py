"""The round and match state machines: deal, trump, play-or-sit-out, tricks, scoring, riscos.

Everything here is pure and synchronous.  Hands are bit masks of card indices (see
:mod:`sobedesce.core.cards`), which keeps legal-move generation and copying cheap enough for
search bots to simulate thousands of rounds a second.

>>> import random
>>> match = Match(find_rules("classic"))
>>> first = match.deal(rng=random.Random(7))
>>> match.phase
<Phase.TRUMP: 1>
>>> [str(a) for a in match.legal_actions()]
['S', 'H', 'D', 'C', 'turn']
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Iterator, Sequence
from enum import IntEnum
from functools import partial
from operator import itemgetter
from typing import overload

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
    Play,
    describe,
)
from .cards import CARDS, SUIT_MASKS, Card, Suit, cards_of
from .logic import (
    ABOVE,
    BEATERS,
    MAY_SIT_OUT,
    MUST_PLAY_CHOOSER,
    MUST_PLAY_SCORE,
    MUST_PLAY_STREAK,
    MUST_PLAY_TRUMP,
    STOCK,
    SUIT_OF,
    TRICKS_PER_ROUND,
    TURNED,
    chooser_of,
    credited_tricks,
    first_leader,
    first_packets,
    legal_card_mask,
    match_winners,
    must_play,
    next_active_seats,
    riscos_for,
    score_changes,
    second_packets,
    trick_seats,
    trick_winner,
)
from .rules import CLASSIC, Rules, find_rules

__all__ = ["HAND_SIZE", "Match", "Phase", "Round", "TRICKS_PER_ROUND", "check_deck", "legal_card_mask", "riscos_for"]

HAND_SIZE = 5
SEATS = 4


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


_TRUMP, _EXCHANGE, _PLAY, _OVER = 1, 2, 3, 4
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")


def _suit_plays(suit: int) -> tuple[tuple[Play, ...], ...]:
    base = 10 * suit
    return tuple(
        tuple(PLAYS[base + strength] for strength in range(9, -1, -1) if bits >> strength & 1) for bits in range(1024)
    )


_SUIT_PLAYS = tuple(_suit_plays(s) for s in range(4))
_SP0, _SP1, _SP2, _SP3 = _SUIT_PLAYS


class ExchangeChoices(Sequence[Action]):
    """The legal exchange decisions of a seat, built lazily: sitting out (when allowed), then
    every discard of ``min_discard`` to ``max_discard`` cards of the hand.

    Indexing builds a single action, so drawing one at random costs almost nothing.
    """

    __slots__ = ("_pickers", "hand", "max_discard", "may_sit_out", "min_discard")

    def __init__(self, hand: int, may_sit_out: bool, min_discard: int, max_discard: int) -> None:
        self.hand = hand
        self.may_sit_out = may_sit_out
        self.min_discard = min_discard
        self.max_discard = max_discard
        key = (hand.bit_count(), min_discard, max_discard)
        pickers = _PICKERS.get(key)
        if pickers is None:
            pickers = _PICKERS[key] = _subset_pickers(*key)
        self._pickers = pickers

    def __len__(self) -> int:
        return len(self._pickers) + self.may_sit_out

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if index.__class__ is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(len(self))[index]]
            index = int(index)
        if index < 0:
            index += len(self)
        if self.may_sit_out:
            if index == 0:
                return SIT_OUT
            index -= 1
        chosen = self._pickers[index](cards_of(self.hand))
        action = _object_new(Exchange)
        _object_setattr(action, "discard", chosen)
        _object_setattr(action, "mask", sum(map(_BITS.__getitem__, chosen)))
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


_object_new = object.__new__
_object_setattr = object.__setattr__
_Picker = Callable[[Sequence[Card]], tuple[Card, ...]]
_PICKERS: dict[tuple[int, int, int], tuple[_Picker, ...]] = {}
_BITS = tuple(1 << i for i in range(40))


def _subset_pickers(n: int, low: int, high: int) -> tuple[_Picker, ...]:
    """For each discard of ``low..high`` of ``n`` cards (smallest first), a function that
    picks those cards out of the sorted hand, at C speed where ``itemgetter`` can."""
    pickers: list[_Picker] = []
    for size in range(low, min(high, n) + 1):
        for bits in range(1 << n):
            if bits.bit_count() != size:
                continue
            positions = [p for p in range(n) if bits >> p & 1]
            if size == 0:
                pickers.append(_pick_none)
            elif size == 1:
                pickers.append(partial(_pick_one, positions[0]))
            else:
                pickers.append(itemgetter(*positions))
    return tuple(pickers)


def _pick_none(cards: Sequence[Card]) -> tuple[Card, ...]:
    return ()


def _pick_one(position: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    return (cards[position],)


def _play_rules(rules: Rules) -> tuple[bool, bool, bool]:
    """What the legal-card test needs of the rules: must-beat-following, must-undertrump,
    must-lead-the-Ace-of-trumps."""
    return rules.must_beat_following, rules.must_undertrump, rules.must_lead_trump_ace


def shuffled_deck(rng: _random.Random) -> list[Card]:
    """A uniformly shuffled deck: the Lehmer code of 256 random bits (bias below 1e-28),
    about half the cost of ``rng.shuffle`` and as reproducible for a seeded ``rng``."""
    code = rng.getrandbits(256)
    deck = list(CARDS)
    for i in range(39, 0, -1):
        code, j = divmod(code, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_MUST_PLAY_TEXT = {
    MUST_PLAY_TRUMP: "must play: {suit} are trumps",
    MUST_PLAY_STREAK: "must play: sat out the {streak} previous rounds",
    MUST_PLAY_CHOOSER: "must play: the chooser must play",
    MUST_PLAY_SCORE: "must play: a score of {floor} or less must play",
}


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
        "_chooser",
        "_codes",
        "_dealer",
        "_decided",
        "_deck",
        "_deltas",
        "_discards",
        "_exchanges",
        "_hands",
        "_lead_suit",
        "_leader",
        "_leaders",
        "_legal",
        "_n_active",
        "_next_active",
        "_on_over",
        "_phase",
        "_play_rules",
        "_rules",
        "_scores",
        "_stock",
        "_stock_pos",
        "_streaks",
        "_to_act",
        "_trick",
        "_tricks",
        "_tricks_won",
        "_trump",
        "_trump_action",
        "_turned_card",
        "_win_card",
        "_win_seat",
    )

    _rules: Rules
    _dealer: int
    _chooser: int
    _deck: tuple[Card, ...] | None
    _scores: tuple[int, ...]
    _streaks: tuple[int, ...]
    _phase: int
    _to_act: int
    _trump: int
    _turned_card: Card | None
    _trump_action: Action | None
    _hands: list[int]
    _stock: Sequence[Card]
    _stock_pos: int
    _active: list[int]
    _discards: list[int]
    _exchanges: list[Action]
    _decided: int
    _codes: list[int]
    _n_active: int
    _next_active: list[int]
    _tricks: list[list[Card]]
    _trick: list[Card]
    _leader: int
    _leaders: list[int]
    _lead_suit: int
    _win_card: int
    _win_seat: int
    _beaters: tuple[int, ...]
    _tricks_won: list[int]
    _deltas: list[int] | None
    _on_over: Callable[[Round], None] | None
    _legal: int
    _play_rules: tuple[bool, bool, bool]

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        deck: Sequence[Card],
        scores: Sequence[int] = (20, 20, 20, 20),
        streaks: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        """Deal ``deck`` (top card first; see :func:`check_deck`) with ``dealer`` dealing."""
        deck = tuple(deck)
        self._blank(rules, dealer, deck, scores, streaks)
        self._hands = first_packets(deck, self._chooser)
        self._stock = deck[STOCK:]

    def _blank(
        self, rules: Rules, dealer: int, deck: tuple[Card, ...] | None, scores: Sequence[int], streaks: Sequence[int]
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
        self._stock = ()
        self._stock_pos = 0
        self._active = [-1, -1, -1, -1]
        self._discards = [0, 0, 0, 0]
        self._exchanges = []
        self._decided = 0
        self._codes = [MAY_SIT_OUT] * 4
        self._n_active = 0
        self._next_active = [0, 0, 0, 0]
        self._tricks = []
        self._trick = []
        self._leader = -1
        self._leaders = []
        self._lead_suit = -1
        self._win_card = -1
        self._win_seat = -1
        self._beaters = BEATERS[0]
        self._tricks_won = [0, 0, 0, 0]
        self._deltas = None
        self._on_over = None
        self._legal = -1
        self._play_rules = _play_rules(rules)

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
        (see :func:`~sobedesce.core.view.round_from_view`).
        """
        new = cls.__new__(cls)
        new._blank(rules, dealer, None, scores, streaks)
        new._trump = trump
        new._turned_card = turned_card
        new._beaters = BEATERS[trump]
        new._codes = must_play(rules, trump, new._chooser, new._scores, new._streaks)
        new._hands = list(hands)
        new._stock = tuple(stock)
        new._active = list(active)
        new._discards = list(discards)
        new._decided = sum(a >= 0 for a in new._active)
        if new._decided < 4:
            if tricks:
                raise ValueError("tricks are played only once every seat has decided")
            new._phase = _EXCHANGE
            new._to_act = (new._chooser + new._decided) % 4
            return new
        new._n_active = sum(a == 1 for a in new._active)
        if new._n_active < 2:
            raise ValueError("fewer than two seats play: the round is over")
        new._phase = _PLAY
        new._next_active = next_active_seats(new._active)
        new._tricks = [list(trick) for trick in tricks]
        new._leaders = list(leaders)
        if not new._tricks or len(new._leaders) != len(new._tricks):
            raise ValueError("a round in play has a trick in play, and a leader for each trick")
        new._trick = new._tricks[-1]
        new._leader = new._leaders[-1]
        new._tricks_won = list(tricks_won)
        new._to_act = new._leader
        if new._trick:
            seats = trick_seats(new._leader, len(new._trick), new._next_active)
            best = trick_winner(new._trick, trump)
            new._lead_suit = SUIT_OF[new._trick[0]]
            new._win_card = new._trick[best]
            new._win_seat = seats[best]
            new._to_act = new._next_active[seats[-1]]
        return new

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
        new._hands = self._hands[:]
        new._stock = self._stock
        new._stock_pos = self._stock_pos
        new._active = self._active[:]
        new._discards = self._discards[:]
        new._exchanges = self._exchanges[:]
        new._decided = self._decided
        new._codes = self._codes
        new._n_active = self._n_active
        new._next_active = self._next_active
        # Completed tricks never change again: share them, copy only the trick in play.
        new._tricks = tricks = self._tricks[:]
        if tricks:
            tricks[-1] = new._trick = tricks[-1][:]
        else:
            new._trick = []
        new._leaders = self._leaders[:]
        new._leader = self._leader
        new._play_rules = self._play_rules
        new._lead_suit = self._lead_suit
        new._win_card = self._win_card
        new._win_seat = self._win_seat
        new._beaters = self._beaters
        new._tricks_won = self._tricks_won[:]
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
        return self._deck

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
        return Suit(self._trump) if self._trump >= 0 else None

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
        return tuple(cards_of(self._hands[seat]))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards still in the stock, top first."""
        return tuple(self._stock[self._stock_pos :])

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
        return tuple(self._exchanges)

    @property
    def tricks(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of each trick in order of play, the one in play (possibly empty) last."""
        return tuple(tuple(trick) for trick in self._tricks)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seat that led each trick of :attr:`tricks`."""
        return tuple(self._leaders)

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """The cards of the trick in play (empty outside the play phase)."""
        return tuple(self._trick) if self._phase == _PLAY else ()

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._tricks_won)

    @property
    def deltas(self) -> tuple[int, ...] | None:
        """The score changes, once the round is over."""
        return tuple(self._deltas) if self._deltas is not None else None

    def trick_seats(self, index: int) -> tuple[int, ...]:
        """The seats that played the cards of trick ``index``, in order."""
        return tuple(trick_seats(self._leaders[index], len(self._tricks[index]), self._next_active))

    def trick_winner(self, index: int) -> int | None:
        """The seat that won completed trick ``index`` (0-based), else ``None``."""
        if index >= len(self._tricks) or len(self._tricks[index]) < self._n_active:
            return None
        if index + 1 < len(self._leaders):
            return self._leaders[index + 1]
        cards = self._tricks[index]
        return trick_seats(self._leaders[index], len(cards), self._next_active)[trick_winner(cards, self._trump)]

    def exchange_seat(self, index: int) -> int:
        """The seat that takes exchange decision ``index`` (0 is the chooser)."""
        return (self._chooser + index) % 4

    # -- what may be done -------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act (empty once the round is over)."""
        phase = self._phase
        if phase == _PLAY:
            mask = self._legal
            if mask < 0:
                mask = self._legal = self._legal_play_mask(self._to_act)
            return _SP0[mask & 1023] + _SP1[(mask >> 10) & 1023] + _SP2[(mask >> 20) & 1023] + _SP3[mask >> 30]
        if phase == _EXCHANGE:
            seat = self._to_act
            rules = self._rules
            return ExchangeChoices(
                self._hands[seat], self._codes[seat] == MAY_SIT_OUT, rules.min_discard, rules.max_discard
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
        return self._phase != _TRUMP and self._codes[seat] == MAY_SIT_OUT

    def must_play_reason(self, seat: int) -> str | None:
        """Why ``seat`` may not sit out this round, or ``None`` if it may."""
        rules = self._rules
        codes = self._codes
        if self._phase == _TRUMP:
            # Before trump is known, the reasons that do not depend on it.
            codes = must_play(rules, -1, self._chooser, self._scores, self._streaks)
        code = codes[seat]
        if code == MAY_SIT_OUT:
            return None
        limit = rules.max_sit_outs_in_row
        return _MUST_PLAY_TEXT[code].format(
            suit=Suit(self._trump).title if self._trump >= 0 else "",
            streak=_NUMBER_WORDS[limit] if limit < len(_NUMBER_WORDS) else limit,
            floor=rules.must_play_at_or_below,
        )

    def _legal_play_mask(self, seat: int) -> int:
        must_beat, must_undertrump, lead_ace = self._play_rules
        return legal_card_mask(
            self._hands[seat], self._lead_suit, self._win_card, self._trump, must_beat, must_undertrump, lead_ace
        )

    def _play_reason(self, seat: int, card: int) -> str:
        """Why ``card`` is not legal for ``seat`` now (call only when it is not)."""
        hand = self._hands[seat]
        if not hand >> card & 1:
            return f"does not hold {CARDS[card]}"
        lead = self._lead_suit
        if lead < 0:
            return "must lead the Ace of trumps"
        win = self._win_card
        if hand & SUIT_MASKS[lead]:
            if SUIT_OF[card] != lead:
                return f"must follow suit {Suit(lead).letter}"
            return f"must beat {CARDS[win]}, the winning card"
        trump = self._trump
        if SUIT_OF[win] != trump:
            return f"must trump: void in {Suit(lead).letter}"
        if hand & SUIT_MASKS[trump] & ABOVE[win]:
            return f"must overtrump {CARDS[win]}"
        return f"must play a trump: void in {Suit(lead).letter}"

    # -- doing it ---------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply the action of the seat to act; raises :class:`IllegalActionError`."""
        kind = action.kind
        if kind == KIND_PLAY and self._phase == _PLAY:
            # The hot path of every search and simulation: kept inline on purpose.
            card: Card = action.card  # type: ignore[attr-defined]
            seat = self._to_act
            legal = self._legal
            if legal < 0:
                legal = self._legal_play_mask(seat)
            if not legal >> card & 1:
                raise IllegalActionError(self._play_reason(seat, card), seat=seat, action=action)
            self._legal = -1
            self._hands[seat] ^= 1 << card
            self._trick.append(card)
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
            self._tricks_won[winner] += 1
            if len(self._tricks) == TRICKS_PER_ROUND:
                self._finish()
                return
            trick: list[Card] = []
            self._trick = trick
            self._tricks.append(trick)
            self._leaders.append(winner)
            self._leader = winner
            self._lead_suit = -1
            self._to_act = winner
        elif self._phase == _EXCHANGE and kind in (KIND_EXCHANGE, KIND_SIT_OUT):
            self._exchange(action)
        elif self._phase == _TRUMP and kind in (KIND_TRUMP, KIND_TURN):
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
            self._turned_card = deck[TURNED]
            self._trump = SUIT_OF[deck[TURNED]]
        else:
            self._trump = int(action.suit)  # type: ignore[attr-defined]
        self._trump_action = action
        second = second_packets(deck, self._chooser)
        hands = self._hands
        for seat in range(4):
            hands[seat] |= second[seat]
        self._phase = _EXCHANGE
        self._codes = must_play(self._rules, self._trump, self._chooser, self._scores, self._streaks)
        self._beaters = BEATERS[self._trump]

    def _exchange(self, action: Action) -> None:
        seat = self._to_act
        if action.kind == KIND_SIT_OUT:
            if self._codes[seat] != MAY_SIT_OUT:
                raise IllegalActionError(self.must_play_reason(seat) or "may not sit out", seat=seat, action=action)
            self._active[seat] = 0
        else:
            assert isinstance(action, Exchange)
            mask = action.mask
            count = len(action.discard)
            hand = self._hands[seat]
            if mask & hand != mask:
                missing = [str(c) for c in action.discard if not hand >> c & 1]
                raise IllegalActionError(f"does not hold {' '.join(missing)}", seat=seat, action=action)
            if mask.bit_count() != count:
                twice = sorted({str(c) for c in action.discard if action.discard.count(c) > 1})
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
                self._hands[seat] = (hand ^ mask) | drawn
            self._active[seat] = 1
            self._discards[seat] = count
        self._exchanges.append(action)
        self._decided += 1
        if self._decided < 4:
            self._to_act = (seat + 1) % 4
            return
        self._start_play()

    def _start_play(self) -> None:
        active = self._active
        self._n_active = sum(a == 1 for a in active)
        credited = credited_tricks(active)
        if credited is not None:
            self._tricks_won = credited
            self._finish()
            return
        self._next_active = next_active_seats(active)
        leader = first_leader(self._chooser, active, self._next_active)
        self._phase = _PLAY
        self._to_act = leader
        self._trick = []
        self._tricks.append(self._trick)
        self._leaders.append(leader)
        self._leader = leader
        self._legal = -1

    def _finish(self) -> None:
        self._deltas = score_changes(self._rules, self._trump, self._active, self._tricks_won)
        self._phase = _OVER
        self._to_act = -1
        if self._on_over is not None:
            self._on_over(self)


_TRUMP_WITH_TURN: tuple[Action, ...] = (*TRUMP_ACTIONS, TURN_UP)


class Match:
    """A match: rounds dealt one after another until a score reaches the target (0).

    ``phase`` tells what is awaited.  In :attr:`Phase.DEAL` call :meth:`deal`; otherwise the
    seat ``current_seat`` acts with ``apply(action)``, choosing from ``legal_actions()``.
    """

    def __init__(
        self,
        rules: Rules | str = CLASSIC,
        *,
        scores: Sequence[int] | None = None,
        sat_out_before: Sequence[int] | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self._rules = rules = find_rules(rules)
        start = rules.start_score
        self._initial_scores = tuple(scores) if scores is not None else (start,) * 4
        self._initial_streaks = tuple(sat_out_before) if sat_out_before is not None else (0,) * 4
        self._players = tuple(players) if players is not None else None
        self._scores = list(self._initial_scores)
        self._streaks = list(self._initial_streaks)
        self._rounds: list[Round] = []
        # The round in play (None between rounds and once the match is over).
        self._current: Round | None = None
        self._winners: list[int] = match_winners(self._scores, rules.target_score)

    # While a round is in play, ``apply`` and ``legal_actions`` are looked up in the instance
    # first: ``_bind`` puts the round's own bound methods there, which spares every decision
    # a wrapper call; the methods below are what ``help()`` shows and what runs otherwise.

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act; empty when a deal is due or the match is over."""
        current = self._current
        return current.legal_actions() if current is not None else ()

    def apply(self, action: Action) -> None:
        """Apply the action of :attr:`current_seat`; raises :class:`IllegalActionError` when the
        rules do not allow it (its ``reason`` says why, as a player would read it)."""
        current = self._current
        if current is not None:
            current.apply(action)
        elif self._winners:
            raise IllegalActionError("the match is over", action=action)
        else:
            raise IllegalActionError("a new round must be dealt first", action=action)

    def _bind(self, current: Round) -> None:
        self._current = current
        current._on_over = self._settle
        fast = self.__dict__
        fast["legal_actions"] = current.legal_actions
        fast["apply"] = current.apply

    def _unbind(self) -> None:
        self._current = None
        self.__dict__.pop("legal_actions", None)
        self.__dict__.pop("apply", None)

    def copy(self) -> Match:
        """An independent copy: applying actions to it leaves this match unchanged."""
        new = Match.__new__(Match)
        new._rules = self._rules
        new._players = self._players
        new._initial_scores = self._initial_scores
        new._initial_streaks = self._initial_streaks
        new._scores = self._scores[:]
        new._streaks = self._streaks[:]
        new._rounds = self._rounds[:]
        new._winners = self._winners[:]
        new._current = None
        if self._current is not None:
            new._rounds[-1] = current = self._current.copy()
            new._bind(current)
        return new

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> tuple[str, ...] | None:
        """The players' names, by seat, when given."""
        return self._players

    @players.setter
    def players(self, names: Sequence[str] | None) -> None:
        """Name the players (they are written in the record; they change nothing in play)."""
        if names is not None and (len(names) != 4 or not all(isinstance(n, str) for n in names)):
            raise ValueError(f"players are four names, one a seat, not {names!r}")
        self._players = tuple(names) if names is not None else None

    @property
    def initial_scores(self) -> tuple[int, ...]:
        return self._initial_scores

    @property
    def initial_streaks(self) -> tuple[int, ...]:
        """Per seat, the rounds sat out in a row before the match (``sat_out_before``)."""
        return self._initial_streaks

    @property
    def scores(self) -> tuple[int, ...]:
        """The scores now (after the last finished round)."""
        return tuple(self._scores)

    @property
    def streaks(self) -> tuple[int, ...]:
        """Per seat, the rounds it sat out in a row, now."""
        return tuple(self._streaks)

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round dealt, the latest last."""
        return tuple(self._rounds)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, once the match is over (empty before)."""
        return tuple(self._winners)

    @property
    def round(self) -> Round | None:
        """The latest round (finished or not), or ``None`` before the first deal."""
        return self._rounds[-1] if self._rounds else None

    @property
    def is_over(self) -> bool:
        return bool(self._winners)

    @property
    def phase(self) -> Phase:
        if self._winners:
            return Phase.MATCH_OVER
        current = self._current
        if current is None:
            return Phase.DEAL
        return Phase(current._phase)

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when a deal is due or the match is over."""
        current = self._current
        if current is None:
            return None
        seat = current._to_act
        return seat if seat >= 0 else None

    @property
    def next_dealer(self) -> int | None:
        """The dealer of the next round (``None`` before the first, which is drawn)."""
        return (self._rounds[-1]._dealer + 1) % 4 if self._rounds else None

    def deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        dealer: int | None = None,
        rng: _random.Random | None = None,
    ) -> Round:
        """Start the next round with ``deck`` (top card first) or a deck shuffled by ``rng``.

        The first dealer is ``dealer`` or drawn with ``rng``; later dealers follow in turn.
        """
        if self._winners:
            raise IllegalActionError("the match is over")
        if self._current is not None:
            raise IllegalActionError("the current round is not over")
        expected = self.next_dealer
        if dealer is None:
            if expected is None:
                if rng is None:
                    raise ValueError("the first dealer is drawn: pass dealer= or rng=")
                expected = rng.randrange(4)
            dealer = expected
        elif not (isinstance(dealer, int) and 0 <= dealer < 4):
            raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
        elif expected is not None and dealer != expected:
            raise IllegalActionError(f"the dealer must be seat {expected}, the seat after the previous dealer")
        if deck is None:
            if rng is None:
                raise ValueError("pass a deck or an rng to shuffle one")
            deck = shuffled_deck(rng)
        else:
            check_deck(deck)
        new = Round(self._rules, dealer, deck, self._scores, self._streaks)
        self._rounds.append(new)
        self._bind(new)
        return new

    def _settle(self, finished: Round) -> None:
        deltas = finished._deltas
        assert deltas is not None
        active = finished._active
        for seat in range(4):
            self._scores[seat] += deltas[seat]
            self._streaks[seat] = self._streaks[seat] + 1 if active[seat] == 0 else 0
        self._winners = match_winners(self._scores, self._rules.target_score)
        finished._on_over = None
        self._unbind()

    def riscos(self) -> list[float] | None:
        """Ranking points when the match is over (RULES.md §5), else ``None``."""
        return riscos_for(self._scores, self._winners) if self._winners else None

    def returns(self) -> list[float]:
        """Riscos once over, else zeros (the OpenSpiel convention)."""
        return self.riscos() or [0.0] * 4


def check_deck(deck: Sequence[object]) -> None:
    """Raise ``ValueError`` unless ``deck`` holds each of the 40 cards exactly once."""
    seen: set[object] = set()
    for card in deck:
        if not isinstance(card, Card):
            raise ValueError(f"not a card: {card!r}")
        if card in seen:
            raise ValueError(f"card {card} appears twice in the deck")
        seen.add(card)
    if len(seen) != 40:
        missing = [str(c) for c in CARDS if c not in seen]
        raise ValueError(f"the deck lacks {' '.join(missing)}")
