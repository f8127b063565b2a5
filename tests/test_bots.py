"""The bots: legal actions only, reproducible, views only, explanations, and basic > random."""

from __future__ import annotations

import gc
import random
import statistics

import pytest

from sobedesce.bots import BOTS, LEVELS, OracleSeat, make_bot
from sobedesce.bots._sim import PlayState
from sobedesce.core import Match, Phase, Round, SeatView, seat_view

PRESETS = ("classic", "table")
SMALL = {"play_samples": 6, "exchange_samples": 12, "trump_samples": 6}


def _act(bot, match: Match, seat: int, rng: random.Random):
    if isinstance(bot, OracleSeat):
        return bot.act_full(match, seat, rng)
    return bot.act(seat_view(match, seat), rng)


def play_match(bots, rules: str, seed: int, max_rounds: int = 60) -> tuple[Match, list]:
    """A full match; every action is checked against the legal ones."""
    match = Match(rules)
    rng = random.Random(seed)
    rngs = [random.Random(seed * 7 + s) for s in range(4)]
    actions = []
    while not match.is_over and len(match.rounds) < max_rounds:
        if match.phase == Phase.DEAL:
            match.deal(rng=rng)
            continue
        seat = match.current_seat
        assert seat is not None
        action = _act(bots[seat], match, seat, rngs[seat])
        assert action in list(match.legal_actions()), (bots[seat].name, action)
        actions.append(action)
        match.apply(action)
    return match, actions


def test_registry() -> None:
    for name in ("random", "basic", "strong"):
        assert name in BOTS
    with pytest.raises(ValueError, match="the oracle is not a bot"):
        make_bot("oracle")
    assert set(LEVELS) == {"easy", "hard", "expert"}
    assert make_bot("easy").name == "basic"
    assert make_bot("hard").name == "strong"
    assert make_bot("expert").name == "strong"
    assert make_bot("hard").exchange_samples < make_bot("expert").exchange_samples


def test_settings_in_the_name() -> None:
    bot = make_bot("Strong:play_samples=7:rivalry=0.5:match_aware=true:time_limit=none")
    assert (bot.play_samples, bot.rivalry, bot.match_aware, bot.time_limit) == (7, 0.5, True, None)
    assert make_bot("hard:play_samples=3").exchange_samples == make_bot("hard").exchange_samples
    assert make_bot("hard:play_samples=3").play_samples == 3
    with pytest.raises(ValueError, match="bot 'basic' has no setting 'depth'"):
        make_bot("basic:depth=3")
    with pytest.raises(ValueError, match=r"bot 'strong'.*play_oversample must be at least 1, not 0"):
        make_bot("strong:play_oversample=0")
    with pytest.raises(ValueError, match="exchange_samples must be at least 1, not -5"):
        make_bot("strong:exchange_samples=-5")
    with pytest.raises(ValueError, match="time_limit must be positive"):
        make_bot("strong:time_limit=0")
    with pytest.raises(ValueError, match="write name:setting=value"):
        make_bot("strong:play_samples")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("stronk:play_samples=3")


@pytest.mark.parametrize("rules", PRESETS)
def test_sim_agrees_with_core(rules: str) -> None:
    """The bots' bit-mask legal cards and tricks equal the core's."""
    rng = random.Random(11)
    for _ in range(40):
        match = Match(rules)
        match.deal(rng=rng)
        rnd = match.round
        assert rnd is not None
        while rnd.phase != Phase.PLAY and not rnd.is_over:
            match.apply(rng.choice(list(match.legal_actions())))
        if rnd.is_over:
            continue
        state = PlayState.from_round(rnd)
        while not rnd.is_over:
            fresh = PlayState.from_round(rnd)
            assert state.legal() == rnd.legal_cards() == fresh.legal()
            assert state.to_act == rnd.to_act == fresh.to_act
            assert (state.lead, state.cur_len) == (fresh.lead, fresh.cur_len)
            if state.cur_len:
                assert (state.win, state.win_seat) == (fresh.win, fresh.win_seat)
            action = rng.choice(list(match.legal_actions()))
            state.play(action.card)
            match.apply(action)
        assert tuple(state.tricks_won) == rnd.tricks_won


@pytest.mark.parametrize("rules", PRESETS)
def test_basic_legal_over_many_matches(rules: str) -> None:
    basic = make_bot("basic")
    for seed in range(12):
        bots = [basic, make_bot("random"), basic, make_bot("random")]
        play_match(bots, rules, seed)


@pytest.mark.parametrize("rules", PRESETS)
def test_strong_and_oracle_legal(rules: str) -> None:
    strong = make_bot("strong", **SMALL)
    oracle = OracleSeat()
    basic = make_bot("basic")
    for seed in range(2):
        match, _ = play_match([strong, basic, oracle, strong], rules, 100 + seed, max_rounds=12)
        assert len(match.rounds) >= 1


def test_oracle_refuses_views() -> None:
    match = Match("classic")
    match.deal(rng=random.Random(1))
    seat = match.current_seat
    assert seat is not None
    with pytest.raises(TypeError, match="full match"):
        OracleSeat().act(seat_view(match, seat), random.Random(0))


@pytest.mark.parametrize("name", ["basic", "strong"])
@pytest.mark.parametrize("rules", PRESETS)
def test_reproducible(name: str, rules: str) -> None:
    settings = SMALL if name == "strong" else {}
    runs = []
    for _ in range(2):
        bots = [make_bot(name, **settings) for _ in range(4)]
        _, actions = play_match(bots, rules, 5, max_rounds=4)
        runs.append(actions)
    assert runs[0] == runs[1]


def _reachable(root: object, limit: int = 20000) -> list[object]:
    seen = {id(root)}
    todo = [root]
    out = []
    while todo and len(out) < limit:
        obj = todo.pop()
        out.append(obj)
        for ref in gc.get_referents(obj):
            if id(ref) not in seen and not isinstance(ref, type):
                seen.add(id(ref))
                todo.append(ref)
    return out


@pytest.mark.parametrize("name", ["basic", "strong"])
def test_bots_see_only_the_view(name: str) -> None:
    """A view holds no path to the hidden state, and bots act on views alone."""
    bot = make_bot(name, **(SMALL if name == "strong" else {}))
    rng = random.Random(3)
    match = Match("classic")
    match.deal(rng=rng)
    steps = 0
    while not match.round.is_over:  # type: ignore[union-attr]
        seat = match.current_seat
        assert seat is not None
        view = seat_view(match, seat)
        if steps % 5 == 0:
            assert not any(isinstance(o, (Match, Round)) for o in _reachable(view))
        action = bot.act(view, random.Random(steps))
        match.apply(action)
        steps += 1


@pytest.mark.parametrize("name", ["basic", "strong"])
@pytest.mark.parametrize("rules", PRESETS)
def test_explain_legal_and_best_first(name: str, rules: str) -> None:
    bot = make_bot(name, **(SMALL if name == "strong" else {}))
    rng = random.Random(9)
    nonzero = 0
    for seed in range(3):
        match = Match(rules)
        match.deal(rng=random.Random(seed))
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            seat = match.current_seat
            assert seat is not None
            view: SeatView = seat_view(match, seat)
            options = bot.explain(view, random.Random(seed))
            assert options
            legal = list(view.legal_actions)
            for option in options:
                assert option.action in legal
            deltas = [o.expected_delta for o in options]
            if name == "basic":
                assert deltas == sorted(deltas)
            elif len(legal) > 1:
                # strong ranks by own change minus the others' mean (its rivalry setting);
                # the first option is the one it plays.
                assert bot.act(view, random.Random(seed)) == options[0].action
            nonzero += any(d != 0.0 for d in deltas)
            match.apply(bot.act(view, rng))
    assert nonzero > 5


def test_basic_beats_random() -> None:
    """Basic in one seat (rotating) against three random bots over 300 rounds."""
    basic = make_bot("basic")
    rand = make_bot("random")
    diffs = []
    for i in range(300):
        hero = i % 4
        match = Match("classic" if i % 2 else "table")
        match.deal(rng=random.Random(1000 + i // 4), dealer=(i // 4) % 4)
        rngs = [random.Random(i * 4 + s) for s in range(4)]
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            seat = match.current_seat
            assert seat is not None
            bot = basic if seat == hero else rand
            match.apply(bot.act(seat_view(match, seat), rngs[seat]))
        assert rnd.deltas is not None
        others = [rnd.deltas[s] for s in range(4) if s != hero]
        diffs.append(rnd.deltas[hero] - statistics.mean(others))
    assert statistics.mean(diffs) <= -2.5


@pytest.mark.parametrize("rules", PRESETS)
def test_strong_wide_exchange_candidates(rules: str) -> None:
    """Every legal discard is a candidate once; the screened values of the survivors equal a
    full evaluation on the same worlds (common random numbers)."""
    from sobedesce.bots._search import (
        evaluate_exchange,
        exchange_candidates,
        sample_exchange_worlds,
        screen_exchange,
    )
    from sobedesce.core.actions import SIT_OUT

    basic = make_bot("basic")
    checked = 0
    for seed in range(6):
        match = Match(rules)
        match.deal(rng=random.Random(seed))
        while match.phase == Phase.TRUMP or (match.phase == Phase.EXCHANGE and checked < 100):
            seat = match.current_seat
            assert seat is not None
            view = seat_view(match, seat)
            if match.phase == Phase.EXCHANGE:
                wide = exchange_candidates(view, every_subset=True)
                narrow = exchange_candidates(view)
                legal = set(view.legal_actions)
                assert len(set(wide)) == len(wide)
                assert set(narrow) <= set(wide)
                assert (None in wide) == (SIT_OUT in legal)
                assert len([d for d in wide if d is not None]) == len(legal - {SIT_OUT})
                worlds = sample_exchange_worlds(view, random.Random(seed), 12)
                screened = screen_exchange(view, worlds, wide, 3, 4, 1.0, True)
                assert len(screened) <= 4
                assert (None in screened) == (None in wide)
                full = evaluate_exchange(view, worlds, list(screened), 1.0, True)
                for option, value in screened.items():
                    assert value == pytest.approx(full[option])
                checked += 1
            match.apply(basic.act(view, random.Random(seed)))
    assert checked >= 6


@pytest.mark.parametrize("rules", PRESETS)
def test_rollouts_replay_basic_bots_exactly(rules: str) -> None:
    """The strong bot's play-outs model the others as ``basic``: from the true position after
    the trump choice, the simulation gives exactly the round four basic bots play."""
    from sobedesce.bots._eval import ExState

    basic = make_bot("basic")
    rng = random.Random(11)
    for _ in range(150):
        match = Match(rules, scores=tuple(rng.randint(2, 20) for _ in range(4)))
        match.deal(rng=rng, dealer=rng.randrange(4))
        rnd = match.round
        assert rnd is not None
        while match.phase == Phase.TRUMP:
            match.apply(basic.act(seat_view(match, match.current_seat), rng))
        stock: list[int] = list(rnd.stock)
        stock.reverse()
        sim = ExState.from_round(rnd, stock)
        predicted = sim.finish(0)
        while not rnd.is_over:
            match.apply(basic.act(seat_view(match, match.current_seat), rng))
        assert list(rnd.deltas) == predicted


@pytest.mark.parametrize("rules", PRESETS)
def test_play_evidence_favours_the_real_hands(rules: str) -> None:
    """The exchange phase's evidence (who sat out, who played when it could have sat out)
    weighs the real hands of the other seats above the typical hands the play sampler draws
    from what the view shows: a seat that sat out holds weak cards, one that played does not."""
    from sobedesce.bots._search import PlayContext, _exchange_evidence, sample_play_worlds

    basic = make_bot("basic")
    rng = random.Random(3)
    ratios = []
    for deal in range(40):
        match = Match(rules, scores=tuple(rng.randint(6, 20) for _ in range(4)))
        match.deal(rng=rng, dealer=deal % 4)
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            view = seat_view(match, match.current_seat)
            if view.phase == Phase.PLAY and len(view.legal_actions) > 1:
                ctx = PlayContext(view)
                if ctx.sat_out or ctx.played_by_choice:
                    real = [rnd.hands[s] if ctx.active[s] else 0 for s in range(4)]
                    mine = statistics.mean(_exchange_evidence(ctx, real, random.Random(i)) for i in range(10))
                    worlds = sample_play_worlds(ctx, random.Random(deal), 20, weighted=False)
                    typical = statistics.mean(_exchange_evidence(ctx, h, random.Random(1)) for _, h in worlds)
                    ratios.append(mine / typical)
            match.apply(basic.act(view, rng))
    assert len(ratios) >= 100
    assert statistics.median(ratios) > 1.3
    assert sum(r > 1.0 for r in ratios) > 0.7 * len(ratios)


def test_play_worlds_resampled() -> None:
    """With ``oversample`` the play sampler draws more deals and keeps ``n`` of them in
    proportion to their weights: every kept world has weight 1 and is a deal the view allows."""
    from sobedesce.bots._search import PlayContext, sample_play_worlds

    basic = make_bot("basic")
    rng = random.Random(5)
    checked = 0
    for deal in range(30):
        match = Match("table")
        match.deal(rng=rng, dealer=deal % 4)
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            view = seat_view(match, match.current_seat)
            if view.phase == Phase.PLAY and len(view.legal_actions) > 1 and view.tricks[0].cards:
                ctx = PlayContext(view)
                worlds = sample_play_worlds(ctx, random.Random(deal), 12, evidence=True, oversample=4)
                assert len(worlds) == 12
                for weight, hands in worlds:
                    assert weight == 1.0
                    assert hands[view.seat] == view.hand_mask
                    held = 0
                    for s in ctx.others:
                        assert hands[s].bit_count() == view.hand_sizes[s]
                        assert hands[s] & ~ctx.allowed[s] == 0
                        assert hands[s] & held == 0
                        held |= hands[s]
                checked += 1
            match.apply(basic.act(view, rng))
    assert checked >= 40
