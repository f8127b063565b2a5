"""The public API keeps its promises: ``__all__`` says what each package exports, the round
and the match are read through properties, and their methods show in ``help()``."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import random
import re

import pytest

from sobedesce.cli.bench import engine_build
from sobedesce.core import (
    SIT_OUT,
    Action,
    Exchange,
    IllegalActionError,
    Match,
    NameTrump,
    Phase,
    Play,
    Round,
    round_from_view,
    seat_view,
)

PACKAGES = ["sobedesce.core", "sobedesce.bots", "sobedesce.arena", "sobedesce.table", "sobedesce.terminal"]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_what_the_package_exports(name: str) -> None:
    package = importlib.import_module(name)
    listed = set(package.__all__)
    missing = sorted(n for n in listed if not hasattr(package, n))
    assert not missing, f"{name}.__all__ lists names it does not have: {missing}"
    public = {
        n
        for n, value in vars(package).items()
        if not n.startswith("_")
        and not (inspect.ismodule(value) and n not in listed)
        and getattr(value, "__module__", "") not in ("typing", "collections.abc", "__future__")
    }
    assert public <= listed, f"{name} exports names its __all__ does not list: {sorted(public - listed)}"


def test_every_module_all_names_exist() -> None:
    import pkgutil

    import sobedesce

    for info in pkgutil.walk_packages(sobedesce.__path__, "sobedesce."):
        if info.name.startswith(("sobedesce.integrations.", "sobedesce.server.migrations", "sobedesce.__main__")):
            continue  # optional extras; their own tests import them
        module = importlib.import_module(info.name)
        for n in getattr(module, "__all__", ()):
            assert hasattr(module, n), f"{info.name}.__all__ lists {n!r}, which it does not define"


def _round_in_play() -> tuple[Match, Round]:
    match = Match("classic")
    current = match.deal(rng=random.Random(4))
    while match.phase != Phase.PLAY:
        match.apply(match.legal_actions()[-1])  # a suit, then every seat plays
    return match, current


def test_round_and_match_are_read_only_and_agree_on_the_phase() -> None:
    match, current = _round_in_play()
    assert type(current.phase) is type(match.phase) is Phase
    assert current.phase == match.phase == Phase.PLAY
    for attribute in ("hands", "active", "tricks", "tricks_won", "scores", "phase", "to_act", "trump"):
        with pytest.raises(AttributeError):
            setattr(current, attribute, None)
    for attribute in ("scores", "rounds", "winners", "phase"):
        with pytest.raises(AttributeError):
            setattr(match, attribute, None)
    # A snapshot is a copy: changing it cannot change the round.
    hands = current.hands
    assert isinstance(hands, tuple)
    assert current.hands == hands and current.hands is not hands
    before = current.hands
    match.apply(match.legal_actions()[0])
    assert current.hands != before


def test_match_methods_show_in_help() -> None:
    compiled = engine_build() == "compiled"
    for method in ("apply", "legal_actions", "deal", "copy"):
        function = getattr(Match, method)
        assert inspect.isroutine(function), method
        if not compiled:  # compiled by mypyc, a method keeps its signature but not its docstring
            assert inspect.isfunction(function) and function.__doc__, method
    text = pydoc.render_doc(Match, renderer=pydoc.plaintext)
    assert re.search(r"apply\(self, (/, )?action", text) and re.search(r"legal_actions\(self(, /)?\)", text)
    # ... and the bound fast path answers exactly as the method does.
    match, _ = _round_in_play()
    assert list(match.legal_actions()) == list(Match.legal_actions(match))


def test_a_round_is_built_only_by_its_constructors() -> None:
    match, current = _round_in_play()
    view = seat_view(match, current.to_act)
    hands = list(current.hands)
    rebuilt = round_from_view(view, hands, current.stock)
    assert rebuilt.to_act == current.to_act and rebuilt.legal_cards() == current.legal_cards()
    assert rebuilt.tricks == current.tricks and rebuilt.trump == current.trump and rebuilt.deck is None


# -- what the public entry points refuse, and how they say it -------------------------------

_CARD = r": must be a card \(an int 0-39 from the core's card functions\), not "
_SUIT = r"NameTrump: must be a suit \(a Suit, or an int 0-3; NameTrump\.of reads a letter\), not "


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Play("AS"), TypeError, "^Play" + _CARD + "'AS'$"),
        (lambda: Play(99), ValueError, "^Play" + _CARD + "99$"),
        (lambda: Play(-1), ValueError, "^Play" + _CARD + "-1$"),
        (lambda: Play(True), TypeError, "^Play" + _CARD + "True$"),
        (lambda: Play(2.0), TypeError, "^Play" + _CARD + "2.0$"),
        (lambda: Play.of(-1), ValueError, "^Play" + _CARD + "-1$"),
        (lambda: NameTrump("H"), TypeError, "^" + _SUIT + "'H'$"),
        (lambda: NameTrump(True), TypeError, "^" + _SUIT + "True$"),
        (lambda: NameTrump(4), ValueError, "^" + _SUIT + "4$"),
        (lambda: NameTrump.of(-1), ValueError, "^" + _SUIT + "-1$"),
        (lambda: Exchange(("AS",)), TypeError, "^Exchange" + _CARD + "'AS'$"),
        (lambda: Exchange((3, 40)), ValueError, "^Exchange" + _CARD + "40$"),
        # (Compiled by mypyc, the constructor's own check of a tuple says it first.)
        (
            lambda: Exchange("2C 3C"),
            TypeError,
            r"^Exchange needs a tuple of cards \(Exchange\.of reads|tuple object expected",
        ),
        (lambda: Exchange.of([5, -1]), ValueError, "^Exchange" + _CARD + "-1$"),
        # Before, these were made, and only applying them said the card was discarded twice.
        (lambda: Exchange.of("as as"), ValueError, "^Exchange: discards AS twice$"),
        (lambda: Exchange((5, 0, 5, 0, 1)), ValueError, "^Exchange: discards QS 2S twice$"),
    ],
    ids=[
        "Play('AS')",
        "Play(99)",
        "Play(-1)",
        "Play(True)",
        "Play(2.0)",
        "Play.of(-1)",
        "NameTrump('H')",
        "NameTrump(True)",
        "NameTrump(4)",
        "NameTrump.of(-1)",
        "Exchange(('AS',))",
        "Exchange((3, 40))",
        "Exchange('2C 3C')",
        "Exchange.of([5, -1])",
        "Exchange.of('as as')",
        "Exchange((5, 0, 5, 0, 1))",
    ],
)
def test_a_malformed_action_cannot_be_made(make, error, message) -> None:
    """An action is checked when it is made, so that applying it needs no check; before, these
    reached ``apply`` and failed there with an IndexError, a negative shift count, a TypeError,
    or (``NameTrump(True)``) named Hearts."""
    with pytest.raises(error, match=message):
        make()


def test_a_record_discarding_a_card_twice_breaks_a_rule() -> None:
    """Such an ``Exchange`` cannot be made; the record reader still reports the decision as
    one the rules forbid (exit status 1), where it is, not with the constructor's ValueError."""
    import json
    from pathlib import Path

    from sobedesce.core import RecordRuleError, read_record

    record = json.loads((Path(__file__).parent / "records" / "classic-discard-not-held.json").read_text())
    record["rounds"][0]["exchanges"][0]["discard"] = ["2D", "2D"]  # seat 0, the chooser, holds 2D
    with pytest.raises(RecordRuleError, match=r"^round 1, exchange 1, seat 0 discards 2D 2D: discards 2D twice$"):
        read_record(record)


def test_a_record_is_read_in_any_case_and_written_in_upper_case() -> None:
    """As docs/record.md says: card names and the trump letter in any case, spaces around them
    ignored; the program writes upper case."""
    import json
    from pathlib import Path

    from sobedesce.core import dumps_record, read_record

    record = json.loads((Path(__file__).parent / "records" / "classic-discard-not-held.json").read_text())
    first = record["rounds"][0]
    first["exchanges"][0]["discard"] = ["2D"]  # held by seat 0 (the record's AS is not)
    written = json.loads(dumps_record(read_record(record)))
    first["deck"] = [f" {card.lower()}" for card in first["deck"]]
    first["trump"], first["exchanges"][0]["discard"] = "s", ["2d"]
    again = json.loads(dumps_record(read_record(record)))
    assert again["rounds"][0]["deck"] == written["rounds"][0]["deck"] == [c.strip().upper() for c in first["deck"]]
    assert again["rounds"][0]["trump"] == "S" and again["rounds"][0]["exchanges"][0]["discard"] == ["2D"]


def test_actions_made_from_indices_are_the_shared_ones() -> None:
    from sobedesce.core import CARDS, Suit

    assert NameTrump(1).suit is Suit.HEARTS and str(NameTrump(1)) == "H"
    assert Play(5).card is CARDS[5] and str(Play(5)) == "QS"
    assert Exchange((5, 1)).discard == (CARDS[5], CARDS[1]) and Exchange((5, 1)) == Exchange.of("QS 3S")
    assert all(type(card) is type(CARDS[0]) for card in Exchange((5, 1)).discard)


# What apply says of a value that is no action; compiled by mypyc, the method's own check of its
# argument's type says it first when the value is not an ``Action`` at all.
NOT_AN_ACTION = r"^apply needs an action \(a NameTrump, TurnUp, SitOut, Exchange or Play|Action object expected"


def test_apply_refuses_what_is_no_action_of_the_game() -> None:
    match, current = _round_in_play()
    before = current.hands
    for thing in ("AS", None, 7, Action()):
        with pytest.raises(TypeError, match=NOT_AN_ACTION):
            match.apply(thing)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=NOT_AN_ACTION):
            current.apply(thing)  # type: ignore[arg-type]
    # A ``Play`` altered after it was made (only by going round the frozen dataclass) is refused
    # as illegal, naming the card, and changes nothing.
    altered = Play.of("AS")
    altered = Play(altered.card)
    object.__setattr__(altered, "card", 99)
    with pytest.raises(IllegalActionError, match=r"Play: must be a card .*, not 99"):
        match.apply(altered)
    assert current.hands == before and current.phase == Phase.PLAY


def test_seat_view_names_the_seat_it_needs() -> None:
    match, _ = _round_in_play()
    for seat in ("0", 1.0, None):
        with pytest.raises(TypeError, match=r"seat|int"):
            seat_view(match, seat)  # type: ignore[arg-type]
    for seat in (-1, 4):
        with pytest.raises(ValueError, match=r"^seat: must be 0 to 3, not "):
            seat_view(match, seat)


def test_exchange_choices_index_like_a_tuple() -> None:
    """The lazy sequence of legal exchanges answers every index as the tuple of its items does:
    before, ``choices[-len - 1]`` gave an item and ``choices[1.9]``, ``choices["2"]`` were read."""
    match = Match("classic")
    match.deal(rng=random.Random(4))
    match.apply(match.legal_actions()[0])
    choices = match.legal_actions()
    assert match.phase == Phase.EXCHANGE
    items = tuple(choices)
    n = len(choices)
    assert n == len(items) > 1
    for index in range(-n, n):
        assert choices[index] == items[index], index
    for index in (-n - 1, -n - 5, n, n + 3):
        with pytest.raises(IndexError):
            items[index]
        with pytest.raises(IndexError):
            choices[index]
    for index in (1.9, "2", None, 1.0):
        with pytest.raises(TypeError):
            items[index]  # type: ignore[index]
        with pytest.raises(TypeError):
            choices[index]  # type: ignore[call-overload]
    assert choices[True] == items[True]
    assert list(choices[1:4]) == list(items[1:4]) and list(choices[::-1]) == list(items[::-1])
    assert (SIT_OUT in choices) == (SIT_OUT in items)


def _position(current: Round, **changes: object) -> Round:
    """``Round.from_position`` with the facts of ``current``, some of them changed."""
    facts: dict[str, object] = {
        "dealer": current.dealer,
        "scores": current.scores,
        "streaks": current.streaks,
        "trump": int(current.trump) if current.trump is not None else -1,
        "turned_card": current.turned_card,
        "hands": current.hands,
        "stock": current.stock,
        "active": [-1 if a is None else int(a) for a in current.active],
        "discards": current.discards,
        "tricks": current.tricks,
        "leaders": current.leaders,
        "tricks_won": current.tricks_won,
    }
    facts.update(changes)
    return Round.from_position(current.rules, **facts)  # type: ignore[arg-type]


def _lowest(mask: int) -> int:
    return mask & -mask


def test_a_position_no_deal_could_reach_is_refused() -> None:
    """``Round.from_position`` and ``round_from_view`` refuse a position no deal could reach
    (before, they built it, and the round went wrong later or never)."""
    match = Match("classic")
    current = match.deal(rng=random.Random(4))
    while match.phase != Phase.PLAY:  # a suit, then every seat plays, discarding one card
        legal = match.legal_actions()
        match.apply(next((a for a in legal if isinstance(a, Exchange) and len(a.discard) == 1), legal[0]))
    for _ in range(3):  # a trick under way
        match.apply(match.legal_actions()[0])
    seat = current.to_act
    assert seat is not None and current.tricks[-1]
    view = seat_view(match, seat)
    hands = list(current.hands)
    stock = current.stock
    rebuilt = round_from_view(view, hands, stock)
    assert rebuilt.to_act == current.to_act and rebuilt.legal_cards() == current.legal_cards()
    other = next(s for s in range(4) if s != seat and current.active[s])
    played = current.tricks[-1][0]

    def refused(message: str, hands: list[int] = hands, stock: object = stock) -> None:
        with pytest.raises(ValueError, match=message):
            round_from_view(view, hands, stock)  # type: ignore[arg-type]

    twice = list(hands)
    twice[other] |= _lowest(hands[seat])  # a card of the viewer given to another seat too
    refused(rf"is held by seat {min(seat, other)} and held by seat {max(seat, other)}", twice)
    held_and_played = list(hands)
    held_and_played[other] |= 1 << played
    refused(rf"{played} is held by seat {other} and played", held_and_played)
    held_and_stocked = list(hands)
    held_and_stocked[other] |= 1 << stock[0]
    refused(rf"{stock[0]} is held by seat {other} and in the stock", held_and_stocked)
    assert len(stock) == 16
    refused(rf"{played} is in the stock and played", hands, (*stock[1:], played))
    short = list(hands)
    short[other] ^= _lowest(hands[other])  # a card gone from a seat that plays
    refused(rf"seat {other} plays and has played \d cards: it holds \d, not \d", short)
    refused(r"the stock holds 16 cards \(20 less the 4 drawn\), not 15", hands, stock[1:])
    refused(r"hands: must hold four masks", hands[:3])
    # From the facts of a round directly.
    assert _position(current).to_act == current.to_act
    with pytest.raises(ValueError, match=r"tricks_won: the tricks played give"):
        _position(current, tricks_won=(5, 0, 0, 0))
    with pytest.raises(ValueError, match=r"leaders\[0\]: must be seat \d, the first leader"):
        _position(current, leaders=[(current.leaders[0] + 1) % 4, *current.leaders[1:]])
    with pytest.raises(TypeError, match=r"stock\[0\]: must be a card"):
        _position(current, stock=("AS", *current.stock[1:]))
    with pytest.raises(ValueError, match=r"trump: must be 0 to 3, not 7"):
        _position(current, trump=7)
    # Each value's shape, worded as Match words its own (core/_checks.py).
    with pytest.raises(ValueError, match=r"^scores: must hold four scores, not 3$"):
        _position(current, scores=current.scores[:3])
    with pytest.raises(TypeError, match=r"^streaks\[1\]: must be a whole number, not True$"):
        _position(current, streaks=(0, True, 0, 0))
    with pytest.raises(
        ValueError, match=r"^active\[2\]: must be 1 \(plays\), 0 \(sits out\) or -1 \(not decided\), not 5$"
    ):
        _position(current, active=[1, 1, 5, 1])


def test_a_round_checks_what_its_constructor_is_given() -> None:
    """``Round(rules, dealer, deck, scores, streaks)`` checks its values as ``Match.deal`` does;
    before, a dealer of 4 or -1, a deck of 39 cards, of plain ints or with a card twice, three
    scores or a streak of 5 each built a round that went wrong later (or never)."""
    from sobedesce.core import CARDS, CLASSIC

    deck = list(CARDS)
    random.Random(1).shuffle(deck)
    assert Round(CLASSIC, 2, deck).dealer == 2
    # An argument of the wrong type: compiled by mypyc, the function's own check says it first.
    with pytest.raises(TypeError, match=r"^rules must be a Rules|^sobedesce\.core\.rules\.Rules object expected"):
        Round("classic", 0, deck)  # type: ignore[arg-type]
    for dealer in (4, -1):
        with pytest.raises(ValueError, match=rf"^dealer: must be 0 to 3, not {dealer}$"):
            Round(CLASSIC, dealer, deck)
    with pytest.raises(TypeError, match=r"^dealer: must be a whole number 0 to 3, not '0'$|^int object expected"):
        Round(CLASSIC, "0", deck)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^the deck lacks "):
        Round(CLASSIC, 0, deck[:39])
    with pytest.raises(ValueError, match=r"appears twice in the deck$"):
        Round(CLASSIC, 0, [*deck[:39], deck[0]])
    with pytest.raises(ValueError, match=r"^not a card: 0 \(a deck holds Card values: Card\(0\), Card\('7H'\)\)$"):
        Round(CLASSIC, 0, list(range(40)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^deck must be a sequence of the 40 cards"):
        Round(CLASSIC, 0, "AS 7S")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^scores: must hold four scores, not 3$"):
        Round(CLASSIC, 0, deck, scores=(20, 20, 20))
    with pytest.raises(TypeError, match=r"^scores\[0\]: must be a whole number, not '20'$"):
        Round(CLASSIC, 0, deck, scores=("20", 20, 20, 20))  # type: ignore[arg-type]
    for streak in (3, -1):
        with pytest.raises(ValueError, match=rf"^streaks\[0\]: must be 0 to 2, not {streak}$"):
            Round(CLASSIC, 0, deck, streaks=(streak, 0, 0, 0))
    # A position's streaks too (before, a streak of 5 was taken).
    _, current = _round_in_play()
    with pytest.raises(ValueError, match=r"^streaks\[1\]: must be 0 to 2, not 5$"):
        _position(current, streaks=(0, 5, 0, 0))


def test_a_round_answers_for_seats_only() -> None:
    """Before, ``hand(-1)`` gave seat 3's hand, ``hand(4)`` raised an IndexError from inside,
    ``may_sit_out(9)`` answered False and ``exchange_seat(9)`` a seat."""
    _, current = _round_in_play()
    for call in (current.hand, current.may_sit_out, current.must_play_reason):
        for seat in (-1, 4, 9):
            with pytest.raises(ValueError, match=rf"^seat: must be 0 to 3, not {seat}$"):
                call(seat)
    with pytest.raises(ValueError, match=r"^index: must be 0 to 3, not 9$"):
        current.exchange_seat(9)
    assert current.hand(0) == tuple(sorted(current.hand(0), key=lambda c: (c // 10, -(c % 10))))


def test_a_card_index_is_0_to_39() -> None:
    """Before, ``Card(-1)`` was AC (a tuple's index from the end) and ``Card(True)`` 3S."""
    from sobedesce.core import Card, CardParseError

    assert str(Card(0)) == "2S" and str(Card(39)) == "AC" and Card("AS") is Card.parse("AS")
    for index in (-1, -40, 40, True, 1.0, b"AS"):
        with pytest.raises(CardParseError, match=r"^not a card index: "):
            Card(index)  # type: ignore[arg-type]


def test_seat_view_of_a_bool_seat_is_the_ints() -> None:
    """``seat_view(match, True)`` was seat 1's view with ``seat`` the bool ``True`` (pure build;
    compiled by mypyc, an argument typed int arrives as the int): now the int in both builds."""
    match, _ = _round_in_play()
    view = seat_view(match, True)
    assert type(view.seat) is int and view == seat_view(match, 1)


def test_round_from_view_names_hands_that_are_no_masks() -> None:
    match, current = _round_in_play()
    view = seat_view(match, current.to_act)
    with pytest.raises(TypeError, match=r"^hands: must hold four masks"):
        round_from_view(view, None, current.stock)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^hands\[0\]: must be a whole number, not 'a'$"):
        round_from_view(view, ["a"] * 4, current.stock)  # type: ignore[list-item]


def test_riscos_need_winners() -> None:
    """Before, no winner raised ZeroDivisionError and a seat out of range, or one named twice,
    gave riscos that do not sum to zero."""
    from sobedesce.core import riscos_for

    assert riscos_for([0, 11, 2, 5], [0]) == [18, -11, -2, -5]
    assert riscos_for([0, 11, 0, 5], [0, 2]) == [8, -11, 8, -5]
    for winners in ([], [7], [-1], [0, 0]):
        with pytest.raises(ValueError, match=r"^winners: must be one or more seats of the 4 scores, each once"):
            riscos_for([0, 11, 2, 5], winners)


def test_riscos_are_ints_but_a_fractional_share() -> None:
    """Before, the winners' share was a float even when whole (``[-63, 105.0, -27, -15]``), so a
    learner reading ``replay --json`` got ints and floats mixed in nearly every match."""
    from sobedesce.core import riscos_for

    for scores, winners, expected in (
        ([63, 0, 27, 15], [1], [-63, 105, -27, -15]),
        ([0, 11, 0, 5], [0, 2], [8, -11, 8, -5]),
        ([0, 12, 0, 0], [0, 2, 3], [4, -12, 4, 4]),
        ([0, 11, 0, 4], [0, 2], [7.5, -11, 7.5, -4]),  # an odd sum split: the share is fractional
    ):
        got = riscos_for(scores, winners)
        assert got == expected and [type(r) for r in got] == [type(r) for r in expected], got


def test_records_say_what_they_need() -> None:
    """Before, each of these raised an AttributeError from inside (``'int' object has no
    attribute 'read'``, ``... no attribute 'rules'``)."""
    import io

    from sobedesce.core import dumps_record, read_record, record_of, summary

    for thing in (None, 5, [{"format": "sobedesce-record", "version": 1}], b"{}"):
        with pytest.raises(
            TypeError, match=r"^a record is read from a string, a text stream or a mapping \(a dict\), not "
        ):
            read_record(thing)  # type: ignore[arg-type]
    empty = '{"format": "sobedesce-record", "version": 1, "rounds": []}'
    assert read_record(empty).rounds == read_record(io.StringIO(empty)).rounds
    for function in (dumps_record, record_of, summary):
        with pytest.raises(
            TypeError,
            match=rf"^{function.__name__} needs a Match, not 5$|^sobedesce\.core\.match\.Match object expected",
        ):
            function(5)  # type: ignore[arg-type]
    match, _ = _round_in_play()
    again = read_record(dumps_record(match))
    assert summary(again) == summary(match) and again.round is not None


def test_cards_are_read_from_text_or_names_only() -> None:
    """Before: ``TypeError: 'int' object is not iterable`` from inside."""
    from sobedesce.core import parse_cards

    assert [str(c) for c in parse_cards("2c, 3c")] == [str(c) for c in parse_cards(["2C", "3C"])] == ["2C", "3C"]
    assert Exchange.of(["2C", 1]) == Exchange.of("2C 3S")
    for thing in (5, None, b"2C"):
        with pytest.raises(TypeError, match=r"^cards are read from a string \('2C 3C'\) or an iterable of names"):
            parse_cards(thing)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"^Exchange\.of reads cards from a string \('2C 3C'\) or an iterable"):
            Exchange.of(thing)  # type: ignore[arg-type]


def test_a_record_is_read_from_a_mapping_as_from_its_json() -> None:
    """``read_record(record_of(match))`` raised "a record is read from a string or a text stream,
    not dict": a record already read (``json.load``, ``record_of``) is read as it stands, checked
    exactly as the file holding it, with the file's errors; anything else is named."""
    import json
    import types
    from pathlib import Path

    from sobedesce.core import RecordFormatError, RecordRuleError, dumps_record, read_record, record_of, summary

    match, _ = _round_in_play()
    record = record_of(match)
    for given in (record, json.loads(dumps_record(match)), types.MappingProxyType(record)):
        assert summary(read_record(given)) == summary(match)
    rounds: list[dict[str, object]] = record["rounds"]  # type: ignore[assignment]
    # Each malformed or illegal mapping raises what its JSON text raises, word for word.
    for bad in (
        {**record, "format": "sobedesce"},
        {**record, "version": True},
        {**record, "colour": "red"},
        {**record, "scores": [20, 20, 20.5, 20]},
        {**record, "rounds": [{**rounds[0], "deck": list(range(40))}]},
        {**record, "rounds": [{**rounds[0], "deck": rounds[0]["deck"][:39]}]},  # type: ignore[index]
        {**record, "rounds": [{**rounds[0], "tricks": [["AS", "AS"]]}]},
        {},
    ):
        with pytest.raises((RecordFormatError, RecordRuleError)) as from_text:
            read_record(json.dumps(bad))
        with pytest.raises(from_text.type, match=f"^{re.escape(str(from_text.value))}$"):
            read_record(bad)
    # What a file cannot hold: a tuple is a list, a set or a key of no JSON type malformed.
    assert summary(read_record({**record, "players": ("A", "B", "C", "D")})) == summary(
        read_record({**record, "players": ["A", "B", "C", "D"]})
    )
    with pytest.raises(RecordFormatError, match=r"^not a record: holds a set, which JSON cannot hold$"):
        read_record({**record, "players": {"A", "B", "C", "D"}})
    with pytest.raises(RecordFormatError, match=r"^not a record: keys must be str"):
        read_record({(1, 2): 3})
    path_type = type(Path("match.json")).__name__
    with pytest.raises(TypeError, match=rf"^a record is read from .*, not {path_type}: open the file and pass it"):
        read_record(Path("match.json"))  # type: ignore[arg-type]
