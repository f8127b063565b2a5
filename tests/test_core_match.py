"""The match through the engine's API: dealing order, scoring (RULES.md §3.7, §3.8) and riscos (§5)."""

from __future__ import annotations

import json
import random

import pytest

from helpers import build_deck, split
from sobedesce.core import (
    Card,
    Exchange,
    IllegalActionError,
    Match,
    NameTrump,
    Phase,
    Play,
    SitOut,
    Suit,
    check_deck,
    dumps_record,
    read_record,
    riscos_for,
    seat_view,
)


def _deck(dealer: int, hands: dict[int, str] | None = None) -> list[Card]:
    return [Card.parse(c) for c in build_deck(dealer, hands or {})]


def test_riscos_classic_text_example() -> None:
    assert riscos_for([0, 11, 2, 5], [0]) == [18, -11, -2, -5]


def test_riscos_shared_win_is_a_fraction() -> None:
    got = riscos_for([-1, 0, 20, 7], [0, 1])
    assert got == [13.5, 13.5, -20, -7]
    assert sum(got) == 0


def test_riscos_three_winners() -> None:
    got = riscos_for([0, -2, 0, 10], [0, 1, 2])
    assert got == pytest.approx([10 / 3, 10 / 3, 10 / 3, -10])


def test_riscos_winner_below_zero_gains_only_the_losers_total() -> None:
    assert riscos_for([-7, 3, 4, 5], [0]) == [12, -3, -4, -5]


def _lone(match: Match, dealer: int, trump: str, alone: int) -> None:
    """A round where only ``alone`` plays (everyone else sits out)."""
    match.deal(_deck(dealer), dealer=dealer)
    match.apply(NameTrump(Suit.parse(trump)))
    for offset in range(4):
        seat = (dealer + 1 + offset) % 4
        match.apply(Exchange(()) if seat == alone else SitOut())


def test_lone_player_scores_five_tricks_times_multiplier() -> None:
    match = Match("classic")
    _lone(match, 3, "S", 0)
    assert match.scores == (15, 20, 20, 20)
    _lone(match, 0, "C", 1)
    assert match.scores == (15, 10, 20, 20)
    assert match.phase == Phase.DEAL
    assert match.next_dealer == 1


def test_dealer_must_be_the_next_seat() -> None:
    match = Match("classic")
    _lone(match, 3, "S", 0)
    with pytest.raises(IllegalActionError):
        match.deal(_deck(2), dealer=2)
    match.deal(_deck(0), dealer=0)
    assert match.round is not None and match.round.chooser == 1


def test_no_deal_while_a_round_is_being_played() -> None:
    match = Match("table")
    match.deal(_deck(0), dealer=0)
    with pytest.raises(IllegalActionError):
        match.deal(_deck(1), dealer=1)


def test_match_ends_when_a_score_reaches_zero_and_refuses_more() -> None:
    match = Match("classic", scores=[20, 4, 20, 20])
    _lone(match, 0, "S", 1)
    assert match.is_over and match.winners == (1,)
    assert match.phase == Phase.MATCH_OVER
    assert match.riscos() == [-20, 60, -20, -20]
    with pytest.raises(IllegalActionError):
        match.deal(_deck(1), dealer=1)
    with pytest.raises(IllegalActionError):
        match.apply(NameTrump(Suit.SPADES))


def test_table_void_round_changes_nothing_but_counts_as_sitting_out() -> None:
    match = Match("table")
    for dealer in (3, 0):
        match.deal(_deck(dealer), dealer=dealer)
        match.apply(NameTrump(Suit.SPADES))
        for _ in range(4):
            match.apply(SitOut())
        assert match.scores == (20, 20, 20, 20)
        assert match.phase == Phase.DEAL
    match.deal(_deck(1), dealer=1)
    match.apply(NameTrump(Suit.SPADES))
    for _ in range(4):
        assert SitOut() not in match.legal_actions()
        with pytest.raises(IllegalActionError):
            match.copy().apply(SitOut())
        seat = match.current_seat
        assert seat is not None
        first = seat_view(match, seat).hand[0]
        match.apply(Exchange((first,)))


def test_two_player_round_scores_from_tricks() -> None:
    """classic, Spades: seat 0 wins 3 tricks (-3), seat 1 wins 2 (-2); seats 2, 3 sit out."""
    match = Match("classic")
    match.deal([Card.parse(c) for c in build_deck(3, {0: "AH 7H KH 2C 3C", 1: "2H 3H AC 7C KD"})], dealer=3)
    match.apply(NameTrump(Suit.SPADES))
    for action in (Exchange(()), Exchange(()), SitOut(), SitOut()):
        match.apply(action)
    for card in split("AH 2H 7H 3H KH KD 2C AC 7C 3C"):
        match.apply(Play.of(card))
    assert match.scores == (17, 18, 20, 20)


def test_check_deck() -> None:
    deck = _deck(0)
    check_deck(deck)
    with pytest.raises(ValueError):
        check_deck(deck[:39])
    with pytest.raises(ValueError):
        check_deck([*deck[:39], deck[0]])


def test_copy_is_independent() -> None:
    match = Match("classic")
    match.deal(rng=random.Random(5))
    clone = match.copy()
    clone.apply(clone.legal_actions()[0])
    assert match.phase == Phase.TRUMP
    assert clone.phase == Phase.EXCHANGE


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"players": ["Ana", "Bruno", "Carla"]}, ValueError, r"^players: must be four names"),
        ({"players": [1, 2, 3, 4]}, ValueError, r"^players: must be four names"),
        ({"players": "Ana"}, ValueError, r"^players: must be four names"),
        (
            {"players": ["A" * 1001, "b", "c", "d"]},
            ValueError,
            r"^players\[0\]: a name of 1,001 characters: at most 1,000",
        ),
        ({"scores": [20, 20, 20]}, ValueError, r"^scores: must hold four scores"),
        ({"scores": [20, 20, 20, 20, 20]}, ValueError, r"^scores: must hold four scores"),
        ({"scores": [20, "20", 20, 20]}, TypeError, r"^scores\[1\]: must be a whole number, not '20'"),
        ({"scores": [20, 20, 20.0, 20]}, TypeError, r"^scores\[2\]: must be a whole number"),
        ({"scores": 20}, TypeError, r"^scores: must hold four scores"),
        # Of hundreds of digits, the match's riscos (a float share of the scores) overflowed.
        (
            {"scores": [20, 10**400, 20, 20]},
            ValueError,
            r"^scores\[1\]: must be -1000000000 to 1000000000, not a number of 401 digits$",
        ),
        ({"scores": [-(10**9) - 1, 20, 20, 20]}, ValueError, r"^scores\[0\]: must be -1000000000 to 1000000000"),
        ({"sat_out_before": [0, -1, 0, 0]}, ValueError, r"^sat_out_before\[1\]: must be 0 to 2, not -1$"),
        ({"sat_out_before": [0, 0, 0, 5]}, ValueError, r"^sat_out_before\[3\]: must be 0 to 2, not 5$"),
        ({"sat_out_before": [0, 0, 0]}, ValueError, r"^sat_out_before: must hold four counts"),
        ({"sat_out_before": [0, 0, True, 0]}, TypeError, r"^sat_out_before\[2\]: must be a whole number"),
    ],
)
def test_match_checks_its_arguments_as_the_record_reader_does(arguments, error, message) -> None:
    """A match refuses what a record could not hold, worded as read_record words it."""
    with pytest.raises(error, match=message):
        Match("classic", **arguments)


def test_a_match_from_good_arguments_writes_a_record_that_reads_back() -> None:
    match = Match(
        "classic", players=("Ana", "Bruno", "Carla", "Duarte"), scores=[3, 20, 9, 1], sat_out_before=[2, 0, 1, 0]
    )
    again = read_record(dumps_record(match))
    assert (again.players, again.initial_scores, again.initial_streaks) == (
        ("Ana", "Bruno", "Carla", "Duarte"),
        (3, 20, 9, 1),
        (2, 0, 1, 0),
    )
    with pytest.raises(ValueError, match="players: must be four names"):
        match.players = ["Ana"]


# Compiled by mypyc, a method checks its arguments' declared types itself, and says so first.
NOT_AN_ACTION = r"^apply needs an action \(a NameTrump, TurnUp, SitOut, Exchange or Play|Action object expected"


def test_apply_and_deal_name_the_type_they_need() -> None:
    match = Match("classic")
    for nothing in ("S", None, 3):  # before the first deal, and with a round in play
        with pytest.raises(TypeError, match=NOT_AN_ACTION):
            match.apply(nothing)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rng must be a random\.Random, not 5"):
        match.deal(rng=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"deck must be a sequence of the 40 cards"):
        match.deal((card for card in _deck(0)), dealer=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"dealer must be a seat, an int 0-3, not '0'|int or None object expected"):
        match.deal(_deck(0), dealer="0")  # type: ignore[arg-type]
    assert match.phase == Phase.DEAL and not match.rounds
    match.deal(_deck(0), dealer=0)
    for nothing in ("S", None, Suit.SPADES):
        with pytest.raises(TypeError, match=NOT_AN_ACTION):
            match.apply(nothing)  # type: ignore[arg-type]
    assert match.phase == Phase.TRUMP and match.current_seat == 1


# -- the seat, the trick, the deck and the rules, checked as the rest of the core ------------


def _played_round(seed: int) -> Match:
    match = Match("classic")
    match.deal(rng=random.Random(seed), dealer=0)
    rng = random.Random(seed + 1)
    while legal := match.legal_actions():
        match.apply(rng.choice(legal))
    return match


def test_seat_view_checks_its_seat_as_the_round_does() -> None:
    """``seat_view`` had its own wording ("seat must be 0-3"); it says what ``Round.hand`` says."""
    match = _played_round(3)
    current = match.round
    assert current is not None
    for call in (lambda seat: seat_view(match, seat), current.hand):
        for seat in (-1, 4):
            with pytest.raises(ValueError, match=rf"^seat: must be 0 to 3, not {seat}$"):
                call(seat)
        # (Compiled by mypyc, the function's own check of an argument that is no int says it first.)
        for seat in ("0", 1.0, None):
            with pytest.raises(TypeError, match=rf"^seat: must be a whole number 0 to 3, not {seat!r}$|int object"):
                call(seat)
    assert type(seat_view(match, True).seat) is int


def test_trick_seats_and_winner_name_the_trick_they_need() -> None:
    """Before the first trick ``trick_seats(0)`` raised a bare IndexError, ``trick_winner(-1)`` too
    ("list index out of range") and ``trick_winner("a")`` a TypeError comparing a str with an int;
    a negative index of a round in play counted from the end."""
    match = Match("classic")
    current = match.deal(rng=random.Random(3), dealer=0)
    with pytest.raises(ValueError, match=r"^index: must be a trick of this round so far \(none yet\), not 0$"):
        current.trick_seats(0)
    assert current.trick_winner(0) is None
    for call in (current.trick_seats, current.trick_winner):
        for index in (-1, 5):
            with pytest.raises(ValueError, match=rf"^index: must be 0 to 4, not {index}$"):
                call(index)
        with pytest.raises(TypeError, match=r"^index: must be a whole number 0 to 4, not 'a'$|int object"):
            call("a")  # type: ignore[arg-type]
    finished = _played_round(3).round
    assert finished is not None and finished.is_over
    played = len(finished.leaders)
    assert played and all(finished.trick_winner(k) in finished.trick_seats(k) for k in range(played))
    if played < 5:
        with pytest.raises(ValueError, match=rf"^index: must be a trick of this round so far \(0 to {played - 1}\)"):
            finished.trick_seats(played)


def test_check_deck_names_what_is_no_deck() -> None:
    """``check_deck(5)`` raised "'int' object is not iterable"; compiled by mypyc, ``Round(rules, 0,
    5)`` raised "union[str, bytes] object expected; got int"."""
    from sobedesce.core import CLASSIC, Round

    for deck in (5, None, "AS 7S", bytes(range(40)), iter(_deck(0))):
        with pytest.raises(TypeError, match=r"^deck must be a sequence of the 40 cards \(a list or tuple"):
            check_deck(deck)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^deck must be a sequence of the 40 cards \(a list or tuple"):
            Round(CLASSIC, 0, deck)  # type: ignore[arg-type]
    check_deck(_deck(0))


def test_a_bad_deck_says_so_before_the_dealer_is_asked_for() -> None:
    """``match.deal(deck)`` of a first round said "pass dealer= or rng=" whatever the deck, and
    only once that was mended, that the deck was no deck: a bad deck now names its own fault
    first, whatever else is missing or wrong."""
    good = _deck(0)
    for deck, message in [
        (good[:39], r"^the deck lacks "),
        ([], r"^the deck lacks 2S 3S"),
        (good + good[:1], rf"^card {good[0]} appears twice in the deck$"),
        ([good[0], *good[:39]], rf"^card {good[0]} appears twice in the deck$"),
        ([str(card) for card in good], r"^not a card: '"),
        ([*good[:39], 99], r"^not a card: 99 \(a deck holds Card values"),
    ]:
        match = Match("classic")
        for dealer in ({}, {"dealer": 7}, {"dealer": 0}, {"rng": random.Random(1)}):
            with pytest.raises(ValueError, match=message):
                match.deal(deck, **dealer)  # type: ignore[arg-type]
        assert not match.rounds
    match = Match("classic")
    with pytest.raises(TypeError, match=r"^deck must be a sequence of the 40 cards \(a list or tuple"):
        match.deal("AS 7S")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^the first dealer is drawn: pass dealer= or rng=$"):
        match.deal(good)
    match.deal(good, dealer=0)
    while legal := match.legal_actions():
        match.apply(legal[0])
    # A later round's dealer follows: the deck is still checked before its dealer is.
    with pytest.raises(ValueError, match=r"^the deck lacks "):
        match.deal(good[:39], dealer=3)
    with pytest.raises(IllegalActionError, match=r"^the dealer must be seat 1"):
        match.deal(good, dealer=3)


def test_rules_made_directly_are_checked_as_from_spec_checks_them() -> None:
    """``dataclasses.replace(CLASSIC, ...)`` or ``Rules(...)`` took any value: ``min_discard=9``
    dealt a round where a seat that must play had no legal action, and a name of no preset failed
    with a bare KeyError when the match's record was written."""
    import dataclasses

    from sobedesce.core import CLASSIC, PRESETS, TABLE, RulesError

    # (Compiled by mypyc, a field's declared type is checked first: a bool or a str.)
    for changes, message in [
        ({"name": "mine"}, r"^rules\.name must be a preset's name \(classic, table\), .* not 'mine'$"),
        ({"name": "+custom"}, r"^rules\.name must be a preset's name"),
        ({"min_discard": 9}, r"^rules need 0 <= min_discard <= max_discard <= 5$"),
        ({"min_discard": 3, "max_discard": 2}, r"^rules need 0 <= min_discard <= max_discard <= 5$"),
        ({"max_discard": 6}, r"^rules need 0 <= min_discard <= max_discard <= 5$"),
        ({"no_trick_penalty": -5}, r"^rules\.no_trick_penalty must be a whole number 0 to 1000000000$"),
        ({"start_score": "20"}, r"^rules\.start_score must be a whole number 0 to 1000000000$|int object expected"),
        # Of hundreds of digits, its match's riscos (a float share of the scores) overflowed.
        ({"doubled_multiplier": 10**400}, r"^rules\.doubled_multiplier must be a whole number 0 to 1000000000$"),
        ({"turn_up_allowed": 1}, r"^rules\.turn_up_allowed must be true or false$|bool object expected"),
        (
            {"must_play_at_or_below": 2.5},
            r"^rules\.must_play_at_or_below must be a whole number -1000000000 to 1000000000, or null$|int or None",
        ),
        (
            {"must_play_at_or_below": -(10**10)},
            r"^rules\.must_play_at_or_below must be a whole number -1000000000 to 1000000000, or null$",
        ),
        ({"doubled_suit": "C"}, r"^rules\.doubled_suit must be a Suit or None \(from_spec reads a letter\), not 'C'$"),
        ({"all_play_suit": 1}, r"^rules\.all_play_suit must be a Suit or None"),
        ({"direction": "up"}, r'^rules\.direction must be "clockwise" or "counter-clockwise"$'),
    ]:
        with pytest.raises((RulesError, TypeError), match=message):
            dataclasses.replace(CLASSIC, **changes)
    variant = dataclasses.replace(TABLE, name="table+mine", min_discard=2, doubled_suit=None)
    assert variant.preset == "table" and variant.to_spec() == {
        "preset": "table",
        "min_discard": 2,
        "doubled_suit": None,
    }
    match = Match(variant)
    assert read_record(dumps_record(match)).rules.to_spec() == variant.to_spec()
    from sobedesce.core.rules import _PRESET_NAMES

    assert tuple(PRESETS) == _PRESET_NAMES


@pytest.mark.parametrize(
    ("spec", "preset"),
    [
        ({"preset": "classic", "min_discard": 0}, "classic"),
        ({"preset": "classic", "all_play_suit": "H"}, "classic"),
        ({"preset": "classic", "all_play_suit": " h ", "doubled_suit": "C", "turn_up_allowed": True}, "classic"),
        ({"min_discard": 0, "must_play_at_or_below": 5}, "classic"),  # no preset named: classic
        ({"preset": "table", "min_discard": 1, "must_play_at_or_below": None, "doubled_suit": "C"}, "table"),
    ],
    ids=["min_discard", "all_play_suit", "several", "no-preset", "table"],
)
def test_a_rules_object_repeating_its_presets_values_is_the_preset(spec: dict[str, object], preset: str) -> None:
    """Before: a rule set named "classic+custom", unequal to CLASSIC, whose overrides() was {}."""
    from sobedesce.core import PRESETS, Rules, record_of

    rules = Rules.from_spec(spec)
    assert rules == PRESETS[preset] and rules.name == preset
    assert rules.overrides() == {} and rules.to_spec() == preset
    text = json.dumps({"format": "sobedesce-record", "version": 1, "rules": spec, "rounds": []})
    match = read_record(text)
    assert match.rules == PRESETS[preset] and record_of(match)["rules"] == preset


def test_a_real_override_beside_a_repeated_value_stays_a_variant() -> None:
    from sobedesce.core import CLASSIC, Rules

    rules = Rules.from_spec({"preset": "classic", "min_discard": 1, "all_play_suit": "H", "max_discard": 5})
    assert rules != CLASSIC and rules.name == "classic+custom"
    assert rules.overrides() == {"min_discard": 1}
    assert rules.to_spec() == {"preset": "classic", "min_discard": 1}
    assert Rules.from_spec({"preset": "classic", "min_discard": 1}) == rules
