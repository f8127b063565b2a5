"""``view_from_state``: a seat's ``state`` as the server sends it gives back the very view it was
made from, so that a bot in another process (``sobedesce bot``) decides as it would at the
table."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from sobedesce.bots import make_bot
from sobedesce.core import Match, Phase, SeatView, seat_view
from sobedesce.core.game import ExchangeChoices
from sobedesce.server.protocol import state_json, view_from_state

RULES = ("classic", "table")


def wire(state: dict[str, Any]) -> dict[str, Any]:
    """The state as a client reads it: through JSON text."""
    loaded: dict[str, Any] = json.loads(json.dumps(state))
    return loaded


def must_play(match: Match, seat: int) -> str | None:
    """What the server passes as ``must_play``: why the seat to act may not sit out."""
    current = match.round
    if current is None or match.phase != Phase.EXCHANGE or match.current_seat != seat:
        return None
    return current.must_play_reason(seat)


def positions(rules: str, seed: int) -> Iterator[Match]:
    """Every moment of a random match at which something is awaited (a deal or a decision),
    the match as it is then; the match is played on by random legal actions."""
    rng = random.Random(seed)
    match = Match(rules)
    while True:
        yield match
        if match.is_over:
            return
        if match.phase == Phase.DEAL:
            match.deal(rng=rng)
        else:
            match.apply(rng.choice(match.legal_actions()))


def state_of(match: Match, seat: int) -> tuple[SeatView, dict[str, Any]]:
    view = seat_view(match, seat)
    return view, wire(state_json(view, must_play=must_play(match, seat)))


def test_seat_view_has_equality() -> None:
    # The round trip below compares whole views: SeatView is a dataclass with __eq__.
    match = Match("classic")
    match.deal(rng=random.Random(1))
    assert seat_view(match, 1) == seat_view(match, 1)
    assert seat_view(match, 1) != seat_view(match, 2)


@pytest.mark.parametrize("rules", RULES)
def test_every_seat_at_every_moment_gets_its_view_back(rules: str) -> None:
    moments = phases = 0
    seen: set[Phase] = set()
    for seed in range(8):
        for match in positions(rules, 1000 * seed + len(rules)):
            moments += 1
            for seat in range(4):
                view, state = state_of(match, seat)
                rebuilt = view_from_state(state, rules)
                assert rebuilt == view, f"seed {seed}, seat {seat}: {rebuilt} != {view}"
                # Each field alike, and the legal actions listed in the same order.
                for name in SeatView.__dataclass_fields__:
                    assert getattr(rebuilt, name) == getattr(view, name), name
                assert list(rebuilt.legal_actions) == list(view.legal_actions)
                assert type(rebuilt.legal_actions) is type(view.legal_actions)
                if view.is_my_turn:
                    seen.add(view.phase)
                    phases += 1
                # And the rebuilt view makes the same state again.
                assert wire(state_json(rebuilt, must_play=must_play(match, seat))) == state
    assert seen == {Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY}
    assert moments > 500 and phases > 400


def test_the_exchange_choices_are_the_cores_own() -> None:
    for match in positions("table", 5):
        if match.phase == Phase.EXCHANGE:
            seat = match.current_seat
            assert seat is not None
            _view, state = state_of(match, seat)
            rebuilt = view_from_state(state, "table")
            assert isinstance(rebuilt.legal_actions, ExchangeChoices)
            assert rebuilt.legal_actions == match.legal_actions()
            assert list(rebuilt.legal_actions) == list(match.legal_actions())
            return
    raise AssertionError("no exchange in the match")


def decisions(rules: str, seed: int, every: int = 1) -> Iterator[tuple[SeatView, dict[str, Any]]]:
    """The view and state of the seat to act, at every ``every``-th decision of a random match."""
    count = 0
    for match in positions(rules, seed):
        seat = match.current_seat
        if seat is None:
            continue
        count += 1
        if count % every == 0:
            yield state_of(match, seat)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize(
    ("bot_name", "every", "matches"),
    [("basic", 1, 3), ("strong:play_samples=4:exchange_samples=8:trump_samples=8", 5, 1)],
)
def test_a_bot_decides_the_same_from_the_rebuilt_view(rules: str, bot_name: str, every: int, matches: int) -> None:
    # Two bots of the same kind, each handed its own view, in the same order with the same seeds.
    at_table, in_client = make_bot(bot_name, timed=False), make_bot(bot_name, timed=False)
    decided = 0
    for seed in range(matches):
        for number, (view, state) in enumerate(decisions(rules, 77 + seed, every)):
            rebuilt = view_from_state(state, rules)
            expected = at_table.act(view, random.Random(number))
            got = in_client.act(rebuilt, random.Random(number))
            assert got == expected, f"{bot_name}: {got} from the state, {expected} at the table ({view})"
            assert got in rebuilt.legal_actions
            decided += 1
    assert decided > 20


def some_state(rules: str = "classic", phase: Phase = Phase.PLAY) -> dict[str, Any]:
    for view, state in decisions(rules, 3):
        if view.phase == phase:
            return state
    raise AssertionError(f"no {phase} decision")


def test_a_spectators_state_is_refused() -> None:
    match = Match("classic")
    match.deal(rng=random.Random(2))
    spectator = wire(state_json(seat_view(match, 0), spectator=True))
    with pytest.raises(ValueError, match=r"spectator's state \(seat: null\)"):
        view_from_state(spectator, "classic")


def changed(state: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    state = copy.deepcopy(state)
    target: Any = state
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return state


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("hand",), DELETE, "state: no 'hand'"),
        (("phase",), "lunch", "state.phase: not a phase"),
        (("seat",), 7, r"state.seat: a seat \(0 to 3\)"),
        (("seat",), True, r"state.seat: a seat"),
        (("hand", 0), "1X", "state.hand: not a card"),
        (("scores",), [20, 20, 20], "state.scores: one value a seat"),
        (("legal",), None, "state.legal: null, but the seat is to act"),
        (("legal",), ["9Z"], "state.legal: not a card"),
        (("legal",), {"may_sit_out": True}, "the play phase's are a list of cards"),
        (("stock",), -1, "state.stock: a whole number of at least 0"),
        (("tricks", 0, "seats"), [0, 1, 2, 3, 0], r"state.tricks\[0\]"),
    ],
)
def test_a_malformed_state_is_refused_with_what_is_wrong(path: tuple[Any, ...], value: Any, message: str) -> None:
    state = some_state()
    view_from_state(state, "classic")  # the state itself is fine
    with pytest.raises(ValueError, match=message):
        view_from_state(changed(state, path, value), "classic")


def test_an_exchange_that_does_not_fit_the_rules_is_refused() -> None:
    state = some_state("table", Phase.EXCHANGE)
    with pytest.raises(ValueError, match="do not fit the rules 'classic'"):
        view_from_state(state, "classic")
    with pytest.raises(ValueError, match="not a rule set"):
        view_from_state(state, "poker")
    with pytest.raises(ValueError, match="a state is a JSON object"):
        view_from_state([], "table")  # type: ignore[arg-type]
