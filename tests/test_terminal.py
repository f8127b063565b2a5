"""Unit tests of ``sobedesce play``'s pieces: renderer, input parsing, driver, CLI edges.

The end-to-end test through a pseudo-terminal is in ``test_terminal_e2e.py``.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from sobedesce.bots import make_bot
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
    TurnUp,
    dumps_record,
    read_record,
    seat_view,
)
from sobedesce.table import Event, level_of_name, save_atomically
from sobedesce.terminal import Command, InputError, TableDriver, parse_input, resolve_bot
from sobedesce.terminal.app import LineReader, Resized
from sobedesce.terminal.render import (
    LOG_LINES,
    MAX_LINES,
    describe_event,
    help_lines,
    hint_lines,
    hint_words,
    history_lines,
    match_over_lines,
    print_lines,
    round_over_lines,
    rules_lines,
    screen_rows,
    seat_positions,
    short_name,
    table_screen,
)

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOUR = re.compile(r"\x1b\[(?:[0-9]+;)*(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)(?:;[0-9]+)*m")
CARD_ON_SCREEN = re.compile(r"(?<![A-Za-z0-9])([A7KJQ65432])([♠♥♦♣])")
SYMBOL_LETTER = {s.symbol: s.letter for s in Suit}
NAMES = ["Ana", "Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)"]


def new_driver(rules: str = "classic", seed: int = 1, human: int = 0, save_path: str | None = None) -> TableDriver:
    names = list(NAMES)
    names[0], names[human] = names[human], names[0]
    match = Match(rules, players=names)
    bots = {s: make_bot("random") for s in range(4) if s != human}
    return TableDriver(match, human, bots, seed=seed, save_path=save_path)


def person_choice(driver: TableDriver, rng: random.Random):
    return rng.choice(driver.view().legal_actions)


def advance(driver: TableDriver, rng: random.Random, until=lambda d: False, limit: int = 10_000) -> None:
    """Play on (the person choosing at random) until ``until(driver)`` or the match ends."""
    for _ in range(limit):
        if driver.status == "over" or until(driver):
            return
        step(driver, rng)
    raise AssertionError("the match did not end")


def step(driver: TableDriver, rng: random.Random):
    """One step of a match: the deal, a bot's move or the person's; returns its events."""
    if driver.status == "deal":
        return driver.deal()
    if driver.status == "bot":
        return driver.play_bot()
    return driver.play_human(person_choice(driver, rng))


def positions(driver: TableDriver, rng: random.Random):
    """Yield the driver at many moments of a whole match (every decision of anyone)."""
    while driver.status != "over":
        yield driver
        step(driver, rng)
    yield driver


def printed(lines, *, terminal: bool, no_color: bool = False) -> str:
    stream = io.StringIO()
    console = Console(
        file=stream,
        width=80,
        force_terminal=terminal,
        color_system="truecolor" if terminal else None,
        no_color=no_color,
    )
    print_lines(console, lines)
    return stream.getvalue()


def check_fits(text: str, max_lines: int = MAX_LINES, width: int = 80) -> None:
    lines = ANSI.sub("", text).rstrip("\n").split("\n")
    assert len(lines) <= max_lines, f"{len(lines)} lines:\n{text}"
    for line in lines:
        assert cell_len(line) <= width, f"line wider than {width} cells: {line!r}"


def flat(text: str) -> str:
    """``text`` with its lines joined and runs of spaces made one: a wrapped line reads whole."""
    return " ".join(text.split())


# -- the renderer ----------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "human"), [("classic", 0), ("table", 0), ("classic", 2), ("table", 3)])
def test_every_screen_of_a_match_fits_80x24_and_shows_no_hidden_card(rules: str, human: int) -> None:
    rng = random.Random(human)
    driver = new_driver(rules, seed=7 + human, human=human)
    seen_phases = set()
    log: list = []
    for step in positions(driver, rng):
        view = step.view()
        seen_phases.add(view.phase)
        lines = table_screen(
            view, step.names, log=log[-6:], message="Not allowed: must follow suit D. Try again."
        ).lines
        plain = printed(lines, terminal=False)
        check_fits(plain)
        assert "\x1b" not in plain
        # Every card on the screen is one the person may know about.
        visible = set(view.hand) | set(view.played_cards) | set(view.my_discards)
        if view.turned_card is not None:
            visible.add(view.turned_card)
        for rank, symbol in CARD_ON_SCREEN.findall(plain):
            assert Card.parse(rank + SYMBOL_LETTER[symbol]) in visible, plain
        # The person's hand is shown in full, numbered.
        for position, card in enumerate(view.hand, start=1):
            assert f"{position} {card.rank.letter}{card.suit.symbol}" in plain
    assert {Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY, Phase.DEAL, Phase.MATCH_OVER} <= seen_phases


def test_legal_cards_are_marked_and_listed() -> None:
    rng = random.Random(3)
    driver = new_driver(seed=3)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.PLAY)
    view = driver.view()
    legal = {a.card for a in view.legal_actions}
    plain = printed(table_screen(view, driver.names).lines, terminal=False)
    hand_line = next(line for line in plain.splitlines() if line.startswith("Your hand"))
    for card in view.hand:
        name = f"{card.rank.letter}{card.suit.symbol}"
        assert (name + "*" in hand_line) == (card in legal)
    legal_line = next(line for line in plain.splitlines() if line.startswith("* legal:"))
    assert len(CARD_ON_SCREEN.findall(legal_line)) == len(legal)


def test_no_colour_without_a_terminal_or_with_no_color() -> None:
    rng = random.Random(5)
    driver = new_driver(seed=5)
    advance(
        driver, rng, until=lambda d: d.view().phase == Phase.PLAY and d.view().trump in (Suit.HEARTS, Suit.DIAMONDS)
    )
    lines = table_screen(driver.view(), driver.names).lines
    assert COLOUR.search(printed(lines, terminal=True)), "hearts and diamonds are red on a colour terminal"
    assert not COLOUR.search(printed(lines, terminal=True, no_color=True))
    assert "\x1b" not in printed(lines, terminal=False)


def test_no_color_environment_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    rng = random.Random(5)
    driver = new_driver(seed=5)
    advance(driver, rng, until=lambda d: d.view().phase == Phase.PLAY)
    stream = io.StringIO()
    console = Console(file=stream, width=80, force_terminal=True)
    print_lines(console, table_screen(driver.view(), driver.names).lines)
    assert not COLOUR.search(stream.getvalue())


def test_seats_are_drawn_in_the_direction_of_play() -> None:
    # Counter-clockwise (classic): the next seat to play sits to the person's right.
    assert seat_positions(Match("classic").rules, 0) == {"bottom": 0, "right": 1, "top": 2, "left": 3}
    # Clockwise (table): the next seat sits to the person's left.
    assert seat_positions(Match("table").rules, 0) == {"bottom": 0, "left": 1, "top": 2, "right": 3}
    assert seat_positions(Match("classic").rules, 2) == {"bottom": 2, "right": 3, "top": 0, "left": 1}


def test_screen_puts_the_next_seat_on_the_correct_side() -> None:
    for rules, side in (("classic", "right"), ("table", "left")):
        driver = new_driver(rules)
        driver.deal()
        plain = printed(table_screen(driver.view(), driver.names).lines, terminal=False)
        row = next(line for line in plain.splitlines() if "Bot 1" in line and "Bot 3" in line)
        first, second = ("Bot 3", "Bot 1") if side == "right" else ("Bot 1", "Bot 3")
        assert row.index(first) < row.index(second), (rules, row)


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_pages_fit_and_rules_are_generated_from_the_rule_set(rules: str) -> None:
    match = Match(rules)
    text = printed(rules_lines(match.rules), terminal=False)
    check_fits(text)
    assert match.rules.direction in text
    if rules == "classic":
        assert "turns up" in text and "0 to 5" in text.replace("\n  ", " ")
        assert "the chooser" in text and "no need to beat" in text
    else:
        assert "turns up" not in text and "1 to 5" in text.replace("\n  ", " ")
        assert "undertrumping" in text and "beating the winning card" in text
    check_fits(printed(help_lines(), terminal=False))


def test_round_and_match_summaries_fit() -> None:
    rng = random.Random(11)
    driver = new_driver(seed=11)
    rounds = matches = 0
    while driver.status != "over":
        events = step(driver, rng)
        for event in events:
            check_fits(printed([describe_event(event, driver.names, 0)], terminal=False), 1)
            if event.kind == "round":
                rounds += 1
                text = printed(round_over_lines(event, driver.names, 0, 1), terminal=False)
                check_fits(text)
                assert "tricks" in text and "change" in text
            if event.kind == "match":
                matches += 1
                text = printed(match_over_lines(event, driver.names, 0, len(driver.match.rounds)), terminal=False)
                check_fits(text)
                assert "riscos" in text and "Winner" in text
    assert rounds == len(driver.match.rounds) and matches == 1


def test_hint_and_history_fit_the_notice_area() -> None:
    rng = random.Random(2)
    driver = new_driver(seed=2)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.EXCHANGE)
    options = driver.hint()
    assert options and driver.hint_bot_name in ("strong", "basic", "random")
    lines = hint_lines(options, driver.hint_bot_name)
    # Each option's note is read whole (a long one wraps; it used to be cut with "…"), and at
    # 80x24 the whole hint shows under the hand.
    check_fits(printed(lines, terminal=False), 8)
    for option in options[:4]:
        # Less what the option says itself (the strong bot's "discard 2", "sit out: …").
        note = option.note.removeprefix("sit out: ")
        assert re.fullmatch(r"discard \d", note) or note in flat(printed(lines, terminal=False))
    guidance = "You must play: a score of 5 or less must play. Discard 0-5 cards (2c 5h or 1 4) or 'keep'."
    assert table_screen(driver.view(), driver.names, notice=lines, guidance=guidance).notice_shown
    advance(driver, rng, until=lambda d: d.status == "human" and len(d.view().tricks) >= 3)
    history = history_lines(driver.view(), driver.names)
    assert len(history) <= 6 and "Tricks of round" in history[0].plain
    check_fits(printed(history, terminal=False), 6)


def test_hint_header_does_not_call_a_list_best_first_by_a_figure_it_is_not_ranked_by() -> None:
    """The strong bot ranks by your change against the others', in each option's note: its best
    option can expect more for your own score than the next.  "Lower is better" over that list
    would make the best look worse; the header says what the order is."""
    from sobedesce.bots.base import Option

    ranked = [
        Option(NameTrump(Suit.DIAMONDS), -2.27, "Diamonds as trump; -2.14 against the others"),
        Option(NameTrump(Suit.HEARTS), 0.67, "Hearts as trump; +0.68 against the others"),
        Option(NameTrump(Suit.SPADES), -0.05, "Spades as trump; +0.84 against the others"),
    ]
    header = hint_lines(ranked, "strong")[0].plain
    assert "lower is better" not in header and "best first against the others" in header
    assert cell_len(header) <= 80
    in_order = sorted(ranked, key=lambda option: option.expected_delta)
    assert "expected change of your score (lower is better)" in hint_lines(in_order, "basic")[0].plain


def test_hint_writes_the_figure_the_bot_ranks_by_after_its_note() -> None:
    """An option's ``ranking`` (a field: the bot's note does not repeat it) is written in
    words after the note, or alone, so the order of the list can be read off the screen."""
    from sobedesce.bots.base import Option
    from sobedesce.core import SIT_OUT

    lines = [
        line.plain
        for line in hint_lines(
            [
                Option(SIT_OUT, 0.0, "sit out: the score stays", 3.47),
                Option(NameTrump(Suit.SPADES), 1.84, "", 4.11),
                Option(NameTrump(Suit.HEARTS), 2.5, "no figure"),
            ],
            "strong",
        )
    ]
    assert lines[1].endswith("+0.00   the score stays; +3.47 against the others"), lines
    assert lines[2].endswith("+1.84   +4.11 against the others"), lines
    assert lines[3].endswith("+2.50   no figure"), lines


def test_a_hint_drops_a_note_that_only_repeats_its_option() -> None:
    """The strong bot's note ``discard 4`` beside ``discard 2♠ J♥ J♦ 5♦`` read as a second
    option: ``discard 4; -0.46 against the others``.  A note that says more stays."""
    from sobedesce.bots.base import Option
    from sobedesce.core import SIT_OUT

    four = Exchange.of("2S JH JD 5D")
    lines = [
        line.plain
        for line in hint_lines(
            [
                Option(four, -0.73, "discard 4", -0.46),
                Option(SIT_OUT, 0.0, "sit out: the score stays", 0.2),
                Option(Exchange.of("2S"), 0.5, "keep the best 4, expect 1.2 tricks"),
                Option(Exchange.of("2S JH"), 0.6, "discard 1", 0.7),
            ],
            "strong",
            every=True,
        )
    ]
    assert lines[1].endswith("-0.73   -0.46 against the others"), lines
    assert "discard 4" not in lines[1] and "sit out:" not in lines[2], lines
    assert lines[2].endswith("+0.00   the score stays; +0.20 against the others"), lines
    assert lines[3].endswith("+0.50   keep the best 4, expect 1.2 tricks"), lines
    assert lines[4].endswith("+0.60   discard 1; +0.70 against the others"), lines  # not what it says


# -- input parsing ------------------------------------------------------------------------------

HAND = tuple(Card.parse(c) for c in ["AS", "7H", "KH", "QD", "3C"])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("h", NameTrump(Suit.HEARTS)),
        ("S", NameTrump(Suit.SPADES)),
        ("diamonds", NameTrump(Suit.DIAMONDS)),
        ("club", NameTrump(Suit.CLUBS)),
        ("♥", NameTrump(Suit.HEARTS)),
        ("copas", NameTrump(Suit.HEARTS)),
        ("turn", TurnUp()),
        (" Turn ", TurnUp()),
    ],
)
def test_trump_answers(text: str, expected: object) -> None:
    assert parse_input(text, Phase.TRUMP, HAND[:3]) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sit", SitOut()),
        ("sit out", SitOut()),
        ("keep", Exchange(())),
        ("0", Exchange(())),
        ("1 4", Exchange((HAND[0], HAND[3]))),
        ("2c 5h", Exchange(tuple(Card.parse(c) for c in ("2C", "5H")))),
        ("3c, 7H", Exchange((HAND[4], HAND[1]))),
        ("1 kh", Exchange((HAND[0], HAND[2]))),
        ("q♦", Exchange((HAND[3],))),
    ],
)
def test_exchange_answers(text: str, expected: object) -> None:
    assert parse_input(text, Phase.EXCHANGE, HAND) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7h", Play(HAND[1])), ("KH", Play(HAND[2])), ("5", Play(HAND[4])), ("a♠", Play(HAND[0]))],
)
def test_play_answers(text: str, expected: object) -> None:
    assert parse_input(text, Phase.PLAY, HAND) == expected


@pytest.mark.parametrize("word", ["hint", "rules", "history", "help", "quit", "HINT", " exit "])
def test_commands_at_any_prompt(word: str) -> None:
    for phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY):
        assert isinstance(parse_input(word, phase, HAND), Command)


@pytest.mark.parametrize(
    ("text", "phase", "needle"),
    [
        ("x", Phase.TRUMP, "not a suit"),
        ("", Phase.PLAY, "type a card"),
        ("9", Phase.PLAY, "no card 9"),
        ("zz", Phase.PLAY, "not a card"),
        ("7h ks", Phase.PLAY, "one card"),
        ("1 as", Phase.EXCHANGE, "twice"),
        ("8h", Phase.EXCHANGE, "not a card"),
        # What other programs quit with: "'q' is not a card" told nobody how to leave.
        ("q", Phase.EXCHANGE, r"^'q' does not leave: type 'quit' to leave the table$"),
        ("Q", Phase.PLAY, r"^'Q' does not leave: type 'quit'"),
        (":q", Phase.TRUMP, r"^':q' does not leave: type 'quit'"),
    ],
)
def test_bad_input_says_what_to_type(text: str, phase: Phase, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        parse_input(text, phase, HAND)


def test_a_card_not_held_is_left_to_the_rules_core() -> None:
    # Parsing accepts any card; the core refuses it with its own reason.
    assert parse_input("2d", Phase.PLAY, HAND) == Play(Card.parse("2D"))


def test_trump_messages_offer_a_turn_up_only_where_the_rules_allow_one() -> None:
    with pytest.raises(InputError, match=r"not a suit: type S, H, D or C \(or spades, hearts…\)$"):
        parse_input("zz", Phase.TRUMP, HAND[:3], turn_allowed=False)
    with pytest.raises(InputError, match="or type 'turn'"):
        parse_input("", Phase.TRUMP, HAND[:3])
    with pytest.raises(InputError, match=r"^name a trump suit \(S, H, D or C\); 'help'"):
        parse_input("", Phase.TRUMP, HAND[:3], turn_allowed=False)


# -- the driver -----------------------------------------------------------------------------------


def test_driver_saves_after_every_decision(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    driver = new_driver(seed=4, save_path=str(path))
    rng = random.Random(4)
    for count, step in enumerate(positions(driver, rng)):
        if count % 7 == 0 and path.exists():
            assert dumps_record(read_record(path.read_text(encoding="utf-8"))) == dumps_record(step.match)
        if count > 120:
            break
    assert not list(tmp_path.glob(".sobedesce-*")), "no temporary file is left behind"


def test_save_atomically_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    save_atomically(str(path), "one")
    save_atomically(str(path), "two")
    assert path.read_text() == "two" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_illegal_moves_raise_the_rules_reason_and_change_nothing() -> None:
    rng = random.Random(8)
    driver = new_driver(seed=8)
    found = False
    for _ in range(40):
        advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.PLAY)
        if driver.status == "over":
            break
        view = driver.view()
        legal = {a.card for a in view.legal_actions}
        illegal = [c for c in view.hand if c not in legal]
        if illegal:
            before = dumps_record(driver.match)
            with pytest.raises(IllegalActionError) as caught:
                driver.play_human(Play(illegal[0]))
            assert caught.value.reason.startswith("must ")
            assert driver.illegal_reason(Play(illegal[0])) == caught.value.reason
            assert dumps_record(driver.match) == before
            found = True
            break
        driver.play_human(Play(next(iter(legal))))
    assert found


def test_forced_play_and_must_play_reasons() -> None:
    rng = random.Random(9)
    driver = new_driver(seed=9)
    forced_reasons: set[str] = set()
    must_play: set[str] = set()
    while driver.status != "over":
        if driver.status == "human":
            forced = driver.forced_play()
            legal = driver.view().legal_actions
            if driver.view().phase == Phase.PLAY:
                assert (forced is not None) == (len(legal) == 1)
            if forced is not None:
                assert forced[0] == legal[0].card
                forced_reasons.add(forced[1])
            reason = driver.must_play_reason()
            if reason is not None:
                must_play.add(reason)
                assert SitOut() not in legal
        advance(driver, rng, until=lambda d: d.status == "human", limit=100)
        if driver.status == "human":
            driver.play_human(person_choice(driver, rng))
    assert "it is your last card" in forced_reasons
    assert any(r.startswith("must play") for r in must_play)


def test_a_resumed_match_goes_on_exactly_as_it_would_have(tmp_path: Path) -> None:
    def person(driver: TableDriver):
        view = driver.view()
        return random.Random(f"{view.round_index}/{len(view.played_cards)}/{view.phase}").choice(view.legal_actions)

    def finish(driver: TableDriver, stop_after: int | None = None) -> None:
        steps = 0
        while driver.status != "over" and (stop_after is None or steps < stop_after):
            if driver.status == "deal":
                driver.deal()
            elif driver.status == "bot":
                driver.play_bot()
            else:
                driver.play_human(person(driver))
            steps += 1

    whole = new_driver(seed=21)
    finish(whole)
    path = tmp_path / "m.json"
    first = new_driver(seed=21, save_path=str(path))
    finish(first, stop_after=57)
    resumed_match = read_record(path.read_text(encoding="utf-8"))
    resumed = TableDriver(resumed_match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=21)
    finish(resumed)
    assert dumps_record(resumed.match) == dumps_record(whole.match)


def test_events_never_show_another_seat_s_discards() -> None:
    rng = random.Random(12)
    driver = new_driver(seed=12)
    while driver.status != "over":
        events = step(driver, rng)
        for event in events:
            if event.kind == "exchange" and event.seat != 0:
                assert event.discard == () and event.drawn == ()


def test_bot_names_and_levels() -> None:
    assert level_of_name("Bot 2 (hard)") == "hard"
    assert level_of_name("Ana") is None
    used, bot = resolve_bot("random")
    assert used == "random" and bot.name == "random"
    used, bot = resolve_bot("hard")
    assert used == "hard" and bot.name == "basic"
    # A seeded match replays exactly: its bots play at their sample budgets, not by the clock.
    assert resolve_bot("expert")[1].deadline is not None
    assert resolve_bot("expert", timed=False)[1].deadline is None
    with pytest.raises(ValueError, match="no-such-bot"):
        resolve_bot("no-such-bot")
    with pytest.raises(ValueError, match="never offered at a table"):
        resolve_bot("oracle")


def test_a_tuned_or_plug_in_bot_is_read_back_from_its_seats_name() -> None:
    """``Bot 1 (expert:play_samples=5)`` carried no level (only ``[\\w-]+`` was read), and a
    resumed match gave the seat a plain hard bot under that name."""
    assert level_of_name("Bot 1 (expert:play_samples=5)") == "expert:play_samples=5"
    assert level_of_name("Bot 3 (my.bots:MyBot:mode=Fast)") == "my.bots:MyBot:mode=Fast"
    assert level_of_name("Bot 2 (openspiel-ismcts)") == "openspiel-ismcts"
    for name in ("Bot 1 (hard) ", "Bot 1 ()", "Bot 1 (two words)", "Bot 1 (hard)\n", "Ana (hard)"):
        assert level_of_name(name) is None, name


def _play_captured(monkeypatch: pytest.MonkeyPatch, *args: str) -> TableDriver:
    """``sobedesce play ARGS`` in this process up to the table: the driver it would play."""
    from sobedesce.cli.main import main
    from sobedesce.terminal.app import TerminalTable

    seen: list[TableDriver] = []

    def run(table: TerminalTable) -> int:
        seen.append(table.driver)
        return 0

    monkeypatch.setattr(TerminalTable, "run", run)
    assert main(["play", "--speed", "0", *args]) == 0
    return seen[0]


def test_a_resumed_match_keeps_its_tuned_and_plug_in_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved with ``--bots expert:play_samples=5`` (or a plug-in's class), resumed by plain
    hard bots under those names, silently."""
    (tmp_path / "my_table_bots.py").write_text(
        "from sobedesce.bots import RandomBot\n\nclass MyBot(RandomBot):\n    name = 'mine'\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "st.json"
    spec = "expert:play_samples=5,my_table_bots:MyBot,random"
    first = _play_captured(monkeypatch, "--bots", spec, "--seed", "1", "--save", str(path))
    first.save()
    names = ["You", "Bot 1 (expert:play_samples=5)", "Bot 2 (my_table_bots:MyBot)", "Bot 3 (random)"]
    assert list(read_record(path.read_text(encoding="utf-8")).players or ()) == names
    resumed = _play_captured(monkeypatch, "--resume", str(path), "--seed", "1")
    assert resumed.bots[1].name == "strong" and resumed.bots[1].play_samples == 5
    assert resumed.bots[2].name == "mine" and resumed.bots[3].name == "random"
    assert resumed.names == names


def test_the_view_is_the_only_source_of_the_screen() -> None:
    # Two matches that differ only in another seat's hidden cards draw the same screen.
    rng = random.Random(1)
    driver = new_driver(seed=1)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.PLAY)
    record = json.loads(dumps_record(driver.match))
    deck = record["rounds"][-1]["deck"]
    drawn = sum(len(e.get("discard", ())) for e in record["rounds"][-1]["exchanges"])
    undrawn = list(range(20 + drawn, 40))  # the stock no one has drawn from: hidden from everyone
    assert len(undrawn) >= 2, "the position must leave two stock cards to swap"
    first, last = undrawn[0], undrawn[-1]
    deck[first], deck[last] = deck[last], deck[first]
    other = read_record(json.dumps(record))
    assert other.rounds[-1].deck != driver.match.rounds[-1].deck
    assert seat_view(other, 0) == driver.view()
    assert table_screen(seat_view(other, 0), driver.names).lines == table_screen(driver.view(), driver.names).lines


# -- the command, without a terminal -----------------------------------------------------------------


def run_play(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sobedesce", "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
    )


def test_piped_output_has_no_ansi_and_eof_leaves_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    result = run_play("--seed", "3", "--bots", "random", "--speed", "0", "--save", str(path), stdin="h\nkeep\nhint\n")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "End of input" in result.stdout and f"--resume {path}" in result.stdout
    assert "Traceback" not in result.stderr
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"] == ["You", "Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)"]
    read_record(path.read_text(encoding="utf-8"))
    for screen in result.stdout.split("End of input")[0].split("Sobe e Desce · ")[1:]:
        check_fits(screen, 24)


def test_bot_n_sits_at_seat_n_whatever_your_seat(tmp_path: Path) -> None:
    """With --seat 2 the bots were numbered from the seat after yours: "Bot 2 · seat 0"."""
    path = tmp_path / "m.json"
    name = "Maria da Conceição Fernandes"
    result = run_play(
        "--seat", "2", "--name", name, "--seed", "21", "--bots", "random", "--speed", "0", "--save", str(path),
        stdin="quit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    players = json.loads(path.read_text(encoding="utf-8"))["players"]
    assert players == ["Bot 0 (random)", "Bot 1 (random)", name, "Bot 3 (random)"]
    for seat in (0, 1, 3):
        assert f"Bot {seat} (random) · seat {seat}" in result.stdout, result.stdout
    resumed = run_play("--resume", str(path), "--speed", "0", stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Bot 3 (random) · seat 3" in resumed.stdout


def test_a_long_name_gets_the_room_there_is() -> None:
    """A name was cut to 14 cells on the table and 15 in the summaries, whatever the room."""
    name = "Maria da Conceição Fernandes"
    players = ["Bot 0 (random)", "Bot 1 (random)", name, "Bot 3 (random)"]
    match = Match("classic", players=players)
    driver = TableDriver(match, 2, {s: make_bot("random") for s in (0, 1, 3)}, seed=21)
    rng = random.Random(21)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.EXCHANGE)
    text = printed(table_screen(driver.view(), driver.names, width=100, height=30).lines, terminal=False)
    check_fits(text, MAX_LINES, 80)
    assert f"{name} (you) · seat 2" in text, text
    ended = None
    while ended is None:
        ended = next((e for e in step(driver, rng) if e.kind == "round"), None)
    summary = printed(round_over_lines(ended, driver.names, 2, 3, 100), terminal=False)
    assert f"{name} (you)" in summary, summary
    check_fits(printed(round_over_lines(ended, driver.names, 2, 3, 60), terminal=False), MAX_LINES, 60)


def test_no_seed_is_shown_unless_one_was_given(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    result = run_play("--bots", "random", "--speed", "0", "--save", str(path), stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "Seed" not in result.stdout and "seed" not in path.read_text(encoding="utf-8")
    resumed = run_play("--resume", str(path), "--speed", "0", stdin="quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "Seed" not in resumed.stdout and "Resumed" in resumed.stdout
    given = run_play("--seed", "12", "--bots", "random", "--speed", "0", stdin="quit\n")
    assert "Seed 12." in given.stdout


def test_quit_saves_and_exits_zero(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    result = run_play("--seed", "5", "--bots", "random", "--speed", "0", "--save", str(path), stdin="quit\n")
    assert result.returncode == 0
    assert "You leave the table" in result.stdout
    assert read_record(path.read_text(encoding="utf-8")).rounds


def test_bad_options_are_reported_without_a_traceback(tmp_path: Path) -> None:
    result = run_play("--bots", "random,random")
    assert result.returncode == 2 and "one name or three" in result.stderr
    result = run_play("--bots", "nonsense")
    assert result.returncode == 2 and "unknown bot" in result.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = run_play("--resume", str(bad))
    assert result.returncode == 2 and "cannot resume" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_oracle_is_never_offered_at_a_table() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "sobedesce", "play", "--bots", "oracle", "--speed", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 2
    assert "never offered at a table" in done.stderr
    assert "Traceback" not in done.stderr


# -- hidden information, resuming, the loop (issue 13) ---------------------------------------


def test_without_a_seed_deals_come_from_the_os_and_the_record_holds_no_seed(tmp_path: Path) -> None:
    decks = []
    for _ in range(2):
        path = tmp_path / "s.json"
        match = Match("classic", players=NAMES)
        driver = TableDriver(match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=None, save_path=str(path))
        driver.deal()
        decks.append(driver.match.rounds[0].deck)
        assert set(json.loads(path.read_text(encoding="utf-8"))) <= {"format", "version", "rules", "players", "rounds"}
    # Two tables in the same state deal differently: nothing but the OS's randomness decides.
    assert decks[0] != decks[1]


def test_without_a_seed_a_resumed_round_goes_on_exactly_as_it_would_have(tmp_path: Path) -> None:
    rng = random.Random(5)
    path = tmp_path / "r.json"
    bots = {s: make_bot("random") for s in (1, 2, 3)}
    first = TableDriver(Match("classic", players=NAMES), 0, bots, seed=None, save_path=str(path))
    advance(
        first, rng, until=lambda d: len(d.match.rounds) == 2 and d.status == "human" and d.view().phase == Phase.PLAY
    )
    resumed = TableDriver(read_record(path.read_text(encoding="utf-8")), 0, bots, seed=None)
    # Both go on to the end of the round in play, the person choosing the same way at both.
    for driver in (first, resumed):
        person = random.Random(9)
        advance(driver, person, until=lambda d: d.status == "deal")
    assert dumps_record(resumed.match) == dumps_record(first.match)
    assert len(first.match.rounds) == 2


def scripted_table(driver: TableDriver, answer, speed: float = 0.0):
    """A :class:`TerminalTable` on a string console, answering prompts with ``answer``."""
    from sobedesce.terminal.app import TerminalTable

    stream = io.StringIO()
    console = Console(file=stream, width=80, force_terminal=False, color_system=None)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 5000, "the table keeps asking"
        console.print(prompt, markup=False)
        return answer(prompt, driver)

    table = TerminalTable(driver, console, speed=speed, read=read, sleep=lambda seconds: None)
    return table, stream, prompts


def test_play_again_starts_the_next_match_at_the_same_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the end of a match the program used to end: to play on, a person typed the command
    again.  Now it asks "Play again?": yes starts a match with the same rules, names and bots,
    the next seed, saved in the next free file; a wrong answer is asked again."""
    from sobedesce.cli.play import PlayAgain
    from sobedesce.terminal.app import TerminalTable

    # A short path: "Saved in …" is a line of the table's log, folded at the window's 80
    # columns, and under pytest-100 (one digit more than pytest-99) the whole path no longer fit.
    monkeypatch.chdir(tmp_path)
    path = Path("m.json")
    driver = new_driver("table", seed=7, save_path=str(path))
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=24, force_terminal=False, color_system=None)
    prompts: list[str] = []
    said = iter(["maybe", "", "Sim"])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 5000, "the table keeps asking"
        console.print(prompt, markup=False)
        if prompt.endswith(("Play again? (y/n) > ", "y or n? > ")):
            return next(said)
        if len(prompts) > 1 and prompts[-2].endswith("y or n? > "):
            return "quit"  # the first decision of the second match
        return first_legal(prompt, table.driver)

    table = TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None, again=PlayAgain())
    assert table.run() == 0
    out = stream.getvalue()
    asked = [p for p in prompts if "Play again" in p or "y or n" in p]
    assert asked == [
        "Play again? (y/n) > ",
        "'maybe' is not an answer: y or n? > ",
        "y or n? > ",
    ]
    first = read_record(path.read_text(encoding="utf-8"))
    assert first.is_over
    second_path = Path("m-2.json")
    assert "Seed 8. A new match. Type 'help' at any prompt." in out and f"Saved in {second_path}." in out
    assert f"Continue it with: sobedesce play --resume {second_path} --seed 8" in out
    second = read_record(second_path.read_text(encoding="utf-8"))
    assert not second.is_over and second.rules.name == "table" and second.players == first.players
    fresh = new_driver("table", seed=8)
    fresh.deal()
    assert second.rounds[0].deck == fresh.match.rounds[0].deck, "the next match is the next seed's"
    assert table.driver.bots.keys() == driver.bots.keys()


def test_the_pages_are_shown_at_the_play_again_prompt_too(tmp_path: Path) -> None:
    """``rules``, ``help`` and ``history`` work at any prompt, "Play again?" included: the page,
    then the question again."""
    from sobedesce.cli.play import PlayAgain
    from sobedesce.terminal.app import TerminalTable

    driver = new_driver(seed=5)
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=24, force_terminal=False, color_system=None)
    answers = iter(["rules", "", "help", "", "n"])
    asked: list[str] = []

    def read(prompt: str) -> str:
        if asked or prompt.startswith("Play again"):
            asked.append(prompt)
            console.print(prompt, markup=False)
            return next(answers)
        return first_legal(prompt, driver)

    table = TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None, again=PlayAgain())
    assert table.run() == 0
    assert asked == ["Play again? (y/n) > ", "Press Enter to return to the table > "] * 2 + ["Play again? (y/n) > "]
    out = stream.getvalue()
    assert "Rules: classic" in out and "How to answer" in out


@pytest.mark.parametrize("answer", ["n", "quit", None])
def test_no_more_at_the_end_of_a_match_ends_the_program(tmp_path: Path, answer: str | None) -> None:
    from sobedesce.cli.play import PlayAgain
    from sobedesce.terminal.app import TerminalTable

    path = tmp_path / "m.json"
    driver = new_driver(seed=3, save_path=str(path))
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=24, force_terminal=False, color_system=None)
    asked: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Play again"):
            asked.append(prompt)
            if answer is None:
                raise EOFError
            return answer
        return first_legal(prompt, driver)

    table = TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None, again=PlayAgain())
    assert table.run() == 0
    assert asked == ["Play again? (y/n) > "]
    assert table.driver is driver and driver.status == "over"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"], "no second match was started"
    assert "leave the table" not in stream.getvalue()


def test_the_next_match_is_saved_in_the_next_free_file(tmp_path: Path) -> None:
    from sobedesce.cli.play import next_save_path

    assert next_save_path("game.json") == "game-2.json"
    assert next_save_path("game.json", 3) == "game-3.json"
    # The counter is never read from the name: a date or a year is part of it.
    assert next_save_path("2024-12-04.json") == "2024-12-04-2.json"
    assert next_save_path("game-2024.json") == "game-2024-2.json"
    assert next_save_path(os.path.join("my games", "ana")) == os.path.join("my games", "ana-2")
    assert next_save_path("a-b.json") == "a-b-2.json"
    assert next_save_path("game-².json") == "game-²-2.json", "a digit that is no number is part of the name"
    (tmp_path / "g-2.json").write_text("taken")
    (tmp_path / "g-3.json").write_text("taken")
    assert next_save_path(str(tmp_path / "g.json")) == str(tmp_path / "g-4.json")


def test_the_saves_of_one_run_count_from_the_first_matchs_file(tmp_path: Path) -> None:
    """Play again used to take any trailing -digits for its counter (``2024-12-04.json`` →
    ``2024-12-5.json``, and ``game-2.json`` → ``game-3.json`` → ``game-4.json`` from a file
    that was itself named so): the chain now counts from the first match's file."""
    from sobedesce.cli.play import PlayAgain

    again = PlayAgain()
    first = str(tmp_path / "2024-12-04.json")
    (tmp_path / "2024-12-04-3.json").write_text("taken")
    driver = new_driver(seed=1, save_path=first)
    saved = []
    for _ in range(3):
        driver, _notes = again(driver)
        assert driver.save_path is not None
        saved.append(os.path.basename(driver.save_path))
    assert saved == ["2024-12-04-2.json", "2024-12-04-4.json", "2024-12-04-5.json"]


def test_the_command_to_continue_can_be_copied_as_it_is(tmp_path: Path) -> None:
    """Leaving a seeded match saved in a folder with a space: the command printed quotes the
    path for the shell and gives the seed again (without it the next deals change)."""
    folder = tmp_path / "my games"
    folder.mkdir()
    path = str(folder / "ana.json")
    driver = new_driver(seed=7, save_path=path)
    table, stream, _ = scripted_table(driver, lambda prompt, d: "quit")
    assert table.run() == 0
    out = stream.getvalue()
    assert f"Continue it with: sobedesce play --resume '{path}' --seed 7" in out, out[-300:]
    assert read_record(Path(path).read_text(encoding="utf-8")).rules.name == "classic"


def test_a_file_whose_name_starts_with_a_dash_is_continued_by_a_command_that_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--save=-x.json`` printed ``sobedesce play --resume -x.json``, which reads ``-x.json``
    as an unknown option."""
    monkeypatch.chdir(tmp_path)
    driver = new_driver(seed=7, save_path="-x.json")
    table, stream, _ = scripted_table(driver, lambda prompt, d: "quit")
    assert table.run() == 0
    command = stream.getvalue().split("Continue it with: ")[1].splitlines()[0]
    assert command == "sobedesce play --resume ./-x.json --seed 7"
    # The command, run as printed (in the folder it was printed in), continues the match.
    resumed = subprocess.run(
        [sys.executable, "-m", *shlex.split(command), "--speed", "0"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert resumed.returncode == 0 and "Resumed ./-x.json" in resumed.stdout, resumed.stderr


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077], ids=["022", "002", "077"])
def test_saving_keeps_a_files_permissions_and_gives_a_new_file_the_usual_ones(tmp_path: Path, umask: int) -> None:
    """Every save went through ``mkstemp``: a new record was ``600`` (the demo's and the
    arena's ``644``), and a resumed file that was ``664`` became ``600``."""
    path = tmp_path / "m.json"
    old = os.umask(umask)
    try:
        save_atomically(str(path), "one")
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask
        for mode in (0o664, 0o600, 0o640):
            path.chmod(mode)
            save_atomically(str(path), "two")
            assert path.stat().st_mode & 0o777 == mode and path.read_text() == "two"
    finally:
        os.umask(old)
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


class _FailingBot:
    """A plug-in bot with a bug: ``how`` says what its decision does."""

    name = "failing"

    def __init__(self, how: str) -> None:
        self.how = how

    def act(self, view: Any, rng: random.Random) -> Any:
        if self.how == "raises":
            raise RuntimeError("boom\nat depth 3")
        if self.how == "exits":
            raise SystemExit(3)
        if self.how == "ctrl-c":
            raise KeyboardInterrupt
        if self.how == "a word":
            return "AS"
        from sobedesce.core import SitOut

        return SitOut()  # at the trump decision: illegal

    def explain(self, view: Any, rng: random.Random) -> list[Any]:
        return []


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("raises", "bot 'Bot 1 (mine)' (seat 1) raised RuntimeError: boom at depth 3"),
        ("exits", "bot 'Bot 1 (mine)' (seat 1) raised SystemExit: 3"),
        ("a word", "bot 'Bot 1 (mine)' (seat 1) broke the rules: returned 'AS', which is not an action"),
        ("illegal", "bot 'Bot 1 (mine)' (seat 1) broke the rules: sit out is illegal: cannot sit now"),
    ],
)
def test_a_bot_that_fails_ends_the_match_saved_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str, message: str
) -> None:
    """A plug-in bot that raised, or answered with what is not an action or an illegal one,
    ended the table with a traceback (the arena says which bot failed, in one line)."""
    path = tmp_path / "m.json"
    match = Match("classic", players=["Ana", "Bot 1 (mine)", "Bot 2 (random)", "Bot 3 (random)"])
    bots = {1: _FailingBot(how), 2: make_bot("random"), 3: make_bot("random")}
    # Seat 1 chooses trump in the first round with this seed: the bot fails at once.
    driver = TableDriver(match, 0, bots, seed=2, save_path=str(path))
    driver.deal()
    assert driver.to_act == 1
    table, stream, _ = scripted_table(driver, first_legal)
    assert table.run() == 1
    err = capsys.readouterr().err
    assert err.startswith(f"sobedesce play: error: {message}") and err.count("\n") == 1, err
    out = stream.getvalue()
    assert "Traceback" not in out and f"Continue it with: sobedesce play --resume {path} --seed 2" in out, out[-300:]
    assert dumps_record(read_record(path.read_text(encoding="utf-8"))) == dumps_record(driver.match)


def test_ctrl_c_while_a_bot_decides_is_not_taken_for_its_failure(tmp_path: Path) -> None:
    match = Match("classic", players=list(NAMES))
    bots = {1: _FailingBot("ctrl-c"), 2: make_bot("random"), 3: make_bot("random")}
    driver = TableDriver(match, 0, bots, seed=2)
    driver.deal()
    table, stream, _ = scripted_table(driver, first_legal)
    assert table.run() == 130 and "Interrupted." in stream.getvalue()


@pytest.mark.parametrize("back", [True, False], ids=["folder back", "folder gone"])
def test_a_save_that_fails_mid_match_loses_nothing(tmp_path: Path, back: bool) -> None:
    """The save folder vanishes mid-match (or the disk fills): the decision stands, the table
    says it cannot save and plays on, and the next move after the folder is back saves it all.
    Before, the error ended the program with a traceback and the match in memory was lost.
    With the folder gone for good when the person quits, the program says the match could not
    be saved and ends with status 1 (it ended with 0, as if all were well)."""
    import shutil

    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "m.json"
    driver = new_driver(seed=3, save_path=str(path))
    asked = 0

    def answer(prompt: str, d: TableDriver) -> str:
        nonlocal asked
        asked += 1
        if asked == 1:
            shutil.rmtree(folder)
        elif asked == 4 and back:
            folder.mkdir()
        elif asked == (7 if back else 4):
            return "quit"
        return first_legal(prompt, d)

    table, stream, _ = scripted_table(driver, answer)
    assert table.run() == (0 if back else 1)
    out = stream.getvalue()
    assert "! Not saved (No such file or directory): each move tries again." in out
    if not back:
        assert f"You leave the table. The match could not be saved in {path}" in out
        return
    assert "Saved again: nothing is lost." in out and "You leave the table. The match is saved in" in out
    saved = read_record(path.read_text(encoding="utf-8"))
    assert dumps_record(saved) == dumps_record(driver.match)


def first_legal(prompt: str, driver: TableDriver) -> str:
    """Type the first legal decision (a card by its number, as a new player would)."""
    if prompt.startswith("Press Enter"):
        return ""
    view = driver.view()
    action = view.legal_actions[0]
    if isinstance(action, Play):
        return str(view.hand.index(action.card) + 1)
    if isinstance(action, NameTrump):
        return action.suit.letter
    if isinstance(action, TurnUp):
        return "turn"
    if isinstance(action, SitOut):
        return "sit"
    assert isinstance(action, Exchange)
    return " ".join(str(c) for c in action.discard) or "keep"


@pytest.mark.parametrize("speed", [0.0, 0.5])
def test_a_forced_play_is_one_event(speed: float) -> None:
    driver = new_driver("table", seed=3)
    table, stream, prompts = scripted_table(driver, first_legal, speed=speed)
    assert table.run() == 0
    text = stream.getvalue()
    forced = re.findall(r"^Forced: you play (\S+) — [^\n]+\.$", text, flags=re.M)
    assert forced, "forced plays happen in a whole match"
    for screen in text.split("Sobe e Desce · ")[1:]:
        lines = screen.splitlines()
        for above, below in itertools.pairwise(lines):
            assert not (above.startswith("Forced:") and below == above), screen
            card = re.match(r"Forced: you play (\S+) ", above)
            assert not (card and below == f"You play {card.group(1)}."), screen
        # A screen drawn while the table pauses (no prompt under it) asks nobody to type.
        if not any(line.rstrip().endswith(">") for line in lines):
            assert "type a card" not in screen and "Discard" not in screen, screen
    assert not any("Forced" in p for p in prompts)


def test_help_offers_only_the_answers_of_the_rule_set() -> None:
    table = printed(help_lines(Phase.EXCHANGE, Match("table").rules), terminal=False)
    classic = printed(help_lines(Phase.EXCHANGE, Match("classic").rules), terminal=False)
    assert "'turn'" not in table and "'keep'" not in table and "1 to 5 cards" in table
    assert "'turn'" in classic and "'keep'" in classic and "0 to 5 cards" in classic
    for text in (table, classic):
        check_fits(text)
        assert "hint      when you decide" in text


def test_commands_at_the_round_over_prompt() -> None:
    driver = new_driver(seed=6)
    said: dict[str, int] = {}

    def answer(prompt: str, driver: TableDriver) -> str:
        if prompt.startswith("Press Enter to deal round 2"):
            for word in ("hint", "history", "help", "xyz"):
                if word not in said:
                    said[word] = 1
                    return word
            return "quit"
        return first_legal(prompt, driver)

    table, stream, prompts = scripted_table(driver, answer)
    assert table.run() == 0
    text = stream.getvalue()
    assert "No decision is due: 'hint' helps when you choose trump, exchange or play." in text
    assert "? Press Enter to deal round 2, or type rules, history, help or quit." in text
    assert "Press Enter to return to the table > " in prompts  # history and help are pages
    assert "You leave the table." in text and len(driver.match.rounds) == 1
    for screen in text.split("Round 1 is over")[1:]:
        check_fits(screen.split("Press Enter")[0], MAX_LINES)


def test_line_reader_reads_lines_and_drops_typeahead() -> None:
    from sobedesce.terminal.app import LineReader, _ConsoleReader

    master, slave = os.openpty()
    try:
        console = Console(file=io.StringIO(), force_terminal=False)
        read = _ConsoleReader(console, slave)
        os.write(master, b"7h\n1 4\n")
        assert read("Your card > ") == "7h"
        read.discard_typeahead()  # keys typed while no prompt showed answer nothing
        os.write(master, b"hint\n")
        assert read("Your card > ") == "hint"
        assert "Your card > " in console.file.getvalue()
        reader = LineReader(slave)
        os.write(master, b"\x04")  # Ctrl-D on an empty line
        with pytest.raises(EOFError):
            reader.readline()
    finally:
        os.close(master)
        os.close(slave)


def test_ctrl_c_ends_the_wait_for_a_line_whenever_it_lands() -> None:
    import signal
    import threading

    from sobedesce.terminal.app import LineReader

    read_end, write_end = os.pipe()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    unblocked = threading.Event()
    try:
        for _ in range(20):
            reader = LineReader(read_end)

            def interrupt() -> None:
                os.kill(os.getpid(), signal.SIGINT)
                # If the interrupt were swallowed the read would hang: a line unblocks it
                # (and the test then fails) once the main thread has given up waiting.
                if not unblocked.wait(30):
                    os.write(write_end, b"swallowed\n")

            killer = threading.Thread(target=interrupt)
            with pytest.raises(KeyboardInterrupt):
                killer.start()
                reader.readline()
            unblocked.set()
            killer.join()
            unblocked.clear()
    finally:
        signal.signal(signal.SIGINT, previous)
        os.close(read_end)
        os.close(write_end)


# -- what a new player ran into (the terminal and ``play``'s options) -----------------------------


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``sobedesce ARGS`` in this process (for options refused before any prompt): status, stderr."""
    from sobedesce.cli.main import main

    status = main(list(args))
    return status, capsys.readouterr().err


def saved_match(path: Path, rules: str = "classic", players: tuple[str, ...] | None = None, until=None) -> str:
    """A match played a little (at random) and saved at ``path``; returns its text."""
    match = Match(rules, players=list(players or ("You", "Bot 1 (easy)", "Bot 2 (easy)", "Bot 3 (easy)")))
    driver = TableDriver(match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=4, save_path=str(path))
    rng = random.Random(4)
    advance(driver, rng, until=until or (lambda d: d.status == "human" and d.view().phase == Phase.PLAY))
    driver.save()
    return path.read_text(encoding="utf-8")


def test_save_never_overwrites_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ana.json"
    text = saved_match(path)
    status, err = run_main(capsys, "play", "--save", str(path))
    assert status == 2 and f"--resume {path}" in err and len(err.splitlines()) == 1
    assert path.read_text(encoding="utf-8") == text
    other = tmp_path / "notes.txt"
    other.write_text("mine\n")
    assert run_main(capsys, "play", "--resume", str(path), "--save", str(other))[0] == 2
    assert other.read_text() == "mine\n" and path.read_text(encoding="utf-8") == text


@pytest.mark.parametrize("where", ["a directory", "no such folder"])
def test_an_unwritable_save_file_is_a_bad_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    path = tmp_path if where == "a directory" else tmp_path / "nowhere" / "x.json"
    status, err = run_main(capsys, "play", "--speed", "0", "--save", str(path))
    assert status == 2 and "cannot save to" in err and "Traceback" not in err


@pytest.mark.parametrize("speed", ["nan", "inf", "1e400", "-inf", "-1"])
def test_speed_must_be_a_finite_number(capsys: pytest.CaptureFixture[str], speed: str) -> None:
    status, err = run_main(capsys, "play", f"--speed={speed}")
    assert status == 2 and "--speed must be a finite number of seconds, 0 to 60" in err


def test_empty_bots_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = run_main(capsys, "play", "--bots", "")
    assert status == 2 and "--bots takes one name or three" in err


def test_a_blank_name_among_three_bots_is_said_to_be_empty(capsys: pytest.CaptureFixture[str]) -> None:
    """Three fields were given: the message used to ask for "three separated by commas"."""
    status, err = run_main(capsys, "play", "--bots", "easy,,hard")
    assert status == 2
    assert "--bots 'easy,,hard': name 2 of the three is empty" in err
    assert "three separated by commas" not in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--rules", "classic"], "is a match under the table rules"),
        (["--seat", "1"], "seat 1 of"),
        (["--name", "Tess"], "no seat of"),
        (["--seat", "0", "--name", "Tess"], "not 'Tess'"),
    ],
)
def test_resume_refuses_options_that_contradict_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    path = tmp_path / "t.json"
    saved_match(path, "table")
    status, err = run_main(capsys, "play", "--resume", str(path), *args)
    assert status == 2 and needle in err, err


def test_an_arena_record_has_no_seat_for_a_person(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "arena.json"
    saved_match(path, players=("random#3", "basic#0", "random#1", "random#2"))
    for args in ([], ["--seat", "1"]):
        status, err = run_main(capsys, "play", "--resume", str(path), *args)
        assert status == 2 and "bot" in err, err


def test_resuming_between_rounds_names_the_round_to_come(tmp_path: Path) -> None:
    saved_match(tmp_path / "b.json", until=lambda d: d.status == "deal" and len(d.match.rounds) == 1)
    result = subprocess.run(
        [sys.executable, "-m", "sobedesce", "play", "--resume", "b.json", "--speed", "0"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Resumed b.json at round 2." in result.stdout
    assert "· round 2 ·" in result.stdout.split("Resumed")[0]  # as the header says


def test_the_next_dealer_is_named_in_good_english() -> None:
    driver = new_driver(seed=6)
    rng = random.Random(6)
    ended = None
    while ended is None:
        ended = next((e for e in step(driver, rng) if e.kind == "round"), None)
    you = printed(round_over_lines(ended, driver.names, 0, 0), terminal=False)
    bot = printed(round_over_lines(ended, driver.names, 0, 1), terminal=False)
    assert "Next: round 2, you deal." in you
    assert "Next: round 2, Bot 1 deals." in bot


def test_the_summaries_say_you_once() -> None:
    """Named 'You' (the default), the person's row read 'You (you)'; another name keeps it."""
    driver = new_driver(seed=6)
    rng = random.Random(6)
    ended = None
    while ended is None:
        ended = next((e for e in step(driver, rng) if e.kind == "round"), None)
    names = list(driver.names)
    for own, label in (("You", "You "), ("Ana", "Ana (you)")):
        names[0] = own
        text = printed(round_over_lines(ended, names, 0, 0), terminal=False)
        assert label in text and "You (you)" not in text


def test_keys_typed_while_the_bots_move_answer_nothing() -> None:
    from sobedesce.terminal.app import TerminalTable

    driver = new_driver(seed=1)
    console = Console(file=io.StringIO(), width=80, force_terminal=False, color_system=None)

    class TypingAhead:
        """A person who types ``quit`` right after each answer, while the table moves on: the
        line waits in the terminal's buffer until a prompt reads it or it is dropped."""

        def __init__(self) -> None:
            self.pending: list[str] = []
            self.dropped: list[str] = []
            self.answered = 0

        def __call__(self, prompt: str) -> str:
            if self.pending:
                return self.pending.pop(0)
            self.answered += 1
            if self.answered > 3:
                return "quit"
            self.pending.append("quit")
            return first_legal(prompt, driver)

        def discard_typeahead(self) -> None:
            self.dropped += self.pending
            self.pending.clear()

    person = TypingAhead()
    assert TerminalTable(driver, console, speed=0, read=person, sleep=lambda s: None).run() == 0
    assert person.answered == 4 and person.dropped == ["quit"] * 3


def test_quit_at_a_page_leaves_the_table(tmp_path: Path) -> None:
    path = tmp_path / "page.json"
    for page in ("rules", "help"):
        driver = new_driver(seed=2, save_path=str(path))

        def answer(prompt: str, driver: TableDriver, page: str = page) -> str:
            return "quit" if prompt.startswith("Press Enter to return") else page

        table, stream, prompts = scripted_table(driver, answer)
        assert table.run() == 0
        assert prompts == [prompts[0], "Press Enter to return to the table > "], prompts
        assert "You leave the table. The match is saved in" in stream.getvalue()
        assert read_record(path.read_text(encoding="utf-8")).rounds
    # history is a page at the end of a round (at a decision it is shown under the hand)
    driver = new_driver(seed=6)

    def at_round_end(prompt: str, driver: TableDriver) -> str:
        if prompt.startswith("Press Enter to deal"):
            return "history"
        if prompt.startswith("Press Enter to return"):
            return "QUIT"
        return first_legal(prompt, driver)

    table, stream, prompts = scripted_table(driver, at_round_end)
    assert table.run() == 0
    assert prompts[-1] == "Press Enter to return to the table > " and len(driver.match.rounds) == 1


def test_an_empty_exchange_answer_lists_only_the_answers_allowed_now() -> None:
    hand = HAND
    said = {}
    for keep in (True, False):
        for sit in (True, False):
            with pytest.raises(InputError) as error:
                parse_input("", Phase.EXCHANGE, hand, keep_allowed=keep, sit_allowed=sit)
            said[keep, sit] = str(error.value)
            assert ("'keep'" in said[keep, sit]) == keep and ("'sit'" in said[keep, sit]) == sit
    # At the table: the rule set's discards, and whether this person may sit out now.
    cases = set()
    for rules, seed in (("table", 1), ("table", 9), ("classic", 1), ("classic", 2)):
        driver = new_driver(rules, seed=seed)
        seen: list[tuple[bool, bool]] = []

        def answer(prompt: str, driver: TableDriver, seen: list[tuple[bool, bool]] = seen) -> str:
            if prompt.startswith("Discard") and not seen:
                rules_ = driver.match.rules
                seen.append((rules_.min_discard == 0, driver.must_play_reason() is None))
                return ""
            return "quit" if seen else first_legal(prompt, driver)

        table, stream, _ = scripted_table(driver, answer)
        table.run()
        assert seen, "an exchange prompt came"
        assert "? " + said[seen[0]] in " ".join(stream.getvalue().split())
        cases.add(seen[0])
    assert cases == set(said)  # keep and sit each allowed and not


def test_long_guidance_and_messages_wrap_instead_of_being_cut() -> None:
    rng = random.Random(3)
    driver = new_driver(seed=3)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.EXCHANGE)
    guidance = "You must play: a score of 5 or less must play. Discard 0-5 cards (2c 5h or 1 4) or 'keep'."
    message = "? " + "type the cards to discard (e.g. '2c 5h' or '1 4'), 'keep' for none, or 'sit'; 'help' for more"
    log = [f"event {n}" for n in range(10)]
    text = printed(
        table_screen(driver.view(), driver.names, log=log, guidance=guidance, message=message).lines, terminal=False
    )
    check_fits(text)
    flat = " ".join(text.split())
    assert guidance in flat and message in flat and "event 9" in flat


def test_control_characters_in_names_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["Ana\x1b[2J\x1b]0;pwned\x07", "Bot 1 (random)", "Bo\nb\r", "Eve\u202e\x9b"]
    match = Match("classic", players=names)
    driver = TableDriver(match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=5)
    table, stream, _ = scripted_table(driver, first_legal)
    assert table.run() == 0
    text = stream.getvalue()
    assert not any(c in text for c in "\x1b\x07\r\u202e\x9b")
    assert "Bo\nb" not in text and "Bo\ufffdb" in text and "Ana\ufffd[2J" in text
    path = tmp_path / "names.json"
    path.write_text(dumps_record(driver.match), encoding="utf-8")
    from sobedesce.cli.main import main

    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Bo\ufffdb\ufffd (seat 2)" in out and not any(c in out for c in "\x1b\x07\r\u202e\x9b")


# -- small windows ----------------------------------------------------------------------------------

LONG_MESSAGE = "? type the cards to discard (e.g. '2c 5h' or '1 4'), 'keep' for none, or 'sit'; 'help' for more"


@pytest.mark.parametrize(("width", "height"), [(79, 23), (80, 16), (60, 20), (50, 16), (40, 16)])
def test_every_screen_of_a_match_fits_a_small_window_with_what_a_decision_needs(width: int, height: int) -> None:
    """Narrower than 80 columns or shorter than 24 lines, down to 40x16: every line fits the
    width (wrapped, never cut) and the screen the height, with the header (trump), every seat
    and its score, the cards on the table, the whole hand and the whole last error."""
    rng = random.Random(width + height)
    driver = new_driver(seed=width, human=width % 4)
    log: list[str] = []
    for step_ in positions(driver, rng):
        view = step_.view()
        log.append(f"event {len(log)}: Bot 2 plays and exchanges 3 cards.")
        lines = table_screen(view, step_.names, log=log[-6:], message=LONG_MESSAGE, width=width, height=height).lines
        text = printed_at(lines, width)
        check_fits(text, screen_rows(height), width)
        assert "Trump " in text and "too small" not in text
        for seat in range(4):
            label = short_name(step_.names, seat, view.seat)
            assert re.search(rf"{re.escape(label)}\s+{view.scores[seat]}\b", text), text
        for position, card in enumerate(view.hand, start=1):
            assert f"{position} {card.rank.letter}{card.suit.symbol}" in text
        trick = view.current_trick
        for card in trick.cards if trick is not None else ():
            assert f"[{card.rank.letter}{card.suit.symbol}]" in text, text
        assert LONG_MESSAGE in flat(text)


@pytest.mark.parametrize(("width", "height"), [(40, 16), (40, 15), (50, 16), (80, 19)])
def test_a_small_window_keeps_a_forced_card_and_the_last_trick_in_sight(width: int, height: int) -> None:
    """Between two prompts the bots may finish a trick and lead the next, a card of the
    person's played for them on the way: at the smallest window those lines stay on screen
    (a shorter header, the column titles dropped…) rather than only the very last one."""
    rng = random.Random(width * height)
    driver = new_driver(seed=height, human=1)
    latest = [
        "Forced: you play 2♠ — must follow suit ♠.",
        "Bot 2 wins trick 2 with K♠.",
        "Bot 2 plays 4♥.",
    ]
    for step_ in positions(driver, rng):
        log = ["Bot 3 sits out.", "Bot 2 plays A♣.", *latest]
        text = printed_at(table_screen(step_.view(), step_.names, log=log, width=width, height=height).lines, width)
        check_fits(text, screen_rows(height), width)
        assert "Trump " in text and "Your hand" in text
        for line in latest:
            assert line in flat(text), text


def printed_at(lines: list[Text], width: int) -> str:
    stream = io.StringIO()
    print_lines(Console(file=stream, width=width, force_terminal=False, color_system=None), lines)
    return stream.getvalue()


def table_at(width: int, height: int, answers: list[str], *, seed: int = 3) -> list[tuple[str, str]]:
    """A :class:`TerminalTable` in a ``width`` x ``height`` console, given ``answers`` in
    turn (then ``quit``); returns the screens shown, each with the prompt under it."""
    from sobedesce.terminal.app import TerminalTable

    stream = io.StringIO()
    console = Console(file=stream, width=width, height=height, force_terminal=False, color_system=None)
    screens: list[tuple[str, str]] = []
    start = 0
    pending = list(answers)

    def read(prompt: str) -> str:
        nonlocal start
        screens.append((stream.getvalue()[start:], prompt))
        console.print(prompt, markup=False)
        start = len(stream.getvalue())
        return pending.pop(0) if pending else "quit"

    driver = new_driver(seed=seed)
    assert TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None).run() == 0
    return screens


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_the_caption_asks_play_or_sit_out_only_of_a_seat_that_may_sit_out(rules: str) -> None:
    """The middle of the table asked "You: play or sit out?" of a seat that must play (Hearts
    trumps, the chooser, two rounds sat out, a low score), under "You must play: …"."""
    rng = random.Random(5)
    driver = new_driver(rules, seed=5)
    seen = {True: 0, False: 0}
    while driver.status != "over":
        current = driver.match.round
        if current is not None and current.phase == Phase.EXCHANGE and current.to_act is not None:
            seat = current.to_act
            may = current.may_sit_out(seat)
            for width, height in ((80, 24), (40, 16)):
                view = seat_view(driver.match, 0)
                text = flat(printed_at(table_screen(view, driver.names, width=width, height=height).lines, width))
                who = short_name(driver.names, seat, 0)
                assert (f"{who}: play or sit out?" in text) == may, text
                assert (f"{who} must play: how many cards?" in text) == (not may), text
            seen[may] += 1
        step(driver, rng)
    assert seen[True] and seen[False], seen


def test_a_resize_while_the_bots_play_draws_the_table_again_at_once() -> None:
    """The window resized during a bot's pause: the screen is drawn again for the new size
    within a moment, not left wrapped and garbled until the next move (0.6 s, or --speed)."""
    from sobedesce.terminal.app import TerminalTable

    clock = 0.0
    writes: list[tuple[float, str]] = []

    class Screen(io.StringIO):
        def write(self, text: str) -> int:
            writes.append((clock, text))
            return super().write(text)

    console = Console(file=Screen(), width=80, height=24, force_terminal=False, color_system=None)
    resized_at: float | None = None

    def sleep(seconds: float) -> None:
        nonlocal clock, resized_at
        if resized_at is None:
            console.size = (40, 16)
            resized_at = clock
        clock += seconds

    table = TerminalTable(new_driver(seed=3), console, speed=0.6, read=lambda prompt: "quit", sleep=sleep)
    table.run()
    assert resized_at is not None
    after = "".join(text for at, text in writes if at > resized_at)
    first = min(at for at, text in writes if at > resized_at and text.strip())
    assert first - resized_at <= 0.1, f"drawn again {first - resized_at:.2f} s after the resize"
    drawn_again = after.split("Your hand")[0]
    assert drawn_again.strip() and all(cell_len(line) <= 40 for line in drawn_again.splitlines()), drawn_again


@pytest.mark.parametrize("width", [60, 50, 40])
def test_a_refused_answer_is_read_whole_in_a_narrow_window(width: int) -> None:
    """The reason an answer was refused, and the line under the hand, wrap in a narrow window:
    they used to be cut at its right edge (the table was drawn for 80 columns)."""
    screens = table_at(width, 24, ["xyz", "h", "", "keep"])
    said = [screen for screen, _ in screens]
    assert "? 'xyz' is not a suit: type S, H, D or C (or spades, hearts…), or 'turn'" in flat(said[1])
    assert "? type the cards to discard (e.g. '2c 5h' or '1 4'), 'keep' for none; 'help' for more" in flat(said[3])
    for screen in said:
        check_fits(screen, screen_rows(24), width)


@pytest.mark.parametrize(("width", "height"), [(80, 16), (60, 20), (50, 16), (40, 16)])
def test_a_short_window_keeps_the_header_the_hand_and_the_error_on_screen(width: int, height: int) -> None:
    """Every screen fits the window with the prompt under it, so nothing scrolls off the top:
    the header (trump), the seats and scores, the hand and the last error stay in view."""
    screens = table_at(width, height, ["xyz", "h", "keep", "9z", "1"])
    for screen, _ in screens:
        check_fits(screen, screen_rows(height), width)
        assert "Trump " in screen and "Your hand" in screen and "too small" not in screen, screen
        assert all(re.search(rf"{name}\s+20\b", screen) for name in ("You", "Bot 1", "Bot 2", "Bot 3")) or (
            width >= 80 and height >= 19 and screen.count("score 20") == 4
        ), screen
    assert "? 'xyz' is not a suit" in flat(screens[1][0])
    card = next(screen for screen, prompt in screens if "is not a card" in screen)
    assert "? '9z' is not a card: type e.g. 7h (rank A7KJQ65432, suit SHDC) or its number" in flat(card)


@pytest.mark.parametrize(("width", "height"), [(40, 12), (30, 20), (80, 10)])
def test_below_the_smallest_window_the_table_says_it_is_too_small(width: int, height: int) -> None:
    note = f"! Window {width}x{height} is too small: the table needs 40x16 or more; enlarge it."
    screens = table_at(width, height, ["xyz"])
    # Its short form when the whole sentence would leave no room for the table with the message.
    assert note in flat(screens[0][0]), screens[0][0]
    for screen, _ in screens:
        assert note in flat(screen) or "! Too small: needs 40x16" in screen, screen
        assert all(cell_len(line) <= width for line in screen.splitlines())  # wrapped, never cut
    assert "? 'xyz' is not a suit: type S, H, D or C (or spades, hearts…), or 'turn'" in flat(screens[1][0])
    assert not any("too small" in screen for screen, _ in table_at(40, 16, ["xyz"]))


def test_a_page_taller_than_the_window_is_shown_a_screenful_at_a_time() -> None:
    screens = table_at(50, 16, ["rules", "", "", "", "help", "", ""])
    pages = [(screen, prompt) for screen, prompt in screens if prompt.startswith("Press Enter")]
    prompts = [prompt for _, prompt in pages]
    assert prompts[:3] == [
        "Press Enter for more (1/3) > ",
        "Press Enter for more (2/3) > ",
        "Press Enter to return to the table > ",
    ]
    assert prompts[3].startswith("Press Enter for more (1/")
    for screen, _ in pages:
        check_fits(screen, screen_rows(16), 50)
    # Nothing of the rules is lost between the screens.
    whole = flat(printed_at(rules_lines(Match("classic").rules, 1000), 1000))
    assert flat(" ".join(screen for screen, _ in pages[:3])) == whole


def test_a_hint_too_long_for_the_window_gets_a_page_of_its_own() -> None:
    screens = table_at(50, 16, ["h", "keep", "hint", ""])
    hint = next(i for i, (screen, _) in enumerate(screens) if "Hint from the" in screen)
    assert screens[hint][1] == "Press Enter to return to the table > "
    check_fits(screens[hint][0], screen_rows(16), 50)
    assert screens[hint + 1][1] == "Your card > " and "Hint from" not in screens[hint + 1][0]
    # At 80x24 the same hint shows under the hand.
    wide = table_at(80, 24, ["h", "keep", "hint", ""])
    shown = next(screen for screen, _ in wide if "Hint from the" in screen)
    assert "Your hand" in shown and not any(p.startswith("Press Enter to return") for _, p in wide)


def _interrupted_by(reader: LineReader, signum: int, master: int) -> None:
    """Send ``signum`` to this process until ``reader.readline()`` ends with ``Resized``; after
    10 s of them, a line, so that a reader deaf to the signal ends (and the test fails)."""
    import threading

    done = threading.Event()

    def signal_until_done() -> None:
        for _ in range(200):
            if done.wait(0.05):
                return
            os.kill(os.getpid(), signum)
        os.write(master, b"not interrupted\n")

    thread = threading.Thread(target=signal_until_done)
    thread.start()
    try:
        with pytest.raises(Resized):
            reader.readline()
    finally:
        done.set()
        thread.join()


def test_a_resize_interrupts_the_wait_for_a_line_and_keeps_what_was_typed() -> None:
    import signal

    master, slave = os.openpty()
    before = signal.getsignal(signal.SIGWINCH)

    try:
        reader = LineReader(slave, watch_resize=True)
        os.write(master, b"7")
        _interrupted_by(reader, signal.SIGWINCH, master)  # the window dragged until the reader notices
        os.write(master, b"h\n")
        assert reader.readline() == "7h"
        # A resize between two waits is not lost: the next wait says so at once.
        os.kill(os.getpid(), signal.SIGWINCH)
        with pytest.raises(Resized):
            reader.readline()
        reader.close()
        assert signal.getsignal(signal.SIGWINCH) == before
    finally:
        os.close(master)
        os.close(slave)


# -- below the smallest window: the screen still fits (issue: the header scrolled away) -------------

SHORT_MESSAGE = "Not allowed: must follow suit S. Try again."


@pytest.mark.parametrize(("width", "height"), [(40, 12), (30, 10), (80, 10), (39, 15), (30, 20), (45, 8)])
def test_below_the_smallest_window_every_screen_still_fits_with_the_essentials(width: int, height: int) -> None:
    """Below 40x16 the table used to be drawn taller than the window, so its top (the header,
    trump) scrolled away.  Now every screen of a match fits with the prompt under it, and
    shows what a decision needs: trump, the cards on the table, the whole hand, the last
    error, and a line saying the window is too small."""
    rng = random.Random(width * height)
    driver = new_driver(seed=height, human=width % 4)
    log = [f"event {n}: Bot 2 plays and exchanges 3 cards." for n in range(6)]
    for step_ in positions(driver, rng):
        view = step_.view()
        lines = table_screen(view, step_.names, log=log, message=SHORT_MESSAGE, width=width, height=height).lines
        text = printed_at(lines, width)
        check_fits(text, screen_rows(height), width)
        assert SHORT_MESSAGE in flat(text), text
        assert "too small" in flat(text).lower(), text
        if view.trump is not None:
            assert f"Trump {view.trump.symbol}" in text, text
        for position, card in enumerate(view.hand, start=1):
            assert f"{position} {card.rank.letter}{card.suit.symbol}" in text, text
        trick = view.current_trick
        for card in trick.cards if trick is not None else ():
            assert f"[{card.rank.letter}{card.suit.symbol}]" in text, text


@pytest.mark.parametrize(("width", "height"), [(20, 6), (12, 4), (10, 3), (1, 1)])
def test_a_tiny_window_gets_a_screen_no_taller_than_itself(width: int, height: int) -> None:
    """However small the window, the screen fits it (the error last, at the prompt)."""
    rng = random.Random(width)
    driver = new_driver(seed=width)
    for step_ in itertools.islice(positions(driver, rng), 80):  # the first rounds: every kind of screen
        lines = table_screen(step_.view(), step_.names, message=SHORT_MESSAGE, width=width, height=height).lines
        check_fits(printed_at(lines, width), screen_rows(height), width)
    for page in (rules_lines(driver.match.rules, width), help_lines(None, driver.match.rules, width)):
        from sobedesce.terminal.render import page_chunks

        for chunk in page_chunks(page, width, height):
            check_fits(printed_at(chunk, width), screen_rows(height), width)


# -- the end of the match is paged like the other tall pages ----------------------------------------


def match_to_the_end(
    width: int, height: int, *, seed: int = 6, answer=None
) -> tuple[list[tuple[str, str]], str, int, TableDriver]:
    """A whole match in a ``width`` x ``height`` console, saved in ``end.json``; returns the
    screens shown with the prompt under each, what was printed after the last prompt, the
    exit status and the driver."""
    driver = new_driver(seed=seed, save_path="end.json")
    screens, tail, status = table_screens(
        driver, lambda prompt, screen: (answer or first_legal)(prompt, driver), width, height
    )
    return screens, tail, status, driver


def table_screens(
    driver: TableDriver, answer, width: int, height: int, again=None
) -> tuple[list[tuple[str, str]], str, int]:
    """The screens a :class:`TerminalTable` shows (each with the prompt under it) in a
    ``width`` x ``height`` console, ``answer(prompt, screen)`` typing at each prompt; what was
    printed after the last prompt, and the exit status."""
    from sobedesce.terminal.app import TerminalTable

    stream = io.StringIO()
    console = Console(file=stream, width=width, height=height, force_terminal=False, color_system=None)
    screens: list[tuple[str, str]] = []
    start = 0

    def read(prompt: str) -> str:
        nonlocal start
        screens.append((stream.getvalue()[start:], prompt))
        assert len(screens) < 5000, "the table keeps asking"
        console.print(prompt, markup=False)
        start = len(stream.getvalue())
        return answer(prompt, screens[-1][0])

    status = TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None, again=again).run()
    return screens, stream.getvalue()[start:], status


@pytest.mark.parametrize(("width", "height"), [(80, 24), (80, 16), (50, 16), (40, 16), (30, 10)])
def test_the_end_of_the_match_is_shown_a_screenful_at_a_time(
    width: int, height: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last round's summary, the winners, the final scores and riscos and where the record
    is: taller than the window, they used to be printed at once as the program ended, so the
    top scrolled away.  Now they are shown a screenful at a time (Enter for more), the last
    screen without a prompt, and nothing is lost between the screens."""
    monkeypatch.chdir(tmp_path)  # saved as "end.json": the command to replay it is short
    screens, last, status, driver = match_to_the_end(width, height)
    assert status == 0 and driver.status == "over"
    rounds = len(driver.match.rounds)
    first = next((i for i, (s, _) in enumerate(screens) if f"Round {rounds} is over" in s), len(screens))
    ending = screens[first:]
    assert all(prompt.startswith("Press Enter for more (") for _, prompt in ending), ending
    for screen, _ in ending:
        check_fits(screen, screen_rows(height), width)
    check_fits(last, screen_rows(height), width)
    whole = flat(" ".join(screen for screen, _ in ending) + " " + last)
    for note in (
        f"! Window {width}x{height} is too small: the table needs 40x16 or more; enlarge it.",
        "! Too small: needs 40x16",
    ):
        whole = whole.replace(note + " ", "")  # at the top of each screen of a window too small
    assert f"Round {rounds} is over" in whole and f"The match is over after {rounds} rounds." in whole
    assert "final" in whole and "riscos" in whole and "Winner" in whole
    for seat in range(4):
        value = driver.match.riscos()[seat]
        riscos = f"{int(value):+d}" if value == int(value) else f"{value:+.2f}"
        assert re.search(rf"(?<!\S){driver.match.scores[seat]} +{re.escape(riscos)}(?!\S)", whole), whole
    assert "The record is saved; replay it with:" in whole and "sobedesce replay end.json" in whole
    if width >= 80 and height >= 24:
        assert not ending, "at 80x24 the end of a match fits one screen"


# -- a new player's mistakes (found playing at a real terminal) ---------------------------------------


@pytest.mark.parametrize("phase", [Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY])
def test_a_very_long_wrong_answer_is_not_echoed_whole(phase: Phase) -> None:
    """Something pasted by mistake (3000 characters) was echoed whole in the reason it was
    refused: 38 lines at 80 columns, the table and the hand scrolled off the screen."""
    with pytest.raises(InputError) as error:
        parse_input("x" * 3000, phase, HAND)
    assert len(str(error.value)) < 160, str(error.value)
    assert "xxxxxxxx…" in str(error.value)
    screens = table_at(80, 24, ["y" * 3000, "h", "z" * 3000])
    for screen, _ in screens:
        check_fits(screen, screen_rows(24), 80)
    assert "Your hand" in screens[1][0] and "is not a suit" in screens[1][0]


def test_cards_in_messages_are_written_as_on_the_screen() -> None:
    """The hand shows A♠; a message about it said 'AS'."""
    with pytest.raises(InputError, match="you named A♠ twice"):
        parse_input("1 as", Phase.EXCHANGE, HAND)


def test_a_card_you_do_not_hold_is_refused_in_plain_words() -> None:
    """A card not in your hand was refused with the rules core's 'does not hold 7D' (whose?
    and in another notation than the hand's); it now says 'you do not hold 7♦'."""
    driver = new_driver(seed=3)
    rng = random.Random(3)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.EXCHANGE)
    absent = next(
        c for c in (Card.parse(f"{r}{s}") for r in "A7KJQ65432" for s in "SHDC") if c not in driver.view().hand
    )
    said: list[str] = []

    def answer(prompt: str, d: TableDriver) -> str:
        if len(said) < 2 and prompt.startswith("Discard"):
            said.append("1 " + str(absent))
            return said[-1]
        if len(said) < 2 and prompt.startswith("Your card"):
            said.append(str(absent).lower())
            return said[-1]
        return "quit" if len(said) == 2 and prompt.startswith("Your card") else first_legal(prompt, d)

    table, stream, _ = scripted_table(driver, answer)
    assert table.run() == 0
    text = stream.getvalue()
    symbol = f"{absent.rank.letter}{absent.suit.symbol}"
    assert text.count(f"Not allowed: you do not hold {symbol}. Try again.") == 2, text[-2000:]
    assert "does not hold" not in text


def test_the_log_says_you_in_the_middle_of_a_sentence() -> None:
    """'Round 1: Bot 3 deals, You choose trump.' — 'you' after a comma."""
    driver = new_driver(seed=1)
    deal = next(e for e in driver.deal() if e.kind == "deal")
    chooser = deal.chooser
    text = describe_event(deal, driver.names, chooser).plain
    assert text.endswith(", you choose trump."), text
    assert describe_event(deal, driver.names, deal.seat).plain.startswith("Round 1: You deal, ")


def test_wide_names_are_cut_to_their_width_in_cells() -> None:
    """A name in CJK characters (two cells each) was cut to 14 characters, 28 cells, pushing
    the rest of the person's line off the 80 columns; and the summaries' columns slipped."""
    names = ["漢字" * 12, "Bot 1 (random)", "Bot 2 (random)", "한국어" * 6]
    match = Match("classic", players=names)
    driver = TableDriver(match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=2)
    rng = random.Random(2)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.PLAY)
    text = printed(table_screen(driver.view(), driver.names).lines, terminal=False)
    check_fits(text)
    mine = next(line for line in text.splitlines() if "(you) · seat 0" in line)
    assert "tricks" in mine, mine  # the line is whole, its end not cut off
    ended = None
    while ended is None:
        events = step(driver, rng)
        ended = next((e for e in events if e.kind == "round"), None)
    for lines in (
        round_over_lines(ended, driver.names, 0, 1),
        match_over_lines(
            Event("match", 0, scores=(1, 2, 3, 4), winners=(0,), riscos=(9.0, -2.0, -3.0, -4.0)), driver.names, 0, 1
        ),
    ):
        rows = [line.plain for line in lines if re.search(r"\d$", line.plain) and "·" not in line.plain]
        ends = {cell_len(row) for row in rows}
        assert len(rows) == 4 and len(ends) == 1, rows  # the columns line up, whatever the names


@pytest.mark.parametrize("width", [80, 40, 30])
def test_the_end_of_the_match_prints_riscos_in_full(width: int) -> None:
    """The riscos column used ``:+g``: a match resumed from a record with scores of a billion
    ended showing '+2e+09' and '-1e+09', a shared win '+3.33333'."""
    driver = new_driver("classic", seed=1, human=0)
    for scores, winners, riscos, shown in [
        (
            (-5, 1_000_000_000, 999_999_999, 7),
            (0,),
            (2_000_000_006, -1_000_000_000, -999_999_999, -7),
            ["+2000000006", "-1000000000", "-999999999", "-7"],
        ),
        ((0, 0, 0, 10), (0, 1, 2), (10 / 3, 10 / 3, 10 / 3, -10), ["+3.33", "+3.33", "+3.33", "-10"]),
    ]:
        event = Event("match", 0, scores=scores, winners=winners, riscos=riscos)
        text = printed_at(match_over_lines(event, driver.names, 0, 1, width), width)
        check_fits(text, width=width)
        rows = [line for line in text.splitlines() if re.search(r" [+-][\d.]+$", line)]
        assert len(rows) == 4 and len({cell_len(row) for row in rows}) == 1, rows  # the columns line up
        for seat in range(4):
            assert re.search(rf"(?<!\S){scores[seat]} +{re.escape(shown[seat])}$", rows[seat]), rows[seat]


def test_commands_work_at_the_pages_too() -> None:
    """The help says rules, history, help and quit work at any prompt, the pages' too; at a
    page they used to return to the table as if Enter had been pressed."""
    screens = table_at(80, 24, ["rules", "help", "rules", "", "quit"])
    prompts = [prompt for _, prompt in screens]
    assert "How to answer" in screens[2][0] and "Rules: classic" in screens[3][0], prompts
    assert prompts[1:4] == ["Press Enter to return to the table > "] * 3
    assert prompts[4].startswith("Trump")


@pytest.mark.parametrize("phase", [Phase.EXCHANGE, Phase.PLAY])
def test_digits_that_are_no_number_are_refused_not_a_crash(phase: Phase) -> None:
    """'²' (a key of its own on French keyboards) counts as a digit for str.isdigit but not
    for int(): it ended the program with a ValueError traceback; so did a number of 5000
    digits (past int()'s limit).  A full-width one (U+FF11) is the number 1, as typed in Japanese."""
    for text, needle in (("²", "'²' is not a card"), ("①", "'①' is not a card"), ("9" * 5000, "there is no card")):
        with pytest.raises(InputError, match=needle) as error:
            parse_input(text, phase, HAND)
        assert len(str(error.value)) < 160
    first = parse_input("\uff11", phase, HAND)
    assert first == (Play(HAND[0]) if phase == Phase.PLAY else Exchange((HAND[0],)))
    result = run_play("--seed", "3", "--bots", "random", "--speed", "0", stdin="h\n²\n1²\n")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "'²' is not a card" in result.stdout


def test_leaving_at_the_end_of_a_match_offers_no_way_to_continue_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the end of the match was paged said 'Continue it with: sobedesce play
    --resume …' — of a match that is over; it says how to replay it instead."""
    monkeypatch.chdir(tmp_path)

    def answer(prompt: str, driver: TableDriver) -> str:
        if prompt.startswith("Press Enter for more"):
            raise KeyboardInterrupt
        return first_legal(prompt, driver)

    _, last, status, driver = match_to_the_end(50, 16, answer=answer)
    assert status == 130 and driver.status == "over"
    assert "Continue it with" not in last and "--resume" not in last, last
    assert "Interrupted. The match is over and saved in end.json; replay it with: sobedesce replay end.json" in flat(
        last
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("play", "--resume", ""), "sobedesce play: --resume needs the name of a saved match (the file --save wrote)"),
        (("play", "--save", ""), "sobedesce play: --save needs a file name"),
        (("play", "--save", "  "), "sobedesce play: --save needs a file name"),
        (("demo", "--save", ""), "sobedesce demo: --save needs a file name"),
    ],
)
def test_an_empty_file_name_is_a_bad_option(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    """``--resume ""`` (a variable that was not set, say) started a new match as if no
    --resume had been given; ``demo --save ""`` saved nothing, silently; ``play --save ""``
    said "cannot save to : No such file or directory"."""
    status, err = run_main(capsys, *args, "--speed", "0") if args[0] == "play" else run_main(capsys, *args)
    assert status == 2 and err.strip() == said, err


def test_a_negative_demo_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``demo --seed -1`` played the match of ``--seed 1`` (random.Random drops the sign)."""
    status, err = run_main(capsys, "demo", "--seed", "-1")
    assert status == 2 and err.strip() == "sobedesce demo: --seed must be 0 or more, not -1", err


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_the_demo_says_how_scores_change_when_clubs_are_trumps(capsys: pytest.CaptureFixture[str], rules: str) -> None:
    """The demo said 'no trick adds 5' and then showed '0 tricks +10' in a round of Clubs,
    with nothing to explain it."""
    from sobedesce.cli.main import main

    assert main(["demo", "--seed", "1", "--rules", rules]) == 0
    out = capsys.readouterr().out
    intro = out.split("\n\n")[0]
    assert "Scores start at 20; a trick won takes a point off, no trick adds 5; first to 0 wins." in intro
    assert "When Clubs are trumps, every change counts double." in intro


def test_the_screen_is_drawn_again_after_ctrl_z_and_fg() -> None:
    """Suspended with Ctrl-Z and brought back with ``fg``, the table was not drawn again: the
    prompt had scrolled away under the shell's lines and the person typed blind.  Continuing
    (``SIGCONT``) now ends the wait like a resize: the screen is drawn again."""
    import signal

    master, slave = os.openpty()
    before = signal.getsignal(signal.SIGCONT)

    try:
        reader = LineReader(slave, watch_resize=True)
        _interrupted_by(reader, signal.SIGCONT, master)
        os.write(master, b"7h\n")
        assert reader.readline() == "7h"
        reader.close()
        assert signal.getsignal(signal.SIGCONT) == before
    finally:
        os.close(master)
        os.close(slave)


def test_the_table_says_a_hint_is_being_worked_out() -> None:
    """A hint takes the strong bot a few seconds with --seed (its whole sample budget): the
    screen stayed as it was, the cursor under the prompt, as if the program had hung."""
    from sobedesce.terminal.app import TerminalTable

    driver = new_driver(seed=3)
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=24, force_terminal=True, color_system=None)
    shown_while_thinking: list[str] = []
    real_hint = driver.hint

    def hint(seat: int | None = None) -> list:
        shown_while_thinking.append(ANSI.sub("", stream.getvalue().rsplit("\x1b[2J", 1)[-1]))
        return real_hint(seat)

    driver.hint = hint  # type: ignore[method-assign]
    answers = iter(["hint", "quit"])
    table = TerminalTable(driver, console, speed=0, read=lambda prompt: next(answers), sleep=lambda s: None)
    assert table.run() == 0
    assert len(shown_while_thinking) == 1
    assert "Working out a hint…" in shown_while_thinking[0] and "Your hand" in shown_while_thinking[0]


def test_a_hint_is_worked_out_once_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hint``, then ``hint all`` and ``hint`` again at the same decision: the bot thinks once
    (the driver keeps the hint until the decision is made), and says it is thinking once."""
    from sobedesce.table import driver as driver_module
    from sobedesce.terminal.app import TerminalTable

    made: list[str] = []
    make = driver_module.make_bot

    def counted(name: str, **settings: Any) -> Any:
        made.append(name)
        return make(name, **settings)

    monkeypatch.setattr(driver_module, "make_bot", counted)
    driver = new_driver(seed=3)
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=24, force_terminal=True, color_system=None)
    answers = iter(["hint", "hint all", "", "hint", "quit"])
    table = TerminalTable(driver, console, speed=0, read=lambda prompt: next(answers), sleep=lambda s: None)
    assert table.run() == 0
    assert made == ["strong"]
    assert ANSI.sub("", stream.getvalue()).count("Working out a hint…") == 1


@pytest.mark.parametrize(("seed", "height"), [(seed, height) for seed in (1, 2) for height in (24, 20)])
def test_play_again_is_asked_under_the_match_result(
    seed: int, height: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80x24 the end of a match used to be cut a screenful at a time wherever the lines fell:
    after a round under Clubs the last screen held only "sobedesce replay FILE" and "Play
    again?", its label on the screen before and the winners and scores gone.  Now a block (the
    summary, the result, a command under its label) stays whole, and the question is asked
    on the screen with the winners and the final scores."""
    from sobedesce.terminal.app import TerminalTable

    monkeypatch.chdir(tmp_path)
    stream = io.StringIO()
    console = Console(file=stream, width=80, height=height, force_terminal=False, color_system=None)
    driver = new_driver(seed=seed, save_path="end.json")
    screens: list[tuple[str, str]] = []
    start = 0

    def read(prompt: str) -> str:
        nonlocal start
        screens.append((stream.getvalue()[start:], prompt))
        console.print(prompt, markup=False)
        start = len(stream.getvalue())
        return "n" if prompt.startswith("Play again") else first_legal(prompt, driver)

    table = TerminalTable(driver, console, speed=0, read=read, sleep=lambda s: None, again=lambda d: (d, []))
    assert table.run() == 0
    last, prompt = screens[-1]
    assert prompt == "Play again? (y/n) > "
    check_fits(last, screen_rows(height))
    assert "Winner" in last and "final score" in last and "riscos" in last, last
    for screen, _ in screens:
        if "replay it with:" in screen:
            assert "sobedesce replay end.json" in screen, screen


def test_a_page_of_blocks_keeps_each_block_whole_and_the_last_ones_on_the_last_screen() -> None:
    """The reviewer's 80x24 ending: a summary of 12 lines (a round under Clubs), the result (9)
    and the replay command under its label (2) made 25 rows; cut at 22, the last screen held
    the command without its label, and no scores."""
    from sobedesce.terminal.render import block_chunks

    summary = [f"summary {i}" for i in range(12)]
    result = [f"result {i}" for i in range(9)]
    replay = ["The record is saved; replay it with:", "sobedesce replay FILE"]
    first, last = block_chunks([summary, result, replay], 80, 24)
    assert [line.plain for line in first] == summary
    assert [line.plain for line in last] == [*result, "", *replay]
    # A block taller than a screen is cut; what follows it still ends the page whole.
    tall = [f"line {i}" for i in range(30)]
    screens = block_chunks([tall, replay], 80, 24)
    assert [line.plain for line in screens[-1]] == replay
    assert [line.plain for screen in screens[:-1] for line in screen] == tall
    assert len(block_chunks([[], replay], 80, 24)) == 1


def test_rule_reasons_show_cards_and_suits_as_the_screen_does() -> None:
    """The rules core says "must overtrump 4S", "void in C": the screen says 4♠ and ♣."""
    from sobedesce.core import find_rules
    from sobedesce.terminal.render import reason_text, rules_lines

    assert reason_text("must overtrump 4S").plain == "must overtrump 4♠"
    assert reason_text("must trump: void in C").plain == "must trump: void in ♣"
    assert reason_text("must follow suit D").plain == "must follow suit ♦"
    assert reason_text("must beat AH, the winning card").plain == "must beat A♥, the winning card"
    assert reason_text("it is your last card").plain == "it is your last card"
    rules = flat(" ".join(line.plain for line in rules_lines(find_rules("classic"))))
    assert "turns up the deck's 13th card, the first of their next two" in rules, rules


def test_a_variants_must_play_and_exchange_words_read_as_sentences() -> None:
    """A record's rules may be a variant (docs/record.md): with no sit-outs allowed the prompt
    said "sat out the no previous rounds" and the rules page "after sitting out no rounds in a
    row"; with no exchanges, "Discard exactly 0 cards (2c 5h or 1 4) or 'keep'"."""
    import dataclasses

    from sobedesce.core import CLASSIC

    strict = dataclasses.replace(CLASSIC, max_sit_outs_in_row=0, min_discard=0, max_discard=0)
    match = Match(strict, players=list(NAMES))
    match.deal(rng=random.Random(4), dealer=3)
    driver = TableDriver(match, 0, {s: make_bot("random") for s in (1, 2, 3)}, seed=4)
    seen: list[str] = []

    def answer(prompt: str, d: TableDriver) -> str:
        if d.view().phase == Phase.EXCHANGE and d.view().to_act == 0:
            seen.append(stream.getvalue())
            return "quit"
        return first_legal(prompt, d)

    table, stream, _ = scripted_table(driver, answer)
    table.run()
    assert seen, "the exchange was never asked"
    screen = seen[0]
    assert match.round.trump != Suit.HEARTS and match.round.chooser == 0
    assert match.round.must_play_reason(1) == "must play: these rules allow no sitting out"
    assert "Type 'keep' (no exchanges)" in screen and "exactly 0" not in screen and "no previous" not in screen
    page = " ".join(printed(rules_lines(strict), terminal=False).split())
    assert "always (these rules allow no sitting out)" in page and "no rounds in a row" not in page
    one = " ".join(printed(rules_lines(dataclasses.replace(CLASSIC, max_sit_outs_in_row=1)), terminal=False).split())
    assert "after sitting out a round" in one


# -- an answer typed at a page is taken; 'hint all' --------------------------------------------


def screens_of(driver: TableDriver, answer, width: int = 80, height: int = 24, again=None) -> list[tuple[str, str]]:
    """:func:`table_screens`'s screens, the table left with status 0."""
    screens, _, status = table_screens(driver, answer, width, height, again)
    assert status == 0
    return screens


RETURN = "Press Enter to return to the table > "


def scripted(steps: list[tuple[str, str]]):
    """``answer(prompt, screen)`` for :func:`screens_of`: each prompt must start as the next of
    ``steps`` says, answered with its text (a callable: called with the driver's view); then
    ``quit``."""
    pending = list(steps)

    def answer(prompt: str, screen: str) -> str:
        if not pending:
            return "quit"
        expected, text = pending.pop(0)
        assert prompt.startswith(expected), (prompt, expected, screen)
        return text

    return answer, pending


def card_number(driver: TableDriver, legal: bool) -> str:
    """The number in the hand of the first card that is (not) ``legal`` to play."""
    view = driver.view()
    playable = {a.card for a in view.legal_actions if isinstance(a, Play)}
    return str(next(i for i, card in enumerate(view.hand, 1) if (card in playable) == legal))


def test_an_answer_typed_at_a_page_is_taken_as_at_the_table() -> None:
    """A suit, a discard, a card typed at the rules or help page used to turn the page, and was
    lost: now the page closes and the answer is taken as if typed at the table.  Enter still
    returns to the table, and the page's own commands still work there."""
    driver = new_driver(seed=3)
    answer, pending = scripted(
        [
            ("Trump", "rules"),
            (RETURN, "help"),  # the page's own command: the help page
            (RETURN, "h"),  # an answer: hearts are trumps, at once
            ("Discard", "help"),
            (RETURN, ""),  # Enter: back to the table
            ("Discard", "rules"),
            (RETURN, "keep"),
            ("Your card", "help"),
        ]
    )

    def typed(prompt: str, screen: str) -> str:
        if pending:
            return answer(prompt, screen)
        return card_number(driver, legal=True) if prompt == RETURN else "quit"

    screens = screens_of(driver, typed)
    prompts = [prompt for _, prompt in screens]
    assert prompts[-3:-1] == ["Your card > ", RETURN] and prompts[-1] != RETURN, prompts
    assert "Rules: classic" in screens[1][0] and "How to answer" in screens[2][0] and "How to answer" in screens[-2][0]
    assert driver.match.round.trump == Suit.HEARTS
    assert len(driver.view().hand) < 5, "the card typed at the page is played"
    assert not any("Try again" in screen or "? '" in screen for screen, _ in screens)


def test_a_wrong_answer_typed_at_a_page_gets_the_tables_message_and_loses_nothing() -> None:
    """A wrong answer at a page closes it, and the table refuses it with its own words, the
    same prompt under it; an illegal card is refused with the rule's reason, the hand kept."""
    driver = new_driver(seed=3)
    answer, pending = scripted(
        [
            ("Trump", "rules"),
            (RETURN, "xyz"),
            ("Trump", "h"),
            ("Discard", "keep"),
        ]
    )
    seen: list[str] = []  # the screen where the page was asked for, then the one after the card

    def typed(prompt: str, screen: str) -> str:
        if pending:
            return answer(prompt, screen)
        if prompt == "Your card > " and not seen:
            if all(isinstance(a, Play) for a in driver.view().legal_actions) and len(
                driver.view().legal_actions
            ) == len(driver.view().hand):
                return card_number(driver, legal=True)  # every card legal: on to a trick to follow
            seen.append(screen)
            return "help"
        if prompt == RETURN and len(seen) == 1:
            seen.append(str(len(driver.view().hand)))
            return card_number(driver, legal=False)
        if prompt == "Your card > " and len(seen) == 2:
            seen.append(screen)
        return "quit"

    screens = screens_of(driver, typed)
    refused = screens[2][0]
    assert "? 'xyz' is not a suit: type S, H, D or C" in flat(refused) and "Your hand" in refused
    assert driver.match.round.trump == Suit.HEARTS
    before, held, after = seen
    assert re.search(r"Not allowed: must [^.]+\. Try again\.", after), after
    assert [line for line in after.splitlines() if line.startswith("Your hand")] == [
        line for line in before.splitlines() if line.startswith("Your hand")
    ]
    assert len(driver.view().hand) == int(held), "nothing played"


def test_an_answer_typed_at_a_page_longer_than_the_window_is_taken_too() -> None:
    """At a page shown a screenful at a time, Enter turns the page and an answer is taken."""
    driver = new_driver(seed=3)
    answer, _ = scripted([("Trump", "rules"), ("Press Enter for more (1/3)", ""), ("Press Enter for more (2/3)", "s")])
    screens = screens_of(driver, answer, width=50, height=16)
    assert screens[3][1].startswith("Discard") and driver.match.round.trump == Suit.SPADES


def test_an_answer_typed_at_a_page_answers_play_again_and_the_next_round() -> None:
    """The pages at the end of a round and at "Play again?" take that prompt's answers too."""
    from sobedesce.cli.play import PlayAgain

    driver = new_driver(seed=5)
    asked: list[str] = []

    def answer(prompt: str, screen: str) -> str:
        if prompt.startswith("Play again"):
            asked.append(prompt)
            return "rules"
        if prompt.startswith("Press Enter to deal round 2"):
            asked.append(prompt)
            return "history" if asked.count(prompt) <= 2 else ""
        if prompt == RETURN and asked:
            asked.append(prompt)
            if asked[-2].startswith("Play again"):
                return "n"  # the answer to "Play again?": the program ends
            # At the end of a round: "xyz" is refused as the summary refuses it; Enter is back
            # to the summary.
            return "xyz" if asked.count(RETURN) == 1 else ""
        return first_legal(prompt, driver)

    screens = screens_of(driver, answer, again=PlayAgain())
    assert driver.match.is_over and asked[-2:] == ["Play again? (y/n) > ", RETURN]
    assert any("? Press Enter to deal round 2, or type rules, history, help or quit." in s for s, _ in screens)
    assert not any(p.startswith("y or n") or "not an answer" in p for _, p in screens)


def test_a_hint_says_each_option_in_a_players_words() -> None:
    """The tricks an option would end the round with and its risk of none, in words, before
    the figure the bot ranks by; nothing where the bot does not tell them (sitting out)."""
    from sobedesce.bots.base import Option

    options = [
        Option(Play.of(Card.parse("AH")), -1.55, "", -1.2, 1.6, 0.01),
        Option(Play.of(Card.parse("2H")), 0.4, "", 0.9, 0.84, 0.25),
        Option(Play.of(Card.parse("3H")), -1.0, "", -0.5, 1.0, 0.0),
        Option(Play.of(Card.parse("4H")), 5.0, "", 5.5, 0.0, 1.0),
        Option(SitOut(), 0.0, "sit out: the score stays", 1.1),
    ]
    assert [hint_words(o) for o in options] == [
        "about 1.6 tricks, 1% risk of none",
        "about 0.8 tricks, 25% risk of none",
        "about 1 trick",
        "no trick, almost surely",
        None,
    ]
    text = flat(printed(hint_lines(options, "strong", every=True), terminal=False))
    assert "about 1.6 tricks, 1% risk of none; -1.20 against the others" in text, text
    assert "the score stays; +1.10 against the others" in text, text


def test_hint_all_lists_every_option() -> None:
    """The hint shows the best few and "… and N more": 'hint all' shows them all, on a page
    of its own when they do not fit under the hand."""
    rng = random.Random(2)
    driver = new_driver(seed=2)
    advance(driver, rng, until=lambda d: d.status == "human" and d.view().phase == Phase.EXCHANGE)
    options = driver.hint()
    few = hint_lines(options, "strong")
    more = re.search(r"… and (\d+) more: 'hint all' lists them all", flat(printed(few, terminal=False)))
    # As many as fit under the hand (an option whose words wrap takes two lines), the rest counted.
    listed = [line.plain for line in few[1:] if line.plain.startswith("  ") and not line.plain.startswith("    ")]
    assert more and 1 <= len(listed) <= LOG_LINES - 2 and len(few) <= LOG_LINES + 2, few
    assert int(more[1]) == len(options) - (len(listed) - 1), few  # "… and N more" is one of them
    every = hint_lines(options, "strong", every=True)
    assert len(every) >= len(options) + 1 and "more" not in flat(printed(every, terminal=False))
    assert parse_input("hint all", Phase.PLAY, HAND) == Command("hint all")
    assert parse_input("HINT   all", Phase.EXCHANGE, HAND) == Command("hint all")
    assert "hint all" in flat(printed(help_lines(Phase.PLAY, Match("classic").rules), terminal=False))
    # At the table: under the hand the best few; 'hint all' on a page of its own, a screenful
    # at a time, then the table.
    driver = new_driver(seed=3)
    answer, _ = scripted([("Trump", "h"), ("Discard", "hint"), ("Discard", "hint all")])
    screens = screens_of(driver, lambda p, s: answer(p, s) if not p.startswith("Press") else "")
    hint = next(s for s, _ in screens if "Hint from the" in s)
    assert "Your hand" in hint and "'hint all' lists them all" in hint
    paged = [s for s, p in screens if p.startswith("Press Enter")]
    assert paged and "Hint from the" in paged[0] and "Your hand" not in paged[0]
    assert "'hint all'" not in " ".join(paged)
    options = driver.hint()
    assert len(re.findall(r"^  (?:discard|keep|sit)", "\n".join(paged), flags=re.M)) == len(options)


# -- editing the line ----------------------------------------------------------------------------


def edit(editor, keys: str) -> tuple[str | None, str]:
    """Feed ``keys`` a character at a time (escape sequences cut anywhere, as reads may cut
    them); the line entered, if any, and everything written."""
    written, rest = "", ""
    for char in keys:
        out, line, rest = editor.feed(rest + char)
        written += out
        if line is not None:
            return line, written
    return None, written


def test_the_line_editor_moves_deletes_and_recalls() -> None:
    from sobedesce.terminal.lineedit import LineEditor

    cases = {
        "7\x7fqh\x1b[D\x1b[D\x1b[3~\x1b[F\x08\x08Q\x1bOH\x1b[3~7\x1b[4~h\r": "7h",  # Backspace, Delete, Home/End
        "1 4 5\x17\x17\x7f\r": "1",  # Ctrl-W: a word at a time
        "xyz\x01\x0bks\r": "ks",  # Ctrl-A, Ctrl-K
        "abc\x02\x02\x15q\x05\x06\x06\r": "qbc",  # Ctrl-B, Ctrl-U, Ctrl-E, Ctrl-F past the end
        "\x1b[1;5Dh\x1b[5~\x1b\x1b[15~s\x1bx\r": "hsx",  # Ctrl-Left, PgUp, Esc, F5, Alt-x: no garbage
        "ab\x1b[D\x04\x04\r": "a",  # Ctrl-D on a line: Delete
    }
    for keys, expected in cases.items():
        editor = LineEditor()
        editor.begin("> ", 80)
        assert edit(editor, keys)[0] == expected, repr(keys)
    editor = LineEditor()
    editor.begin("> ", 80)
    assert edit(editor, "\x04")[0] == "\x04", "Ctrl-D on an empty line: the end of input"
    # Up and Down: the session's answers, then back to what was being typed.
    editor = LineEditor(["hearts", "keep"])
    editor.begin("> ", 80)
    assert edit(editor, "2\x1b[A\x1b[A\x1b[A\x1b[B\r")[0] == "keep"
    assert edit(editor, "3\x1b[A\x1b[B\x1b[Bc\r")[0] == "3c"
    assert editor.history == ["hearts", "keep", "3c"]
    editor.begin("> ", 80)
    assert edit(editor, "\x10\x10\x0e\r")[0] == "3c"  # Ctrl-P, Ctrl-N; not recorded twice
    assert editor.history == ["hearts", "keep", "3c"]


def test_the_line_editor_follows_a_line_that_wraps() -> None:
    """Moves are relative and follow the wraps at the window's edge (a wide character that
    does not fit goes on the next row): after any edit the cursor is where a terminal puts it."""
    from sobedesce.terminal.lineedit import LineEditor

    def screen(written: str, width: int) -> tuple[list[str], tuple[int, int]]:
        """A tiny terminal: the rows written, and the cursor."""
        rows: list[list[str]] = [[]]
        row = col = 0
        pending = False
        i = 0
        while i < len(written):
            seq = re.match(r"\x1b\[(\d*)([A-DJ])", written[i:])
            if seq:
                n = int(seq[1] or 1)
                letter = seq[2]
                pending = False
                if letter == "A":
                    row -= n
                elif letter == "B":
                    row += n
                elif letter == "C":
                    col += n
                elif letter == "D":
                    col -= n
                else:
                    del rows[row][col:]
                    del rows[row + 1 :]
                assert 0 <= row < len(rows) and 0 <= col < width, (written[:i], row, col)
                i += seq.end()
                continue
            char = written[i]
            i += 1
            if char == "\r":
                col, pending = 0, False
                continue
            w = cell_len(char)
            if pending or col + w > width:
                row, col, pending = row + 1, 0, False
                while len(rows) <= row:
                    rows.append([])
            line = rows[row]
            line.extend(" " * (col + w - len(line)))
            line[col : col + w] = [char] + [""] * (w - 1)
            col += w
            if col == width:
                col, pending = width - 1, True
        return ["".join(r) for r in rows], (row, col)

    keys = "abcde漢fgh\x1b[D\x1b[D\x1b[Dxy\x1b[H\x1b[CZ\x1b[F\x7f\x1b[D\x1b[D\x1b[D\x1b[3~"
    for width in (10, 11, 12, 13):
        editor = LineEditor()
        written = editor.begin("Card > ", width)
        line, out = edit(editor, keys)
        written += out
        assert line is None and (editor.text, editor.cursor) == ("aZbcde漢xfg", 8)
        rows, cursor = screen(written, width)
        shown = "".join(rows).replace(" ", "")
        assert shown == ("Card>" + editor.text).replace(" ", ""), (rows, editor.text)
        # The cursor is on the character it stands before.
        spots, _ = editor._layout(editor.text)
        assert cursor == spots[editor.cursor], (rows, cursor, editor.cursor)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_program_killed_mid_line_leaves_the_terminal_as_it_was(signame: str) -> None:
    """Killed (SIGTERM) or hung up (SIGHUP) while a line is edited, the program dies of the
    signal as before, but first puts the terminal back in the mode it found it in: the shell
    after it gets its echo and its lines back."""
    import select
    import signal
    import termios

    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        code = (
            "import os, sys\n"
            "from sobedesce.terminal.app import LineReader\n"
            "reader = LineReader(0, watch_resize=True, echo=lambda text: os.write(1, text.encode()))\n"
            "reader.readline('Trump > ')\n"
        )
        child = subprocess.Popen([sys.executable, "-c", code], stdin=slave, stdout=slave, stderr=subprocess.DEVNULL)
        seen = b""
        while b"Trump > " not in seen:  # the prompt is written once the reader's mode is set
            ready, _, _ = select.select([master], [], [], 30)
            assert ready, f"no prompt from the child: {seen!r}"
            seen += os.read(master, 1024)
        assert termios.tcgetattr(slave)[3] & termios.ICANON == 0, "the reader's mode while it waits"
        child.send_signal(getattr(signal, signame))
        assert child.wait(timeout=30) == -getattr(signal, signame), "it still dies of the signal"
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_the_line_reader_edits_at_a_terminal_and_gives_it_back_as_it_was() -> None:
    """At a terminal (and writing to one) the reader takes the keys one by one, its echo off,
    and leaves the terminal as it found it; keys typed ahead are kept, and Ctrl-D still ends."""
    import termios

    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        written: list[str] = []
        modes: list[int] = []
        keys = iter([b"hx\x1b[D\x1b[3~\x1b[Fearts\r1 4\r", b"\x04"])

        def echo(text: str) -> None:
            # The prompt is written once the terminal is in the reader's mode: type then.
            if not written:
                modes.append(termios.tcgetattr(slave)[3])
                os.write(master, next(keys, b"") or b"\x04")
            written.append(text)

        reader = LineReader(slave, echo=echo)
        assert reader.edits
        assert reader.readline("Trump > ") == "hearts"
        assert termios.tcgetattr(slave) == before
        assert modes and not modes[0] & (termios.ICANON | termios.ECHO) and modes[0] & termios.ISIG
        assert written[0] == "Trump > " and "\x1b[1D" in "".join(written)
        written.clear()
        assert reader.readline("Discard > ") == "1 4", "typed ahead, kept"
        written.clear()
        with pytest.raises(EOFError):
            reader.readline("Your card > ")
        assert termios.tcgetattr(slave) == before
        assert reader.history == ["hearts", "1 4"]
        assert not LineReader(slave).edits, "no echo given: the kernel's lines, as before"
    finally:
        os.close(master)
        os.close(slave)
