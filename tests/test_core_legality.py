"""RULES.md §4 checked on the engine's Round directly: the worked-examples table (all eight
rows, both presets), leading the trump Ace, and the winner of a trick."""

from __future__ import annotations

import pytest

from helpers import WORKED_EXAMPLES, build_deck, ref_replay, ref_sorted, split, worked_example_record
from sobedesce.core import (
    Card,
    Exchange,
    IllegalActionError,
    NameTrump,
    Play,
    Round,
    SitOut,
    Suit,
    TurnUp,
    find_rules,
)


def _cards(text: str | list[str]) -> list[Card]:
    return [Card.parse(c) for c in split(text)]


def _round_from_record(preset: str, data: dict[str, object]) -> Round:
    """Drive a Round with the decisions of a one-round record, through the public API only."""
    (raw,) = data["rounds"]  # type: ignore[misc]
    current = Round(find_rules(preset), raw["dealer"], _cards(raw["deck"]))
    current.apply(NameTrump(Suit.parse(raw["trump"])))
    for entry in raw["exchanges"]:
        current.apply(SitOut() if entry.get("sit_out") else Exchange.of(entry["discard"]))
    for trick in raw["tricks"]:
        for card in trick:
            current.apply(Play.of(card))
    return current


def _legal_strings(current: Round) -> list[str]:
    return [str(action.card) for action in current.legal_actions()]


CASES = [
    pytest.param(preset, on_table, hand, legal, id=f"{preset}-[{on_table or 'lead'}]-{hand.replace(' ', '')}")
    for on_table, hand, legal_table, legal_classic in WORKED_EXAMPLES
    for preset, legal in (("table", legal_table), ("classic", legal_classic))
]


@pytest.mark.parametrize(("preset", "on_table", "hand", "legal"), CASES)
def test_worked_example_legal_cards(preset: str, on_table: str, hand: str, legal: str) -> None:
    data, tested, _ = worked_example_record(preset, on_table, hand)
    current = _round_from_record(preset, data)
    assert current.to_act == tested
    assert current.trump == Suit.HEARTS
    assert list(current.current_trick) == _cards(on_table)
    assert set(_legal_strings(current)) == set(split(legal))


@pytest.mark.parametrize(("preset", "on_table", "hand", "legal"), CASES)
def test_worked_example_apply_accepts_exactly_the_legal_cards(
    preset: str, on_table: str, hand: str, legal: str
) -> None:
    data, tested, _ = worked_example_record(preset, on_table, hand)
    current = _round_from_record(preset, data)
    held = ref_replay(data).rounds[-1].hands[tested]
    for card in sorted(held):
        trial = current.copy()
        if card in split(legal):
            trial.apply(Play.of(card))
            assert list(trial.current_trick[-1:]) == _cards(card) or trial.tricks_won != current.tricks_won
        else:
            with pytest.raises(IllegalActionError) as caught:
                trial.apply(Play.of(card))
            assert caught.value.reason
    assert set(_legal_strings(current)) == set(split(legal)), "a refused card changed the position"


@pytest.mark.parametrize(("preset", "on_table", "hand", "legal"), CASES)
def test_worked_example_legal_list_is_sorted(preset: str, on_table: str, hand: str, legal: str) -> None:
    data, _, _ = worked_example_record(preset, on_table, hand)
    current = _round_from_record(preset, data)
    strings = _legal_strings(current)
    assert strings == ref_sorted(strings)


def _two_player_round(preset: str, hand0: str, hand1: str, trump: str) -> Round:
    """Dealer 3 (seat 0 chooses and leads); seats 0 and 1 play, 2 and 3 sit out.

    Each player discards one card it was dealt in place of its 5th card and draws that card."""
    h0, h1 = split(hand0), split(hand1)
    junk = [c for c in ("2S", "3S", "4S", "5S", "6S", "QS", "JS") if c not in h0 + h1][:2]
    deck = build_deck(3, {0: [*h0[:4], junk[0]], 1: [*h1[:4], junk[1]]}, stock=[h0[4], h1[4]])
    current = Round(find_rules(preset), 3, _cards(deck), scores=(20, 20, 20, 20))
    current.apply(NameTrump(Suit.parse(trump)))
    current.apply(Exchange.of([junk[0]]))
    current.apply(Exchange.of([junk[1]]))
    current.apply(SitOut())
    current.apply(SitOut())
    return current


@pytest.mark.parametrize("preset", ["classic", "table"])
def test_leader_holding_trump_ace_must_lead_it(preset: str) -> None:
    current = _two_player_round(preset, "AD KC 2H 7D 3C", "AH 7H KH JH QH", "D")
    assert current.to_act == 0
    assert _legal_strings(current) == ["AD"]
    for card in ("KC", "2H", "7D", "3C"):
        with pytest.raises(IllegalActionError):
            current.copy().apply(Play.of(card))


@pytest.mark.parametrize("preset", ["classic", "table"])
def test_winner_of_a_trick_leads_and_must_lead_trump_ace_then(preset: str) -> None:
    # seat 0 leads KH; seat 1 (void in Hearts) trumps with 2D and must then lead AD.
    current = _two_player_round(preset, "KH QC JC 6C 5C", "2D AD 4C 3C 2C", "D")
    current.apply(Play.of("KH"))
    assert set(_legal_strings(current)) == {"2D", "AD"}
    current.apply(Play.of("2D"))
    assert current.to_act == 1
    assert _legal_strings(current) == ["AD"]


@pytest.mark.parametrize("preset", ["classic", "table"])
def test_leader_without_trump_ace_may_lead_anything(preset: str) -> None:
    current = _two_player_round(preset, "7D KC 2H JD 3C", "AH 7H KH JH QH", "D")
    assert set(_legal_strings(current)) == {"7D", "KC", "2H", "JD", "3C"}


@pytest.mark.parametrize(
    ("trump", "hand0", "hand1", "winner"),
    [
        ("D", "KH 2S 3S 4S 5S", "AH 2C 3C 4C 5C", 1),  # highest of the suit led
        ("D", "AH 2S 3S 4S 5S", "2D 2C 3C 4C 5C", 1),  # any trump beats a non-trump
        ("D", "2D 2S 3S 4S 5S", "AH 2C 3C 4C 5C", 0),  # a non-trump never beats a trump
        ("D", "JD 2S 3S 4S 5S", "7D 2C 3C 4C 5C", 1),  # higher trump
        ("D", "7H 2S 3S 4S 5S", "AC 2C 3C 4C 5C", 0),  # another suit does not win
        ("S", "QC 2H 3H 4H 5H", "6C 2D 3D 4D 5D", 0),  # Q above 6
        ("S", "7C 2H 3H 4H 5H", "KC 2D 3D 4D 5D", 0),  # 7 above K
        ("S", "KC 2H 3H 4H 5H", "JC 2D 3D 4D 5D", 0),  # K above J
        ("S", "QC 2H 3H 4H 5H", "JC 2D 3D 4D 5D", 1),  # J above Q
        ("S", "2C 2H 3H 4H 5H", "3C 2D 3D 4D 5D", 1),  # 3 above 2
        ("S", "7C 2H 3H 4H 5H", "AC 2D 3D 4D 5D", 1),  # A above 7
    ],
)
@pytest.mark.parametrize("preset", ["classic", "table"])
def test_trick_winner_two_players(preset: str, trump: str, hand0: str, hand1: str, winner: int) -> None:
    current = _two_player_round(preset, hand0, hand1, trump)
    first, second = split(hand0)[0], split(hand1)[0]
    current.apply(Play.of(first))
    current.apply(Play.of(second))
    assert current.tricks_won[winner] == 1
    assert current.tricks_won[1 - winner] == 0
    assert current.to_act == winner


def test_turned_up_card_stays_in_the_choosers_hand() -> None:
    deck = build_deck(1, {2: "2S 3S 4S 5C 6S"})
    current = Round(find_rules("classic"), 1, _cards(deck))
    assert deck[12] == "5C"
    current.apply(TurnUp())
    assert current.trump == Suit.CLUBS
    assert current.to_act == 2
    assert Exchange.of(["5C"]) in current.legal_actions()
    assert str(current.turned_card) == "5C"


def test_turn_up_refused_under_table() -> None:
    deck = build_deck(1, {2: "2S 3S 4S 5C 6S"})
    current = Round(find_rules("table"), 1, _cards(deck))
    with pytest.raises(IllegalActionError):
        current.apply(TurnUp())
    assert [str(a) for a in current.legal_actions()] == ["S", "H", "D", "C"]
