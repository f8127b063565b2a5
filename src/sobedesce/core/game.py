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
from .rules import CLASSIC, Rules, find_rules

__all__ = ["HAND_SIZE", "Match", "Phase", "Round", "TRICKS_PER_ROUND", "riscos_for"]

HAND_SIZE = 5
TRICKS_PER_ROUND = 5
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
_SUIT_OF = tuple(i // 10 for i in range(40))
# Cards of the same suit stronger than card i.
_ABOVE = tuple(SUIT_MASKS[i // 10] & ~((2 << i) - 1) for i in range(40))
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


def legal_card_mask(
    hand: int,
    lead_suit: int,
    win_card: int,
    trump: int,
    must_beat_following: bool,
    must_undertrump: bool,
    must_lead_trump_ace: bool = True,
) -> int:
    """The cards of ``hand`` (a mask) that may be played (RULES.md §4), as a mask.

    ``lead_suit`` is -1 for a lead; ``win_card`` is the card winning the trick so far.  This
    is the one statement of the rule: rounds and the bots' fast play-outs both call it.
    """
    if lead_suit < 0:
        if must_lead_trump_ace:
            ace = 1 << (trump * 10 + 9)
            if hand & ace:
                return ace
        return hand
    follow = hand & SUIT_MASKS[lead_suit]
    if follow:
        if must_beat_following and win_card // 10 == lead_suit:
            beaters = follow & _ABOVE[win_card]
            if beaters:
                return beaters
        return follow
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        beaters = trumps & _ABOVE[win_card] if win_card // 10 == trump else trumps
        if beaters:
            return beaters
        if must_undertrump:
            return trumps
    return hand


def _play_rules(rules: Rules, trump: int) -> tuple[int, int, bool, bool]:
    """What the legal-card test needs, fixed once trump is known: the Ace of trumps bit (0 when
    the leader need not lead it), the trump mask, must-beat-following, must-undertrump."""
    lead_ace = 1 << (trump * 10 + 9) if rules.must_lead_trump_ace else 0
    return lead_ace, SUIT_MASKS[trump], rules.must_beat_following, rules.must_undertrump


def shuffled_deck(rng: _random.Random) -> list[Card]:
    """A uniformly shuffled deck: the Lehmer code of 256 random bits (bias below 1e-28),
    about half the cost of ``rng.shuffle`` and as reproducible for a seeded ``rng``."""
    code = rng.getrandbits(256)
    deck = list(CARDS)
    for i in range(39, 0, -1):
        code, j = divmod(code, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class Round:
    """One round, from the dealt deck to the score changes.

    Seats act in the order ``to_act`` gives; :meth:`apply` checks every action against the
    rules and raises :class:`IllegalActionError` with the reason a player would read.
    """

    __slots__ = (
        "_legal",
        "_play_rules",
        "active",
        "chooser",
        "dealer",
        "decided",
        "deck",
        "deltas",
        "discards",
        "exchanges",
        "hands",
        "lead_suit",
        "leader",
        "leaders",
        "n_active",
        "next_active",
        "on_over",
        "phase",
        "rules",
        "scores",
        "sit_ok",
        "stock",
        "stock_pos",
        "streaks",
        "to_act",
        "trick",
        "tricks",
        "tricks_won",
        "trump",
        "trump_action",
        "turned",
        "win_card",
        "win_seat",
    )

    rules: Rules
    dealer: int
    chooser: int
    deck: tuple[Card, ...] | None
    scores: tuple[int, ...]
    streaks: tuple[int, ...]
    phase: int
    to_act: int
    trump: int
    turned: bool
    trump_action: Action | None
    hands: list[int]
    stock: Sequence[Card]
    stock_pos: int
    active: list[int]
    discards: list[int]
    exchanges: list[Action]
    decided: int
    n_active: int
    next_active: list[int]
    tricks: list[list[Card]]
    trick: list[Card]
    leader: int
    leaders: list[int]
    sit_ok: list[bool]
    lead_suit: int
    win_card: int
    win_seat: int
    tricks_won: list[int]
    deltas: list[int] | None
    on_over: Callable[[Round], None] | None
    """Called once when the round ends (the match settles its scores)."""
    _legal: int
    _play_rules: tuple[int, int, bool, bool]

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        deck: Sequence[Card],
        scores: Sequence[int] = (20, 20, 20, 20),
        streaks: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.chooser = chooser = (dealer + 1) % 4
        self.deck = deck = tuple(deck)
        self.scores = tuple(scores)
        self.streaks = tuple(streaks)
        self.phase = _TRUMP
        self.to_act = chooser
        self.trump = -1
        self.turned = False
        self.trump_action = None
        packets = [
            (1 << deck[0]) | (1 << deck[1]) | (1 << deck[2]),
            (1 << deck[3]) | (1 << deck[4]) | (1 << deck[5]),
            (1 << deck[6]) | (1 << deck[7]) | (1 << deck[8]),
            (1 << deck[9]) | (1 << deck[10]) | (1 << deck[11]),
        ]
        # Rotate so that hands[seat] is the seat's packet: the chooser got the first one.
        self.hands = packets[4 - chooser :] + packets[: 4 - chooser]
        self.stock = deck[20:]
        self.stock_pos = 0
        self.active = [-1, -1, -1, -1]
        self.discards = [0, 0, 0, 0]
        self.exchanges = []
        self.decided = 0
        self.n_active = 0
        self.next_active = [0, 0, 0, 0]
        self.tricks = []
        self.trick = []
        self.leader = -1
        self.leaders = []
        self.sit_ok = [True, True, True, True]
        self._play_rules = (0, 0, False, False)
        self.lead_suit = -1
        self.win_card = -1
        self.win_seat = -1
        self.tricks_won = [0, 0, 0, 0]
        self.deltas = None
        self.on_over = None
        self._legal = -1

    def __repr__(self) -> str:
        trump = "SHDC"[self.trump] if self.trump >= 0 else None
        phase = Phase(self.phase).label
        return f"<Round dealer={self.dealer} trump={trump} phase={phase} to_act={self.to_act}>"

    def copy(self) -> Round:
        """An independent copy: applying actions to it leaves this round unchanged."""
        new = Round.__new__(Round)
        new.rules = self.rules
        new.dealer = self.dealer
        new.chooser = self.chooser
        new.deck = self.deck
        new.scores = self.scores
        new.streaks = self.streaks
        new.phase = self.phase
        new.to_act = self.to_act
        new.trump = self.trump
        new.turned = self.turned
        new.trump_action = self.trump_action
        new.hands = self.hands[:]
        new.stock = self.stock
        new.stock_pos = self.stock_pos
        new.active = self.active[:]
        new.discards = self.discards[:]
        new.exchanges = self.exchanges[:]
        new.decided = self.decided
        new.n_active = self.n_active
        new.next_active = self.next_active
        # Completed tricks never change again: share them, copy only the trick in play.
        new.tricks = tricks = self.tricks[:]
        if tricks:
            tricks[-1] = new.trick = tricks[-1][:]
        else:
            new.trick = []
        new.leaders = self.leaders[:]
        new.leader = self.leader
        new.sit_ok = self.sit_ok
        new._play_rules = self._play_rules
        new.lead_suit = self.lead_suit
        new.win_card = self.win_card
        new.win_seat = self.win_seat
        new.tricks_won = self.tricks_won[:]
        new.deltas = self.deltas
        new.on_over = None
        new._legal = self._legal
        return new

    # -- what may be done -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    @property
    def turned_card(self) -> Card | None:
        """The turned-up card (everyone saw it), or ``None``."""
        return self.deck[12] if self.turned and self.deck is not None else None

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act (empty once the round is over)."""
        phase = self.phase
        if phase == _PLAY:
            mask = self._legal
            if mask < 0:
                mask = self._legal = self._legal_play_mask(self.to_act)
            return _SP0[mask & 1023] + _SP1[(mask >> 10) & 1023] + _SP2[(mask >> 20) & 1023] + _SP3[mask >> 30]
        if phase == _EXCHANGE:
            seat = self.to_act
            rules = self.rules
            return ExchangeChoices(self.hands[seat], self.sit_ok[seat], rules.min_discard, rules.max_discard)
        if phase == _TRUMP:
            return _TRUMP_WITH_TURN if self.rules.turn_up_allowed else TRUMP_ACTIONS
        return ()

    def legal_cards(self) -> int:
        """The legal cards of the seat to play, as a mask (0 outside the play phase)."""
        if self.phase != _PLAY:
            return 0
        mask = self._legal
        if mask < 0:
            mask = self._legal = self._legal_play_mask(self.to_act)
        return mask

    def _sit_ok(self) -> list[bool]:
        rules = self.rules
        if rules.all_play_suit is not None and self.trump == rules.all_play_suit:
            return [False, False, False, False]
        limit = rules.max_sit_outs_in_row
        a, b, c, d = self.streaks
        ok = [a < limit, b < limit, c < limit, d < limit]
        floor = rules.must_play_at_or_below
        if floor is not None:
            a, b, c, d = self.scores
            ok = [ok[0] and a > floor, ok[1] and b > floor, ok[2] and c > floor, ok[3] and d > floor]
        if rules.chooser_must_play:
            ok[self.chooser] = False
        return ok

    def must_play_reason(self, seat: int) -> str | None:
        """Why ``seat`` may not sit out this round, or ``None`` if it may."""
        rules = self.rules
        if rules.all_play_suit is not None and self.trump == rules.all_play_suit:
            return f"must play: {Suit(self.trump).title} are trumps"
        if self.streaks[seat] >= rules.max_sit_outs_in_row:
            return f"must play: sat out the {_NUMBER_WORDS[rules.max_sit_outs_in_row] if rules.max_sit_outs_in_row < 6 else rules.max_sit_outs_in_row} previous rounds"
        if rules.chooser_must_play and seat == self.chooser:
            return "must play: the chooser must play"
        if rules.must_play_at_or_below is not None and self.scores[seat] <= rules.must_play_at_or_below:
            return f"must play: a score of {rules.must_play_at_or_below} or less must play"
        return None

    def _legal_play_mask(self, seat: int) -> int:
        lead_ace, _, must_beat, must_undertrump = self._play_rules
        return legal_card_mask(
            self.hands[seat], self.lead_suit, self.win_card, self.trump, must_beat, must_undertrump, lead_ace != 0
        )

    def _play_reason(self, seat: int, card: int) -> str:
        """Why ``card`` is not legal for ``seat`` now (call only when it is not)."""
        hand = self.hands[seat]
        if not hand >> card & 1:
            return f"does not hold {CARDS[card]}"
        lead = self.lead_suit
        if lead < 0:
            return "must lead the Ace of trumps"
        win = self.win_card
        if hand & SUIT_MASKS[lead]:
            if _SUIT_OF[card] != lead:
                return f"must follow suit {Suit(lead).letter}"
            return f"must beat {CARDS[win]}, the winning card"
        trump = self.trump
        trumps = hand & SUIT_MASKS[trump]
        if _SUIT_OF[win] != trump:
            return f"must trump: void in {Suit(lead).letter}"
        if trumps & _ABOVE[win]:
            return f"must overtrump {CARDS[win]}"
        return f"must play a trump: void in {Suit(lead).letter}"

    # -- doing it ---------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply the action of the seat to act; raises :class:`IllegalActionError`."""
        kind = action.kind
        if kind == KIND_PLAY and self.phase == _PLAY:
            # The hot path of every search and simulation: kept inline on purpose.
            card: Card = action.card  # type: ignore[attr-defined]
            seat = self.to_act
            legal = self._legal
            if legal < 0:
                legal = self._legal_play_mask(seat)
            if not legal >> card & 1:
                raise IllegalActionError(self._play_reason(seat, card), seat=seat, action=action)
            self._legal = -1
            self.hands[seat] ^= 1 << card
            self.trick.append(card)
            leader = self.leader
            if seat == leader:
                self.lead_suit = card // 10
                self.win_card = card
                self.win_seat = seat
            else:
                win = self.win_card
                suit = card // 10
                if suit == win // 10:
                    if card > win:
                        self.win_card = card
                        self.win_seat = seat
                elif suit == self.trump:
                    self.win_card = card
                    self.win_seat = seat
            following = self.next_active[seat]
            if following != leader:
                self.to_act = following
                return
            winner = self.win_seat
            self.tricks_won[winner] += 1
            if len(self.tricks) == TRICKS_PER_ROUND:
                self._finish()
                return
            trick: list[Card] = []
            self.trick = trick
            self.tricks.append(trick)
            self.leaders.append(winner)
            self.leader = winner
            self.lead_suit = -1
            self.to_act = winner
        elif self.phase == _EXCHANGE and kind in (KIND_EXCHANGE, KIND_SIT_OUT):
            self._exchange(action)
        elif self.phase == _TRUMP and kind in (KIND_TRUMP, KIND_TURN):
            self._choose_trump(action)
        else:
            raise IllegalActionError(self._wrong_phase(action), seat=self.to_act, action=action)

    def _wrong_phase(self, action: Action) -> str:
        if self.phase == _OVER:
            return "the round is over"
        wanted = {_TRUMP: "choose trump", _EXCHANGE: "play or sit out", _PLAY: "play a card"}[self.phase]
        return f"cannot {describe(action).split(' ')[0].rstrip('s')} now: seat {self.to_act} is to {wanted}"

    def _choose_trump(self, action: Action) -> None:
        deck = self.deck
        assert deck is not None
        if action.kind == KIND_TURN:
            if not self.rules.turn_up_allowed:
                raise IllegalActionError(
                    f"turning up is not allowed under {self.rules.preset} rules", seat=self.to_act, action=action
                )
            self.trump = _SUIT_OF[deck[12]]
            self.turned = True
        else:
            self.trump = int(action.suit)  # type: ignore[attr-defined]
        self.trump_action = action
        chooser = self.chooser
        hands = self.hands
        hands[chooser] |= (1 << deck[12]) | (1 << deck[13])
        hands[(chooser + 1) % 4] |= (1 << deck[14]) | (1 << deck[15])
        hands[(chooser + 2) % 4] |= (1 << deck[16]) | (1 << deck[17])
        hands[(chooser + 3) % 4] |= (1 << deck[18]) | (1 << deck[19])
        self.phase = _EXCHANGE
        self.sit_ok = self._sit_ok()
        self._play_rules = _play_rules(self.rules, self.trump)

    def _exchange(self, action: Action) -> None:
        seat = self.to_act
        if action.kind == KIND_SIT_OUT:
            if not self.sit_ok[seat]:
                raise IllegalActionError(self.must_play_reason(seat) or "may not sit out", seat=seat, action=action)
            self.active[seat] = 0
        else:
            assert isinstance(action, Exchange)
            mask = action.mask
            count = len(action.discard)
            hand = self.hands[seat]
            if mask & hand != mask:
                missing = [str(c) for c in action.discard if not hand >> c & 1]
                raise IllegalActionError(f"does not hold {' '.join(missing)}", seat=seat, action=action)
            if mask.bit_count() != count:
                twice = sorted({str(c) for c in action.discard if action.discard.count(c) > 1})
                raise IllegalActionError(f"discards {' '.join(twice)} twice", seat=seat, action=action)
            rules = self.rules
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
                pos = self.stock_pos
                drawn = 0
                for card in self.stock[pos : pos + count]:
                    drawn |= 1 << card
                self.stock_pos = pos + count
                self.hands[seat] = (hand ^ mask) | drawn
            self.active[seat] = 1
            self.discards[seat] = count
        self.exchanges.append(action)
        self.decided += 1
        if self.decided < 4:
            self.to_act = (seat + 1) % 4
            return
        self._start_play()

    def _start_play(self) -> None:
        active = self.active
        players = [s for s in range(4) if active[s] == 1]
        self.n_active = len(players)
        if len(players) < 2:
            if players:
                self.tricks_won[players[0]] = TRICKS_PER_ROUND
            self._finish()
            return
        next_active = [0, 0, 0, 0]
        for seat in range(4):
            nxt = (seat + 1) % 4
            while active[nxt] != 1:
                nxt = (nxt + 1) % 4
            next_active[seat] = nxt
        self.next_active = next_active
        chooser = self.chooser
        leader = chooser if active[chooser] == 1 else next_active[chooser]
        self.phase = _PLAY
        self.to_act = leader
        self.trick = []
        self.tricks.append(self.trick)
        self.leaders.append(leader)
        self.leader = leader
        self._legal = -1

    def _finish(self) -> None:
        rules = self.rules
        multiplier = rules.multiplier(self.trump)
        penalty = rules.no_trick_penalty * multiplier
        deltas = [0, 0, 0, 0]
        if self.n_active:
            for seat in range(4):
                if self.active[seat] == 1:
                    won = self.tricks_won[seat]
                    deltas[seat] = -won * multiplier if won else penalty
        self.deltas = deltas
        self.phase = _OVER
        self.to_act = -1
        if self.on_over is not None:
            self.on_over(self)

    # -- derived facts ------------------------------------------------------------------

    @property
    def current_trick(self) -> list[Card]:
        return self.tricks[-1] if self.tricks and self.phase == _PLAY else []

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.stock_pos

    def trick_winner(self, index: int) -> int | None:
        """The seat that won completed trick ``index`` (0-based), else ``None``."""
        if index >= len(self.tricks) or len(self.tricks[index]) < self.n_active:
            return None
        if index + 1 < len(self.leaders):
            return self.leaders[index + 1]
        return winning_seat(self.tricks[index], self.leaders[index], self.trump, self.active)

    def exchange_seat(self, index: int) -> int:
        """The seat that takes exchange decision ``index`` (0 is the chooser)."""
        return (self.chooser + index) % 4


def winning_seat(trick: Sequence[int], leader: int, trump: int, active: Sequence[int]) -> int:
    """The seat whose card wins ``trick`` (cards in order of play from ``leader``)."""
    seats = [leader]
    while len(seats) < len(trick):
        nxt = (seats[-1] + 1) % 4
        while active[nxt] != 1:
            nxt = (nxt + 1) % 4
        seats.append(nxt)
    best = 0
    for i in range(1, len(trick)):
        card, win = trick[i], trick[best]
        if (_SUIT_OF[card] == _SUIT_OF[win] and card > win) or (_SUIT_OF[card] == trump and _SUIT_OF[win] != trump):
            best = i
    return seats[best]


_TRUMP_WITH_TURN: tuple[Action, ...] = (*TRUMP_ACTIONS, TURN_UP)


def riscos_for(scores: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Ranking points of a finished match (RULES.md §5); they sum to zero.

    >>> riscos_for([0, 11, 2, 5], [0])
    [18.0, -11, -2, -5]
    """
    losers_total = sum(scores[s] for s in range(len(scores)) if s not in winners)
    share = losers_total / len(winners)
    return [share if s in winners else -scores[s] for s in range(len(scores))]


class Match:
    """A match: rounds dealt one after another until a score reaches the target (0).

    ``phase`` tells what is awaited.  In :attr:`Phase.DEAL` call :meth:`deal`; otherwise the
    seat ``current_seat`` acts with ``apply(action)``, choosing from ``legal_actions()``.
    """

    __slots__ = (
        "_current",
        "apply",
        "initial_scores",
        "initial_streaks",
        "legal_actions",
        "players",
        "rounds",
        "rules",
        "scores",
        "streaks",
        "winners",
    )

    def __init__(
        self,
        rules: Rules | str = CLASSIC,
        *,
        scores: Sequence[int] | None = None,
        sat_out_before: Sequence[int] | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules = find_rules(rules)
        start = rules.start_score
        self.initial_scores = tuple(scores) if scores is not None else (start,) * 4
        self.initial_streaks = tuple(sat_out_before) if sat_out_before is not None else (0,) * 4
        self.players = tuple(players) if players is not None else None
        self.scores = list(self.initial_scores)
        self.streaks = list(self.initial_streaks)
        self.rounds: list[Round] = []
        # The round in play (None between rounds and once the match is over): the hot
        # paths test this one attribute instead of the phase.
        self._current: Round | None = None
        self.winners: list[int] = self._winners()
        self._idle()

    legal_actions: Callable[[], Sequence[Action]]
    """The legal actions of the seat to act; empty when a deal is due or the match is over.

    While a round is in play this *is* the round's ``legal_actions`` (and ``apply`` the
    round's ``apply``, which settles the match when the round ends): binding them once per
    round spares every decision a wrapper call.
    """

    apply: Callable[[Action], None]
    """Apply the action of :attr:`current_seat`; raises :class:`IllegalActionError`."""

    def _idle(self) -> None:
        self.legal_actions = _no_legal_actions
        self.apply = _match_is_over if self.winners else _deal_first

    def _bind(self, current: Round) -> None:
        self._current = current
        current.on_over = self._settle
        self.legal_actions = current.legal_actions
        self.apply = current.apply

    def _winners(self) -> list[int]:
        target = self.rules.target_score
        return [seat for seat in range(4) if self.scores[seat] <= target]

    def copy(self) -> Match:
        new = Match.__new__(Match)
        new.rules = self.rules
        new.players = self.players
        new.initial_scores = self.initial_scores
        new.initial_streaks = self.initial_streaks
        new.scores = self.scores[:]
        new.streaks = self.streaks[:]
        new.rounds = self.rounds[:]
        new.winners = self.winners[:]
        new._current = None
        if self._current is not None:
            new.rounds[-1] = current = self._current.copy()
            new._bind(current)
        else:
            new._idle()
        return new

    clone = copy

    @property
    def round(self) -> Round | None:
        """The latest round (finished or not), or ``None`` before the first deal."""
        return self.rounds[-1] if self.rounds else None

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def phase(self) -> Phase:
        if self.winners:
            return Phase.MATCH_OVER
        if not self.rounds or self.rounds[-1].phase == _OVER:
            return Phase.DEAL
        return Phase(self.rounds[-1].phase)

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when a deal is due or the match is over."""
        if self.winners or not self.rounds:
            return None
        seat = self.rounds[-1].to_act
        return seat if seat >= 0 else None

    @property
    def next_dealer(self) -> int | None:
        """The dealer of the next round (``None`` before the first, which is drawn)."""
        return (self.rounds[-1].dealer + 1) % 4 if self.rounds else None

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
        if self.winners:
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
        new = Round(self.rules, dealer, deck, self.scores, self.streaks)
        self.rounds.append(new)
        self._bind(new)
        return new

    def _settle(self, finished: Round) -> None:
        deltas = finished.deltas
        assert deltas is not None
        for seat in range(4):
            self.scores[seat] += deltas[seat]
            self.streaks[seat] = self.streaks[seat] + 1 if finished.active[seat] == 0 else 0
        self.winners = self._winners()
        self._current = None
        finished.on_over = None
        self._idle()

    def riscos(self) -> list[float] | None:
        """Ranking points when the match is over (RULES.md §5), else ``None``."""
        return riscos_for(self.scores, self.winners) if self.winners else None

    def returns(self) -> list[float]:
        """Riscos once over, else zeros (the OpenSpiel convention)."""
        return self.riscos() or [0.0] * 4


def _no_legal_actions() -> Sequence[Action]:
    return ()


def _deal_first(action: Action) -> None:
    raise IllegalActionError("a new round must be dealt first", action=action)


def _match_is_over(action: Action) -> None:
    raise IllegalActionError("the match is over", action=action)


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
