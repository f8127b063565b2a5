"""Deals consistent with what one seat knows: the determinizations of information-set search.

Pure standard library.  :func:`sample_deal` draws a whole deck (and every seat's discards)
uniformly over the hidden cards, subject to every constraint the seat can see: its own cards,
the turned card, who sat out and how many cards each exchanged, every card played, and what
each played card proves a seat did *not* hold (RULES.md §4: a seat void in the suit led, a seat
that did not trump or did not head the trick when it had to).  The deal is checked by replaying
the round, so it is always consistent; it is not weighted by how likely the others' decisions
were (that is what ``strong``'s inference adds).

The cards the active seats hold now are drawn together (every seat's share sliced from one
shuffle) and the draw rejected when a seat gets a card its plays prove it did not hold, so they
are uniform over the consistent placements.  Drawn seat by seat instead, each from what the seats
before it left, the seats filled last got the cards the others may not hold more often than
their share (half as often again, measured with two seats that had shown voids).  Only when
``JOINT_TRIES`` joint draws are all rejected (a position so constrained that few placements are
left) does it fall back to that seat-by-seat draw, which always places the cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from sobedesce.core import (
    CARDS,
    SIT_OUT,
    TURN_UP,
    Action,
    Card,
    Exchange,
    IllegalActionError,
    NameTrump,
    Phase,
    Play,
    Round,
    SeatView,
    cards_of,
)
from sobedesce.core.cards import SUIT_MASKS
from sobedesce.core.logic import ABOVE, BEATERS, STOCK, packet_indices

__all__ = ["JOINT_TRIES", "OwnCards", "SampledDeal", "forbidden_masks", "sample_deal"]

SEATS = 4
JOINT_TRIES = 200
"""Attempts that draw the active seats' cards together before falling back to seat by seat."""


@dataclass(frozen=True, slots=True)
class OwnCards:
    """The viewer's own cards by where they came from (known to it, absent from a view)."""

    first: tuple[Card, ...]
    """The first packet of three."""
    second: tuple[Card, ...]
    """The second packet of two (empty before trump is chosen)."""
    drawn: tuple[Card, ...]
    """The cards it drew from the stock, in order."""


@dataclass(frozen=True, slots=True)
class SampledDeal:
    deck: tuple[Card, ...]
    """A whole deck, top card first."""
    actions: tuple[Action, ...]
    """The round's actions so far, replayable from ``deck`` (exchanges rebuilt for its hands)."""


def forbidden_masks(view: SeatView) -> list[int]:
    """Per seat, the cards its plays prove it held at none of those moments (so holds none of
    now, since nobody draws after the exchange)."""
    forbidden = [0, 0, 0, 0]
    if view.trump is None:
        return forbidden
    rules = view.rules
    trump = int(view.trump)
    trumps = SUIT_MASKS[trump]
    ace = 1 << (trump * 10 + 9)
    for trick in view.tricks:
        win = -1
        lead = -1
        for index, (card, seat) in enumerate(zip(trick.cards, trick.seats, strict=True)):
            suit = card // 10
            if index == 0:
                if rules.must_lead_trump_ace and card != trump * 10 + 9:
                    forbidden[seat] |= ace
                lead = suit
                win = card
                continue
            if suit == lead:
                if rules.must_beat_following and win // 10 == lead and not card > win:
                    forbidden[seat] |= ABOVE[win]
            else:
                forbidden[seat] |= SUIT_MASKS[lead]
                win_is_trump = win // 10 == trump
                beaters = trumps & BEATERS[trump][win]
                if suit == trump:
                    if win_is_trump and not card > win:
                        forbidden[seat] |= beaters
                elif rules.must_undertrump:
                    forbidden[seat] |= trumps
                else:
                    forbidden[seat] |= beaters
            if BEATERS[trump][win] >> card & 1:
                win = card
    return forbidden


def _trump_action(view: SeatView) -> Action:
    assert view.trump is not None
    return TURN_UP if view.turned_card is not None else NameTrump(view.trump)


def _packets(chooser: int) -> list[list[int]]:
    """Per seat, its deck positions: three of the first part, then two of the second."""
    return [[*first, *second] for first, second in (packet_indices(seat, chooser) for seat in range(SEATS))]


def sample_deal(view: SeatView, rng: random.Random, own: OwnCards | None = None, tries: int = 500) -> SampledDeal:
    """A deal consistent with ``view`` (the viewer's own packets and draws as ``own`` says,
    or, without it, as any split its view allows).  Raises ``RuntimeError`` when none is
    found in ``tries`` attempts (not seen in practice)."""
    if view.phase not in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY):
        raise ValueError("sample_deal needs a view of a round in play")
    assert view.dealer is not None and view.chooser is not None
    for attempt in range(tries):
        deal = _attempt(view, rng, own, joint=attempt < JOINT_TRIES)
        if deal is not None:
            return deal
    raise RuntimeError(f"no deal consistent with seat {view.seat}'s view found in {tries} attempts")


def _attempt(view: SeatView, rng: random.Random, own: OwnCards | None, *, joint: bool) -> SampledDeal | None:
    """One try at a consistent deal (``None`` when the cards drawn cannot be placed); with
    ``joint``, the active seats' cards are drawn together and rejected if any is proven not held."""
    assert view.chooser is not None
    positions = _packets(view.chooser)
    if view.phase == Phase.TRUMP:
        return _check(view, _trump_phase_deck(view, rng, own, positions), ())
    return _Attempt(view, rng, own).deal(positions, joint=joint)


def _trump_phase_deck(
    view: SeatView, rng: random.Random, own: OwnCards | None, positions: list[list[int]]
) -> list[int]:
    """Before trump, the chooser's three cards are its first packet and the rest is unseen."""
    deck = [-1] * 40
    mine = [int(c) for c in (own.first if own is not None else view.hand)]
    if own is None:
        rng.shuffle(mine)
    for pos, card in zip(positions[view.seat][:3], mine, strict=True):
        deck[pos] = card
    unseen = [int(c) for c in CARDS if c not in mine]
    rng.shuffle(unseen)
    it = iter(unseen)
    for pos in range(40):
        if deck[pos] < 0:
            deck[pos] = next(it)
    return deck


class _Attempt:
    """A deal drawn in steps: the viewer's own packets and draws, each other seat's cards
    (the most constrained seats first), then the deck laid out and the decisions replayed."""

    def __init__(self, view: SeatView, rng: random.Random, own: OwnCards | None) -> None:
        assert view.chooser is not None
        self.view = view
        self.rng = rng
        self.me = view.seat
        self.chooser = view.chooser
        self.turned: int | None = int(view.turned_card) if view.turned_card is not None else None
        self.played_by: list[list[int]] = [[] for _ in range(SEATS)]
        for trick in view.tricks:
            for card, seat in zip(trick.cards, trick.seats, strict=True):
                self.played_by[seat].append(card)
        self.forbidden = forbidden_masks(view)
        self.my_discards = [int(c) for c in view.my_discards]
        self.my_first, self.my_second, self.my_drawn = self._own_cards(own)
        known: set[int] = set(self.my_first) | set(self.my_second) | set(self.my_drawn)
        for seat in range(SEATS):
            if seat != self.me:
                known.update(self.played_by[seat])
        if self.turned is not None:
            known.add(self.turned)
        self.pool = [int(c) for c in CARDS if c not in known]
        rng.shuffle(self.pool)
        self.initial5: list[list[int]] = [[] for _ in range(SEATS)]
        self.drawn: list[list[int]] = [[] for _ in range(SEATS)]
        self.discards: list[list[int]] = [[] for _ in range(SEATS)]
        self.turned_kept = False
        """Whether the chooser (another seat) still holds the turned card or played it."""
        self.held: dict[int, list[int]] = {}
        """The unplayed cards of the active seats, when drawn together."""

    def _own_cards(self, own: OwnCards | None) -> tuple[list[int], list[int], list[int]]:
        """The viewer's first packet, second packet and draws: as known, or as its view allows."""
        if own is not None:
            return [int(c) for c in own.first], [int(c) for c in own.second], [int(c) for c in own.drawn]
        view, turned = self.view, self.turned
        if view.active[self.me] is False:
            return [], [], []  # sat out: its view no longer shows its cards, dealt like another's
        post = [int(c) for c in view.hand] + self.played_by[self.me]
        my_drawn: list[int] = []
        if view.active[self.me]:
            candidates = [c for c in post if c != turned]
            self.rng.shuffle(candidates)
            my_drawn = candidates[: len(self.my_discards)]
            initial = [c for c in post if c not in my_drawn] + self.my_discards
        else:
            initial = [int(c) for c in view.hand]
        self.rng.shuffle(initial)
        if turned is not None and self.chooser == self.me:
            initial.remove(turned)
            return initial[:3], [turned, *initial[3:]], my_drawn
        return initial[:3], initial[3:], my_drawn

    def take(self, count: int, banned: int = 0) -> list[int] | None:
        """``count`` cards from the pool, none of ``banned``; ``None`` if there are not enough."""
        chosen: list[int] = []
        for card in self.pool:
            if len(chosen) == count:
                break
            if not banned >> card & 1:
                chosen.append(card)
        if len(chosen) < count:
            return None
        for card in chosen:
            self.pool.remove(card)
        return chosen

    def deal(self, positions: list[list[int]], *, joint: bool) -> SampledDeal | None:
        view, me = self.view, self.me
        self.initial5[me] = self.my_first + self.my_second
        self.drawn[me] = self.my_drawn
        self.discards[me] = self.my_discards
        # Most constrained seats first: the active ones, by how much their plays forbid.
        others = [s for s in range(SEATS) if s != me or not self.initial5[me]]
        others.sort(key=lambda s: (view.active[s] is not True, -self.forbidden[s].bit_count()))
        if self.chooser in others and view.active[self.chooser] and not self._keep_turned():
            return None
        if joint and not self._draw_held([s for s in others if view.active[s]]):
            return None
        for seat in others:
            placed = self._active_seat(seat) if view.active[seat] else self._idle_seat(seat)
            if not placed:
                return None
        deck = [-1] * 40
        self._lay_packets(deck, positions)
        if not self._lay_stock(deck):
            return None
        return _check(view, deck, self._actions())

    def _holds_turned(self, seat: int) -> bool:
        """Whether ``seat`` is the chooser and the turned card is neither played nor known gone."""
        turned = self.turned
        return turned is not None and seat == self.chooser and turned not in self.played_by[seat]

    def _keep_turned(self) -> bool:
        """Decide whether the chooser kept the turned card (``False``: no way it could have)."""
        seat, turned = self.chooser, self.turned
        if not self._holds_turned(seat):
            return True
        assert turned is not None
        k = self.view.discard_counts[seat] or 0
        # Kept or discarded, uniformly over which cards went; never when it showed a void in trumps.
        can_keep = not (self.forbidden[seat] >> turned & 1) and self.view.hand_sizes[seat] > 0
        self.turned_kept = can_keep and (k == 0 or self.rng.random() < (5 - k) / 5)
        return self.turned_kept or k > 0

    def _unplayed_count(self, seat: int) -> int:
        """How many of a seat's unplayed cards come from the pool (the turned card does not)."""
        return self.view.hand_sizes[seat] - (self._holds_turned(seat) and self.turned_kept)

    def _draw_held(self, seats: list[int]) -> bool:
        """The unplayed cards of ``seats``, sliced from the shuffled pool: ``False`` (rejected)
        when one gets a card its plays prove it did not hold."""
        start = 0
        for seat in seats:
            count = self._unplayed_count(seat)
            chunk = self.pool[start : start + count]
            if len(chunk) < count or any(self.forbidden[seat] >> card & 1 for card in chunk):
                return False
            self.held[seat] = chunk
            start += count
        del self.pool[:start]
        return True

    def _active_seat(self, seat: int) -> bool:
        """A seat that plays: the cards it holds now (none it is proven not to hold), which of
        them it drew, and what it discarded."""
        view, turned, rng = self.view, self.turned, self.rng
        holds_turned = self._holds_turned(seat)
        k = view.discard_counts[seat] or 0
        turned_kept = holds_turned and self.turned_kept
        held = self.held[seat] if seat in self.held else self.take(self._unplayed_count(seat), self.forbidden[seat])
        if held is None:
            return False
        hand = self.played_by[seat] + held + ([turned] if turned is not None and turned_kept else [])
        candidates = [c for c in hand if c != turned]
        rng.shuffle(candidates)
        self.drawn[seat] = candidates[:k]
        kept = [c for c in hand if c not in self.drawn[seat]]
        if holds_turned and not turned_kept:
            assert turned is not None
            rest = self.take(k - 1)
            if rest is None:
                return False
            self.discards[seat] = [turned, *rest]
        else:
            got = self.take(k)
            if got is None:
                return False
            self.discards[seat] = got
        self.initial5[seat] = kept + self.discards[seat]
        return True

    def _idle_seat(self, seat: int) -> bool:
        """A seat that sat out or has not decided: its five dealt cards (the turned one, if the chooser's)."""
        with_turned = self.turned is not None and seat == self.chooser
        got = self.take(5 - with_turned)
        if got is None:
            return False
        self.initial5[seat] = got + ([self.turned] if self.turned is not None and with_turned else [])
        return True

    def _lay_packets(self, deck: list[int], positions: list[list[int]]) -> None:
        """Each seat's five dealt cards at its packets' places (the turned card first in the chooser's second)."""
        for seat in range(SEATS):
            cards = list(self.initial5[seat])
            if seat == self.me and self.my_first:
                first, second = self.my_first, self.my_second
            else:
                self.rng.shuffle(cards)
                if self.turned is not None and seat == self.chooser:
                    cards.remove(self.turned)
                    first, second = cards[:3], [self.turned, *cards[3:]]
                else:
                    first, second = cards[:3], cards[3:]
            for pos, card in zip(positions[seat], first + second, strict=True):
                deck[pos] = card

    def _lay_stock(self, deck: list[int]) -> bool:
        """The stock: the draws in exchange order, then the rest of the pool shuffled."""
        pos = STOCK
        for seat in self.view.exchange_order:
            if self.view.active[seat]:
                for card in self.drawn[seat]:
                    deck[pos] = card
                    pos += 1
        rest = self.pool
        self.rng.shuffle(rest)
        for card in rest:
            deck[pos] = card
            pos += 1
        return pos == 40 and -1 not in deck

    def _actions(self) -> tuple[Action, ...]:
        """The decisions of the round so far, as the view shows them, with the sampled discards."""
        view = self.view
        actions: list[Action] = [_trump_action(view)]
        for seat in view.exchange_order:
            state = view.active[seat]
            if state is None:
                break
            actions.append(Exchange(tuple(CARDS[c] for c in self.discards[seat])) if state else SIT_OUT)
        for trick in view.tricks:
            actions.extend(Play(CARDS[c]) for c in trick.cards)
        return tuple(actions)


def _check(view: SeatView, deck: Sequence[int], actions: tuple[Action, ...]) -> SampledDeal | None:
    """The deal, if replaying ``actions`` from ``deck`` is legal and gives the viewer its view."""
    assert view.dealer is not None
    cards = tuple(CARDS[c] for c in deck)
    try:
        replay = Round(view.rules, view.dealer, cards, view.scores, view.sat_out_streaks)
        for action in actions:
            replay.apply(action)
    except IllegalActionError:
        return None
    if replay.phase != view.phase or replay.to_act != view.to_act:
        return None
    if view.hand and cards_of(replay.hands[view.seat]) != list(view.hand):
        return None
    return SampledDeal(cards, actions)
