"""A seat's view: exactly what one seat may know, and nothing else.

Bots and clients are only ever handed a :class:`SeatView`.  It is built from the public facts
of the round (trump, the turned-up card, who sits out, how many cards each exchanged, the
cards played) plus the seat's own hand and own discards.

>>> import random
>>> match = Match("classic")
>>> match.deal(rng=random.Random(3), dealer=0)
<Round dealer=0 trump=None phase=trump to_act=1>
>>> view = seat_view(match, 1)
>>> len(view.hand), view.phase, view.to_act, view.is_my_turn
(3, <Phase.TRUMP: 1>, 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Final

from . import _checks
from .actions import Action
from .cards import CARDS, Card, Suit, mask_of
from .game import _PLAY, _SUITS, SEATS, Phase, Round, _hand_cards
from .logic import SUIT_OF, trick_seats, trick_winner
from .match import Match
from .rules import Rules

__all__ = ["SeatView", "TrickView", "seat_view", "round_from_view"]

# A seat's ``active`` code (1 plays, 0 sits out, -1 not decided yet) as the view gives it,
# indexed by the code itself (-1 reads the last item).
_ACTIVE_OF: Final[tuple[bool | None, ...]] = (False, True, None)
_SEAT_RANGE: Final = range(SEATS)
_NO_TRICKS: Final = (0,) * SEATS
# Per chooser, the seats in the order they decide to play or sit out.
_EXCHANGE_ORDERS: Final = tuple(tuple((chooser + i) % SEATS for i in range(SEATS)) for chooser in range(SEATS))


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick: its leader and the cards in order of play, with the seat of each."""

    leader: int
    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    winner: int | None
    """The seat that won it, or ``None`` while it is being played."""

    def __reduce__(self) -> tuple[type[TrickView], tuple[object, ...]]:
        # Pickled through the constructor: a frozen dataclass compiled by mypyc cannot be
        # restored field by field (its fields refuse assignment).
        return (type(self), tuple(getattr(self, item.name) for item in fields(self)))


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` knows at this moment of the match."""

    seat: int
    rules: Rules
    phase: Phase
    to_act: int | None
    legal_actions: Sequence[Action]
    """The seat's legal actions when it is to act, else empty (exchange choices stay lazy)."""
    round_index: int
    """0-based index of the current round (-1 before the first deal)."""
    dealer: int | None
    chooser: int | None
    trump: Suit | None
    turned_card: Card | None
    """The card turned up as trump, seen by all, else ``None``."""
    hand: tuple[Card, ...]
    my_discards: tuple[Card, ...]
    active: tuple[bool | None, ...]
    """Per seat: plays, sits out, or not decided yet."""
    discard_counts: tuple[int | None, ...]
    """Per seat: how many cards it exchanged (``None`` until it plays)."""
    hand_sizes: tuple[int, ...]
    """Per seat: cards in hand in this round (0 for a seat that sits out)."""
    stock_count: int
    tricks: tuple[TrickView, ...]
    """The tricks of this round so far, the one being played last."""
    tricks_won: tuple[int, ...]
    scores: tuple[int, ...]
    """The scores before this round (the current scores between rounds)."""
    sat_out_streaks: tuple[int, ...]
    """Per seat: rounds sat out in a row before this round."""
    exchange_order: tuple[int, ...]
    """The seats in the order they decide to play or sit out (the chooser first)."""

    def __reduce__(self) -> tuple[type[SeatView], tuple[object, ...]]:
        # As TrickView's.
        return (type(self), tuple(getattr(self, item.name) for item in fields(self)))

    @property
    def is_my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def current_trick(self) -> TrickView | None:
        if self.tricks and self.tricks[-1].winner is None:
            return self.tricks[-1]
        return None

    @property
    def played_cards(self) -> tuple[Card, ...]:
        return tuple(card for trick in self.tricks for card in trick.cards)

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    def voids(self) -> list[set[int]]:
        """Per seat, the suits it has shown it does not hold (failing to follow a lead)."""
        found: list[set[int]] = [set() for _ in range(SEATS)]
        for trick in self.tricks:
            if not trick.cards:
                continue
            lead = SUIT_OF[trick.cards[0]]
            for card, seat in zip(trick.cards[1:], trick.seats[1:], strict=True):
                if SUIT_OF[card] != lead:
                    found[seat].add(lead)
        return found


def seat_view(match: Match, seat: int) -> SeatView:
    """The view of ``seat`` of the match now."""
    # (Compiled by mypyc, the function's own check of an argument that is no int says it first.)
    # True is seat 1, as compiled (where an argument typed int arrives as an int): the view's
    # seat is the int either way, never the bool.
    seat = int(_checks.index("seat", seat, SEATS))
    if not isinstance(match, Match):
        raise TypeError(f"seat_view needs a Match, not {match!r}")
    current = match.round
    phase = match.phase
    to_act = match.current_seat
    legal: Sequence[Action] = match.legal_actions() if to_act == seat else ()
    if current is None:
        return SeatView(
            seat=seat,
            rules=match.rules,
            phase=phase,
            to_act=to_act,
            legal_actions=legal,
            round_index=-1,
            dealer=None,
            chooser=None,
            trump=None,
            turned_card=None,
            hand=(),
            my_discards=(),
            active=(None,) * SEATS,
            discard_counts=(None,) * SEATS,
            hand_sizes=(0,) * SEATS,
            stock_count=20,
            tricks=(),
            tricks_won=(0,) * SEATS,
            scores=tuple(match.scores),
            sat_out_streaks=tuple(match.streaks),
            exchange_order=(),
        )
    between = current.is_over
    return _round_view(
        current,
        seat,
        phase=phase,
        to_act=to_act,
        legal=legal,
        round_index=len(match._rounds) - 1,
        scores=match.scores if between else current.scores,
        streaks=match.streaks if between else current.streaks,
    )


def _round_view(
    current: Round,
    seat: int,
    *,
    phase: Phase,
    to_act: int | None,
    legal: Sequence[Action],
    round_index: int,
    scores: tuple[int, ...],
    streaks: tuple[int, ...],
) -> SeatView:
    # The core reads the round's own state here (the properties would copy it), and builds the
    # view positionally: a frozen dataclass takes its 21 keyword arguments far slower (the
    # server makes a view for every seat at every decision).
    codes = current._active
    discards = current._discards
    hands = current._hands
    chooser = current._chooser
    trump = current._trump
    exchange_index = (seat - chooser) % SEATS
    my_discards = current._discarded(exchange_index) if exchange_index < len(current._exchanges) else ()
    return SeatView(
        seat,
        current._rules,
        phase,
        to_act,
        legal,
        round_index,
        current._dealer,
        chooser,
        _SUITS[trump] if trump >= 0 else None,
        current._turned_card,
        _hand_cards(hands[seat]) if codes[seat] != 0 else (),
        my_discards,
        (_ACTIVE_OF[codes[0]], _ACTIVE_OF[codes[1]], _ACTIVE_OF[codes[2]], _ACTIVE_OF[codes[3]]),
        tuple([discards[s] if codes[s] == 1 else None for s in _SEAT_RANGE]),
        tuple([0 if codes[s] == 0 else hands[s].bit_count() for s in _SEAT_RANGE]),
        len(current._stock) - current._stock_pos,
        _trick_views(current),
        tuple(current._tricks_won) if current._phase >= _PLAY else _NO_TRICKS,
        scores,
        streaks,
        _EXCHANGE_ORDERS[chooser],
    )


def _trick_views(current: Round) -> tuple[TrickView, ...]:
    """The round's tricks so far, as :meth:`Round.trick_seats` and :meth:`Round.trick_winner`
    give their seats and winners, in one pass over the cards played."""
    leaders = current._leaders
    count = len(leaders)
    if not count:
        return ()
    n = current._n_active
    played = current._cards_played
    next_active = current._next_active
    views: list[TrickView] = []
    for index in range(count):
        leader = leaders[index]
        cards = played[index * n : index * n + n]
        seats = trick_seats(leader, len(cards), next_active)
        winner: int | None = None
        if len(cards) == n:
            winner = leaders[index + 1] if index + 1 < count else seats[trick_winner(cards, current._trump)]
        views.append(TrickView(leader, tuple([CARDS[card] for card in cards]), tuple(seats), winner))
    return tuple(views)


def round_from_view(view: SeatView, hands: Sequence[int], stock: Sequence[Card]) -> Round:
    """A round in the same position as ``view`` with the hidden cards filled in.

    ``hands`` gives every seat's hand as a mask (the viewer's own must match the view) and
    ``stock`` the cards still to be drawn, top first.  This is how search bots build a
    *determinization* of what they cannot see; it works from the exchange phase on (in the
    trump phase, build a :class:`Round` from a sampled deck instead).
    """
    if not isinstance(view, SeatView):
        raise TypeError(f"round_from_view needs a SeatView, not {view!r}")
    if view.phase not in (Phase.EXCHANGE, Phase.PLAY):
        raise ValueError("round_from_view needs a view in the exchange or play phase")
    hands = _checks.whole_numbers("hands", hands, "four masks, one a seat", size=1 << 40)
    if hands[view.seat] != view.hand_mask:
        raise ValueError("the viewer's hand differs from the view")
    assert view.dealer is not None and view.trump is not None
    return Round.from_position(
        view.rules,
        dealer=view.dealer,
        scores=view.scores,
        streaks=view.sat_out_streaks,
        trump=int(view.trump),
        turned_card=view.turned_card,
        hands=hands,
        stock=stock,
        active=[-1 if a is None else int(a) for a in view.active],
        discards=[c or 0 for c in view.discard_counts],
        tricks=[trick.cards for trick in view.tricks],
        leaders=[trick.leader for trick in view.tricks],
        tricks_won=view.tricks_won,
    )
