"""The match record (RECORD.md): read, validate, replay, write, and summarise.

Readers take a string or a text stream, or the record already read as a mapping (a ``dict``,
as ``json.load`` or :func:`record_of` gives it); the caller owns files.

>>> from sobedesce.core import CARDS
>>> match = Match("table")
>>> _ = match.deal(dealer=0, deck=CARDS)
>>> record_of(match)["rounds"][0]["deck"][:3]
['2S', '3S', '4S']
>>> read_record(dumps_record(match)).rounds[0].dealer
0
>>> read_record(record_of(match)).rounds[0].dealer
0
>>> summary(match)["next"]
{'seat': 1, 'phase': 'trump', 'legal': ['S', 'H', 'D', 'C']}
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO, Any

from . import _checks
from .actions import (
    SIT_OUT,
    TRUMP_ACTIONS,
    TURN_UP,
    Action,
    Exchange,
    IllegalActionError,
    Play,
    SitOut,
    TurnUp,
    describe,
)
from .cards import Card, CardParseError, Suit, cards_of, format_cards
from .game import Phase, Round, check_deck
from .match import Match, check_name_lengths
from .rules import Rules, RulesError

__all__ = [
    "RECORD_FORMAT",
    "RecordFormatError",
    "RecordRuleError",
    "dumps_record",
    "read_record",
    "record_of",
    "summary",
]

RECORD_FORMAT = "sobedesce-record"
RECORD_VERSION = 1


class RecordFormatError(ValueError):
    """A record that is not well formed: not JSON, wrong field types, unknown preset…"""


class RecordRuleError(ValueError):
    """A well-formed record with a decision the rules forbid.

    ``round`` is 1-based; ``decision`` names it (``"trick 3"``, ``"exchange 2"``, ``"trump"``,
    ``"deck"``…); ``seat`` is the seat that took it, when there is one.
    """

    def __init__(self, round_number: int, decision: str, seat: int | None, what: str | None, reason: str) -> None:
        where = f"round {round_number}, {decision}" if decision else f"round {round_number}"
        if seat is not None:
            where += f", seat {seat}"
            if what:
                where += f" {what}"
        super().__init__(f"{where}: {reason}")
        self.round = round_number
        self.decision = decision
        self.seat = seat
        self.reason = reason


# -- reading -----------------------------------------------------------------------------


def _fail(where: str, message: str) -> RecordFormatError:
    return RecordFormatError(f"{where}: {message}" if where else message)


MAX_NUMBER = _checks.LARGEST
"""The largest size of a score or of a number in a rule set that a record may hold (as the
core's constructors take: real scores stay within a few hundred)."""


def _int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(where, f"must be a whole number, not {json.dumps(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low} to {high}" if high is not None else f"at least {low}"
        raise _fail(where, f"must be {bounds}, not {_checks.number_text(value)}")
    return value


def _check_rule_numbers(spec: object) -> None:
    """Refuse a rule set's whole numbers beyond :data:`MAX_NUMBER` in size (the rule set itself
    checks everything else about them)."""
    if not isinstance(spec, dict):
        return
    for key, value in spec.items():
        if isinstance(value, int) and not isinstance(value, bool):
            _int(value, f"rules.{key}", -MAX_NUMBER, MAX_NUMBER)


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"must be a list, not {type(value).__name__ if value is not None else 'null'}")
    return value


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise _fail(where, f'must be a card like "7H", not {json.dumps(value)}')
    try:
        return Card.parse(value)
    except CardParseError as error:
        raise _fail(where, str(error)) from None


def _cards(value: object, where: str) -> list[Card]:
    return [_card(item, f"{where}[{i}]") for i, item in enumerate(_list(value, where))]


class _RoundData:
    __slots__ = ("dealer", "deck", "exchanges", "tricks", "trump")

    def __init__(
        self,
        dealer: int,
        deck: list[Card],
        trump: Action | None,
        exchanges: list[tuple[int, tuple[Card, ...] | None]],
        tricks: list[list[Card]],
    ) -> None:
        self.dealer = dealer
        self.deck = deck
        self.trump = trump
        self.exchanges = exchanges
        self.tricks = tricks


def _parse_round(raw: object, number: int) -> _RoundData:
    where = f"rounds[{number - 1}]"
    if not isinstance(raw, dict):
        raise _fail(where, "must be an object")
    known = {"dealer", "deck", "trump", "exchanges", "tricks"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise _fail(where, f"unknown field {unknown[0]!r}")
    if "dealer" not in raw:
        raise _fail(where, "has no dealer")
    if "deck" not in raw:
        raise _fail(where, "has no deck")
    dealer = _int(raw["dealer"], f"{where}.dealer", 0, 3)
    deck = _cards(raw["deck"], f"{where}.deck")
    trump: Action | None = None
    if raw.get("trump") is not None:
        value = raw["trump"]
        if not isinstance(value, str):
            raise _fail(f"{where}.trump", f'must be "S", "H", "D", "C" or "turn", not {json.dumps(value)}')
        key = value.strip().upper()
        if key == "TURN":
            trump = TURN_UP
        elif key in ("S", "H", "D", "C"):
            trump = TRUMP_ACTIONS[Suit.parse(key)]
        else:
            raise _fail(f"{where}.trump", f'must be "S", "H", "D", "C" or "turn", not {json.dumps(value)}')
    # Each exchange's discarded cards (``None``: sits out), made an ``Exchange`` when replayed:
    # one naming a card twice cannot be made, and is a decision the rules forbid.
    exchanges: list[tuple[int, tuple[Card, ...] | None]] = []
    for i, entry in enumerate(_list(raw.get("exchanges", []), f"{where}.exchanges")):
        at = f"{where}.exchanges[{i}]"
        if not isinstance(entry, dict):
            raise _fail(at, 'must be {"seat": s, "sit_out": true} or {"seat": s, "discard": [cards]}')
        unknown = sorted(set(entry) - {"seat", "sit_out", "discard"})
        if unknown:
            raise _fail(at, f"unknown field {unknown[0]!r}")
        if "seat" not in entry:
            raise _fail(at, "has no seat")
        seat = _int(entry["seat"], f"{at}.seat", 0, 3)
        sit_out = entry.get("sit_out", False)
        if not isinstance(sit_out, bool):
            raise _fail(f"{at}.sit_out", "must be true or false")
        if sit_out:
            if "discard" in entry:
                raise _fail(at, "cannot both sit out and discard")
            exchanges.append((seat, None))
        else:
            if "discard" not in entry:
                raise _fail(at, 'needs "sit_out": true or a "discard" list')
            exchanges.append((seat, tuple(_cards(entry["discard"], f"{at}.discard"))))
    tricks = [
        _cards(trick, f"{where}.tricks[{i}]") for i, trick in enumerate(_list(raw.get("tricks", []), f"{where}.tricks"))
    ]
    return _RoundData(dealer, deck, trump, exchanges, tricks)


_BOM = "starts with a byte order mark (BOM): save it as UTF-8 without one"


def _mapping_value(value: object) -> object:
    """``json.dumps``'s ``default``: a mapping inside a record's mapping is an object like a
    ``dict``; anything else JSON has no value for is refused."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"holds a {type(value).__name__}, which JSON cannot hold")


def _mapping_text(record: Mapping[Any, Any]) -> str:
    """A record given as a mapping, as the JSON text a file of it would hold, so that it is read
    and checked exactly as that file: a tuple is a list there, and a value JSON cannot hold (a
    set, a ``Card``'s name is a string) makes it malformed."""
    try:
        return json.dumps(dict(record), default=_mapping_value, allow_nan=True)
    except RecursionError:
        raise RecordFormatError("not a record: nested too deeply") from None
    except (TypeError, ValueError) as error:
        if "digits" in str(error):
            raise RecordFormatError("not a record: holds a number of thousands of digits") from None
        raise RecordFormatError(f"not a record: {error}") from None


def _parse(text: str | IO[str] | Mapping[str, Any]) -> tuple[Match, list[_RoundData]]:
    given: object = text  # as an object: compiled by mypyc, a narrowed union is cast, and may raise
    if isinstance(given, Mapping):
        given = _mapping_text(given)
    elif isinstance(given, bytes | bytearray) or not (isinstance(given, str) or callable(getattr(given, "read", None))):
        # bytes too, in both builds: decode them first (a record is UTF-8 text)
        hint = ": open the file and pass it, or its text" if isinstance(given, os.PathLike) else ""
        raise TypeError(
            f"a record is read from a string, a text stream or a mapping (a dict), not {type(given).__name__}{hint}"
        )
    try:
        data = json.loads(given) if isinstance(given, str) else json.load(given)  # type: ignore[arg-type]
    except json.JSONDecodeError as error:
        if "BOM" in error.msg:
            raise RecordFormatError(_BOM) from None
        # json's own message may end in "at" ("Unterminated string starting at"): the place follows it.
        where = "" if error.msg.endswith(" at") else " at"
        place = f"line {error.lineno}, column {error.colno}"
        # A file cut off (mid-copy, mid-write): nothing after the place where json stopped, or a
        # string never closed (json's "Expecting value" said nothing of the end).
        if error.msg.startswith("Unterminated string"):
            raise RecordFormatError(
                f"not JSON: the text ends early, in a string starting at {place} (truncated?)"
            ) from None
        if not error.doc[error.pos :].strip():
            raise RecordFormatError(f"not JSON: the text ends early, at {place} (truncated?)") from None
        raise RecordFormatError(f"not JSON: {error.msg}{where} {place}") from None
    except UnicodeDecodeError:
        raise RecordFormatError("not UTF-8 text") from None
    except RecursionError:
        raise RecordFormatError("not a record: JSON nested too deeply") from None
    except ValueError as error:
        if "utf-8-sig" in str(error):
            raise RecordFormatError(_BOM) from None
        if "int" in str(error) and "digits" in str(error):
            # Python refuses integers of more than 4300 digits.
            raise RecordFormatError("not a record: holds a number of thousands of digits") from None
        raise RecordFormatError(f"not a record: {error}") from None
    if not isinstance(data, dict):
        raise RecordFormatError("a record must be a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise _fail("format", f"must be {json.dumps(RECORD_FORMAT)}, not {json.dumps(data.get('format'))}")
    if "version" not in data:
        raise _fail("version", f"missing: a record says its version, {RECORD_VERSION}")
    version = data.get("version")
    if version != RECORD_VERSION or not isinstance(version, int) or isinstance(version, bool):
        raise _fail("version", f"must be {RECORD_VERSION}, not {json.dumps(version)}")
    known = {"format", "version", "rules", "players", "scores", "sat_out_before", "rounds"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise _fail("", f"unknown field {unknown[0]!r}")
    _check_rule_numbers(data.get("rules"))
    try:
        rules = Rules.from_spec(data.get("rules"))
    except RulesError as error:
        raise _fail("rules", str(error)) from None
    players = None
    if data.get("players") is not None:
        players = _list(data["players"], "players")
        if len(players) != 4 or not all(isinstance(p, str) for p in players):
            raise _fail("players", "must be four names")
        try:
            check_name_lengths(players)
        except ValueError as error:
            raise RecordFormatError(str(error)) from None
    scores = None
    if data.get("scores") is not None:
        raw_scores = _list(data["scores"], "scores")
        if len(raw_scores) != 4:
            raise _fail("scores", "must hold four scores")
        scores = [_int(s, f"scores[{i}]", -MAX_NUMBER, MAX_NUMBER) for i, s in enumerate(raw_scores)]
    streaks = None
    if data.get("sat_out_before") is not None:
        raw_streaks = _list(data["sat_out_before"], "sat_out_before")
        if len(raw_streaks) != 4:
            raise _fail("sat_out_before", "must hold four counts")
        limit = rules.max_sit_outs_in_row  # a seat that sat out that many rounds in a row must play
        streaks = [_int(s, f"sat_out_before[{i}]", 0, limit) for i, s in enumerate(raw_streaks)]
    if "rounds" not in data:
        raise _fail("rounds", "missing: a record lists its rounds ([] for none)")
    rounds = [_parse_round(raw, i + 1) for i, raw in enumerate(_list(data["rounds"], "rounds"))]
    return Match(rules, scores=scores, sat_out_before=streaks, players=players), rounds


def _replay_round(match: Match, data: _RoundData, number: int) -> None:
    if match.is_over:
        ended = f"in round {number - 1}" if number > 1 else "before it: a starting score is at or below the target"
        raise RecordRuleError(number, "", None, None, f"a round after the match ended ({ended})")
    previous = match.round
    if previous is not None and not previous.is_over:
        raise RecordRuleError(number, "", None, None, f"round {number - 1} is not complete")
    try:
        check_deck(data.deck)
    except ValueError as error:
        raise RecordRuleError(number, "deck", None, None, str(error)) from None
    try:
        current = match.deal(data.deck, dealer=data.dealer)
    except IllegalActionError as error:
        raise RecordRuleError(number, "dealer", None, None, str(error)) from None

    def act(decision: str, seat: int | None, action: Action) -> None:
        try:
            match.apply(action)
        except IllegalActionError as error:
            raise RecordRuleError(number, decision, seat, describe(action), error.reason) from None

    if data.trump is None:
        if data.exchanges or data.tricks:
            raise RecordRuleError(number, "trump", current.chooser, None, "no trump chosen before the exchanges")
        return
    act("trump", current.chooser, data.trump)
    for index, (seat, discard) in enumerate(data.exchanges, start=1):
        decision = f"exchange {index}"
        what = describe(SIT_OUT) if discard is None else f"discards {format_cards(discard) or 'nothing'}"
        if current.phase != Phase.EXCHANGE:
            raise RecordRuleError(number, decision, seat, what, "every seat has already decided")
        if seat != current.to_act:
            raise RecordRuleError(number, decision, seat, what, f"out of turn: seat {current.to_act} decides now")
        try:
            action = SIT_OUT if discard is None else Exchange(discard)
        except ValueError as error:  # a card discarded twice ("Exchange: discards AS twice")
            raise RecordRuleError(number, decision, seat, what, str(error).removeprefix("Exchange: ")) from None
        act(decision, seat, action)
    for index, trick in enumerate(data.tricks, start=1):
        decision = f"trick {index}"
        if current.phase != Phase.PLAY:
            if current.phase == Phase.EXCHANGE:
                reason = "the exchanges are not complete"
            elif current.n_active < 2:
                reason = "no tricks are played when fewer than two players play"
            else:
                reason = "a round has only 5 tricks"
            raise RecordRuleError(number, decision, None, None, reason)
        if len(current.tricks) != index or current.tricks[-1]:
            # The rule is broken where the next trick begins (a record may end mid-trick), and
            # the reason names the trick that lacks cards ("trick 3 is not complete (3 cards a
            # trick)" under "trick 4" read as a mistake in the numbers).
            raise RecordRuleError(
                number,
                decision,
                None,
                None,
                f"begins before trick {len(current.tricks)} is complete"
                f" ({len(current.tricks[-1])} of its {current.n_active} cards played)",
            )
        if not trick and index < len(data.tricks):
            raise RecordRuleError(number, decision, None, None, "an empty trick")
        for card in trick:
            if current.phase != Phase.PLAY or len(current.tricks) != index:
                raise RecordRuleError(
                    number, decision, None, None, f"too many cards: {current.n_active} players play, one card each"
                )
            act(decision, current.to_act, Play.of(card))


def read_record(text: str | IO[str] | Mapping[str, Any]) -> Match:
    """Read and replay a record from a string, a text stream, or a mapping (a ``dict``, as
    ``json.load`` or :func:`record_of` gives it).

    A mapping is checked exactly as the JSON text it makes (``json.dumps``): a tuple counts as
    a list, and a value JSON cannot hold (a set, a ``Card``: a record names cards, ``"7H"``) is
    malformed.  Raises :class:`RecordFormatError` for a malformed record,
    :class:`RecordRuleError` for one that breaks a rule, and ``TypeError`` for anything else
    (bytes: decode them; a path: open the file).
    """
    match, rounds = _parse(text)
    for number, data in enumerate(rounds, start=1):
        _replay_round(match, data, number)
    return match


# -- writing -----------------------------------------------------------------------------


def _round_record(current: Round) -> dict[str, object]:
    assert current.deck is not None, "a resampled round has no record"
    out: dict[str, object] = {"dealer": current.dealer, "deck": [str(c) for c in current.deck]}
    if current.trump_action is None:
        return out
    out["trump"] = "turn" if isinstance(current.trump_action, TurnUp) else str(current.trump_action)
    exchanges: list[dict[str, object]] = []
    for index, action in enumerate(current.exchanges):
        seat = current.exchange_seat(index)
        if isinstance(action, SitOut):
            exchanges.append({"seat": seat, "sit_out": True})
        else:
            assert isinstance(action, Exchange)
            exchanges.append({"seat": seat, "discard": [str(c) for c in action.discard]})
    out["exchanges"] = exchanges
    out["tricks"] = [[str(c) for c in trick] for trick in current.tricks if trick]
    return out


def record_of(match: Match) -> dict[str, object]:
    """The match's record as a JSON-ready object (RECORD.md)."""
    _check_match(match, "record_of")
    out: dict[str, object] = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "rules": match.rules.to_spec()}
    if match.players is not None:
        out["players"] = list(match.players)
    if match.initial_scores != (match.rules.start_score,) * 4:
        out["scores"] = list(match.initial_scores)
    if any(match.initial_streaks):
        out["sat_out_before"] = list(match.initial_streaks)
    out["rounds"] = [_round_record(r) for r in match.rounds]
    return out


def _check_match(match: object, who: str) -> None:
    if not isinstance(match, Match):
        raise TypeError(f"{who} needs a Match, not {match!r}")


def dumps_record(match: Match) -> str:
    _check_match(match, "dumps_record")
    return json.dumps(record_of(match), indent=1, ensure_ascii=False)


# -- summarising -------------------------------------------------------------------------


def _legal_summary(match: Match) -> object:
    current = match.round
    assert current is not None
    if current.phase == Phase.TRUMP:
        return [str(a) for a in current.legal_actions()]
    if current.phase == Phase.EXCHANGE:
        rules = current.rules
        seat = current.to_act
        assert seat is not None
        return {
            "may_sit_out": current.may_sit_out(seat),
            "min_discard": rules.min_discard,
            "max_discard": min(rules.max_discard, len(current.hand(seat))),
        }
    return [str(c) for c in cards_of(current.legal_cards())]


def round_summary(current: Round) -> dict[str, object]:
    """One entry of the summary's ``rounds``: scores after the round, or before it while unfinished."""
    scores = (
        current.scores
        if current.deltas is None
        else [s + d for s, d in zip(current.scores, current.deltas, strict=True)]
    )
    shows_tricks = current.phase >= Phase.PLAY and current.n_active > 0
    return {
        "dealer": current.dealer,
        "trump": current.trump.letter if current.trump is not None else None,
        "active": list(current.active),
        "tricks": [current.tricks_won[s] if shows_tricks and current.active[s] else None for s in range(4)],
        "scores": list(scores),
    }


def summary(match: Match) -> dict[str, object]:
    """The ``sobedesce replay --json`` summary of a match or position (RECORD.md)."""
    _check_match(match, "summary")
    rounds = [round_summary(current) for current in match.rounds]
    phase = match.phase
    next_step: dict[str, object] | None
    if phase == Phase.MATCH_OVER:
        next_step = None
    elif phase == Phase.DEAL:
        next_step = {"seat": match.next_dealer, "phase": "deal", "legal": None}
    else:
        next_step = {"seat": match.current_seat, "phase": phase.label, "legal": _legal_summary(match)}
    return {
        "rounds": rounds,
        "scores": list(match.scores),
        "finished": match.is_over,
        "winners": list(match.winners),
        "riscos": match.riscos(),
        "next": next_step,
    }
