"""Deals consistent with what one seat knows: the determinizations of information-set search.

Pure standard library.  :func:`sample_deal` draws a whole deck (and every seat's discards)
uniformly over the hidden cards, subject to every constraint the seat can see: its own cards,
the turned card, who sat out and how many cards each exchanged, every card played, and what
each played card proves a seat did *not* hold (RULES.md §4: a seat void in the suit led, a seat
that did not trump or did not head the trick when it had to).  The deal is checked by replaying
the round, so it is always consistent; it is not weighted by how likely the others' decisions
were (that is what ``strong``'s inference adds).
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

__all__ = ["OwnCards", "SampledDeal", "forbidden_masks", "sample_deal"]

SEATS = 4


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
    for _ in range(tries):
        deal = _attempt(view, rng, own)
        if deal is not None:
            return deal
    raise RuntimeError(f"no deal consistent with seat {view.seat}'s view found in {tries} attempts")


def _attempt(view: SeatView, rng: random.Random, own: OwnCards | None) -> SampledDeal | None:
    me = view.seat
    chooser = view.chooser
    dealer = view.dealer
    assert chooser is not None and dealer is not None
    positions = _packets(chooser)
    deck: list[int] = [-1] * 40

    if view.phase == Phase.TRUMP:
        mine = [int(c) for c in (own.first if own is not None else view.hand)]
        if own is None:
            rng.shuffle(mine)
        for pos, card in zip(positions[me][:3], mine, strict=True):
            deck[pos] = card
        unseen = [int(c) for c in CARDS if c not in mine]
        rng.shuffle(unseen)
        it = iter(unseen)
        for pos in range(40):
            if deck[pos] < 0:
                deck[pos] = next(it)
        return _check(view, deck, ())

    turned: int | None = int(view.turned_card) if view.turned_card is not None else None
    played_by: list[list[int]] = [[] for _ in range(SEATS)]
    for trick in view.tricks:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            played_by[seat].append(card)
    forbidden = forbidden_masks(view)

    # The viewer's own cards.
    my_discards = [int(c) for c in view.my_discards]
    my_first: list[int]
    my_second: list[int]
    my_drawn: list[int]
    if own is not None:
        my_first, my_second, my_drawn = (
            [int(c) for c in own.first],
            [int(c) for c in own.second],
            [int(c) for c in own.drawn],
        )
    else:
        post = [int(c) for c in view.hand] + played_by[me]
        decided = view.active[me] is not None
        if decided and view.active[me]:
            k = len(my_discards)
            candidates = [c for c in post if c != turned]
            rng.shuffle(candidates)
            my_drawn = candidates[:k]
            kept = [c for c in post if c not in my_drawn]
            initial = kept + my_discards
        else:
            my_drawn = []
            initial = [int(c) for c in view.hand]
        rng.shuffle(initial)
        if turned is not None and chooser == me:
            initial.remove(turned)
            my_first, my_second = initial[:3], [turned, *initial[3:]]
        else:
            my_first, my_second = initial[:3], initial[3:]
    known: set[int] = set(my_first) | set(my_second) | set(my_drawn)
    for seat in range(SEATS):
        if seat != me:
            known.update(played_by[seat])
    if turned is not None:
        known.add(turned)
    pool = [int(c) for c in CARDS if c not in known]
    rng.shuffle(pool)

    def take(count: int, banned: int = 0) -> list[int] | None:
        chosen: list[int] = []
        for card in pool:
            if len(chosen) == count:
                break
            if not banned >> card & 1:
                chosen.append(card)
        if len(chosen) < count:
            return None
        for card in chosen:
            pool.remove(card)
        return chosen

    initial5: list[list[int]] = [[] for _ in range(SEATS)]
    drawn: list[list[int]] = [[] for _ in range(SEATS)]
    discards: list[list[int]] = [[] for _ in range(SEATS)]
    initial5[me] = my_first + my_second
    drawn[me] = my_drawn
    discards[me] = my_discards
    # Most constrained seats first: the active ones, by how much their plays forbid.
    others = [s for s in range(SEATS) if s != me]
    others.sort(key=lambda s: (view.active[s] is not True, -forbidden[s].bit_count()))
    for seat in others:
        holds_turned = turned is not None and seat == chooser and turned not in played_by[seat]
        if view.active[seat]:
            k = view.discard_counts[seat] or 0
            unplayed = view.hand_sizes[seat]
            turned_kept = False
            if holds_turned:
                assert turned is not None
                # Kept or discarded, uniformly over which cards went; never when it showed a void in trumps.
                can_keep = not (forbidden[seat] >> turned & 1) and unplayed > 0
                turned_kept = can_keep and (k == 0 or rng.random() < (5 - k) / 5)
                if not turned_kept and k == 0:
                    return None
            need = unplayed - turned_kept
            held = take(need, forbidden[seat])
            if held is None:
                return None
            hand = played_by[seat] + held + ([turned] if turned is not None and turned_kept else [])
            candidates = [c for c in hand if c != turned]
            rng.shuffle(candidates)
            drawn[seat] = candidates[:k]
            kept = [c for c in hand if c not in drawn[seat]]
            if holds_turned and not turned_kept:
                assert turned is not None
                rest = take(k - 1)
                if rest is None:
                    return None
                discards[seat] = [turned, *rest]
            else:
                got = take(k)
                if got is None:
                    return None
                discards[seat] = got
            initial5[seat] = kept + discards[seat]
        else:
            got = take(5 - (turned is not None and seat == chooser))
            if got is None:
                return None
            initial5[seat] = got + ([turned] if turned is not None and seat == chooser else [])
    # The packets.
    first: list[int]
    second: list[int]
    for seat in range(SEATS):
        cards = list(initial5[seat])
        if seat == me:
            first, second = my_first, my_second
        else:
            rng.shuffle(cards)
            if turned is not None and seat == chooser:
                cards.remove(turned)
                first, second = cards[:3], [turned, *cards[3:]]
            else:
                first, second = cards[:3], cards[3:]
        for pos, card in zip(positions[seat], first + second, strict=True):
            deck[pos] = card
    # The stock: draws in exchange order, then the rest.
    pos = STOCK
    for seat in view.exchange_order:
        if view.active[seat]:
            for card in drawn[seat]:
                deck[pos] = card
                pos += 1
    rest = pool
    rng.shuffle(rest)
    for card in rest:
        deck[pos] = card
        pos += 1
    if pos != 40 or -1 in deck:
        return None
    actions: list[Action] = [_trump_action(view)]
    for seat in view.exchange_order:
        state = view.active[seat]
        if state is None:
            break
        actions.append(Exchange(tuple(CARDS[c] for c in discards[seat])) if state else SIT_OUT)
    for trick in view.tricks:
        actions.extend(Play(CARDS[c]) for c in trick.cards)
    return _check(view, deck, tuple(actions))


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
    if replay.phase != int(view.phase) or replay.to_act != (view.to_act if view.to_act is not None else -1):
        return None
    if view.hand and cards_of(replay.hands[view.seat]) != list(view.hand):
        return None
    return SampledDeal(cards, actions)
