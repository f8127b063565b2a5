"""RULES.md §1: the 40 cards, their notation and their order."""

from __future__ import annotations

import itertools

import pytest

from helpers import ALL_CARDS, ref_sorted
from sobedesce.core import (
    CARDS,
    CLASSIC,
    Card,
    CardParseError,
    Exchange,
    Match,
    NameTrump,
    Play,
    Rank,
    Suit,
    format_cards,
    parse_cards,
    sorted_cards,
)


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


# -- what the card functions refuse, and how they say it ------------------------------------

_CARD = r": must be a card \(an int 0-39 from the core's card functions\), not "


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        (["AS"], TypeError, _CARD + "'AS'$"),
        ([99], ValueError, _CARD + "99$"),
        ([-1], ValueError, _CARD + "-1$"),
        ([3, True], TypeError, _CARD + "True$"),
        ([None], TypeError, _CARD + "None$"),
        (5, TypeError, r": must be given cards \(an int 0-39 from the core's card functions\), not 5$"),
        ("AS 2C", TypeError, r": must be given cards \(.*; parse_cards reads names\), not 'AS 2C'$"),
    ],
    ids=["names", "99", "-1", "a bool", "None", "no iterable", "a string"],
)
def test_format_and_sort_name_what_is_no_card(cards, error, message) -> None:
    """``format_cards(['AS'])`` raised "tuple indices must be integers or slices, not str",
    ``format_cards([99])`` an IndexError, and ``format_cards([-1])`` gave 'AC';
    ``sorted_cards`` failed on a shift, left 99 out, and failed on -1 with "negative shift count"."""
    with pytest.raises(error, match="^format_cards" + message):
        format_cards(cards)
    with pytest.raises(error, match="^sorted_cards" + message):
        sorted_cards(cards)


def test_format_and_sort_take_any_cards() -> None:
    cards = parse_cards("2C AH 7H")
    assert format_cards(cards) == "2C AH 7H" == format_cards([int(c) for c in cards])
    assert format_cards(card for card in cards) == "2C AH 7H" and format_cards([]) == ""
    assert sorted_cards([int(c) for c in cards]) == sorted_cards(cards) == parse_cards("AH 7H 2C")


def test_card_of_checks_rank_and_suit() -> None:
    """``Card.of(10, 0)`` was 2H, ``Card.of(-1, 0)`` AC, ``Card.of(Rank.ACE, 7)`` an IndexError and
    ``Card.of("A", "S")`` a TypeError about tuple indices."""
    assert [Card.of(card.rank, card.suit) for card in CARDS] == list(CARDS)
    assert Card.of(9, 3) is Card.of(Rank.ACE, Suit.CLUBS) is Card.parse("AC")
    for rank, error in ((10, ValueError), (-1, ValueError), ("A", TypeError), (True, TypeError)):
        with pytest.raises(error, match=rf"^rank: must be a rank \(a Rank, or an int 0-9\), not {rank!r}$"):
            Card.of(rank, Suit.SPADES)  # type: ignore[arg-type]
    for suit, error in ((7, ValueError), (-1, ValueError), ("S", TypeError), (None, TypeError)):
        with pytest.raises(error, match=rf"^suit: must be a suit \(a Suit, or an int 0-3\), not {suit!r}$"):
            Card.of(Rank.ACE, suit)  # type: ignore[arg-type]


def test_suit_parse_names_what_is_no_text() -> None:
    """``Suit.parse(5)`` raised "'int' object has no attribute 'strip'"."""
    for value in (5, None, Suit.HEARTS):
        with pytest.raises(CardParseError, match=rf"^not a suit: {value!r} \(a letter S, H, D or C\)$"):
            Suit.parse(value)  # type: ignore[arg-type]


# What the checks of the core take as a card or a suit, and what they refuse.
_INTEGERS = [0, 5, 39, CARDS[7], Suit.CLUBS, Rank.ACE]
_NOT_INTEGERS = [True, False, 5.0, "5", None, b"\x05"]
_OUT_OF_RANGE = [-1, 40, 99]


def test_card_and_the_actions_agree_on_what_is_a_card() -> None:
    """``Card(...)`` took any integer (by ``operator.index``) while ``Play``/``Exchange``, through
    ``_checks.is_card``, took only ``int``: both now take the one and refuse bools."""
    from sobedesce.core import _checks

    for value in _INTEGERS:
        assert _checks.is_card(value) and Card(value) is CARDS[value]
        assert Play(value).card is Play.of(value).card is Exchange((value,)).discard[0] is CARDS[value]
    for value in _NOT_INTEGERS + _OUT_OF_RANGE:
        assert not _checks.is_card(value)
        # ("5" is read as a name, and is none.)
        with pytest.raises(
            CardParseError, match=r"^not a card: '5' \(rank" if value == "5" else r"^not a card index: "
        ):
            Card(value)  # type: ignore[arg-type]
        error = ValueError if value in _OUT_OF_RANGE else TypeError
        with pytest.raises(error, match="^Play" + _CARD):
            Play(value)  # type: ignore[arg-type]
        with pytest.raises(error, match="^Exchange" + _CARD):
            Exchange((value,))  # type: ignore[arg-type]


def test_numpy_integers_are_cards_and_suits_everywhere() -> None:
    np = pytest.importorskip("numpy", reason="numpy comes with the [rl] and [openspiel] extras")
    from sobedesce.core import _checks

    for kind in (np.int64, np.int8, np.uint16):
        five = kind(5)
        assert _checks.is_card(five) and Card(five) is CARDS[5]
        assert Play(five) == Play.of(five) == Play.of(5) and Play(five).card is CARDS[5]
        assert Exchange((five,)) == Exchange.of([five]) == Exchange.of([5])
        assert Exchange((five,)).discard[0] is CARDS[5]
        assert NameTrump(kind(1)).suit is NameTrump.of(kind(1)).suit is Suit.HEARTS
        assert Card.of(kind(9), kind(3)) is Card.parse("AC")
        assert format_cards([five]) == "QS" and sorted_cards([five]) == [CARDS[5]]
    for value in (np.int64(40), np.int64(-1)):
        assert not _checks.is_card(value)
        with pytest.raises(CardParseError, match=r"^not a card index: "):
            Card(value)
        with pytest.raises(ValueError, match="^Play" + _CARD):
            Play(value)
    with pytest.raises(ValueError, match=r"^NameTrump: must be a suit .*, not np.int64\(4\)$"):
        NameTrump(np.int64(4))
    # Scores and counts too: list(array) gives numpy's integers, and a match took them as
    # cards but refused them as scores ("must be a whole number, not np.int64(20)").
    scores = np.array([20, 7, 12, 3])
    assert Match(CLASSIC, scores=list(scores)).scores == (20, 7, 12, 3)
    assert all(type(score) is int for score in Match(CLASSIC, scores=list(scores)).scores)
    with pytest.raises(ValueError, match=r"^scores\[0\]: must be -1000000000 to 1000000000, not "):
        Match(CLASSIC, scores=[np.int64(-(10**12)), 20, 20, 20])
    with pytest.raises(TypeError, match=r"^scores\[0\]: must be a whole number, not np.True_"):
        Match(CLASSIC, scores=[np.bool_(True), 20, 20, 20])
    for value in (np.bool_(True), np.float64(5.0)):
        assert not _checks.is_card(value)
        with pytest.raises(CardParseError, match=r"^not a card index: "):
            Card(value)
        with pytest.raises(TypeError, match="^Play" + _CARD):
            Play(value)
        with pytest.raises(TypeError, match=r"^NameTrump: must be a suit"):
            NameTrump(value)


def test_a_cards_repr_builds_it() -> None:
    """``repr(card)`` was ``Card('7H')``, and ``Card('7H')`` raised "not a card index: '7H'": a
    card is built from its name too (as ``Card.parse``), so its repr, and an action's, evaluates
    to it; equality, hashing and order are the ints' as before."""
    for card in CARDS:
        assert eval(repr(card)) is card and Card(str(card)) is card is Card(int(card))
    assert Card("7h") is Card(" 7H ") is Card.parse("7H") == 18 and hash(Card("7H")) == hash(18)
    assert Card("AS") > Card("7S") and sorted([Card("AS"), Card("2S")]) == [Card("2S"), Card("AS")]
    for action in (Play.of("7h"), Exchange.of("2c 3c")):
        assert eval(repr(action)) == action
    for name in ("", "7", "1H", "AX", "7H 3C"):
        with pytest.raises(CardParseError, match=rf"^not a card: {name!r} \(rank A 7 K J Q 6 5 4 3 2"):
            Card(name)
