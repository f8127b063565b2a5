"""The WebSocket protocol's edge: client messages validated on arrival, and everything the
server sends, built from a seat's view only.

Every client message is a JSON object with a ``type``; :func:`parse_message` turns its text
into one of the models below or raises :class:`ProtocolError` with a message naming the
problem.  Outgoing game data is made in exactly two places: :func:`state_json` (what one seat,
or a spectator, may know now: its public part and the seat's own, which the server encodes
apart so as to encode the public part once for every seat) and :func:`event_json` (one public
event, with the cards of an exchange only for the seat that made it).  No other code turns
game state into messages, so there is one choke point for hidden information
(docs/protocol.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from itertools import accumulate
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from sobedesce.bots.base import Option
from sobedesce.core import (
    HAND_SIZE,
    SIT_OUT,
    TURN_UP,
    Action,
    Card,
    CardParseError,
    Exchange,
    NameTrump,
    Phase,
    Play,
    Rules,
    RulesError,
    SeatView,
    SitOut,
    Suit,
    TrickView,
    TurnUp,
    cards_of,
    find_rules,
    mask_of,
    sorted_cards,
)
from sobedesce.core.game import SEATS, ExchangeChoices
from sobedesce.table import Event

__all__ = [
    "LEVELS",
    "MAX_MESSAGE_BYTES",
    "MAX_NESTING",
    "ClientMessage",
    "ProtocolError",
    "action_from_json",
    "action_json",
    "error_json",
    "event_json",
    "hint_json",
    "loads_json",
    "parse_message",
    "public_state_json",
    "seat_state_json",
    "state_json",
    "stored_action",
    "text_of",
    "view_from_state",
]

MAX_MESSAGE_BYTES = 64 * 1024
MAX_NESTING = 100
"""Arrays and objects a message (or an HTTP body) may nest, one in another; no valid one
nests more than three.  A fixed number, so that a WebSocket message and an HTTP body are
refused alike, whatever depth of the server's own stack each is parsed at."""
LEVELS = ("easy", "hard", "expert")

_Id = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MAX_VERSION = 2**53 - 1
"""The largest version a message may name: the largest whole number a JSON client in a browser
holds exactly.  A table's version counts its decisions and never comes near it."""
_Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
_TableId = Annotated[str, StringConstraints(min_length=1, max_length=16)]
_Name = Annotated[str, StringConstraints(max_length=200)]


class ProtocolError(ValueError):
    """A message the server cannot take; ``code`` is machine-readable, the text is for people."""

    def __init__(self, code: str, message: str, *, request_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id


class _Message(BaseModel):
    # Strict: a wrong type is refused, not converted ("1" is not a version, "yes" not true).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class TrumpChoice(_Message):
    kind: Literal["trump"]
    suit: Literal["S", "H", "D", "C", "s", "h", "d", "c"]


class TurnChoice(_Message):
    kind: Literal["turn"]


class SitOutChoice(_Message):
    kind: Literal["sit_out"]


class ExchangeChoice(_Message):
    kind: Literal["exchange"]
    discard: list[Annotated[str, StringConstraints(max_length=3)]] = Field(max_length=5)


class PlayChoice(_Message):
    kind: Literal["play"]
    card: Annotated[str, StringConstraints(max_length=3)]


ActionModel = Annotated[
    TrumpChoice | TurnChoice | SitOutChoice | ExchangeChoice | PlayChoice, Field(discriminator="kind")
]


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, StringConstraints(max_length=200)] | None = None
    name: _Name | None = None


class Create(_Message):
    type: Literal["create"]
    rules: Literal["classic", "table"] = "classic"
    seats: list[Literal["you", "open", "easy", "hard", "expert"]] = Field(min_length=4, max_length=4)
    private: bool = False
    clock: float | None = Field(default=None, ge=0.05, le=600, allow_inf_nan=False)
    """Seconds a person has for each decision at a table with other people (``None``: no clock)."""
    seed: Annotated[str, StringConstraints(max_length=64)] | None = None
    """The table's seed, taken only by a server started with ``--allow-seed`` (tests, benchmarks)."""


class Quick(_Message):
    type: Literal["quick"]
    rules: Literal["classic", "table"] = "classic"
    level: Literal["easy", "hard", "expert"] = "hard"


class ListTables(_Message):
    type: Literal["list"]


class Join(_Message):
    type: Literal["join"]
    table: _TableId | None = None
    seat: int | None = Field(default=None, ge=0, le=3)
    code: Annotated[str, StringConstraints(max_length=64)] | None = None
    since: _Version | None = None


class Watch(_Message):
    type: Literal["watch"]
    table: _TableId | None = None
    code: Annotated[str, StringConstraints(max_length=64)] | None = None
    """A private table's invitation code: whoever has it may watch the match (with or without
    the table's id, as for ``join``)."""
    since: _Version | None = None


class Leave(_Message):
    type: Literal["leave"]


class Close(_Message):
    """Close the table this connection is at (seated or watching): only its creator may, and
    only before its match begins."""

    type: Literal["close"]


class Act(_Message):
    type: Literal["act"]
    id: _Id
    v: _Version
    action: ActionModel


class Hint(_Message):
    type: Literal["hint"]
    id: _Id


class Ping(_Message):
    type: Literal["ping"]


Phrase = Literal["hello", "good_luck", "well_played", "thanks", "sorry", "oops", "bye"]
PHRASES: tuple[str, ...] = get_args(Phrase)
"""What a seated person may say at the table: phrases, not free text (each page shows them in its
own language, and there is nothing to moderate; docs/decisions.md)."""


class Say(_Message):
    type: Literal["say"]
    phrase: Phrase


class Rematch(_Message):
    type: Literal["rematch"]


ClientMessage = Annotated[
    Hello | Create | Quick | ListTables | Join | Watch | Leave | Close | Act | Hint | Say | Rematch | Ping,
    Field(discriminator="type"),
]
_CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = (
    "hello",
    "create",
    "quick",
    "list",
    "join",
    "watch",
    "leave",
    "close",
    "act",
    "hint",
    "say",
    "rematch",
    "ping",
)


# A string, escapes and all; one left open runs to the end (so that no text makes it backtrack).
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
TOO_DEEP = f"JSON nested too deeply: at most {MAX_NESTING} arrays and objects one in another"


def loads_json(text: str | bytes) -> Any:
    """The value of a JSON text (a WebSocket message, an HTTP body), or :class:`ProtocolError`
    ``bad_json`` saying why it is none: not JSON, not UTF-8 text, or nested deeper than
    :data:`MAX_NESTING`."""
    if isinstance(text, (bytes, bytearray)):
        try:
            # UTF-8 only (RFC 8259), as a text frame is: json.loads would also take UTF-16/32
            # bytes, and a UTF-8 BOM, which a text frame is refused for.
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProtocolError("bad_json", f"not JSON: not UTF-8 text ({error})") from None
    if text.count("[") + text.count("{") > MAX_NESTING and _nesting(text) > MAX_NESTING:
        raise ProtocolError("bad_json", TOO_DEEP)
    try:
        return json.loads(text)
    except ValueError as error:
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    except RecursionError:  # pragma: no cover - the nesting is checked first
        raise ProtocolError("bad_json", TOO_DEEP) from None


def _nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets in strings not counted)."""
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_NESTING_STEP.__getitem__, brackets)), default=0)


def text_of(value: Any) -> str | None:
    """``value`` if it is a string the server can send back (UTF-8: no lone surrogate), else
    ``None``: a request id that cannot be echoed is left out of the answer."""
    if not isinstance(value, str):
        return None
    try:
        value.encode()
    except UnicodeEncodeError:
        return None
    return value


def parse_message(text: str | bytes) -> Any:
    """A client message from its text; raises :class:`ProtocolError` naming what is wrong."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE_BYTES} bytes")
    raw = loads_json(text)
    if not isinstance(raw, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    # Echoed in the error that answers it: an id with a lone surrogate ("\ud800") could not be
    # encoded, and failed the connection instead of the message.
    request_id = text_of(raw.get("id"))
    kind = raw.get("type")
    if kind not in MESSAGE_TYPES:
        if kind is None:
            raise ProtocolError("bad_message", "the message has no 'type'", request_id=request_id)
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {shown(kind)} (known: {', '.join(MESSAGE_TYPES)})",
            request_id=request_id,
        )
    try:
        return _CLIENT_MESSAGE.validate_python(raw)
    except ValidationError as error:
        raise ProtocolError("bad_message", _describe(error, str(kind)), request_id=request_id) from None


def shown(value: object, limit: int = 40) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters: an answer names what
    it refused without echoing a megabyte of it."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe(error: ValidationError, kind: str) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"][1:]) or "message"
        message = item["msg"]
        context = item.get("ctx") or {}
        if item["type"] == "union_tag_invalid" and "tag" in context:  # the message quotes the tag sent
            message = (
                f"Input tag {shown(context['tag'])} found using {context.get('discriminator', 'the type')} "
                f"does not match any of the expected tags: {context.get('expected_tags', '')}"
            )
        problems.append(f"{where}: {message}")
    return f"bad '{kind}' message: " + "; ".join(problems)


def action_from_json(choice: Any) -> Action:
    """The engine's action for a validated choice; raises :class:`ProtocolError` for a bad card."""
    try:
        if isinstance(choice, TrumpChoice):
            return NameTrump(Suit.parse(choice.suit))
        if isinstance(choice, TurnChoice):
            return TurnUp()
        if isinstance(choice, SitOutChoice):
            return SitOut()
        if isinstance(choice, ExchangeChoice):
            return Exchange(tuple(Card.parse(text) for text in choice.discard))
        if isinstance(choice, PlayChoice):
            return Play(Card.parse(choice.card))
    except (CardParseError, ValueError) as error:
        raise ProtocolError("bad_card", str(error)) from None
    raise ProtocolError("bad_message", f"unknown action {shown(choice)}")


def stored_action(data: dict[str, Any]) -> Action:
    """The action of a stored decision (written by :func:`action_json`)."""
    act = _CLIENT_MESSAGE.validate_python({"type": "act", "id": "stored", "v": 0, "action": data})
    return action_from_json(act.action)


def action_json(action: Action) -> dict[str, Any]:
    """An action as the protocol writes it."""
    if isinstance(action, NameTrump):
        return {"kind": "trump", "suit": action.suit.letter}
    if isinstance(action, TurnUp):
        return {"kind": "turn"}
    if isinstance(action, SitOut):
        return {"kind": "sit_out"}
    if isinstance(action, Exchange):
        return {"kind": "exchange", "discard": _cards(action.discard)}
    if isinstance(action, Play):
        return {"kind": "play", "card": str(action.card)}
    raise TypeError(f"not an action: {action!r}")


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _legal_json(view: SeatView, must_play: str | None) -> Any:
    legal = view.legal_actions
    if not legal:
        return None
    if view.phase == Phase.EXCHANGE:
        # Every discard count the rules allow of a full hand (what the options' sizes range
        # over), read from the rules rather than by making each of up to 32 options.
        rules = view.rules
        return {
            "may_sit_out": SIT_OUT in legal,
            "must_play": must_play,
            "min_discard": rules.min_discard,
            "max_discard": min(rules.max_discard, len(view.hand)),
        }
    if view.phase == Phase.PLAY:
        return _cards(sorted_cards(a.card for a in legal if isinstance(a, Play)))
    return [str(action) for action in legal]


def state_json(view: SeatView, *, spectator: bool = False, must_play: str | None = None) -> dict[str, Any]:
    """What the view's seat may know now, or with ``spectator`` only what everyone may.

    ``must_play`` is why the seat may not sit out, when it is to decide and may not.  A
    spectator's state is made from a seat's view by leaving out that seat's hand, its own
    discards and its legal actions: what remains is public.  It is :func:`public_state_json`
    followed by :func:`seat_state_json` (the server encodes the first once for every seat).
    """
    return public_state_json(view) | seat_state_json(view, spectator=spectator, must_play=must_play)


def public_state_json(view: SeatView) -> dict[str, Any]:
    """The part of :func:`state_json` that every seat and spectator is sent alike."""
    return {
        "phase": view.phase.name.lower(),
        "round": view.round_index + 1,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "chooser": view.chooser,
        "trump": view.trump.letter if view.trump is not None else None,
        "turned": str(view.turned_card) if view.turned_card is not None else None,
        "active": list(view.active),
        "exchanged": list(view.discard_counts),
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_count,
        "tricks": [
            {
                "leader": trick.leader,
                "cards": _cards(trick.cards),
                "seats": list(trick.seats),
                "winner": trick.winner,
            }
            for trick in view.tricks
        ],
        "tricks_won": list(view.tricks_won),
        "scores": list(view.scores),
        "sat_out_streaks": list(view.sat_out_streaks),
    }


def seat_state_json(view: SeatView, *, spectator: bool = False, must_play: str | None = None) -> dict[str, Any]:
    """The part of :func:`state_json` that is the view's seat's own (none for a spectator)."""
    if spectator:
        return {"seat": None}
    return {
        "seat": view.seat,
        "hand": _cards(sorted_cards(view.hand)),
        "my_discards": _cards(view.my_discards),
        "legal": _legal_json(view, must_play) if view.is_my_turn else None,
    }


class _StateError(ValueError):
    """A state that is not a seat's, or not one the server sends (:func:`view_from_state`)."""


_PHASE_NAMES = {phase.name.lower(): phase for phase in Phase}


def view_from_state(state: dict[str, Any], rules: str | Rules) -> SeatView:
    """The :class:`SeatView` a seated receiver's ``state`` (as :func:`state_json` made it, and
    the server sends it) was made from: the inverse of :func:`state_json` for a seat.

    ``rules`` is the table's rule set (its name, as the ``table`` message gives it, or a
    :class:`Rules`).  The legal actions are rebuilt as the core lists them, in its order: the
    trump phase's from the list, the exchange phase's as the core's own lazy
    ``ExchangeChoices`` of the hand, the play phase's from the legal cards in hand order.  So a
    bot in another process decides from exactly the view it would be handed at the table.

    Raises :class:`ValueError` naming the problem for a spectator's state (``seat: null``), a
    malformed one, or one that does not fit ``rules``.
    """
    try:
        table_rules = find_rules(rules)
    except (RulesError, AttributeError) as error:
        raise _StateError(f"not a rule set: {error}") from None
    if not isinstance(state, dict):
        raise _StateError(f"a state is a JSON object, not {shown(state)}")
    if "seat" in state and state["seat"] is None:
        raise _StateError("a spectator's state (seat: null) has no hand and no legal actions: it is not a seat's view")
    seat = _seat_field(state, "seat", nullable=False)
    assert seat is not None
    phase_name = _field(state, "phase")
    if not isinstance(phase_name, str) or phase_name not in _PHASE_NAMES:
        raise _StateError(f"state.phase: not a phase: {shown(phase_name)} (known: {', '.join(_PHASE_NAMES)})")
    phase = _PHASE_NAMES[phase_name]
    round_number = _whole(state, "round", 0)
    to_act = _seat_field(state, "to_act")
    dealer = _seat_field(state, "dealer")
    chooser = _seat_field(state, "chooser")
    trump_text = _field(state, "trump")
    turned_text = _field(state, "turned")
    try:
        trump = None if trump_text is None else Suit.parse(_text(trump_text, "state.trump"))
        turned = None if turned_text is None else Card.parse(_text(turned_text, "state.turned"))
    except CardParseError as error:
        raise _StateError(f"state: {error}") from None
    active = tuple(_per_seat(state, "active", _optional_bool))
    discard_counts = tuple(_per_seat(state, "exchanged", _optional_count))
    hand_sizes = tuple(_per_seat(state, "hand_sizes", _count))
    stock = _whole(state, "stock", 0)
    tricks = tuple(_trick(item, index) for index, item in enumerate(_list(state, "tricks")))
    tricks_won = tuple(_per_seat(state, "tricks_won", _count))
    scores = tuple(_per_seat(state, "scores", _score))
    streaks = tuple(_per_seat(state, "sat_out_streaks", _count))
    hand_cards = _cards_field(state, "hand")
    if len(set(hand_cards)) != len(hand_cards):
        raise _StateError("state.hand: a card is there twice")
    hand = tuple(cards_of(mask_of(hand_cards)))
    my_discards = tuple(_cards_field(state, "my_discards"))
    legal = _legal_actions(state, phase, table_rules, hand, seat == to_act)
    return SeatView(
        seat=seat,
        rules=table_rules,
        phase=phase,
        to_act=to_act,
        legal_actions=legal,
        round_index=round_number - 1,
        dealer=dealer,
        chooser=chooser,
        trump=trump,
        turned_card=turned,
        hand=hand,
        my_discards=my_discards,
        active=active,
        discard_counts=discard_counts,
        hand_sizes=hand_sizes,
        stock_count=stock,
        tricks=tricks,
        tricks_won=tricks_won,
        scores=scores,
        sat_out_streaks=streaks,
        exchange_order=() if chooser is None else tuple((chooser + i) % SEATS for i in range(SEATS)),
    )


def _legal_actions(
    state: dict[str, Any], phase: Phase, rules: Rules, hand: tuple[Card, ...], mine: bool
) -> Sequence[Action]:
    """The seat's legal actions, as the core lists them, from the state's ``legal``."""
    legal = _field(state, "legal")
    if legal is None:
        if mine and phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY):
            raise _StateError("state.legal: null, but the seat is to act")
        return ()
    if not mine:
        raise _StateError("state.legal: legal actions for a seat that is not to act")
    if phase == Phase.TRUMP:
        if not isinstance(legal, list) or not legal:
            raise _StateError(f"state.legal: the trump phase's are a list of suits and 'turn', not {shown(legal)}")
        actions: list[Action] = []
        for item in legal:
            if item == "turn":
                actions.append(TURN_UP)
                continue
            try:
                actions.append(NameTrump.of(_text(item, "state.legal")))
            except CardParseError as error:
                raise _StateError(f"state.legal: {error}") from None
        return tuple(actions)
    if phase == Phase.EXCHANGE:
        if not isinstance(legal, dict):
            raise _StateError(f"state.legal: the exchange phase's is an object, not {shown(legal)}")
        may_sit_out = _field(legal, "may_sit_out", "state.legal")
        if not isinstance(may_sit_out, bool):
            raise _StateError(f"state.legal.may_sit_out: true or false, not {shown(may_sit_out)}")
        low = _whole(legal, "min_discard", 0, where="state.legal")
        high = _whole(legal, "max_discard", 0, where="state.legal")
        if len(hand) != HAND_SIZE:
            raise _StateError(f"state.hand: {len(hand)} cards in the exchange phase, not {HAND_SIZE}")
        if (low, high) != (rules.min_discard, min(rules.max_discard, len(hand))):
            raise _StateError(
                f"state.legal: discards of {low} to {high} cards do not fit the rules {rules.name!r} "
                f"({rules.min_discard} to {rules.max_discard})"
            )
        # The core's own list of the exchange phase's choices (sitting out when allowed, then
        # every discard the rules allow, smallest first): the same options, in the same order.
        return ExchangeChoices(mask_of(hand), may_sit_out, rules.min_discard, rules.max_discard)
    if phase == Phase.PLAY:
        if not isinstance(legal, list) or not legal:
            raise _StateError(f"state.legal: the play phase's are a list of cards, not {shown(legal)}")
        cards = _cards_of(legal, "state.legal")
        if not set(cards) <= set(hand):
            raise _StateError("state.legal: a legal card that is not in the hand")
        # In hand order (suits S H D C, each high to low), as the core lists them.
        return tuple(Play.of(card) for card in cards_of(mask_of(cards)))
    raise _StateError(f"state.legal: no decision is taken in the {phase.name.lower()} phase")


def _field(data: dict[str, Any], key: str, where: str = "state") -> Any:
    if key not in data:
        raise _StateError(f"{where}: no {key!r}")
    return data[key]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(data: dict[str, Any], key: str, low: int, *, where: str = "state") -> int:
    value = _field(data, key, where)
    if not _is_int(value) or value < low:
        raise _StateError(f"{where}.{key}: a whole number of at least {low}, not {shown(value)}")
    return int(value)


def _seat_field(data: dict[str, Any], key: str, *, nullable: bool = True, where: str = "state") -> int | None:
    value = _field(data, key, where)
    if value is None and nullable:
        return None
    if not _is_int(value) or not 0 <= value < SEATS:
        raise _StateError(f"{where}.{key}: a seat (0 to 3){' or null' if nullable else ''}, not {shown(value)}")
    return int(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _StateError(f"{where}: text, not {shown(value)}")
    return value


def _list(data: dict[str, Any], key: str, where: str = "state") -> list[Any]:
    value = _field(data, key, where)
    if not isinstance(value, list):
        raise _StateError(f"{where}.{key}: a list, not {shown(value)}")
    return value


def _per_seat(data: dict[str, Any], key: str, item: Any) -> list[Any]:
    values = _list(data, key)
    if len(values) != SEATS:
        raise _StateError(f"state.{key}: one value a seat (four), not {len(values)}")
    return [item(value, f"state.{key}") for value in values]


def _optional_bool(value: Any, where: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise _StateError(f"{where}: true, false or null, not {shown(value)}")
    return value


def _count(value: Any, where: str) -> int:
    if not _is_int(value) or value < 0:
        raise _StateError(f"{where}: a whole number of at least 0, not {shown(value)}")
    return int(value)


def _optional_count(value: Any, where: str) -> int | None:
    return None if value is None else _count(value, where)


def _score(value: Any, where: str) -> int:
    if not _is_int(value):
        raise _StateError(f"{where}: a whole number, not {shown(value)}")
    return int(value)


def _cards_of(values: Any, where: str) -> list[Card]:
    if not isinstance(values, list):
        raise _StateError(f"{where}: a list of cards, not {shown(values)}")
    try:
        return [Card.parse(_text(value, where)) for value in values]
    except CardParseError as error:
        raise _StateError(f"{where}: {error}") from None


def _cards_field(data: dict[str, Any], key: str) -> list[Card]:
    return _cards_of(_field(data, key), f"state.{key}")


def _trick(item: Any, index: int) -> TrickView:
    where = f"state.tricks[{index}]"
    if not isinstance(item, dict):
        raise _StateError(f"{where}: an object, not {shown(item)}")
    leader = _seat_field(item, "leader", nullable=False, where=where)
    assert leader is not None
    seats = _list(item, "seats", where)
    for seat in seats:
        if not _is_int(seat) or not 0 <= seat < SEATS:
            raise _StateError(f"{where}.seats: seats 0 to 3, not {shown(seat)}")
    cards = _cards_of(_field(item, "cards", where), f"{where}.cards")
    if len(cards) != len(seats):
        raise _StateError(f"{where}: {len(cards)} cards for {len(seats)} seats")
    winner = _seat_field(item, "winner", where=where)
    return TrickView(leader, tuple(cards), tuple(int(seat) for seat in seats), winner)


def event_json(event: Event, receiver: int | None) -> dict[str, Any]:
    """One event as ``receiver`` (a seat, or ``None`` for a spectator) may see it.

    Every receiver gets every event; only an exchange's cards are left out for everyone but
    the seat that made it, so the other seats see "seat 2 exchanged 3 cards".
    """
    data: dict[str, Any] = {"kind": event.kind, "round": event.round_index + 1}
    kind = event.kind
    if kind == "deal":
        data.update(dealer=event.seat, chooser=event.chooser)
    elif kind == "trump":
        data.update(seat=event.seat, suit=event.suit.letter if event.suit is not None else None)
        data["turned"] = str(event.turned) if event.turned is not None else None
    elif kind == "exchange":
        data.update(seat=event.seat, sit_out=event.sit_out, count=event.count)
        if receiver is not None and receiver == event.seat and not event.sit_out:
            data.update(discard=_cards(event.discard), drawn=_cards(event.drawn))
    elif kind == "play":
        data.update(seat=event.seat, card=str(event.card))
    elif kind == "trick":
        assert event.trick is not None
        data.update(
            number=event.trick_number,
            winner=event.seat,
            cards=_cards(event.trick.cards),
            seats=list(event.trick.seats),
        )
    elif kind == "round":
        data.update(
            trump=event.suit.letter if event.suit is not None else None,
            multiplier=event.multiplier,
            active=list(event.active),
            tricks_won=list(event.tricks_won),
            deltas=list(event.deltas),
            scores=list(event.scores),
        )
    elif kind == "match":
        data.update(scores=list(event.scores), winners=list(event.winners), riscos=list(event.riscos))
    return data


def error_json(code: str, message: str, request_id: str | None = None) -> dict[str, Any]:
    """An ``error`` message, answering request ``request_id`` when it had an id (one that
    cannot be sent back, with a lone surrogate, is left out)."""
    error: dict[str, Any] = {"type": "error", "code": code, "message": message}
    request_id = text_of(request_id)
    if request_id is not None:
        error["id"] = request_id
    return error


def hint_json(request_id: str, version: int, options: Sequence[Option]) -> dict[str, Any]:
    """The answer to a ``hint``: a bot's options for the asking seat's own view, best first.

    Each with the figure the bot ranks by, ``ranking``, when that is not the expected change
    (``None`` otherwise, as for a bot whose options have no ``ranking``), its ``note``, and
    what the figure means in a player's words when the bot knows it (``None`` otherwise, and
    for sitting out): ``tricks``, the tricks the seat expects to end the round with, and
    ``no_trick``, its chance of ending it with none.
    """
    return {
        "type": "hint",
        "id": request_id,
        "v": version,
        "options": [
            {
                "action": action_json(o.action),
                "expected_delta": round(o.expected_delta, 2),
                "ranking": None if o.ranking is None else round(o.ranking, 2),
                "note": o.note,
                "tricks": None if o.tricks is None else round(o.tricks, 1),
                "no_trick": None if o.no_trick is None else round(o.no_trick, 2),
            }
            for o in options
        ],
    }
