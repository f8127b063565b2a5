"""Action ids and the fixed-size observation, shared by the PettingZoo and OpenSpiel games.

Pure standard library (lists of floats): each integration turns them into its own arrays.
Every id and every slot is documented in docs/integrations.md.

>>> from sobedesce.core import Exchange, NameTrump, Play, Suit, TurnUp, SitOut
>>> action_id(NameTrump(Suit.CLUBS)), action_id(TurnUp()), action_id(SitOut()), action_id(Play.of("AS"))
(3, 4, 5, 47)
>>> OBS_SIZE, NUM_ACTIONS
(415, 78)
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from sobedesce.core import (
    CARDS,
    PRESETS,
    SIT_OUT,
    TURN_UP,
    Action,
    Card,
    CardParseError,
    Exchange,
    NameTrump,
    Phase,
    Play,
    SeatView,
    SitOut,
    Suit,
    TurnUp,
    cards_of,
    sorted_cards,
)

__all__ = [
    "EXCHANGE_BASE",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "OBS_SLOTS",
    "PLAY_BASE",
    "SIT_OUT_ID",
    "TURN_UP_ID",
    "action_from_id",
    "action_id",
    "action_name",
    "legal_ids",
    "observe",
]

SEATS = 4
TURN_UP_ID = 4
SIT_OUT_ID = 5
EXCHANGE_BASE = 6
PLAY_BASE = 38
NUM_ACTIONS = 78

# name -> (start, length); the order is the order of the vector.
OBS_SLOTS: dict[str, tuple[int, int]] = {}


def _slot(name: str, length: int) -> None:
    start = sum(n for _, n in OBS_SLOTS.values())
    OBS_SLOTS[name] = (start, length)


for _name, _length in (
    ("hand", 40),
    ("my_discards", 40),
    ("phase", 4),
    ("trump", 4),
    ("turned_card", 40),
    ("dealer", 4),
    ("chooser", 4),
    ("to_act", 4),
    ("active", 12),
    ("discard_counts", 24),
    ("hand_sizes", 4),
    ("tricks_won", 4),
    ("scores", 4),
    ("sat_out_streaks", 4),
    ("played_by", 160),
    ("current_trick", 40),
    ("trick_leader", 4),
    ("voids", 16),
    ("rules", 2),
    ("stock_count", 1),
):
    _slot(_name, _length)

OBS_SIZE = sum(n for _, n in OBS_SLOTS.values())
# The ``rules`` slot: which preset the rule set is, or is a variant of (``Rules.preset``).
_PRESET_INDEX = {name: index for index, name in enumerate(PRESETS)}
assert len(_PRESET_INDEX) == OBS_SLOTS["rules"][1]


def action_id(action: Action) -> int:
    """The id of an action; an exchange needs :func:`exchange_id` (its id depends on the hand)."""
    if isinstance(action, Play):
        return PLAY_BASE + int(action.card)
    if isinstance(action, NameTrump):
        return int(action.suit)
    if isinstance(action, TurnUp):
        return TURN_UP_ID
    if isinstance(action, SitOut):
        return SIT_OUT_ID
    if isinstance(action, Exchange):
        raise ValueError(f"an exchange's id depends on the hand: use exchange_id ({action!r})")
    raise TypeError(f"action_id needs an action of sobedesce.core, not {action!r}")


def exchange_id(hand: Sequence[Card] | int, discard: Sequence[Card]) -> int:
    """The id of discarding ``discard`` from ``hand``: 6 + the bit mask of the discarded cards'
    positions in the sorted hand (suits S H D C, each high to low)."""
    cards = _hand(hand)
    mask = 0
    for card in discard:
        try:
            mask |= 1 << cards.index(card)
        except ValueError:
            held = " ".join(map(str, cards)) or "no cards"
            raise ValueError(f"exchange_id: the hand ({held}) does not hold {card!r}") from None
    return EXCHANGE_BASE + mask


def sorted_hand(hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` in hand order (``sorted_cards``: suits S H D C, each high to low)."""
    return sorted_cards(hand)


def _hand(hand: object) -> list[Card]:
    """A hand, given as its cards or as a mask, as its cards in hand order."""
    if isinstance(hand, int) and not isinstance(hand, bool):
        if not 0 <= hand < 1 << 40:
            raise ValueError(f"hand: a mask of cards is 0 to 2**40 - 1, not {hand}")
        return cards_of(hand)
    if isinstance(hand, str | bytes) or not isinstance(hand, Sequence):
        raise TypeError(f"hand: must be the seat's cards (a sequence of cards, or their mask), not {hand!r}")
    found: list[Card] = []
    for i, card in enumerate(hand):
        try:
            # An index only: ``Card`` also reads a name ("AS"), which an encoding's hand is not.
            if isinstance(card, str):
                raise CardParseError(card)
            found.append(Card(card))
        except CardParseError:
            raise ValueError(
                f"hand[{i}]: must be a card (an int 0-39 from the core's card functions), not {card!r}"
            ) from None
    return sorted_cards(found)


def id_of(action: Action, hand: Sequence[Card] | int) -> int:
    """The id of any action of the seat holding ``hand`` (the hand matters for exchanges only)."""
    if isinstance(action, Exchange):
        return exchange_id(hand, action.discard)
    return action_id(action)


def action_from_id(action: int, hand: Sequence[Card] | int) -> Action:
    """The action of id ``action`` for the seat holding ``hand`` (used for exchange ids)."""
    number = _number(action)
    if number >= PLAY_BASE:
        return Play.of(number - PLAY_BASE)
    if number < TURN_UP_ID:
        return NameTrump.of(number)
    if number == TURN_UP_ID:
        return TURN_UP
    if number == SIT_OUT_ID:
        return SIT_OUT
    cards = _hand(hand)
    mask = number - EXCHANGE_BASE
    if mask >> len(cards):
        raise ValueError(f"exchange id {number} names a position beyond the hand of {len(cards)} cards")
    return Exchange(tuple(card for position, card in enumerate(cards) if mask >> position & 1))


def _number(action: object) -> int:
    """An action id as an int: an integer (numpy's too, as the action spaces sample), never a
    float or a bool, 0 to ``NUM_ACTIONS - 1``."""
    try:
        number = operator.index(action) if not isinstance(action, bool) else None  # type: ignore[arg-type]
    except TypeError:
        number = None
    if number is None:
        raise TypeError(f"an action id is a whole number 0-{NUM_ACTIONS - 1}, not {action!r}")
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"not an action id: {action!r} (0..{NUM_ACTIONS - 1})")
    return number


def action_name(action: int, hand: Sequence[Card] | int | None = None) -> str:
    """A readable name: ``S``, ``turn``, ``sit out``, ``discard 2C 3C`` / ``discard #5``, ``AS``."""
    number = _number(action)
    if EXCHANGE_BASE <= number < PLAY_BASE:
        if hand is None:
            mask = number - EXCHANGE_BASE
            return "discard positions " + (",".join(str(p) for p in range(5) if mask >> p & 1) or "none")
        return str(action_from_id(number, hand))
    return str(action_from_id(number, 0))


def legal_ids(view: SeatView) -> list[int]:
    """The ids of the seat's legal actions, ascending (empty when it is not to act)."""
    _check_view("legal_ids", view)
    if not view.legal_actions:
        return []
    if view.phase == Phase.EXCHANGE:
        hand = view.hand_mask
        return sorted(id_of(action, hand) for action in view.legal_actions)
    return sorted(action_id(action) for action in view.legal_actions)


def observe(view: SeatView) -> list[float]:
    """The fixed-size observation of a seat's view (docs/integrations.md lists every slot).

    Seats are relative to the viewer: index 0 is the viewer, 1 the seat after it, and so on.
    """
    _check_view("observe", view)
    out = [0.0] * OBS_SIZE
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % SEATS

    def put(slot: str, index: int, value: float = 1.0) -> None:
        out[OBS_SLOTS[slot][0] + index] = value

    for card in view.hand:
        put("hand", card)
    for card in view.my_discards:
        put("my_discards", card)
    phase = int(view.phase)
    put("phase", {int(Phase.TRUMP): 0, int(Phase.EXCHANGE): 1, int(Phase.PLAY): 2}.get(phase, 3))
    if view.trump is not None:
        put("trump", int(view.trump))
    if view.turned_card is not None:
        put("turned_card", view.turned_card)
    if view.dealer is not None:
        put("dealer", rel(view.dealer))
    if view.chooser is not None:
        put("chooser", rel(view.chooser))
    if view.to_act is not None:
        put("to_act", rel(view.to_act))
    for seat in range(SEATS):
        r = rel(seat)
        state = view.active[seat]
        put("active", 3 * r + (0 if state is None else 1 if state else 2))
        count = view.discard_counts[seat]
        if count is not None:
            put("discard_counts", 6 * r + count)
        put("hand_sizes", r, view.hand_sizes[seat] / 5)
        put("tricks_won", r, view.tricks_won[seat] / 5)
        put("scores", r, view.scores[seat] / 20)
        put("sat_out_streaks", r, view.sat_out_streaks[seat] / 2)
    for trick in view.tricks:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            put("played_by", 40 * rel(seat) + card)
    current = view.current_trick
    if current is not None:
        for card in current.cards:
            put("current_trick", card)
        put("trick_leader", rel(current.leader))
    for seat, suits in enumerate(view.voids()):
        for suit in suits:
            put("voids", 4 * rel(seat) + suit)
    # The preset the rules are, or are a variant of: a variant of classic without turn-up is
    # classic still (this read ``turn_up_allowed``, and said "table").
    put("rules", _PRESET_INDEX[view.rules.preset])
    put("stock_count", 0, view.stock_count / 20)
    return out


def _check_view(name: str, view: object) -> None:
    if not isinstance(view, SeatView):
        raise TypeError(f"{name} needs a SeatView (sobedesce.core.seat_view), not {view!r}")


def describe_slots() -> list[tuple[str, int, int]]:
    """(name, start, length) of every slot, in order."""
    return [(name, start, length) for name, (start, length) in OBS_SLOTS.items()]


# Keep the names referenced (documentation and doctests use them).
_ = (CARDS, Suit)
