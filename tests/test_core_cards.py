"""RULES.md §1: the 40 cards, their notation and their order."""

from __future__ import annotations

import itertools

import pytest

from helpers import ALL_CARDS, ref_sorted
from sobedesce.core import CARDS, Card, CardParseError, Suit, parse_cards, sorted_cards


def test_forty_cards_without_8_9_10() -> None:
    names = [str(c) for c in CARDS]
    assert len(names) == 40 == len(set(names))
    assert sorted(names) == sorted(ALL_CARDS)
    assert not any(name[0] in "89T" or name.startswith("10") for name in names)


@pytest.mark.parametrize("suit", "SHDC")
def test_rank_order_within_a_suit(suit: str) -> None:
    high_to_low = [Card.parse(rank + suit) for rank in "A7KJQ65432"]
    assert all(a > b for a, b in itertools.pairwise(high_to_low))
    assert all(a.suit == Suit.parse(suit) for a in high_to_low)


@pytest.mark.parametrize("text", ["as", "7h", "Kd", "qC", " 2s "])
def test_lower_case_is_read(text: str) -> None:
    assert str(Card.parse(text)) == text.strip().upper()


@pytest.mark.parametrize("text", ["", "A", "1S", "8H", "9D", "10C", "TS", "AX", "ASS", "S A", "♠A"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(CardParseError):
        Card.parse(text)


def test_sorted_cards_order_is_suits_S_H_D_C_then_high_to_low() -> None:
    cards = parse_cards("2C AH 7H KS 3D AD QS 2S 6C JH")
    assert [str(c) for c in sorted_cards(cards)] == ref_sorted(str(c) for c in cards)
    assert [str(c) for c in sorted_cards(cards)] == ["KS", "QS", "2S", "AH", "7H", "JH", "AD", "3D", "6C", "2C"]


def test_suit_letters() -> None:
    assert [Suit.parse(x).letter for x in "shdcSHDC"] == list("SHDCSHDC")
    with pytest.raises(CardParseError):
        Suit.parse("X")
