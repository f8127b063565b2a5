"""PettingZoo and OpenSpiel integrations, checked by their own test suites, and bots from other
packages seated in the arena (issue 12; docs/integrations.md, docs/bots.md)."""

from __future__ import annotations

import importlib.metadata
import random
import sys
from pathlib import Path

import pytest

from sobedesce import bots as bots_module
from sobedesce.arena import ArenaError, BotFailure, run_arena
from sobedesce.bots import make_bot
from sobedesce.cli.main import main
from sobedesce.core import Match, Phase, seat_view

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "mybot"
PRESETS = ("classic", "table")


@pytest.fixture
def example_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    yield
    sys.modules.pop("mybot", None)


# -- the encoding shared by both integrations ----------------------------------------------


def test_action_ids_round_trip():
    from sobedesce.integrations._encoding import NUM_ACTIONS, action_from_id, id_of, legal_ids, observe

    rng = random.Random(4)
    for rules in PRESETS:
        for _ in range(20):
            match = Match(rules)
            match.deal(rng=rng, dealer=rng.randrange(4))
            while not match.round.is_over:
                view = seat_view(match, match.current_seat)
                ids = legal_ids(view)
                assert ids == sorted(set(ids)) and all(0 <= i < NUM_ACTIONS for i in ids)
                assert len(ids) == len(view.legal_actions)
                for action in view.legal_actions:
                    assert action_from_id(id_of(action, view.hand_mask), view.hand_mask) == action
                assert len(observe(view)) == 415
                match.apply(action_from_id(rng.choice(ids), view.hand_mask))


def _rules_slot(view) -> list[float]:
    from sobedesce.integrations._encoding import OBS_SLOTS, observe

    start, length = OBS_SLOTS["rules"]
    return observe(view)[start : start + length]


def test_the_rules_slot_is_the_preset_of_the_rules():
    """The slot read ``turn_up_allowed``: a variant of classic without turn-up said "table"."""
    import dataclasses

    from sobedesce.core import CLASSIC, Rules

    variants = {
        "classic": [1.0, 0.0],
        "table": [0.0, 1.0],
        Rules.from_spec({"preset": "classic", "turn_up_allowed": False}): [1.0, 0.0],
        dataclasses.replace(CLASSIC, turn_up_allowed=False): [1.0, 0.0],
        Rules.from_spec({"preset": "table", "turn_up_allowed": True, "min_discard": 0}): [0.0, 1.0],
    }
    for rules, expected in variants.items():
        match = Match(rules)
        match.deal(rng=random.Random(1), dealer=0)
        assert _rules_slot(seat_view(match, 0)) == expected, rules
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations._encoding import OBS_SLOTS
    from sobedesce.integrations.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"rules": "classic/turn_up_allowed:false"})
    state = game.new_initial_state()
    for card in range(40):
        state.apply_action(card)
    start, length = OBS_SLOTS["rules"]
    assert state.observation_tensor(1)[start : start + length] == [1.0, 0.0]


def test_the_encoding_names_what_it_cannot_read():
    """``action_from_id(5.0, hand)`` was ``SitOut()``, ``action_from_id("5", hand)`` and
    ``action_name("x")`` compared a str with an int, numpy's ids of cards failed ("not a card:
    np.int64(2)"), ``action_id("x")`` said an exchange's id depends on the hand, a discard the hand
    does not hold was "Card('AD') is not in list", and ``observe``/``legal_ids`` of what is no
    view raised an AttributeError."""
    from sobedesce.core import SIT_OUT, Exchange, Play, parse_cards
    from sobedesce.integrations._encoding import (
        action_from_id,
        action_id,
        action_name,
        exchange_id,
        id_of,
        legal_ids,
        observe,
    )

    hand = parse_cards("AS 7H KH 2D 3C")
    for action in (5.0, "5", True, None):
        with pytest.raises(TypeError, match=r"^an action id is a whole number 0-77, not "):
            action_from_id(action, hand)
        with pytest.raises(TypeError, match=r"^an action id is a whole number 0-77, not "):
            action_name(action, hand)
    for action in (-1, 78):
        with pytest.raises(ValueError, match=rf"^not an action id: {action} \(0..77\)$"):
            action_from_id(action, hand)
    assert action_from_id(5, hand) is SIT_OUT and action_from_id(30, hand) == Exchange.of("2D 3C")
    with pytest.raises(TypeError, match=r"^action_id needs an action of sobedesce.core, not 'x'$"):
        action_id("x")
    with pytest.raises(ValueError, match=r"^exchange_id: the hand \(AS 7H KH 2D 3C\) does not hold Card\('AD'\)$"):
        exchange_id(hand, parse_cards("2D AD"))
    with pytest.raises(ValueError, match=r"does not hold Card\('AD'\)$"):
        id_of(Exchange.of("AD"), hand)
    for bad_hand, error, message in (
        (-1, ValueError, r"^hand: a mask of cards is 0 to 2\*\*40 - 1, not -1$"),
        (1 << 40, ValueError, r"^hand: a mask of cards is 0 to 2\*\*40 - 1, not 1099511627776$"),
        ("AS 7H", TypeError, r"^hand: must be the seat's cards \(a sequence of cards, or their mask\), not 'AS 7H'$"),
        (
            [5, "AS"],
            ValueError,
            r"^hand\[1\]: must be a card \(an int 0-39 from the core's card functions\), not 'AS'$",
        ),
    ):
        with pytest.raises(error, match=message):
            action_from_id(6, bad_hand)
    assert id_of(Play.of("AS"), hand) == 47
    for call in (observe, legal_ids):
        with pytest.raises(
            TypeError, match=rf"^{call.__name__} needs a SeatView \(sobedesce.core.seat_view\), not 'x'$"
        ):
            call("x")
    np = pytest.importorskip("numpy", reason="numpy comes with the [rl] and [openspiel] extras")
    assert action_from_id(np.int64(40), hand) == Play.of("4S") and action_name(np.int64(40)) == "4S"
    assert action_from_id(np.int64(3), hand) == action_from_id(3, hand)
    assert action_name(np.int64(30), hand) == "discard 2D 3C"


def test_resampled_deals_are_consistent():
    from sobedesce.integrations._resample import sample_deal

    rng = random.Random(8)
    for rules in PRESETS:
        basic = make_bot("basic")
        for _ in range(15):
            match = Match(rules)
            match.deal(rng=rng, dealer=rng.randrange(4))
            while not match.round.is_over:
                view = seat_view(match, match.current_seat)
                deal = sample_deal(view, rng)  # replayed and checked inside
                assert sorted(deal.deck) == list(range(40))
                match.apply(basic.act(view, rng))


def test_resampled_deals_for_a_seat_that_sat_out():
    """A seat that sat out no longer sees its cards: its five are dealt like anyone's."""
    from sobedesce.integrations._resample import sample_deal

    rng = random.Random(2)
    checked = 0
    for rules in PRESETS:
        for _ in range(40):
            match = Match(rules)
            match.deal(rng=rng, dealer=rng.randrange(4))
            while not match.round.is_over:
                for seat in range(4):
                    view = seat_view(match, seat)
                    if view.active[seat] is False and view.phase != Phase.TRUMP:
                        deal = sample_deal(view, rng)  # replayed and checked inside
                        assert sorted(deal.deck) == list(range(40))
                        checked += 1
                match.apply(rng.choice(list(match.legal_actions())))
    assert checked > 20


def test_resampled_hands_are_uniform_when_several_seats_showed_voids():
    """Two other seats have shown voids (seat 2 in spades, seat 3 in hearts): the sampler's
    chance of each card in each seat's hand is that of deals drawn uniformly and kept when the
    round replays (rejection).  Drawn seat by seat, seat 3 got JS and 6S about 1.5 times as
    often as it should (z about +8 at this sample size)."""
    from collections import Counter

    from sobedesce.core import CARDS, Exchange, IllegalActionError, NameTrump, Round, Suit, cards_of
    from sobedesce.core.logic import packet_indices
    from sobedesce.integrations._resample import OwnCards, forbidden_masks, sample_deal

    rng = random.Random(0)
    match = Match("classic")
    deck = list(CARDS)
    rng.shuffle(deck)
    match.deal(deck=deck, dealer=0)
    history = [NameTrump(Suit(rng.randrange(4))), *[Exchange(())] * 4]
    for action in history:
        match.apply(action)
    for _ in range(10):
        history.append(rng.choice(match.legal_actions()))
        match.apply(history[-1])
    view = seat_view(match, 0)
    assert [bool(mask) for mask in forbidden_masks(view)] == [False, True, True, True]
    chooser = match.round.chooser
    first, second = packet_indices(0, chooser)
    own = OwnCards(tuple(deck[i] for i in first), tuple(deck[i] for i in second), ())
    samples = 4000

    def replayed(cards):
        replay = Round(view.rules, view.dealer, tuple(cards), view.scores, view.sat_out_streaks)
        for action in history:
            replay.apply(action)
        return replay.hands

    sampled: Counter[tuple[int, int]] = Counter()
    for _ in range(samples):
        hands = replayed(sample_deal(view, rng, own).deck)
        sampled.update((seat, int(card)) for seat in (1, 2, 3) for card in cards_of(hands[seat]))
    # Uniform: every unknown card anywhere but the places of the viewer's cards and of the cards played.
    played = {seat: [] for seat in range(4)}
    for trick in view.tricks:
        for card, seat in zip(trick.cards, trick.seats, strict=True):
            played[seat].append(card)
    base = list(deck)
    fixed = set(first) | set(second)
    for seat in (1, 2, 3):
        places = [*packet_indices(seat, chooser)[0], *packet_indices(seat, chooser)[1]]
        for place, card in zip(places, played[seat], strict=False):
            base[place] = card
            fixed.add(place)
    free = [i for i in range(40) if i not in fixed]
    unknown = [card for card in CARDS if card not in {base[i] for i in fixed}]
    uniform: Counter[tuple[int, int]] = Counter()
    kept = 0
    while kept < samples:
        rng.shuffle(unknown)
        cards = list(base)
        for place, card in zip(free, unknown, strict=True):
            cards[place] = card
        try:
            hands = replayed(cards)
        except IllegalActionError:
            continue
        kept += 1
        uniform.update((seat, int(card)) for seat in (1, 2, 3) for card in cards_of(hands[seat]))
    worst = 0.0
    for key in set(sampled) | set(uniform):
        p, q = sampled[key] / samples, uniform[key] / samples
        worst = max(worst, abs(p - q) / ((p * (1 - p) + q * (1 - q)) / samples) ** 0.5)
    assert len(uniform) > 60 and worst < 4.5, worst


# -- PettingZoo ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("episode", ["round", "match"])
def test_pettingzoo_api_and_seed(rules, episode):
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra: pip install 'sobe-e-desce[rl]'")
    from pettingzoo.test import api_test, seed_test

    from sobedesce.integrations import pettingzoo as pz

    api_test(pz.env(rules=rules, episode=episode), num_cycles=200)
    seed_test(lambda: pz.env(rules=rules, episode=episode), num_cycles=200)
    raw = pz.raw_env(rules=rules, episode=episode)
    assert raw.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def test_pettingzoo_random_agents_and_rewards():
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra: pip install 'sobe-e-desce[rl]'")
    import numpy as np

    from sobedesce.integrations import pettingzoo as pz

    env = pz.env(rules="classic", episode="match", render_mode="ansi", max_rounds=30)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        assert observation["observation"].shape == (415,) and observation["action_mask"].dtype == np.int8
        action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    raw = env.unwrapped
    assert "round" in raw.render()
    match = raw.match
    expected = [float(match.rules.start_score - score) for score in match.scores]
    if match.is_over:
        expected = [e + r for e, r in zip(expected, match.riscos(), strict=True)]
    assert [totals[a] for a in raw.possible_agents] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"max_rounds": 0}, ValueError, "max_rounds must be at least 1, not 0"),
        ({"max_rounds": -3}, ValueError, "max_rounds must be at least 1, not -3"),
        ({"max_rounds": "x"}, TypeError, "max_rounds must be a whole number, not 'x'"),
        ({"max_rounds": 2.5}, TypeError, "max_rounds must be a whole number, not 2.5"),
    ],
)
def test_pettingzoo_refuses_bad_settings(arguments, error, message):
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra: pip install 'sobe-e-desce[rl]'")
    from sobedesce.integrations import pettingzoo as pz

    with pytest.raises(error, match=message):
        pz.raw_env(episode="match", **arguments)
    with pytest.raises(error, match=message):
        pz.env(episode="match", **arguments)


def test_pettingzoo_step_takes_whole_numbers_only():
    """``step(3.7)`` was read as 3; a float or a bool is refused, numpy's integers are taken."""
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra: pip install 'sobe-e-desce[rl]'")
    import numpy as np

    from sobedesce.integrations import pettingzoo as pz

    raw = pz.raw_env(rules="classic")
    raw.reset(seed=1)
    before = raw.match.copy()
    for action in (3.7, 3.0, np.float64(3.0), True, "3"):
        with pytest.raises(TypeError, match=r"an action is a whole number 0-77"):
            raw.step(action)
    assert raw.match.phase == before.phase == Phase.TRUMP and raw.match.current_seat == before.current_seat
    raw.step(np.int64(3))  # Clubs
    assert raw.match.round.trump is not None and int(raw.match.round.trump) == 3


def test_pettingzoo_observe_names_the_agents():
    """``observe("player_9")`` raised "'player_9' is not in list"."""
    pytest.importorskip("pettingzoo", reason="needs the [rl] extra: pip install 'sobe-e-desce[rl]'")
    from sobedesce.integrations import pettingzoo as pz

    raw = pz.raw_env(rules="classic")
    raw.reset(seed=1)
    for agent in ("player_9", 0, None):
        with pytest.raises(ValueError, match=r"^not an agent of this game: .* \(the agents are player_0, "):
            raw.observe(agent)
    assert raw.observe("player_0")["observation"].shape == (415,)


# -- OpenSpiel -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"scores": "0_20_20_20"}, r"scores must each be above the target score 0"),
        ({"scores": "20_-4_20_20"}, r"scores must each be above the target score 0"),
        ({"scores": "20_20_20"}, r"scores needs four whole numbers joined by _"),
        ({"scores": "a_b_c_d"}, r"scores needs four whole numbers joined by _"),
        ({"streaks": "0_5_0_0"}, r"streaks must each be 0 to 2"),
        ({"streaks": "0_-1_0_0"}, r"streaks must each be 0 to 2"),
        ({"episode": "match", "max_rounds": 0}, r"max_rounds must be at least 1, not 0"),
        ({"episode": "match", "max_rounds": -5}, r"max_rounds must be at least 1, not -5"),
        ({"max_rounds": 0}, r"max_rounds must be at least 1, not 0"),
        ({"dealer": 4}, r"dealer must be 0 to 3, not 4"),
    ],
)
def test_openspiel_refuses_bad_parameters_at_load(params, message):
    """Before, ``scores`` of 0 loaded a game whose first state was terminal (``returns()`` then
    failed on an assertion), and ``max_rounds`` of 0 or less was taken."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    with pytest.raises(ValueError, match=message):
        pyspiel.load_game(so.GAME_NAME, params)


def test_openspiel_chance_deals_each_card_once():
    """A chance outcome that is no card, or a card dealt already, is refused at once (it used
    to be taken, and the deal failed 39 chance nodes later)."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    state = pyspiel.load_game(so.GAME_NAME).new_initial_state()
    with pytest.raises(ValueError, match=r"chance outcome 40 is not a card"):
        state.apply_action(40)
    state.apply_action(7)
    with pytest.raises(ValueError, match=r"chance outcome 7 is dealt already"):
        state.apply_action(7)
    assert state.history() == [7] and len(state.chance_outcomes()) == 39
    for card in range(40):
        if card != 7:
            state.apply_action(card)
    assert not state.is_chance_node() and state.current_player() == 1


def test_openspiel_refuses_minus_one_with_the_games_own_error():
    """-1 (OpenSpiel's ``kInvalidAction``) at a chance node raised OpenSpiel's bare ``SpielError``
    ("spiel.cc:446 action_id != kInvalidAction") before the game could say what is wrong: it now
    says it as for any other outcome that is no card, or id that is no action, and the state
    is unchanged."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    np = pytest.importorskip("numpy")
    from sobedesce.integrations import openspiel as so

    state = pyspiel.load_game(so.GAME_NAME).new_initial_state()
    chance = r"^chance outcome -1 is not a card: a chance node deals a card 0-39 not dealt yet$"
    for minus_one in (-1, np.int64(-1)):
        with pytest.raises(ValueError, match=chance):
            state.apply_action(minus_one)
        with pytest.raises(ValueError, match=chance):
            state.child(minus_one)
    with pytest.raises(TypeError):  # no integer: OpenSpiel's own TypeError, as before
        state.apply_action(-1.0)
    assert state.history() == [] and state.is_chance_node()
    assert state.child(7).history() == [7] and state.history() == []
    for card in range(40):
        state.apply_action(card)
    assert not state.is_chance_node()
    with pytest.raises(ValueError, match=r"^not an action id: -1 \(0\.\.77\)$"):
        state.apply_action(-1)
    assert len(state.history()) == 40
    state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 41


def test_openspiel_state_names_the_outcome_and_the_seat():
    """``action_to_string`` of a chance outcome that is no card raised "tuple index out of range",
    and ``own_cards(7)`` an IndexError."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    state = pyspiel.load_game(so.GAME_NAME).new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 39) == "deal AC"
    with pytest.raises(ValueError, match=r"chance outcome 99 is not a card"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 99)
    for card in range(40):
        state.apply_action(card)
    assert state.own_cards(1) is not None
    for seat, error in ((7, ValueError), (-1, ValueError), ("1", TypeError)):
        with pytest.raises(error, match=r"^player must be"):
            state.own_cards(seat)


@pytest.mark.parametrize("rules", PRESETS)
def test_openspiel_random_sim_with_serialization(rules):
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    game = pyspiel.load_game(so.GAME_NAME, {"rules": rules})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    match = pyspiel.load_game(so.GAME_NAME, {"rules": rules, "episode": "match", "max_rounds": 3})
    pyspiel.random_sim_test(match, num_sims=1, serialize=True, verbose=False)
    assert game.information_state_tensor_size() == so.INFO_SIZE
    assert game.observation_tensor_size() == 415


def test_openspiel_resample_keeps_the_information_state():
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    rng = random.Random(5)
    for rules in PRESETS:
        game = pyspiel.load_game(so.GAME_NAME, {"rules": rules})
        for _ in range(5):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                    continue
                player = state.current_player()
                sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
                other = state.resample_from_infostate(player, sampler)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.legal_actions() == state.legal_actions()
                state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_resample_where_no_round_is_in_play_says_so():
    """Before: ``ValueError: sample_deal needs a view of a round in play``, naming a function
    of this package's internals, at every chance node (dealing a round, the first or a later
    one) and at a terminal state."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.integrations import openspiel as so

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(8)

    def refused(state, where: str) -> None:
        with pytest.raises(
            ValueError,
            match=rf"^resample_from_infostate: no round in play at {where}, so no hidden cards to resample: "
            r"call it at a decision node, where a seat is to act$",
        ):
            state.resample_from_infostate(0, sampler)

    game = pyspiel.load_game(so.GAME_NAME, {"rules": "table", "episode": "match", "max_rounds": 2})
    state = game.new_initial_state()
    chance = r"a chance node \(the deck being dealt\)"
    refused(state, chance)
    rounds_dealt = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if len(state.chance_outcomes()) in (40, 20):  # before a deal, and half way through it
                refused(state, chance)
                rounds_dealt += len(state.chance_outcomes()) == 40
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert rounds_dealt == 2  # the second deal came between rounds, the first round over
    refused(state, "a terminal state")


def test_openspiel_ismcts_plays_with_resampling():
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from sobedesce.integrations import openspiel as so

    game = pyspiel.load_game(so.GAME_NAME, {"rules": "classic"})
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=15, random_state=rs)
    strong = so.SobeBot("strong:play_samples=8:exchange_samples=20:trump_samples=10", player_id=1, seed=2)
    others = [bot, strong, pyspiel.make_uniform_random_bot(2, 3), pyspiel.make_uniform_random_bot(3, 4)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), others, 7)
    assert len(returns) == 4


def test_openspiel_ismcts_in_the_arena():
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'")
    for rules in PRESETS:
        summary = run_arena(
            ["openspiel-ismcts:simulations=8", "basic", "openspiel-ismcts:seconds=0.005", "random"],
            rules,
            deals=1,
            seed=3,
            jobs=1,
        ).summary()
        assert summary["rounds"] == 4 and summary["bots"][0]["decisions"] > 0


def test_openspiel_bot_needs_its_extra(monkeypatch):
    monkeypatch.setitem(bots_module.LAZY_BOTS, "openspiel-ismcts", ("no_such_open_spiel_module", "X", "openspiel"))
    with pytest.raises(ValueError, match=r"pip install 'sobe-e-desce\[openspiel\]'"):
        make_bot("openspiel-ismcts")


# -- bring your own bot ----------------------------------------------------------------------


def test_example_bot_by_class_path_in_the_arena(example_on_path):
    bot = make_bot("mybot:GreedyBot:sit_below=2.5")
    assert bot.name == "greedy" and bot.sit_below == 2.5
    for rules in PRESETS:
        summary = run_arena(
            ["mybot:GreedyBot", "basic", "random", "mybot:GreedyBot:turn_up=false"], rules, 6, 2, jobs=1
        )
        names = [row["name"] for row in summary.summary()["bots"]]
        assert names[0] == "mybot:GreedyBot" and names[3] == "mybot:GreedyBot:turn_up=false"


def _plug_in(monkeypatch, name: str, target: str) -> None:
    """An installed package's entry point ``name = target`` in the group ``sobedesce.bots``."""
    real = importlib.metadata.entry_points

    def entry_points(**params):
        if params.get("group") == "sobedesce.bots":
            return [importlib.metadata.EntryPoint(name, target, "sobedesce.bots")]
        return real(**params)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_example_bot_by_entry_point(example_on_path, monkeypatch):
    _plug_in(monkeypatch, "greedy", "mybot:GreedyBot")
    assert make_bot("greedy:sit_below=0").sit_below == 0
    assert main(["arena", "--bots", "greedy,basic,basic,basic", "--deals", "3", "--jobs", "1", "--json"]) == 0


def test_bad_bot_names(example_on_path, capsys):
    for name, message in [
        ("nosuch", "unknown bot 'nosuch'"),
        ("no_such_pkg.mod:Bot", "cannot import module 'no_such_pkg.mod'"),
        ("mybot:NoSuchBot", "module 'mybot' has no 'NoSuchBot'"),
        ("sobedesce.core:Match", "breaks the bot protocol"),
        ("mybot:GreedyBot:depth=3", "has no setting 'depth'"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_bot(name)
        with pytest.raises(ArenaError, match=message):
            run_arena([name, "random", "random", "random"], deals=1, jobs=1)
    assert main(["arena", "--bots", "no_such_pkg.mod:Bot,random,random,random", "--deals", "1"]) == 2
    assert "no_such_pkg.mod" in capsys.readouterr().err


def test_a_plug_in_module_not_found_says_where_python_looks(tmp_path, monkeypatch, capsys):
    """Before, only Python's "No module named 'lowbot'": the usual cause, lowbot.py in the
    current directory, which the ``sobedesce`` command does not search, went unsaid."""
    hint = (
        r"; the module must be installed or on PYTHONPATH \(with {} in the current directory: PYTHONPATH=\. sobedesce"
    )
    with pytest.raises(ValueError, match=r"No module named 'lowbot'" + hint.format(r"lowbot\.py")):
        make_bot("lowbot:LowBot")
    with pytest.raises(ValueError, match=r"No module named 'no_such_pkg'" + hint.format("a no_such_pkg/ package")):
        make_bot("no_such_pkg.mod:Bot")
    assert main(["arena", "--bots", "lowbot:LowBot,random,random,random", "--deals", "1"]) == 2
    assert "must be installed or on PYTHONPATH" in capsys.readouterr().err
    # Not when the module is found and what it imports is not: that is no matter of PYTHONPATH.
    (tmp_path / "brokenbot.py").write_text("import no_such_dependency\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"No module named 'no_such_dependency'$"):
        make_bot("brokenbot:Bot")
    with pytest.raises(ValueError, match=r"No module named 'sobedesce\.no_such'$"):
        make_bot("sobedesce.no_such:Bot")


class Crasher:
    """Raises in its first play of each round."""

    name = "crasher"

    def act(self, view, rng):
        if view.phase == Phase.PLAY:
            raise RuntimeError("out of cheese")
        return view.legal_actions[0]

    def explain(self, view, rng):
        return []


class Cheat(Crasher):
    name = "cheat"

    def act(self, view, rng):
        from sobedesce.core import SitOut

        return SitOut() if view.phase == Phase.EXCHANGE else view.legal_actions[0]


class NoExplain:
    name = "noexplain"

    def act(self, view, rng):
        return view.legal_actions[0]


def test_failing_bots_are_named_and_the_other_games_go_on(monkeypatch, capsys):
    module = sys.modules[__name__]
    monkeypatch.setitem(sys.modules, "byob_fixtures", module)
    with pytest.raises(BotFailure, match=r"byob_fixtures:Crasher.*raised RuntimeError: out of cheese") as caught:
        run_arena(["byob_fixtures:Crasher", "basic", "basic", "basic"], "table", deals=4, seed=1, jobs=1)
    failure = caught.value
    assert failure.result is not None and failure.result.rounds == 16
    assert 0 < len(failure.errors) <= 16 and all("byob_fixtures:Crasher" in line for line in failure.errors)
    with pytest.raises(BotFailure, match=r"'byob_fixtures:Cheat'.*broke the rules.*illegal"):
        run_arena(["byob_fixtures:Cheat", "random", "random", "random"], "classic", deals=6, seed=1, jobs=1)
    code = main(["arena", "--bots", "byob_fixtures:Cheat,random,random,random", "--deals", "6", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 1 and "per bot" in out and "byob_fixtures:Cheat" in err and "Traceback" not in err
    with pytest.raises(ValueError, match=r"^bot 'byob_fixtures:NoExplain' breaks the bot protocol: it lacks explain"):
        make_bot("byob_fixtures:NoExplain")


class Tuned(NoExplain):
    """A plug-in whose settings are spelt in its own way."""

    name = "tuned"

    def __init__(self, maxDepth: int = 2, mode: str = "Fast", greedy: bool = False) -> None:
        self.maxDepth = maxDepth
        self.mode = mode
        self.greedy = greedy

    def explain(self, view, rng):
        return []


def test_a_plugins_settings_keep_their_spelling(monkeypatch):
    """A plug-in's keyword arguments and string values are its own: before, the whole name was
    lower-cased, so ``maxDepth=3`` was refused (no setting 'maxdepth') and ``mode=Slow`` became
    'slow'.  ``true``, ``false`` and ``none`` are read in any case."""
    monkeypatch.setitem(sys.modules, "byob_fixtures", sys.modules[__name__])
    bot = make_bot("byob_fixtures:Tuned:maxDepth=3:mode=Slow:greedy=TRUE")
    assert (bot.maxDepth, bot.mode, bot.greedy) == (3, "Slow", True)
    assert bots_module.bot_key(" byob_fixtures:Tuned:mode=Slow ") == "byob_fixtures:Tuned:mode=Slow"
    assert bots_module.bot_key("Strong:Play_Samples=7") == "strong:play_samples=7"
    summary = run_arena(["byob_fixtures:Tuned:maxDepth=3:mode=Slow", "random", "random", "random"], deals=1, jobs=1)
    assert summary.summary()["bots"][0]["name"] == "byob_fixtures:Tuned:maxDepth=3:mode=Slow"
    with pytest.raises(ValueError, match=r"has no setting 'maxdepth'"):
        make_bot("byob_fixtures:Tuned:maxdepth=3")
    # The same by an entry point's name (which is read in any case).
    _plug_in(monkeypatch, "tuned", "byob_fixtures:Tuned")
    bot = make_bot("Tuned:maxDepth=4:mode=Slow")
    assert (bot.maxDepth, bot.mode) == (4, "Slow")
    assert bots_module.bot_key("Tuned:maxDepth=4") == "tuned:maxDepth=4"
    summary = run_arena(["Tuned:mode=Slow", "random", "random", "random"], deals=1, jobs=1)
    assert summary.summary()["bots"][0]["name"] == "tuned:mode=Slow"


class Weighed(NoExplain):
    """A plug-in with a setting of each kind, and a constructor that can fail."""

    name = "weighed"

    def __init__(self, depth: int = 2, w: float = 0.5, limit: float | None = None, fail: bool = False) -> None:
        if fail:
            raise ValueError("bad init")
        self.depth, self.w, self.limit = depth, w, limit

    def explain(self, view, rng):
        return []


class BadInit(Weighed):
    def __init__(self) -> None:
        raise ValueError("bad init")


def test_the_loaders_messages_say_what_is_wrong(monkeypatch, capsys):
    """Before: a constructor that raised with no settings given was reported as "bad settings",
    ``mod:lowercase`` as a mere unknown bot, ``limit=abc`` for a setting whose default is None
    as "expected a value like None", a bot breaking the protocol by class path unquoted, a
    setting given twice was taken as the last silently, and ``w=3`` for a float arrived as 3."""
    monkeypatch.setitem(sys.modules, "byob_fixtures", sys.modules[__name__])
    with pytest.raises(ValueError, match=r"^bot 'byob_fixtures:BadInit' cannot be made: ValueError: bad init$"):
        make_bot("byob_fixtures:BadInit")
    with pytest.raises(ValueError, match=r"^bad settings for bot 'byob_fixtures:Weighed': bad init$"):
        make_bot("byob_fixtures:Weighed:fail=true")
    with pytest.raises(
        ValueError,
        match=r"^unknown bot 'byob_fixtures:weighed': a class name after the colon starts with a capital "
        r"\('byob_fixtures:Weighed'\?\); the known bots: random, .*; in the arena also oracle$",
    ):
        make_bot("byob_fixtures:weighed")
    # A capital is offered only where the module has it: it has no WeighedBot, os no Getcwd.
    with pytest.raises(
        ValueError, match=r"'byob_fixtures:weighedBot:depth=3': a class name after the colon starts with a capital; "
    ):
        make_bot("byob_fixtures:weighedBot:depth=3")
    with pytest.raises(
        ValueError, match=r"^unknown bot 'os:getcwd': a class name after the colon starts with a capital; "
    ):
        make_bot("os:getcwd")
    # Settings after a built-in name, or after a plug-in's entry point name, read as before.
    assert make_bot("strong:equity=0").equity == 0
    _plug_in(monkeypatch, "weighed", "byob_fixtures:Weighed")
    assert make_bot("weighed:depth=3").depth == 3
    with pytest.raises(ValueError, match=r"^bad bot setting 'fast' in 'weighed:fast': write name:setting=value$"):
        make_bot("weighed:fast")
    with pytest.raises(
        ValueError, match=r"^bad settings for bot 'byob_fixtures:Weighed': limit=abc \(expected none or a number\)$"
    ):
        make_bot("byob_fixtures:Weighed:limit=abc")
    assert make_bot("byob_fixtures:Weighed:limit=none").limit is None
    assert make_bot("byob_fixtures:Weighed:limit=2.5").limit == 2.5
    with pytest.raises(ValueError, match=r"fail=3 \(expected true or false\)$"):
        make_bot("byob_fixtures:Weighed:fail=3")
    with pytest.raises(
        ValueError,
        match=r"^bad settings for bot 'byob_fixtures:Weighed': depth is set twice in "
        r"'byob_fixtures:Weighed:depth=1:depth=2'; set it once$",
    ):
        make_bot("byob_fixtures:Weighed:depth=1:depth=2")
    with pytest.raises(ValueError, match=r"^bad settings for bot 'strong': equity is set twice"):
        make_bot("strong:equity=0:Equity=1")
    assert make_bot("expert:deadline=0.5").deadline == 0.5  # a level's own setting is no repeat
    bot = make_bot("byob_fixtures:Weighed:w=3:depth=4")
    assert type(bot.w) is float and bot.w == 3.0 and type(bot.depth) is int
    assert type(make_bot("strong:equity=1").equity) is float
    for name, message in [
        ("byob_fixtures:BadInit", "bot 'byob_fixtures:BadInit' cannot be made: ValueError: bad init"),
        ("byob_fixtures:NoExplain", "bot 'byob_fixtures:NoExplain' breaks the bot protocol"),
        ("byob_fixtures:Weighed:depth=1:depth=1", "bad settings for bot 'byob_fixtures:Weighed': depth is set twice"),
    ]:
        assert main(["arena", "--bots", f"{name},random,random,random", "--deals", "1", "--jobs", "1"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"sobedesce arena: error: {message}") and err.count("\n") == 1, err


def test_a_bot_name_is_a_string():
    """Before: ``TypeError: expected string or bytes-like object, got 'NoneType'`` from a regex."""
    for name in (None, 5, ["basic"]):
        with pytest.raises(TypeError, match=r"^a bot name is a string"):
            make_bot(name)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^a bot name is a string"):
            bots_module.bot_key(name)  # type: ignore[arg-type]


def test_openspiel_bots_refuse_bad_settings_when_made():
    """Before, ``rollouts=0`` was taken and every decision then failed inside OpenSpiel
    (``unsupported operand type(s) for /: 'NoneType' and 'int'``), ``seconds=inf`` searched
    without end, ``seconds=nan`` and a negative ``uct_c`` were taken, and ``SobeBot`` took any
    ``player_id`` (failing only at its first step)."""
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'")
    from sobedesce.integrations.openspiel import ISMCTSPeer, SobeBot

    for settings, error, message in [
        ({"rollouts": 0}, ValueError, r"^rollouts must be at least 1, not 0$"),
        ({"rollouts": -2}, ValueError, r"^rollouts must be at least 1"),
        ({"simulations": 0}, ValueError, r"^simulations must be at least 1, not 0$"),
        ({"simulations": "3"}, TypeError, r"^simulations must be a whole number, not '3'$"),
        ({"seconds": float("inf")}, ValueError, r"^seconds must be positive or none, not inf$"),
        ({"seconds": float("nan")}, ValueError, r"^seconds must be positive or none, not nan$"),
        ({"seconds": 0}, ValueError, r"^seconds must be positive or none, not 0$"),
        ({"seconds": "1"}, TypeError, r"^seconds must be a number of seconds or none"),
        ({"uct_c": -1.0}, ValueError, r"^uct_c \(the exploration constant\) must be 0 or more, not -1.0$"),
        ({"uct_c": float("nan")}, ValueError, r"^uct_c \(the exploration constant\) must be 0 or more"),
    ]:
        with pytest.raises(error, match=message):
            ISMCTSPeer(**settings)
    with pytest.raises(ValueError, match=r"^bad settings for bot 'openspiel-ismcts': rollouts must be at least 1"):
        make_bot("openspiel-ismcts:rollouts=0")
    with pytest.raises(ArenaError, match=r"rollouts must be at least 1"):
        run_arena(["openspiel-ismcts:rollouts=0", "random", "random", "random"], deals=1, jobs=1)
    assert ISMCTSPeer(seconds=0.01, uct_c=0).uct_c == 0
    for player_id, error in ((4, ValueError), (-1, ValueError), ("0", TypeError), (True, TypeError)):
        with pytest.raises(error, match=r"^player_id must be"):
            SobeBot("basic", player_id)  # type: ignore[arg-type]
    assert SobeBot("basic", 3).player_id == 3


def test_openspiel_plays_a_variant_by_its_own_rules():
    """A rule variant (``Rules.from_spec``) is a game of its own: before, ``state_from_view``
    loaded the game by the variant's preset name, so ``openspiel-ismcts`` searched under the
    preset and chose, in ``classic`` with ``min_discard=2``, to discard nothing (illegal)."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from sobedesce.core import Exchange, Rules
    from sobedesce.integrations.openspiel import GAME_NAME, ISMCTSPeer, rules_param

    variant = Rules.from_spec({"preset": "classic", "min_discard": 2, "doubled_multiplier": 3})
    assert rules_param(variant) == "classic/min_discard:2/doubled_multiplier:3"
    assert rules_param(Rules.from_spec("table")) == "table"
    game = pyspiel.load_game(GAME_NAME, {"rules": rules_param(variant)})
    assert game.rules == variant and pyspiel.load_game(str(game)).rules == variant
    assert (game.min_utility(), game.max_utility()) == (-15.0, 15.0)  # the multiplier is 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    for text, message in [("classic/min_discard", "write PRESET/setting:value"), ("classic/bogus:1", "bogus")]:
        with pytest.raises(ValueError, match=message):
            pyspiel.load_game(GAME_NAME, {"rules": text})
    bot = ISMCTSPeer(simulations=20)
    for seed in range(3):
        match = Match(variant)
        match.deal(rng=random.Random(seed), dealer=0)
        rng = random.Random(seed)
        while match.phase != Phase.PLAY and match.current_seat is not None:
            action = bot.act(seat_view(match, match.current_seat), rng)
            assert action in match.legal_actions()
            assert not isinstance(action, Exchange) or len(action.discard) >= 2
            match.apply(action)


class NamedWhenMade:
    """Names itself in ``__init__``, as the ``Bot`` protocol allows (an instance attribute)."""

    def __init__(self, tag: str = "a") -> None:
        self.name = f"named-{tag}"

    def act(self, view, rng):
        return view.legal_actions[0]

    def explain(self, view, rng):
        return []


class NamedByProperty(NamedWhenMade):
    @property  # type: ignore[override]
    def name(self) -> str:
        return "by-property"

    @name.setter
    def name(self, value: str) -> None:
        pass


class NamedNot(NamedWhenMade):
    def __init__(self) -> None:
        pass


class NeedsAGpu(NamedWhenMade):
    def __init__(self) -> None:
        raise RuntimeError("no GPU found")


def test_a_bots_name_may_be_set_when_it_is_made(monkeypatch, capsys):
    """The protocol asks for a ``name`` (docs/bots.md: "a class attribute is fine"), and
    ``isinstance(bot, Bot)`` holds for one set in ``__init__``; before, such a bot (or one whose
    name is a property) was refused as lacking a name.  A bot with no name at all still is, and
    a plug-in whose constructor fails is refused with its error, not a traceback."""
    from sobedesce.bots import Bot

    monkeypatch.setitem(sys.modules, "byob_fixtures", sys.modules[__name__])
    assert isinstance(NamedWhenMade(), Bot)
    assert make_bot("byob_fixtures:NamedWhenMade:tag=x").name == "named-x"
    assert make_bot("byob_fixtures:NamedByProperty").name == "by-property"
    summary = run_arena(["byob_fixtures:NamedWhenMade", "random", "random", "random"], deals=1, jobs=1)
    assert summary.rounds == 4
    with pytest.raises(ValueError, match=r"'byob_fixtures:NamedNot' breaks the bot protocol: it lacks name"):
        make_bot("byob_fixtures:NamedNot")
    with pytest.raises(ValueError, match=r"'byob_fixtures:NeedsAGpu' cannot be made: RuntimeError: no GPU found"):
        make_bot("byob_fixtures:NeedsAGpu")
    assert main(["arena", "--bots", "byob_fixtures:NeedsAGpu,random,random,random", "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert "no GPU found" in err and "Traceback" not in err


def test_state_from_view_needs_a_round_in_play():
    """Before, a view before the first deal failed an ``assert`` and a string an AttributeError."""
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'")
    from sobedesce.integrations.openspiel import state_from_view

    match = Match("classic")
    with pytest.raises(
        ValueError, match=r"^state_from_view needs a view of a round in play, not one in the deal phase$"
    ):
        state_from_view(seat_view(match, 0), random.Random(1))
    with pytest.raises(TypeError, match=r"^state_from_view needs a SeatView, not 'x'$"):
        state_from_view("x", random.Random(1))  # type: ignore[arg-type]
    match.deal(rng=random.Random(1), dealer=0)
    state = state_from_view(seat_view(match, 1), random.Random(1))
    assert state.current_player() == 1 and state.match.round.hand(1) == match.round.hand(1)


def test_openspiel_ismcts_is_reproducible_by_seed():
    """The arena promises the same results for the same seed; before, ``openspiel-ismcts``
    resampled deals with OpenSpiel's unseeded sampler, so the same view and seed gave other
    searches (and other decisions) on every call."""
    pytest.importorskip("pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'")
    from sobedesce.integrations.openspiel import ISMCTSPeer

    bot = ISMCTSPeer(simulations=40)
    match = Match("classic")
    match.deal(rng=random.Random(5), dealer=0)
    rng = random.Random(5)
    checked = 0
    while match.current_seat is not None and checked < 6:
        view = seat_view(match, match.current_seat)
        if len(view.legal_actions) > 1:
            searches = [[(o.action, o.note) for o in bot.explain(view, random.Random(checked))] for _ in range(3)]
            assert searches[0] == searches[1] == searches[2]
            checked += 1
        match.apply(bot.act(view, rng))
    runs = [
        list(
            run_arena(
                ["openspiel-ismcts:simulations=8", "basic", "random", "basic"], deals=1, seed=4, jobs=1
            ).round_deltas(0)
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_openspiel_public_observation_leaves_the_hand_out():
    """Asked for a public observation (``private_info=NONE``), the observer gave the seat's
    hand and discards all the same; ``ALL_PLAYERS`` (every hand) was answered with one seat's."""
    pyspiel = pytest.importorskip(
        "pyspiel", reason="needs the [openspiel] extra: pip install 'sobe-e-desce[openspiel]'"
    )
    from open_spiel.python.observation import make_observation

    from sobedesce.integrations._encoding import OBS_SLOTS
    from sobedesce.integrations.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME, {"rules": "classic"})
    state = game.new_initial_state()
    rng = random.Random(3)
    while len(state.history()) < 52:  # the deal, trump and the exchanges under way
        outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(outcomes))
    kind = pyspiel.IIGObservationType
    public = make_observation(
        game, kind(perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    private = make_observation(game)
    hand, discards = OBS_SLOTS["hand"], OBS_SLOTS["my_discards"]
    for seat in range(4):
        public.set_from(state, seat)
        private.set_from(state, seat)
        assert private.tensor[hand[0] : hand[0] + hand[1]].sum() > 0
        assert public.tensor[: hand[1] + discards[1]].sum() == 0
        rest = hand[1] + discards[1]
        assert (public.tensor[rest:] == private.tensor[rest:]).all()
        assert " hand - " in public.string_from(state, seat)
        hidden = [str(c) for c in state.match.round.hand(seat)]
        assert not any(card in public.string_from(state, seat).split() for card in hidden)
    for perfect_recall, private_info in (
        (False, pyspiel.PrivateInfoType.ALL_PLAYERS),
        (True, pyspiel.PrivateInfoType.NONE),
    ):
        with pytest.raises(ValueError, match=GAME_NAME):
            make_observation(game, kind(perfect_recall=perfect_recall, public_info=True, private_info=private_info))
