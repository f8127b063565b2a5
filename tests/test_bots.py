"""The bots: legal actions only, reproducible, views only, explanations, and basic > random."""

from __future__ import annotations

import gc
import itertools
import math
import random
import statistics
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest

from sobedesce.bots import BOTS, LEVEL_DEADLINE, LEVELS, OracleSeat, StrongBot, make_bot
from sobedesce.bots._search import exchange_candidates, sample_exchange_worlds, screen_exchange
from sobedesce.bots._sim import PlayState
from sobedesce.bots.base import Option
from sobedesce.bots.basic import BasicBot, exchange_action
from sobedesce.bots.beginner import absurd
from sobedesce.core import SIT_OUT, Match, NameTrump, Phase, Round, SeatView, seat_view
from sobedesce.core.cards import SUIT_MASKS, mask_of

PRESETS = ("classic", "table")
SMALL = {"play_samples": 6, "exchange_samples": 12, "trump_samples": 6}


def _act(bot, match: Match, seat: int, rng: random.Random):
    if isinstance(bot, OracleSeat):
        return bot.act_full(match, seat, rng)
    return bot.act(seat_view(match, seat), rng)


def _seeded_round_views(rules: str, seeds: Iterable[int]) -> Iterator[tuple[int, Match, int, SeatView]]:
    """For each seed, one round dealt from ``random.Random(seed)``: every view of the seat to
    act, with the seed, the match and the seat.  The caller applies an action before asking
    for the next view; the round ends when it is over."""
    for seed in seeds:
        match = Match(rules)
        match.deal(rng=random.Random(seed))
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            seat = match.current_seat
            assert seat is not None
            yield seed, match, seat, seat_view(match, seat)


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
    assert make_bot("easy").name == "beginner"
    assert make_bot("hard").name == "basic"
    assert make_bot("expert").name == "strong"


def test_settings_in_the_name() -> None:
    bot = make_bot("Strong:play_samples=7:rivalry=0.5:match_aware=true:time_limit=none")
    assert (bot.play_samples, bot.rivalry, bot.match_aware, bot.time_limit) == (7, 0.5, True, None)
    assert make_bot("expert:play_samples=3").exchange_samples == make_bot("expert").exchange_samples
    assert make_bot("expert:play_samples=3").play_samples == 3
    assert make_bot("hard:sit_margin=0.5").sit_margin == 0.5
    with pytest.raises(ValueError, match="bot 'basic' has no setting 'depth'"):
        make_bot("basic:depth=3")
    with pytest.raises(ValueError, match=r"bot 'strong'.*play_oversample must be at least 1, not 0"):
        make_bot("strong:play_oversample=0")
    with pytest.raises(ValueError, match="exchange_samples must be at least 1, not -5"):
        make_bot("strong:exchange_samples=-5")
    with pytest.raises(ValueError, match="time_limit must be positive"):
        make_bot("strong:time_limit=0")
    with pytest.raises(ValueError, match="deadline must be positive"):
        make_bot("strong:deadline=0")
    with pytest.raises(ValueError, match="batch must be at least 1"):
        make_bot("strong:batch=-1")
    # NaN passed every check (each comparison with it is false): a deadline never out.
    for setting in ("deadline=nan", "time_limit=inf", "rivalry=nan", "sit_out_cost=-inf"):
        with pytest.raises(ValueError, match=rf"bad settings for bot 'strong': {setting}"):
            make_bot(f"strong:{setting}")
    with pytest.raises(ValueError, match="deadline must be positive seconds or none, not nan"):
        StrongBot(deadline=math.nan)
    with pytest.raises(ValueError, match="rivalry must be a finite number, not inf"):
        StrongBot(rivalry=math.inf)
    with pytest.raises(ValueError, match="cannot keep a deadline"):
        make_bot("strong:batch=0:deadline=0.5")
    with pytest.raises(ValueError, match="keep_mediocre is a chance"):
        make_bot("beginner:keep_mediocre=2")
    # basic took any number: with explain_samples 0 every hint of a card read 0.0.
    with pytest.raises(ValueError, match=r"bot 'basic'.*explain_samples must be at least 1, not 0"):
        make_bot("basic:explain_samples=0")
    with pytest.raises(ValueError, match="sit_margin must be a finite number, not nan"):
        BasicBot(sit_margin=math.nan)
    with pytest.raises(ValueError, match=r"unknown bot 'oracel' \(known: .*; in the arena also oracle;"):
        make_bot("oracel")
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
    for seed, match, _, view in _seeded_round_views(rules, range(3)):
        options = bot.explain(view, random.Random(seed))
        assert options
        legal = list(view.legal_actions)
        for option in options:
            assert option.action in legal
        if view.phase == Phase.TRUMP:
            # The note said "Clubs as trump" beside the action that says as much (the page
            # showed "Name ♣ Clubs as trump (♣ Clubs as trump)").
            assert [o.note for o in options] == [""] * len(options)
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


@pytest.mark.parametrize("rules", PRESETS)
def test_trump_happy_basic_names_its_long_suit_and_plays_where_basic_sits_out(rules: str) -> None:
    """``trump_bias``, the pool's trump-happy ``basic``: as chooser it names a suit it holds
    most of (with a bias far above any suit's value); at the exchange it sits out only where
    ``basic`` does, and sometimes plays where ``basic`` sits out; at no bias it is ``basic``."""
    basic, same, happy = make_bot("basic"), make_bot("basic:trump_bias=0"), make_bot("basic:trump_bias=5")
    chose = plays_more = 0
    for seed, match, _, view in _seeded_round_views(rules, range(80)):
        rng = random.Random(seed)
        expected = basic.act(view, rng)
        assert same.act(view, rng) == expected
        mine = happy.act(view, rng)
        if view.phase == Phase.TRUMP and len(view.legal_actions) > 1:
            held = [(view.hand_mask & mask).bit_count() for mask in SUIT_MASKS]
            assert isinstance(mine, NameTrump) and held[int(mine.suit)] == max(held), (held, mine)
            chose += mine != expected
        elif view.phase == Phase.EXCHANGE and SIT_OUT in view.legal_actions:
            assert mine != SIT_OUT or expected == SIT_OUT, "trump-happy sat out where basic plays"
            plays_more += mine != SIT_OUT and expected == SIT_OUT
        match.apply(expected)
    assert chose > 0 and plays_more > 0, (chose, plays_more)


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


def _basic_views(rules: str, rng: random.Random, deals: int) -> Iterator[tuple[int, Round, SeatView]]:
    """Every view of ``deals`` rounds of four basic bots (start scores 6 to 20), with the deal's
    number and the round; the basic action is applied after each."""
    basic = make_bot("basic")
    for deal in range(deals):
        match = Match(rules, scores=tuple(rng.randint(6, 20) for _ in range(4)))
        match.deal(rng=rng, dealer=deal % 4)
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            view = seat_view(match, match.current_seat)
            yield deal, rnd, view
            match.apply(basic.act(view, rng))


@pytest.mark.parametrize("rules", PRESETS)
def test_play_evidence_favours_the_real_hands(rules: str) -> None:
    """The exchange phase's evidence (who sat out, who played when it could have sat out)
    weighs the real hands of the other seats above the typical hands the play sampler draws
    from what the view shows: a seat that sat out holds weak cards, one that played does not."""
    from sobedesce.bots._search import PlayContext, _exchange_evidence, sample_play_worlds

    ratios = []
    for deal, rnd, view in _basic_views(rules, random.Random(3), 40):
        if view.phase == Phase.PLAY and len(view.legal_actions) > 1:
            ctx = PlayContext(view)
            if ctx.sat_out or ctx.played_by_choice:
                real = [rnd.hands[s] if ctx.active[s] else 0 for s in range(4)]
                mine = statistics.mean(_exchange_evidence(ctx, real, random.Random(i)) for i in range(10))
                worlds = sample_play_worlds(ctx, random.Random(deal), 20, weighted=False)
                typical = statistics.mean(_exchange_evidence(ctx, h, random.Random(1)) for _, h in worlds)
                ratios.append(mine / typical)
    assert len(ratios) >= 100
    assert statistics.median(ratios) > 1.3
    assert sum(r > 1.0 for r in ratios) > 0.7 * len(ratios)


@pytest.mark.parametrize("rules", PRESETS)
def test_first_lead_decks_are_deals_the_view_allows(rules: str) -> None:
    """At the round's first card the strong bot draws whole decks: every world it keeps gives
    each other active seat five cards it could hold (none the viewer held or discarded), the
    seats that sat out none, and the viewer its own hand; after the first card it does not."""
    from sobedesce.bots._search import FirstLeadDraw, PlayContext

    checked = 0
    for deal, _rnd, view in _basic_views(rules, random.Random(9), 40):
        if view.phase == Phase.PLAY:
            assert FirstLeadDraw.applies(view) == (not view.played_cards)
        if view.phase == Phase.PLAY and FirstLeadDraw.applies(view) and len(view.legal_actions) > 1:
            ctx = PlayContext(view)
            draw = FirstLeadDraw(ctx, 12, oversample=4)
            draw.draw(random.Random(deal), 20)
            assert draw.tries == 20 and not draw.done
            draw.draw(random.Random(deal), draw.want)
            assert draw.done and draw.tries == 48
            worlds = draw.worlds(random.Random(deal))
            assert len(worlds) == 12
            assert len({w for w, _ in worlds}) == 1
            mine = mask_of(view.my_discards)
            for weight, hands in worlds:
                assert weight > 0.0
                assert hands[view.seat] == view.hand_mask
                held = hands[view.seat] | mine
                for s in range(4):
                    if s == view.seat:
                        continue
                    assert hands[s].bit_count() == (5 if view.active[s] else 0)
                    assert hands[s] & held == 0
                    held |= hands[s]
            checked += 1
    assert checked >= 25


def _trump_count_errors(
    rules: str, seed: int, deals: int, first_lead: bool, sampler: Callable[[Any], Any]
) -> tuple[list[float], list[float]]:
    """Over the card decisions of basic rounds (the round's first card, or the later ones),
    how far the worlds' mean count of each other seat's trumps is from the real count: for the
    deals of ``sampler(ctx)`` (drawn in full) and for the current hands weighed by rules of
    thumb, 50 worlds each."""
    from sobedesce.bots._search import PlayContext, sample_play_worlds

    new_errors, old_errors = [], []
    for deal, rnd, view in _basic_views(rules, random.Random(seed), deals):
        if view.phase == Phase.PLAY and bool(view.played_cards) != first_lead and len(view.legal_actions) > 1:
            ctx = PlayContext(view)
            trumps = SUIT_MASKS[ctx.trump]
            draw = sampler(ctx)
            draw.draw(random.Random(deal), draw.want)
            new = draw.worlds(random.Random(deal))
            old = sample_play_worlds(ctx, random.Random(deal), 50, evidence=True, oversample=4)
            for s in ctx.others:
                real = (rnd.hands[s] & trumps).bit_count()
                new_errors.append(abs(statistics.mean((h[s] & trumps).bit_count() for _, h in new) - real))
                old_errors.append(abs(statistics.mean((h[s] & trumps).bit_count() for _, h in old) - real))
    return new_errors, old_errors


@pytest.mark.parametrize("rules", PRESETS)
def test_first_lead_decks_read_the_others_trumps_better(rules: str) -> None:
    """The whole decks weighed by every seat's trump and exchange decisions (what the basic
    policy would decide from each hand) tell how many trumps each other seat holds better than
    the current hands weighed by rules of thumb: over first leads of basic rounds, the worlds'
    mean count of a seat's trumps is nearer the real count, and nearer more often than not."""
    from sobedesce.bots._search import FirstLeadDraw

    decks, hands_only = _trump_count_errors(rules, 7, 30, True, lambda ctx: FirstLeadDraw(ctx, 50, oversample=20))
    assert len(decks) >= 40
    assert statistics.mean(decks) < 0.9 * statistics.mean(hands_only)
    assert sum(a < b for a, b in zip(decks, hands_only, strict=True)) > 0.55 * len(decks)


@pytest.mark.parametrize("rules", PRESETS)
def test_play_decks_are_deals_the_view_allows(rules: str) -> None:
    """After the first card the strong bot builds its deals back to the deck: every world it
    keeps gives each other active seat as many cards as it holds, none the viewer holds,
    discarded or saw played, and hands from which every card seen played was legal."""
    from sobedesce.bots._search import PlayContext, PlayDeckDraw, _replay_weight

    checked = 0
    for deal, _rnd, view in _basic_views(rules, random.Random(4), 12):
        if view.phase == Phase.PLAY and view.played_cards and len(view.legal_actions) > 1:
            ctx = PlayContext(view)
            draw = PlayDeckDraw(ctx, 10, oversample=4)
            draw.draw(random.Random(deal), draw.want)
            assert draw.done
            worlds = draw.worlds(random.Random(deal))
            assert len(worlds) == 10
            seen = view.hand_mask | mask_of(view.my_discards) | mask_of(view.played_cards)
            for weight, hands in worlds:
                assert weight > 0.0
                assert hands[view.seat] == view.hand_mask
                held = seen
                for s in ctx.others:
                    assert hands[s].bit_count() == view.hand_sizes[s]
                    assert hands[s] & held == 0
                    held |= hands[s]
                assert _replay_weight(ctx, hands, False) == 1.0
            checked += 1
    assert checked >= 25


@pytest.mark.parametrize(("lean", "keepers"), [(0.9, 1), (0.0, 2)])
def test_leaned_deals_are_weighed_as_uniform_ones(lean: float, keepers: int) -> None:
    """The deals built back to the deck draw a seat's hand leaning toward cards worth keeping
    (and the chooser's turned card), and the weight each hand comes with undoes the lean: the
    chances of the leaned draw add up to 1, and weighted, the hands hold as many cards worth
    keeping as uniformly drawn hands do (the hypergeometric law)."""
    from sobedesce.bots._search import _deal_chance, _deal_leaning

    cards = [0, 1, 2, 3, 4, 9, 10, 11, 19, 29]  # spades trump: 9, 19 and 29 are worth keeping
    avail, junk, turned = mask_of(cards), mask_of([0, 1, 2, 3, 4, 10, 11]), 1 << 9
    good, bad = avail & ~junk, avail & junk
    total = 0.0
    for three in itertools.combinations(cards, 3):
        hand = mask_of(three)
        chance = (1.0 - lean) * _deal_chance(good, bad, 3, keepers, hand)
        if hand & turned:
            chance += lean * _deal_chance(good & ~turned, bad, 2, keepers - 1, hand & ~turned)
        total += chance
    assert total == pytest.approx(1.0)
    rng = random.Random(0)
    weighted = [0.0] * 4
    draws = 20_000
    for _ in range(draws):
        hand, weight = _deal_leaning(avail, 3, keepers, junk, turned, lean, rng)
        weighted[(hand & good).bit_count()] += weight / draws
    for x in (1, 2, 3):  # (hands with none are drawn too rarely to count them closely)
        uniform = math.comb(3, x) * math.comb(7, 3 - x) / math.comb(10, 3)
        assert weighted[x] == pytest.approx(uniform, abs=0.06 if x == 1 else 0.03)


@pytest.mark.parametrize("rules", PRESETS)
def test_play_decks_agree_with_whole_decks_at_the_first_lead(rules: str) -> None:
    """The deals built back to the deck weigh the same evidence as the whole decks dealt
    forwards (the trump choice and every exchange decision, as the basic policy makes them),
    so where both apply, at the round's first card, they agree on how many trumps each other
    seat holds, far better than the current hands weighed by rules of thumb do."""
    from sobedesce.bots._search import FirstLeadDraw, PlayContext, PlayDeckDraw, sample_play_worlds

    built, thumbs = [], []
    for deal, _rnd, view in _basic_views(rules, random.Random(21), 20):
        if view.phase == Phase.PLAY and not view.played_cards and len(view.legal_actions) > 1:
            ctx = PlayContext(view)
            trumps = SUIT_MASKS[ctx.trump]
            whole = FirstLeadDraw(ctx, 100, oversample=40)
            whole.draw(random.Random(deal), whole.want)
            draw = PlayDeckDraw(ctx, 100, oversample=4)
            draw.draw(random.Random(deal), draw.want)
            samples = {
                "whole": whole.worlds(random.Random(deal)),
                "built": draw.worlds(random.Random(deal)),
                "thumbs": sample_play_worlds(ctx, random.Random(deal), 100, evidence=True, oversample=4),
            }
            for s in ctx.others:
                mean = {k: statistics.mean((h[s] & trumps).bit_count() for _, h in w) for k, w in samples.items()}
                built.append(abs(mean["built"] - mean["whole"]))
                thumbs.append(abs(mean["thumbs"] - mean["whole"]))
    assert len(built) >= 35
    assert statistics.mean(built) < 0.5 * statistics.mean(thumbs)
    assert sum(a < b for a, b in zip(built, thumbs, strict=True)) > 0.65 * len(built)


@pytest.mark.parametrize("rules", PRESETS)
def test_play_decks_read_the_others_trumps_better(rules: str) -> None:
    """At the card decisions after the first, the deals built back to the deck tell how many
    trumps each other seat holds better than the current hands weighed by rules of thumb: the
    worlds' mean count of a seat's trumps is nearer the real count."""
    from sobedesce.bots._search import PlayDeckDraw

    built, thumbs = _trump_count_errors(rules, 11, 8, False, lambda ctx: PlayDeckDraw(ctx, 50, oversample=4))
    assert len(built) >= 100
    assert statistics.mean(built) < 0.9 * statistics.mean(thumbs)


def test_play_worlds_resampled() -> None:
    """With ``oversample`` the play sampler draws more deals and keeps ``n`` of them in
    proportion to their weights: every kept world carries the same weight (the mean weight of
    the deals tried) and is a deal the view allows."""
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
                assert len({w for w, _ in worlds}) == 1
                for weight, hands in worlds:
                    assert 0.0 < weight <= 1.0
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


# -- the clock ------------------------------------------------------------------------------


def test_levels_keep_a_deadline_unless_untimed() -> None:
    assert make_bot("expert").deadline == LEVEL_DEADLINE
    assert make_bot("expert", timed=False).deadline is None
    assert make_bot("expert", timed=False).exchange_samples == make_bot("expert").exchange_samples
    # ``hard`` is the rule-based bot: it answers at once and has no clock to keep.
    assert not hasattr(make_bot("hard"), "deadline")
    # A deadline asked for by name is kept either way; plain ``strong`` has none.
    assert make_bot("strong:deadline=0.3", timed=False).deadline == 0.3
    assert make_bot("strong").deadline is None


class FakeClock:
    """Time that moves by ``step`` seconds at every reading: no sleeping, no machine speed."""

    def __init__(self, step: float = 1.0) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        value = self.now
        self.now += self.step
        return value


def _view_at(rules: str, phase: Phase, min_legal: int, seed: int = 0) -> SeatView:
    """The first view of the given phase with at least ``min_legal`` legal actions, in rounds
    of four basic bots."""
    basic = make_bot("basic")
    for attempt in range(200):
        match = Match(rules)
        match.deal(rng=random.Random(seed * 1000 + attempt))
        rnd = match.round
        assert rnd is not None
        while not rnd.is_over:
            seat = match.current_seat
            assert seat is not None
            view = seat_view(match, seat)
            if view.phase == phase and len(view.legal_actions) >= min_legal:
                return view
            match.apply(basic.act(view, random.Random(attempt)))
    raise AssertionError("no such view")


def _values(options) -> list[tuple[object, float, str]]:
    return [(o.action, o.expected_delta, o.note) for o in options]


@pytest.mark.parametrize("phase", [Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY])
def test_the_strong_bot_gives_what_it_ranks_by_as_a_field(phase: Phase) -> None:
    """The strong bot ranks by its own change against the others' mean, not by its expected
    change: each option carries that figure as ``ranking`` (the page read it from the note's
    words), best first, and the note does not repeat it (the terminal writes it from the
    field).  A bot that ranks by its expected change, or one written before ``ranking``
    existed, leaves it ``None``."""
    view = _view_at("classic", phase, 3)
    settings = {"play_samples": 40, "exchange_samples": 120, "trump_samples": 60}
    options = make_bot("strong", **settings).explain(view, random.Random(4))
    rankings = [o.ranking for o in options]
    assert all(isinstance(r, float) for r in rankings), options
    assert rankings == sorted(rankings)  # type: ignore[type-var]
    for option in options:
        assert option.ranking is not None
        assert "against the others" not in option.note, option
    basic = BasicBot().explain(view, random.Random(4))
    assert all(o.ranking is None for o in basic)
    older = Option(options[0].action, 1.5, "my own words")  # as a third-party bot makes it
    assert (older.ranking, older.note) == (None, "my own words")


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
def test_the_strong_bots_options_say_their_tricks_and_risk_of_none(rules: str, phase: Phase) -> None:
    """Each option the seat plays carries the tricks it expects to end the round with and its
    chance of ending it with none, which are what its expected change is made of: a round
    without a trick costs the penalty, each trick takes one off, times the trump's
    multiplier.  Sitting out has neither; `basic`'s card options have them from its own
    play-outs."""
    view = _view_at(rules, phase, 3)
    assert view.trump is not None
    mult = view.rules.multiplier(int(view.trump))
    penalty = view.rules.no_trick_penalty * mult
    settings = {"play_samples": 40, "exchange_samples": 120, "trump_samples": 60}
    options = make_bot("strong", **settings).explain(view, random.Random(4))
    told = [o for o in options if o.action != SIT_OUT]
    assert told and all(o.tricks is None and o.no_trick is None for o in options if o.action == SIT_OUT)
    for option in told:
        assert option.tricks is not None and option.no_trick is not None, option
        assert 0.0 <= option.no_trick <= 1.0 and 0.0 <= option.tricks <= 5.0, option
        assert option.expected_delta == pytest.approx(penalty * option.no_trick - mult * option.tricks), option
    # Different options, different words: they are the option's own, not the decision's.
    assert len({(o.tricks, o.no_trick) for o in told}) > 1 or len(told) == 1
    if phase == Phase.PLAY:
        for option in BasicBot().explain(view, random.Random(4)):
            assert option.tricks is not None and option.no_trick is not None
            assert option.expected_delta == pytest.approx(penalty * option.no_trick - mult * option.tricks)


@pytest.mark.parametrize("phase", [Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY])
def test_a_deadline_never_reached_changes_nothing(phase: Phase) -> None:
    view = _view_at("classic", phase, 3)
    settings = {"play_samples": 40, "exchange_samples": 120, "trump_samples": 60, "batch": 30}
    plain = make_bot("strong", **settings).explain(view, random.Random(4))
    still = make_bot("strong", deadline=1e9, clock=FakeClock(0.0), **settings).explain(view, random.Random(4))
    assert _values(plain) == _values(still)


def test_out_of_time_answers_with_the_best_so_far() -> None:
    """Trump: time runs out after three batches (the fake clock moves one second a reading,
    the deadline is 3.5 s: a fourth batch would end at 4 s): the answer is the bot's answer on
    exactly those three batches' deals, i.e. a budget of three batches and no deadline."""
    view = _view_at("classic", Phase.TRUMP, 3)
    # ``batch`` counts play-outs: 8 deals a batch.
    budgets = {"trump_samples": 400, "batch": 8 * len(view.legal_actions)}
    clock = FakeClock()
    timed = make_bot("strong", deadline=3.5, clock=clock, **budgets)
    options = timed.explain(view, random.Random(7))
    assert clock.readings == 4  # the start and one reading after each of three batches
    small = {**budgets, "trump_samples": 24}
    assert _values(options) == _values(make_bot("strong", **small).explain(view, random.Random(7)))
    assert timed.act(view, random.Random(7)) == options[0].action


def test_card_out_of_time_while_drawing_deals() -> None:
    """Cards: the deals are drawn (within half the deadline) before any play-out.  With a
    deadline of 3.5 s and a second a reading, the drawing stops after its first chunk (32 deals
    kept, a batch's 8 worlds at 4 candidates a world): the answer is that of a bot whose whole
    budget is those 8 worlds, resampled from the same 32 deals."""
    view = _view_at("table", Phase.PLAY, 3)
    batch = 8 * len(view.legal_actions)
    clock = FakeClock()
    timed = make_bot("strong", deadline=3.5, clock=clock, batch=batch, play_samples=400)
    options = timed.explain(view, random.Random(7))
    assert clock.readings == 3  # the start, after the chunk of deals, after the one batch
    small = make_bot("strong", batch=batch, play_samples=8)
    assert _values(options) == _values(small.explain(view, random.Random(7)))


def _exchange_values_on(view: SeatView, worlds: list, bot: object) -> dict:
    """The own changes ``bot`` reports for every option, from these worlds."""
    from sobedesce.bots._search import evaluate_exchange

    candidates = exchange_candidates(view, every_subset=True)
    values = evaluate_exchange(view, worlds, candidates, 1.0, False, bot._equity(view))  # type: ignore[attr-defined]
    return {(SIT_OUT if c is None else exchange_action(c)): v[0] for c, v in values.items()}


def test_exchange_out_of_time_while_screening() -> None:
    """The deadline (3 s, a second a reading) stops the drawing after its first chunk (640
    candidates: 80 worlds) and the screen after its first batch (10 worlds): every option has
    been played out on the same 10 worlds, the first 80 of all the candidates resampled, and
    the best of them on those worlds is the answer."""
    view = _view_at("table", Phase.EXCHANGE, 12)
    clock = FakeClock()
    batch = 10 * len(view.legal_actions)  # ten deals a batch while every option is played out
    timed = make_bot("strong", deadline=3.0, clock=clock, batch=batch)
    options = timed.explain(view, random.Random(3))
    assert clock.readings == 3
    assert len(options) == len(view.legal_actions)  # no option screened out yet
    worlds = sample_exchange_worlds(view, random.Random(3), 80)[:10]
    assert {o.action: o.expected_delta for o in options} == pytest.approx(_exchange_values_on(view, worlds, timed))


def test_exchange_draws_then_screens_then_keeps() -> None:
    """With a deadline of 10.5 s and a second a reading: the drawing of candidates takes half
    the deadline (five chunks, the last ending at 5 s: a sixth would end after 5.25 s), the
    screen ends by three quarters (two batches: a third would end after 7.875 s), the kept
    options get the rest (three batches), and sitting out is among them."""
    view = _view_at("table", Phase.EXCHANGE, 12)
    clock = FakeClock()
    timed = make_bot("strong", deadline=10.5, clock=clock, batch=10 * len(view.legal_actions), exchange_keep=4)
    options = timed.explain(view, random.Random(3))
    assert clock.readings == 11  # the start, five chunks, two screening batches, three more
    assert len(options) <= 5 < len(view.legal_actions)
    if any(a == SIT_OUT for a in view.legal_actions):
        assert any(o.action == SIT_OUT for o in options)


@pytest.mark.parametrize("phase", [Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY])
def test_always_an_answer_even_with_no_time(phase: Phase) -> None:
    view = _view_at("classic", phase, 2)
    bot = make_bot("strong", deadline=1e-6, clock=FakeClock(100.0))
    assert bot.act(view, random.Random(1)) in view.legal_actions


# -- the beginner -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
def test_beginner_never_absurd(rules: str) -> None:
    """Over many random views (the other seats random, so that odd positions come up), the
    beginner's moves are legal and never absurd, although absurd moves were often legal; and
    it differs from ``basic`` now and then (its mistakes)."""
    beginner = make_bot("beginner")
    basic = make_bot("basic")
    rand = make_bot("random")
    tempting = differs = decisions = 0
    for seed, match, seat, view in _seeded_round_views(rules, range(60)):
        legal = list(view.legal_actions)
        if len(legal) > 1:
            action = beginner.act(view, random.Random(seed * 10 + seat))
            assert action in legal
            assert absurd(view, action) is None, (absurd(view, action), view.phase, action)
            tempting += any(absurd(view, a) is not None for a in legal)
            differs += action != basic.act(view, random.Random(0))
            decisions += 1
        bot = beginner if seat % 2 == 0 else rand
        match.apply(bot.act(view, random.Random(seed + seat)))
    assert tempting > decisions // 4
    assert 0.05 * decisions < differs < 0.5 * decisions


def test_absurd_moves_named() -> None:
    view = _view_at("classic", Phase.EXCHANGE, 12)
    trump = int(view.trump)  # type: ignore[arg-type]
    ace = 10 * trump + 9
    reasons = {absurd(view, a) for a in view.legal_actions}
    if view.hand_mask >> ace & 1:
        assert "discards the Ace of trumps" in reasons
    assert None in reasons


def test_batch_zero_draws_everything_at_once() -> None:
    """``batch=0`` is the search before the clock: every world drawn at once, the exchange
    screened on the first of them (as ``screen_exchange`` does)."""
    view = _view_at("table", Phase.EXCHANGE, 12)
    bot = make_bot("strong", exchange_samples=90, batch=0, equity=0.0, sit_out_cost=0.0)
    options = bot.explain(view, random.Random(5))
    worlds = sample_exchange_worlds(view, random.Random(5), 90)
    candidates = exchange_candidates(view, every_subset=True)
    values = screen_exchange(view, worlds, candidates, 8, 30, 1.0)
    assert {o.action: o.expected_delta for o in options} == {
        (SIT_OUT if c is None else exchange_action(c)): v[0] for c, v in values.items()
    }


@pytest.mark.parametrize("rules", PRESETS)
def test_resampled_exchange_worlds_carry_their_candidates_mean_weight(rules: str) -> None:
    """A draw of resampled exchange worlds weighs what its candidates weighed on average, so
    that a caller pooling several draws weighs each as one large draw would (the search itself
    now resamples every candidate at once, :class:`ExchangeDraw`; weight 1 a world made small
    draws count alike, however unlikely their candidates, and so leant toward deals drawn from
    the view alone: ``benchmarks/exchange_pooling.py``).

    The same generator gives the same candidates with ``oversample=1`` (each with its own
    weight) as with ``n=1, oversample=k`` (resampled to one): the resampled world must carry
    the mean of those weights, zero weights included."""
    checked = 0
    basic = make_bot("basic")
    for deal in range(30):
        match = Match(rules)
        match.deal(rng=random.Random(deal), dealer=deal % 4)
        while match.phase in (Phase.TRUMP, Phase.EXCHANGE):
            seat = match.current_seat
            assert seat is not None
            view = seat_view(match, seat)
            if match.phase == Phase.EXCHANGE and view.seat != view.chooser:
                for seed in range(3):
                    each = sample_exchange_worlds(view, random.Random(seed), 8, oversample=1)
                    one = sample_exchange_worlds(view, random.Random(seed), 1, oversample=8)
                    if not each:
                        assert one == []
                        continue
                    assert len(one) == 1
                    assert one[0][0] == pytest.approx(sum(w for w, _ in each) / 8)
                    if len({w for w, _ in each}) > 1:
                        checked += 1
            match.apply(basic.act(view, random.Random(deal)))
    assert checked >= 50
