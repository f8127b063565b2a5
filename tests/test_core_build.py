"""What both builds of the core (pure, and compiled by mypyc) must keep: pickling through the
constructors, finished rounds that the garbage collector no longer tracks, the same decks."""

from __future__ import annotations

import gc
import pickle
import random

import pytest

from sobedesce.core import (
    CARDS,
    CLASSIC,
    SIT_OUT,
    TABLE,
    TURN_UP,
    Exchange,
    IllegalActionError,
    Match,
    NameTrump,
    Play,
    Round,
    Rules,
    seat_view,
)
from sobedesce.core.game import shuffled_deck


def _play_rounds(rules: str, count: int, seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(rules)
    for _ in range(count):
        if match.is_over:
            break
        match.deal(rng=rng)
        while legal := match.legal_actions():
            match.apply(rng.choice(legal))
    return match


@pytest.mark.parametrize(
    "value",
    [NameTrump.of("H"), TURN_UP, SIT_OUT, Exchange.of("2C 3C"), Exchange.of(""), Play.of("AS"), CLASSIC, TABLE],
)
def test_actions_and_rules_pickle_to_equal_values(value: object) -> None:
    again = pickle.loads(pickle.dumps(value))
    assert again == value and type(again) is type(value)


def test_exchange_pickles_with_its_mask_and_order() -> None:
    action = Exchange.of("3C 2C")
    again = pickle.loads(pickle.dumps(action))
    assert again.discard == action.discard and again.mask == action.mask


def test_custom_rules_pickle() -> None:
    rules = Rules.from_spec({"preset": "table", "min_discard": 2})
    assert pickle.loads(pickle.dumps(rules)) == rules


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_matches_rounds_and_views_pickle_in_play_and_finished(rules: str) -> None:
    rng = random.Random(5)
    match = _play_rounds(rules, 3, 5)
    if not match.is_over:
        match.deal(rng=rng)
        for _ in range(7):  # into the play phase, a trick under way
            legal = match.legal_actions()
            if not legal:
                break
            match.apply(rng.choice(legal))
    again = pickle.loads(pickle.dumps(match))
    assert again.scores == match.scores and again.phase == match.phase
    assert [r.tricks for r in again.rounds] == [r.tricks for r in match.rounds]
    assert [r.exchanges for r in again.rounds] == [r.exchanges for r in match.rounds]
    assert list(again.legal_actions()) == list(match.legal_actions())
    seat = match.current_seat if match.current_seat is not None else 0
    view = seat_view(match, seat)
    assert pickle.loads(pickle.dumps(view)).hand == view.hand
    finished = match.rounds[0]
    assert pickle.loads(pickle.dumps(finished)).deltas == finished.deltas


def _tracked_containers(value: object) -> list[object]:
    return [x for x in gc.get_referents(value) if isinstance(x, (list, tuple, dict)) and gc.is_tracked(x)]


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_finished_rounds_hold_no_containers_the_collector_tracks(rules: str) -> None:
    match = _play_rounds(rules, 40, 11)
    gc.collect()
    gc.collect()
    finished = [r for r in match.rounds if r.is_over]
    assert finished
    for current in finished:
        assert _tracked_containers(current) == [], current
        # ... and they still answer in cards and actions.
        assert all(type(card) is type(CARDS[0]) for trick in current.tricks for card in trick)
        assert current.deck is not None and sorted(current.deck) == list(CARDS)
        assert all(a is SIT_OUT or isinstance(a, Exchange) for a in current.exchanges)


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_a_finished_round_keeps_at_most_five_containers_of_its_own_the_collector_tracks(rules: str) -> None:
    # Before any collection, too: a new tuple is tracked until the first collection that sees
    # it, and each counts towards the next one; what can be ``bytes`` (counts, seats, cards) is.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        match = _play_rounds(rules, 12, 13)
        finished = [r for r in match.rounds if r.is_over]
        assert len(finished) >= 2
        shared = {id(x) for x in _tracked_containers(finished[0])} & {id(x) for x in _tracked_containers(finished[1])}
        for current in finished:
            own = [x for x in _tracked_containers(current) if id(x) not in shared]
            # The scores and sit-out streaks before the round, the hands, the exchanges, the deltas.
            assert len(own) <= 5, own
    finally:
        if was_enabled:
            gc.enable()


def test_a_finished_round_keeps_the_decisions_it_was_given() -> None:
    rng = random.Random(2)
    match = Match("classic")
    match.deal(rng=rng, dealer=0)
    match.apply(NameTrump.of("S"))
    given = []
    while match.phase.label == "exchange":
        legal = match.legal_actions()
        action = legal[len(legal) - 1]  # the largest discard
        given.append(action)
        match.apply(action)
    current = match.round
    assert current is not None
    while legal := match.legal_actions():
        match.apply(legal[0])
    assert current.is_over
    assert current.exchanges == tuple(given)
    assert [a.discard for a in current.exchanges if isinstance(a, Exchange)] == [
        a.discard for a in given if isinstance(a, Exchange)
    ]


def _reference_deck(rng: random.Random) -> list[object]:
    """The deck as defined: the Lehmer code of 256 bits, one divmod a card."""
    code = rng.getrandbits(256)
    deck: list[object] = list(CARDS)
    for i in range(39, 0, -1):
        code, j = divmod(code, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_shuffle_is_the_lehmer_code_of_its_256_bits() -> None:
    for seed in range(500):
        assert shuffled_deck(random.Random(seed)) == _reference_deck(random.Random(seed))


def test_rounds_are_built_blank_only_inside_the_core() -> None:
    current = Round(CLASSIC, 0, CARDS)
    copied = current.copy()
    assert copied.deck == current.deck and copied.hands == current.hands and copied is not current


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_a_card_is_refused_outside_the_play_phase_with_the_phase_s_reason(rules: str) -> None:
    match = Match(rules)
    current = match.deal(rng=random.Random(4), dealer=0)
    held = current.hand(current.chooser)[0]
    with pytest.raises(IllegalActionError, match="cannot play now: seat 1 is to choose trump"):
        match.apply(Play.of(held))
    match.apply(NameTrump.of("S"))
    with pytest.raises(IllegalActionError, match="cannot play now: seat 1 is to play or sit out"):
        match.apply(Play.of(held))
    while legal := match.legal_actions():
        match.apply(legal[-1])
    with pytest.raises(IllegalActionError, match="the round is over"):
        current.apply(Play.of(held))


def test_the_deal_gives_each_seat_the_cards_at_its_packet_positions() -> None:
    from sobedesce.core.logic import dealt_hands, first_packets, packet_indices, second_packets

    deck = [int(card) for card in shuffled_deck(random.Random(8))]
    for chooser in range(4):
        first, second = first_packets(deck, chooser), second_packets(deck, chooser)
        for seat in range(4):
            first_at, second_at = packet_indices(seat, chooser)
            assert first[seat] == sum(1 << deck[p] for p in first_at)
            assert second[seat] == sum(1 << deck[p] for p in second_at)
        assert dealt_hands(deck, chooser) == [first[s] | second[s] for s in range(4)]
