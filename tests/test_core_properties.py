"""Hypothesis properties over random legal matches under both presets.

Every match is driven through the engine (``Match``) and, in step, through the reference
model of tests/helpers.py, which is written from RULES.md alone; the properties compare the
two and check invariants of the engine's public API.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import ALL_CARDS, RefMatch, RefRound, ref_replay, ref_sorted, riscos, settings_of, winning_index
from sobedesce.core import (
    Card,
    Exchange,
    Match,
    NameTrump,
    Phase,
    Play,
    Rules,
    SitOut,
    TurnUp,
    dumps_record,
    read_record,
    seat_view,
    summary,
)
from sobedesce.core.logic import legal_card_mask

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ROUNDS = 30


@dataclasses.dataclass(frozen=True)
class Params:
    rules: str | dict[str, Any]
    seed: int
    sit_bias: float
    scores: tuple[int, ...] | None
    streaks: tuple[int, ...]


params_strategy = st.builds(
    Params,
    rules=st.sampled_from(["classic", "table"]),
    seed=st.integers(0, 2**32 - 1),
    sit_bias=st.sampled_from([0.0, 0.3, 0.7, 0.95]),
    scores=st.one_of(
        st.just((20, 20, 20, 20)), st.tuples(*[st.integers(1, 20)] * 4), st.tuples(*[st.integers(4, 9)] * 4)
    ),
    streaks=st.tuples(*[st.integers(0, 2)] * 4),
)


@st.composite
def custom_params(draw: st.DrawFn) -> Params:
    """A preset with random single settings overridden (RECORD.md: a rules object)."""
    rules: dict[str, Any] = {"preset": draw(st.sampled_from(["classic", "table"]))}
    booleans = ("turn_up_allowed", "chooser_must_play", "must_beat_following", "must_undertrump", "must_lead_trump_ace")
    for key in booleans:
        if draw(st.booleans()):
            rules[key] = draw(st.booleans())
    suits = st.sampled_from([None, "S", "H", "D", "C"])
    optional = {
        "must_play_at_or_below": st.one_of(st.none(), st.integers(0, 12)),
        "max_sit_outs_in_row": st.integers(0, 3),
        "all_play_suit": suits,
        "doubled_suit": suits,
        "doubled_multiplier": st.integers(1, 3),
        "no_trick_penalty": st.integers(0, 6),
        "start_score": st.integers(5, 25),
        "target_score": st.integers(0, 3),
    }
    for key, values in optional.items():
        if draw(st.booleans()):
            rules[key] = draw(values)
    if draw(st.booleans()):
        low, high = sorted(draw(st.tuples(st.integers(0, 5), st.integers(0, 5))))
        rules["min_discard"], rules["max_discard"] = low, high
    scores = draw(st.one_of(st.none(), st.tuples(*[st.integers(1, 20)] * 4)))
    return Params(
        rules=rules,
        seed=draw(st.integers(0, 2**32 - 1)),
        sit_bias=draw(st.sampled_from([0.0, 0.3, 0.7, 0.95])),
        scores=scores,  # type: ignore[arg-type]
        # A streak is at most the rule set's limit (a seat that sat out that many rounds must play).
        streaks=draw(st.tuples(*[st.integers(0, rules.get("max_sit_outs_in_row", 2))] * 4)),
    )


Step = Callable[[Match, RefMatch], None]


def _choose(match: Match, rng: random.Random, sit_bias: float) -> Any:
    legal = match.legal_actions()
    assert len(legal) > 0, f"seat {match.current_seat} must act in phase {match.phase} but has no legal action"
    if match.phase == Phase.EXCHANGE and sit_bias and rng.random() < sit_bias:
        sit = [a for a in legal if isinstance(a, SitOut)]
        if sit:
            return sit[0]
    return rng.choice(legal)


def _mirror(ref_round: RefRound, action: Any) -> None:
    """Apply the engine's action to the reference round."""
    if isinstance(action, TurnUp):
        ref_round.choose_trump("turn")
    elif isinstance(action, NameTrump):
        ref_round.choose_trump("SHDC"[int(action.suit)])
    elif isinstance(action, SitOut):
        ref_round.exchange(ref_round.to_act, None)  # type: ignore[arg-type]
    elif isinstance(action, Exchange):
        ref_round.exchange(ref_round.to_act, [str(c) for c in action.discard])  # type: ignore[arg-type]
    elif isinstance(action, Play):
        ref_round.play(str(action.card))
    else:
        raise AssertionError(f"unexpected action {action!r}")


def simulate(p: Params, before: Step | None = None, after: Step | None = None) -> tuple[Match, RefMatch]:
    """Play a random legal match; ``before``/``after`` run around every decision and deal."""
    rng = random.Random(p.seed)
    match = Match(Rules.from_spec(p.rules), scores=p.scores, sat_out_before=p.streaks)
    ref = RefMatch(p.rules if isinstance(p.rules, str) else settings_of(p.rules), p.scores, p.streaks)
    while not match.is_over:
        if before:
            before(match, ref)
        if match.phase == Phase.DEAL:
            if len(match.rounds) == MAX_ROUNDS:
                break
            match.deal(rng=rng)
            current = match.round
            assert current is not None and current.deck is not None
            ref.deal(current.dealer, [str(c) for c in current.deck])
        else:
            ref_round = ref.rounds[-1]
            assert match.current_seat == ref_round.to_act
            action = _choose(match, rng, p.sit_bias)
            _mirror(ref_round, action)
            match.apply(action)
            if ref_round.phase == "over":
                ref.settle()
        if after:
            after(match, ref)
    return match, ref


# -- properties -------------------------------------------------------------------------------------


def _every_card_is_in_exactly_one_place(p: Params) -> None:
    def check(match: Match, ref: RefMatch) -> None:
        if not ref.rounds:
            return
        ref_round = ref.rounds[-1]
        places = ref_round.places()
        assert sum(len(place) for place in places) == 40
        assert set().union(*places) == set(ALL_CARDS)
        seen: list[str] = []
        sat_out_cards = 0
        for seat in range(4):
            view = seat_view(match, seat)
            hand = {str(c) for c in view.hand}
            if ref_round.active[seat] is False:
                assert hand == set()
                sat_out_cards += len(ref_round.hands[seat])
            else:
                assert hand == ref_round.hands[seat]
            mine = {str(c) for c in view.my_discards}
            assert mine == ref_round.discards[seat]
            seen += [*hand, *mine]
        played = [str(c) for c in seat_view(match, 0).played_cards]
        assert set(played) == ref_round.played()
        seen += played
        assert len(seen) == len(set(seen)), "a card is in two places"
        view = seat_view(match, 0)
        assert view.stock_count == len(ref_round.stock)
        total = len(seen) + sat_out_cards + view.stock_count + len(ref_round.undealt)
        assert total == 40

    simulate(p, after=check)


@SETTINGS
@given(params_strategy)
def test_every_card_is_in_exactly_one_place(p: Params) -> None:
    _every_card_is_in_exactly_one_place(p)


@SETTINGS
@given(custom_params())
def test_every_card_is_in_exactly_one_place_custom_rules(p: Params) -> None:
    _every_card_is_in_exactly_one_place(p)


@SETTINGS
@given(params_strategy)
def test_a_seat_to_act_always_has_a_legal_action(p: Params) -> None:
    def check(match: Match, ref: RefMatch) -> None:
        if match.phase in (Phase.DEAL, Phase.MATCH_OVER):
            assert match.current_seat is None
            assert len(match.legal_actions()) == 0
        else:
            assert match.current_seat in range(4)
            assert len(match.legal_actions()) > 0

    simulate(p, before=check)


def _legal_decisions_match_rules_text(p: Params) -> None:
    """Trump choices, who may sit out, how many cards, and the legal cards (RULES.md §3-§4)."""

    def check(match: Match, ref: RefMatch) -> None:
        if match.phase in (Phase.DEAL, Phase.MATCH_OVER):
            return
        ref_round = ref.rounds[-1]
        legal = list(match.legal_actions())
        nxt = summary(match)["next"]
        assert isinstance(nxt, dict)
        assert nxt["seat"] == ref_round.to_act
        settings = ref_round.settings
        if match.phase == Phase.TRUMP:
            expected = ["S", "H", "D", "C"] + (["turn"] if settings["turn_up_allowed"] else [])
            assert [str(a) for a in legal] == expected
            assert nxt == {"seat": ref_round.chooser, "phase": "trump", "legal": expected}
        elif match.phase == Phase.EXCHANGE:
            seat = ref_round.to_act
            assert seat is not None
            may_sit = ref_round.may_sit_out(seat)
            assert any(isinstance(a, SitOut) for a in legal) == may_sit
            low, high = settings["min_discard"], settings["max_discard"]
            sizes = sorted({len(a.discard) for a in legal if isinstance(a, Exchange)})
            assert sizes == list(range(low, high + 1))
            assert sum(isinstance(a, Exchange) for a in legal) == sum(comb(5, k) for k in range(low, high + 1))
            for action in legal:
                if isinstance(action, Exchange):
                    assert {str(c) for c in action.discard} <= ref_round.hands[seat]
            assert nxt["legal"] == {"may_sit_out": may_sit, "min_discard": low, "max_discard": high}
        else:
            expected_cards = ref_round.legal()
            assert {str(a.card) for a in legal} == expected_cards
            # The round computes its legal cards inline; the rules' own function agrees.
            rnd = match.round
            assert rnd is not None
            mask = sum(1 << a.card for a in legal)
            assert mask == legal_card_mask(
                rnd._hands[rnd._to_act],
                rnd._lead_suit,
                rnd._win_card,
                rnd._trump,
                rnd._must_beat,
                rnd._must_undertrump,
                rnd._lead_ace,
            )
            assert nxt["legal"] == ref_sorted(expected_cards)

    simulate(p, before=check)


@SETTINGS
@given(params_strategy)
def test_legal_decisions_match_rules_text(p: Params) -> None:
    _legal_decisions_match_rules_text(p)


@SETTINGS
@given(custom_params())
def test_legal_decisions_match_rules_text_custom_rules(p: Params) -> None:
    _legal_decisions_match_rules_text(p)


@SETTINGS
@given(params_strategy)
def test_trick_winners_follow_section_4(p: Params) -> None:
    def check(match: Match, ref: RefMatch) -> None:
        if not ref.rounds:
            return
        ref_round = ref.rounds[-1]
        view = seat_view(match, 0)
        assert [list(map(str, t.cards)) for t in view.tricks if t.cards] == [t for t in ref_round.tricks if t]
        for index, trick in enumerate(view.tricks):
            assert trick.leader == ref_round.trick_seats[index][0] if trick.cards else True
            assert list(trick.seats[: len(trick.cards)]) == ref_round.trick_seats[index]
            if trick.winner is not None:
                expected = ref_round.trick_seats[index]
                assert trick.winner == expected[winning_index(ref_round.tricks[index], ref_round.trump or "")]
        if ref_round.phase in ("play", "over") and any(ref_round.active):
            won = summary(match)["rounds"][-1]["tricks"]  # type: ignore[index]
            assert won == [ref_round.tricks_won[s] if ref_round.active[s] else None for s in range(4)]

    simulate(p, after=check)


def _scores_follow_section_3_7_recomputed_from_the_record(p: Params) -> None:
    match, _ = simulate(p)
    data = json.loads(dumps_record(match))
    model = ref_replay(data)  # an independent replay of the written record
    got = summary(match)
    finished = [entry for entry, r in zip(got["rounds"], model.rounds, strict=True) if r.phase == "over"]  # type: ignore[arg-type]
    assert [entry["scores"] for entry in finished] == model.history
    assert list(match.scores) == model.scores
    assert got["scores"] == model.scores
    assert got["winners"] == model.winners
    assert got["finished"] == bool(model.winners)
    if len(match.rounds) < MAX_ROUNDS:
        assert model.winners, "the simulation stops early only at the round cap"


@SETTINGS
@given(params_strategy)
def test_scores_follow_section_3_7_recomputed_from_the_record(p: Params) -> None:
    _scores_follow_section_3_7_recomputed_from_the_record(p)


@SETTINGS
@given(custom_params())
def test_scores_follow_section_3_7_recomputed_from_the_record_custom_rules(p: Params) -> None:
    _scores_follow_section_3_7_recomputed_from_the_record(p)


@SETTINGS
@given(params_strategy)
def test_nobody_sits_out_three_rounds_in_a_row(p: Params) -> None:
    match, _ = simulate(p)
    streak = list(p.streaks)
    for entry in summary(match)["rounds"]:  # type: ignore[union-attr]
        for seat, active in enumerate(entry["active"]):
            if active is None:
                continue
            streak[seat] = streak[seat] + 1 if active is False else 0
            assert streak[seat] <= 2


def _record_round_trip(p: Params, cut: float) -> None:
    steps = [0]

    def count(match: Match, ref: RefMatch) -> None:
        steps[0] += 1

    match, _ = simulate(p, after=count)
    text = dumps_record(match)
    again = read_record(text)
    assert summary(again) == summary(match)
    assert dumps_record(again) == text

    if steps[0] == 0:  # over before it began (a starting score at or below the target)
        return
    # the same match stopped at any step (a position) replays to the same summary
    stop = 1 + int(cut * (steps[0] - 1))
    seen = [0]
    snapshot: list[tuple[str, str]] = []

    def take(match: Match, ref: RefMatch) -> None:
        seen[0] += 1
        if seen[0] == stop:
            snapshot.append((dumps_record(match), json.dumps(summary(match))))

    simulate(p, after=take)
    ((position, expected),) = snapshot
    replayed = read_record(position)
    assert json.dumps(summary(replayed)) == expected
    assert dumps_record(replayed) == position


@SETTINGS
@given(params_strategy, st.floats(0, 1))
def test_record_round_trip(p: Params, cut: float) -> None:
    _record_round_trip(p, cut)


@SETTINGS
@given(custom_params(), st.floats(0, 1))
def test_record_round_trip_custom_rules(p: Params, cut: float) -> None:
    _record_round_trip(p, cut)


def _cards_in(value: object, depth: int = 0) -> Iterator[Card]:
    assert depth < 20
    if isinstance(value, Card):
        yield value
    elif isinstance(value, str | bytes | int | float | bool) or value is None:
        return
    elif isinstance(value, dict):
        for item in value.values():
            yield from _cards_in(item, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _cards_in(item, depth + 1)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from _cards_in(getattr(value, field.name), depth + 1)
    elif hasattr(value, "__slots__"):
        for name in value.__slots__:  # type: ignore[union-attr]
            if hasattr(value, name):
                yield from _cards_in(getattr(value, name), depth + 1)


def _seat_view_holds_only_cards_the_seat_may_know(p: Params) -> None:
    def check(match: Match, ref: RefMatch) -> None:
        if not ref.rounds:
            for seat in range(4):
                assert not list(_cards_in(seat_view(match, seat)))
            return
        ref_round = ref.rounds[-1]
        public = ref_round.played() | ({ref_round.turned} if ref_round.turned else set())
        for seat in range(4):
            view = seat_view(match, seat)
            allowed = public | ref_round.hands[seat] | ref_round.discards[seat]
            shown = {str(c) for c in _cards_in(view)}
            assert shown <= allowed, f"seat {seat} sees {sorted(shown - allowed)}"
            assert (str(view.turned_card) if view.turned_card is not None else None) == ref_round.turned
            # public facts: who sits out, how many cards each exchanged, hand sizes, scores
            assert list(view.active) == ref_round.active
            assert list(view.discard_counts) == [
                len(ref_round.discards[s]) if ref_round.active[s] else None for s in range(4)
            ]
            assert list(view.hand_sizes) == [
                0 if ref_round.active[s] is False else len(ref_round.hands[s]) for s in range(4)
            ]
            between = ref_round.phase == "over"
            assert list(view.scores) == (ref.scores if between else ref_round.scores)
            assert list(view.sat_out_streaks) == (ref.streaks if between else ref_round.streaks)

    simulate(p, after=check)


@SETTINGS
@given(params_strategy)
def test_seat_view_holds_only_cards_the_seat_may_know(p: Params) -> None:
    _seat_view_holds_only_cards_the_seat_may_know(p)


@SETTINGS
@given(custom_params())
def test_seat_view_holds_only_cards_the_seat_may_know_custom_rules(p: Params) -> None:
    _seat_view_holds_only_cards_the_seat_may_know(p)


@SETTINGS
@given(params_strategy)
def test_riscos_sum_to_zero_and_follow_section_5(p: Params) -> None:
    match, model = simulate(p)
    got = summary(match)
    if not match.is_over:
        assert got["riscos"] is None and got["next"] is not None
        return
    values = got["riscos"]
    assert isinstance(values, list)
    assert sum(values) == pytest.approx(0, abs=1e-9)
    assert values == pytest.approx(riscos(model.scores, model.winners))
    assert got["next"] is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-15, 60), min_size=4, max_size=4).filter(lambda s: any(x <= 0 for x in s)),
)
def test_riscos_for_any_final_scores(scores: list[int]) -> None:
    from sobedesce.core import riscos_for

    winners = [s for s in range(4) if scores[s] <= 0]
    got = riscos_for(scores, winners)
    assert sum(got) == pytest.approx(0, abs=1e-9)
    losers = sum(scores[s] for s in range(4) if s not in winners)
    for seat in range(4):
        if seat in winners:
            assert got[seat] == pytest.approx(losers / len(winners))
        else:
            assert got[seat] == -scores[seat]
