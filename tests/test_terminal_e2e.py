"""``sobedesce play`` driven through a pseudo-terminal, typed as a person would.

One whole match: trump, exchanges (by card, by position, keep, sit), plays (by card and by
position), an illegal card (the rule's reason is shown and the prompt repeats), forced plays
(the reason is announced), ``hint``, ``rules``, ``history``; the match is saved after every
decision, the process is killed mid-match, resumed with ``--resume`` and finished; the record
replays.  Plus Ctrl-C and Ctrl-D, and windows smaller than 80x24, resized while waiting.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip(
    "pexpect", reason="the terminal end-to-end tests need pexpect, in the [test] extra: pip install -e '.[test]'"
)

from rich.cells import cell_len  # noqa: E402

from sobedesce.core import Card, Suit, read_record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
CARD = re.compile(r"([A7KJQ65432])([♠♥♦♣])")
HAND_CARD = re.compile(r"(\d) ([A7KJQ65432][♠♥♦♣])")
LETTER = {s.symbol: s.letter for s in Suit}
LETTERED = re.compile(r"\b[A7KJQ65432][SHDC]\b|\b(?:in|suit) [SHDC]\b")
"""A card or a suit in letters, as the rules core spells them and the screen does not."""

PROMPTS = [
    r"Trump \(S/H/D/C(?:/turn)?\) > ",
    r"Discard or sit > ",
    r"Discard > ",
    r"Your card > ",
    r"Press Enter to deal round (\d+) > ",
    r"Press Enter to return to the table > ",
    r"Press Enter for more \(\d+/\d+\) > ",
    r"Play again\? \(y/n\) > ",
    pexpect.EOF,
]
TRUMP, EXCHANGE, MUST_EXCHANGE, CARD_PROMPT, NEXT_ROUND, PAGE, MORE, AGAIN, END = range(9)


def _as_at_a_terminal() -> None:
    """In the child before it starts: Ctrl-C at its default, as a person's shell leaves it.  A
    test run started in the background by a shell without job control (``cmd &`` in a script,
    as some CI runners do) has SIGINT ignored, and an ignored signal stays ignored across
    ``exec``: Python would then install no ``KeyboardInterrupt`` and the Ctrl-C tests would
    fail for a reason that is not the program's."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, rows: int = 24, cols: int = 80) -> pexpect.spawn:
    """``sobedesce play ARGS`` in a terminal of ``rows`` x ``cols`` (``COLUMNS`` and ``LINES``
    say 80x24 whatever its size, as a shell that exported them once would)."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "sobedesce", "play", *args],
        env=env,
        encoding="utf-8",
        dimensions=(rows, cols),
        timeout=20,
        cwd=str(ROOT),
        preexec_fn=_as_at_a_terminal,
    )


def letters(text: str) -> str:
    """``K♠`` → ``ks``: how a person types a card."""
    return text[0].lower() + LETTER[text[1]].lower()


def screen_of(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def hand_of(screen: str) -> list[str]:
    lines = [line for line in screen.splitlines() if line.startswith("Your hand")]
    return [card for _, card in HAND_CARD.findall(lines[-1])] if lines else []


def legal_of(screen: str) -> list[str]:
    lines = [line for line in screen.splitlines() if line.startswith("* legal:")]
    return ["".join(m) for m in CARD.findall(lines[-1])] if lines else []


class Person:
    """Answers prompts the way a person would, and notes what the screen told them."""

    def __init__(self, rng: random.Random, rules: str = "classic", direction: str = "counter-clockwise") -> None:
        self.rng = rng
        self.rules = rules
        self.direction = direction
        self.transcript: list[str] = []
        self.done: set[str] = set()
        self.rounds_started = 1

    def step(self, child: pexpect.spawn) -> int:
        which = child.expect(PROMPTS)
        screen = screen_of(child)
        self.transcript.append(screen)
        if which == TRUMP:
            child.sendline(self.rng.choice(["s", "H", "d", "clubs", "turn", "turn"]))
        elif which in (EXCHANGE, MUST_EXCHANGE):
            hand = hand_of(screen)
            assert len(hand) == 5, screen
            if which == MUST_EXCHANGE:
                assert "You must play:" in screen
                self.done.add("must play")
            options = ["keep", "0", "1 4", f"{letters(hand[1])} {letters(hand[2])}", "2"]
            if which == EXCHANGE:
                options += ["sit"] * 3
            child.sendline(self.rng.choice(options))
        elif which == CARD_PROMPT:
            self.play(child, screen)
        elif which == NEXT_ROUND:
            self.rounds_started = int(child.match.group(1))
            assert "Round " in screen and "change" in screen and "score" in screen
            child.sendline("")
        elif which in (PAGE, MORE):
            child.sendline("")
        return which

    def play(self, child: pexpect.spawn, screen: str) -> None:
        hand, legal = hand_of(screen), legal_of(screen)
        assert legal and set(legal) <= set(hand), screen
        illegal = [c for c in hand if c not in legal]
        if illegal and "illegal" not in self.done:
            self.done.add("illegal")
            child.sendline(letters(illegal[0]))
            child.expect(r"Your card > ")
            again = screen_of(child)
            self.transcript.append(again)
            assert re.search(r"Not allowed: must [^.]+\. Try again\.", again), again
            said = re.search(r"Not allowed: must [^.]+\.", again)
            assert said and not LETTERED.search(said[0]), "cards and suits as the screen shows them"
            assert hand_of(again) == hand, "the prompt repeats with the same hand"
        for command, proof in (("hint", r"Hint from the \w+ bot"), ("history", r"Tricks of round \d+")):
            if command not in self.done and len(hand) <= 4:
                self.done.add(command)
                child.sendline(command)
                child.expect(proof)
                child.expect(r"Your card > ")
        if "rules" not in self.done:
            self.done.add("rules")
            child.sendline("rules")
            child.expect(rf"Rules: {self.rules}")
            child.expect(r"Press Enter to return to the table > ")
            assert self.direction in screen_of(child)
            child.sendline("")
            child.expect(r"Your card > ")
        card = self.rng.choice(legal)
        if self.rng.random() < 0.5:
            child.sendline(str(hand.index(card) + 1))
        else:
            child.sendline(letters(card) if self.rng.random() < 0.5 else letters(card).upper())


def play_to_the_end(person: Person, child: pexpect.spawn, again: bool = False) -> None:
    """The person answers every prompt until the match is over, then "Play again?": no (the
    program exits 0), or yes (a new match starts)."""
    for _ in range(5000):
        if person.step(child) == AGAIN:
            break
    else:
        raise AssertionError("the match did not end")
    child.sendline("y" if again else "n")
    if not again:
        child.expect(pexpect.EOF)
        assert child.wait() == 0


def test_a_whole_match_with_a_kill_and_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    args = ["--seed", "4242", "--bots", "random", "--speed", "0", "--name", "Tess", "--save", str(path)]
    person = Person(random.Random(1))
    child = spawn(*args)
    # Play into the third round, then kill the process while it waits for a card.
    for _ in range(2000):
        which = person.step(child)
        assert which != END, "the match ended before the kill"
        if person.rounds_started >= 3 and which == CARD_PROMPT:
            break
    child.expect(r"Your card > ")
    hand_before_kill = hand_of(screen_of(child))
    child.kill(signal.SIGKILL)
    child.close(force=True)
    saved = read_record(path.read_text(encoding="utf-8"))
    assert not saved.is_over and len(saved.rounds) >= 3
    assert saved.players == ("Tess", "Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)")

    child = spawn("--resume", str(path), "--seed", "4242", "--speed", "0", "--name", "Tess")
    child.expect(r"Your card > ")
    resumed_screen = screen_of(child)
    assert "Resumed" in resumed_screen
    assert hand_of(resumed_screen) == hand_before_kill, "the resumed match starts where it stopped"
    person.play(child, resumed_screen)
    play_to_the_end(person, child)
    ending = ANSI.sub("", person.transcript[-1])
    assert "The match is over" in ending and "riscos" in ending and "Winner" in ending
    assert f"sobedesce replay {path}" in ending.replace("\n", "")

    whole = "\n".join(person.transcript)
    assert {"illegal", "hint", "history", "rules", "must play"} <= person.done
    forced = re.findall(r"Forced: you play [^ ]+ — ([^.\n]+)\.", whole)
    assert forced, "a forced card is announced with its reason"
    assert "it is your last card" in forced
    assert any(reason.startswith("must ") for reason in forced), "a rule that forces a card is named"
    assert not any(LETTERED.search(reason) for reason in forced), forced
    for screen in person.transcript:  # a forced play is one event: said once, not also "You play …"
        lines = screen.splitlines()
        for above, below in itertools.pairwise(lines):
            card = re.match(r"Forced: you play (\S+) ", above)
            assert not card or below not in (above, f"You play {card.group(1)}."), screen

    final = read_record(path.read_text(encoding="utf-8"))
    assert final.is_over and final.winners
    assert final.players is not None and final.players[0] == "Tess"
    assert sum(final.riscos() or []) == pytest.approx(0)
    # Every hand shown was the person's own: cards parse, five at most.
    assert all(len(hand_of(s)) <= 5 for s in person.transcript)
    assert all(Card.parse(letters(c)) for s in person.transcript[:5] for c in hand_of(s))


def test_a_whole_match_under_the_table_rules(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    child = spawn("--rules", "table", "--seed", "77", "--bots", "random", "--speed", "0", "--save", str(path))
    person = Person(random.Random(2), rules="table", direction="clockwise")
    play_to_the_end(person, child, again=True)
    # Play again: the next match, at once, under the same rules, saved in the next file.
    child.expect(r"(Trump \(S/H/D/C\)|Discard or sit|Your card) > ")
    screen = screen_of(child)
    assert "table rules · round 1 " in screen and screen.count("score 20 · 5 cards") == 4, screen
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    second = read_record((tmp_path / "table-2.json").read_text(encoding="utf-8"))
    assert second.rules.name == "table" and not second.is_over and len(second.rounds) == 1
    whole = "\n".join(person.transcript)
    # Typed answers the table rules refuse come back with the rule, and the prompt repeats.
    assert "Not allowed" in whole
    final = read_record(path.read_text(encoding="utf-8"))
    assert final.rules.name == "table" and final.is_over and final.winners
    assert all(r.trump_action is None or str(r.trump_action) != "turn" for r in final.rounds)


def test_ctrl_c_saves_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    child = spawn("--seed", "9", "--bots", "random", "--speed", "0", "--save", str(path))
    # The real prompt, printed right before the program waits for a line: a Ctrl-C sent at
    # once lands while the read is starting, where input() used to swallow it.
    assert child.expect(PROMPTS[:4]) in (TRUMP, EXCHANGE, MUST_EXCHANGE, CARD_PROMPT)
    child.sendintr()
    child.expect(r"Interrupted\. The match is saved in")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    assert child.wait() == 130
    assert read_record(path.read_text(encoding="utf-8")).rounds


def test_ctrl_c_at_a_page_saves_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "c2.json"
    child = spawn("--seed", "9", "--bots", "random", "--speed", "0", "--save", str(path))
    child.expect(PROMPTS[:4])
    child.sendline("rules")
    child.expect(r"Press Enter to return to the table > ")
    child.sendintr()
    child.expect(r"Interrupted\. The match is saved in")
    child.expect(pexpect.EOF)
    assert child.wait() == 130


def test_ctrl_d_saves_and_exits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    child = spawn("--seed", "10", "--bots", "random", "--speed", "0", "--save", str(path))
    child.expect(PROMPTS[:4])
    child.sendeof()
    child.expect(r"End of input: you leave the table\. The match is saved in")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    assert read_record(path.read_text(encoding="utf-8")).rounds


def test_a_bot_that_fails_ends_the_match_saved_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in bot whose ``act`` raised ended the table with a Python traceback."""
    (tmp_path / "failing_e2e_bot.py").write_text(
        "class Failing:\n"
        "    name = 'failing'\n"
        "    def act(self, view, rng):\n"
        "        raise RuntimeError('boom')\n"
        "    def explain(self, view, rng):\n"
        "        return []\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    path = tmp_path / "f.json"
    # Seed 2: seat 1, a bot's, chooses trump first.
    child = spawn("--seed", "2", "--bots", "failing_e2e_bot:Failing", "--speed", "0", "--save", str(path))
    child.expect(r"sobedesce play: error: bot 'Bot 1 \(failing_e2e_bot:Failing\)' \(seat 1\) raised RuntimeError: boom")
    child.expect(r"Continue it with: sobedesce play --resume \S+ --seed 2")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "")
    assert child.wait() == 1
    assert read_record(path.read_text(encoding="utf-8")).rounds, "saved as it stood"


# -- windows smaller than 80x24 ---------------------------------------------------------------

CLEAR = "\x1b[2J"


def on_screen(child: pexpect.spawn) -> list[str]:
    """The terminal's lines at the prompt just matched: all written since the screen was last
    cleared (the table starts on the top line), the prompt last."""
    text = (child.before or "") + (child.after if isinstance(child.after, str) else "")
    assert CLEAR in text, "each screen is drawn on a cleared terminal"
    return ANSI.sub("", text.rsplit(CLEAR, 1)[1]).split("\n")


def flat(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def shown(child: pexpect.spawn, prompt: str, rows: int, cols: int) -> list[str]:
    """Wait for ``prompt``; the screen above it must fit the window: no line wider than it, and
    no more lines than leave the prompt on it (and a row for the answer), so that nothing
    scrolled off the top.  What a decision needs is there: the header with trump, the hand."""
    child.expect(prompt)
    lines = on_screen(child)
    assert len(lines) <= rows - 1, "\n".join(lines)
    assert all(cell_len(line) <= cols for line in lines), "\n".join(lines)
    assert any(line.startswith("Trump ") for line in lines), "\n".join(lines)
    assert any(line.startswith("Your hand") for line in lines), "\n".join(lines)
    return lines


@pytest.mark.parametrize(("rows", "cols"), [(20, 60), (16, 50), (16, 40)])
def test_a_small_window_shows_what_a_decision_needs(rows: int, cols: int) -> None:
    """Trump, an exchange and cards, with a wrong answer at each kind of prompt, in a window
    narrower and shorter than 80x24: the header stays on top, the reason an answer was refused
    is read whole under the hand, and nothing says the window is too small."""
    child = spawn("--seed", "3", "--bots", "random", "--speed", "0", rows=rows, cols=cols)
    trump = PROMPTS[TRUMP]
    shown(child, trump, rows, cols)
    child.sendline("xyz")
    refused = flat(shown(child, trump, rows, cols))
    assert "? 'xyz' is not a suit: type S, H, D or C (or spades, hearts…), or 'turn'" in refused
    child.sendline("h")
    shown(child, r"Discard(?: or sit)? > ", rows, cols)
    child.sendline("keep")
    shown(child, r"Your card > ", rows, cols)
    child.sendline("9z")
    lines = shown(child, r"Your card > ", rows, cols)
    assert "? '9z' is not a card: type e.g. 7h (rank A7KJQ65432, suit SHDC) or its number" in flat(lines)
    for _ in range(2):  # two legal cards, by their numbers
        hand = next(line for line in lines if line.startswith("Your hand"))
        child.sendline(re.findall(r"(\d) [A7KJQ65432][♠♥♦♣]\*", hand)[0])
        lines = shown(child, r"Your card > ", rows, cols)
    assert not any("too small" in line for line in lines)
    child.sendline("quit")
    child.expect(r"You leave the table\.")
    child.expect(pexpect.EOF)
    assert child.wait() == 0


def test_a_resized_window_is_drawn_again_at_once() -> None:
    """The window resized while the table waits for an answer: the screen is drawn again for
    the new size straight away (COLUMNS and LINES, stale, are not believed), a window too
    small says so, and what was typed before the resize is written again after the prompt and
    stays in the line (it used to be dropped: before the line was edited by the table, the
    screen drawn again no longer showed it)."""
    child = spawn("--seed", "3", "--bots", "random", "--speed", "0")
    trump = PROMPTS[TRUMP]
    shown(child, trump, 24, 80)
    child.setwinsize(16, 40)
    lines = shown(child, trump, 16, 40)
    assert any(line.strip().startswith("player") for line in lines), "the compact table"
    child.setwinsize(12, 40)
    # The whole line, or its short form above the compact table when that fits with it.
    child.expect(r"Window 40x12 is too small|Too small: needs 40x16")
    child.expect(trump)
    child.send("4")  # typed, not yet entered
    child.setwinsize(24, 80)
    lines = shown(child, trump, 24, 80)
    assert "─" * 80 in lines, "the table drawn around the trick again"
    # The "4" is written again after the prompt, and is in the line: Backspace takes it out.
    child.expect_exact("4")
    assert screen_of(child) == "", "the 4 right after the prompt"
    child.sendline("\x7fs")
    lines = shown(child, r"Discard(?: or sit)? > ", 24, 80)
    assert any("Trump ♠ Spades" in line for line in lines), lines
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0


def finished_match(path: Path, seed: int = 8) -> None:
    """A match played to its end by random choices, saved in ``path``; seat 0 is "You"."""
    from sobedesce.core import Match, dumps_record

    rng = random.Random(seed)
    match = Match("classic", players=["You", "Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)"])
    while not match.is_over:
        if match.current_seat is None:
            match.deal(rng=rng)
        else:
            match.apply(rng.choice(match.legal_actions()))
    path.write_text(dumps_record(match), encoding="utf-8")


def test_the_end_of_a_match_taller_than_the_window_is_paged(tmp_path: Path) -> None:
    """The end of a match (the winners, the final scores and riscos, the command to replay it)
    in a window too short for it: a screenful at a time, Enter for more, the last screen left
    on the terminal as the program ends.  It used to be printed at once, its top scrolled away."""
    path = tmp_path / "over.json"
    finished_match(path)
    rows, cols = 12, 40
    child = spawn("--resume", str(path), "--speed", "0", rows=rows, cols=cols)
    child.expect(r"Press Enter for more \(1/(\d+)\) > ")
    pages = int(child.match.group(1))
    seen = []
    for page in range(1, pages + 1):
        lines = on_screen(child)
        assert len(lines) <= rows - 1 and all(cell_len(line) <= cols for line in lines), "\n".join(lines)
        seen.append(flat(lines))
        child.sendline("")
        child.expect(rf"Press Enter for more \({page + 1}/{pages}\) > " if page < pages - 1 else pexpect.EOF)
        if page == pages - 1:
            break
    lines = on_screen(child)
    assert len(lines) <= rows - 1 and all(cell_len(line) <= cols for line in lines), "\n".join(lines)
    seen.append(flat(lines))
    whole = " ".join(seen)
    assert "The match is over after" in whole and "Winner" in whole and "riscos" in whole
    assert "sobedesce replay" in whole
    assert child.wait() == 0


def test_ctrl_d_at_the_end_of_a_match_shows_the_rest_at_once(tmp_path: Path) -> None:
    path = tmp_path / "over.json"
    finished_match(path)
    child = spawn("--resume", str(path), "--speed", "0", rows=12, cols=40)
    child.expect(r"Press Enter for more \(1/\d+\) > ")
    child.sendeof()
    child.expect(r"replay it with:")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "") and "leave the table" not in (child.before or "")
    assert child.wait() == 0


@pytest.mark.parametrize(("rows", "cols"), [(10, 30), (10, 80)])
def test_a_window_below_the_smallest_still_fits_every_screen(rows: int, cols: int) -> None:
    """Below 40x16 the header used to scroll off the top of the screen; now each screen fits
    the window with the prompt under it, trump and the hand on it, and says it is too small."""
    child = spawn("--seed", "3", "--bots", "random", "--speed", "0", rows=rows, cols=cols)

    def fits(prompt: str) -> list[str]:
        child.expect(prompt)
        lines = on_screen(child)
        assert len(lines) <= rows - 1, "\n".join(lines)
        assert all(cell_len(line) <= cols for line in lines), "\n".join(lines)
        assert any(line.startswith("Your hand") for line in lines), "\n".join(lines)
        assert "too small" in flat(lines).lower(), "\n".join(lines)
        return lines

    fits(PROMPTS[TRUMP])
    child.sendline("xyz")
    assert "'xyz' is not a suit" in flat(fits(PROMPTS[TRUMP]))
    child.sendline("h")
    assert any(line.startswith("Trump ♥") for line in fits(r"Discard(?: or sit)? > "))
    child.sendline("keep")
    fits(r"Your card > ")
    child.sendline("9z")
    assert "'9z' is not a card" in flat(fits(r"Your card > "))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0


# -- editing the line: arrows, Home/End, Backspace/Delete, Up/Down ------------------------------

LEFT, RIGHT, UP, DOWN = "\x1b[D", "\x1b[C", "\x1b[A", "\x1b[B"
HOME, END, DELETE, BACKSPACE = "\x1b[H", "\x1bOF", "\x1b[3~", "\x7f"


def test_the_line_is_edited_with_the_arrow_keys() -> None:
    """The arrow keys used to put ``^[[D`` into the answer (refused as no suit).  Now Left,
    Right, Home, End move in the line, Backspace and Delete remove at the cursor, Up and Down
    bring back the answers typed before in the session; a resize keeps the line and its cursor."""
    child = spawn("--seed", "3", "--bots", "random", "--speed", "0")
    child.expect(PROMPTS[TRUMP])
    # "hxarts", four to the left, the x out and an e in, to the end: "hearts".
    child.send("hxarts" + LEFT * 4 + BACKSPACE + "e" + END + "\r")
    assert child.expect([r"Discard(?: or sit)? > ", r"is not a suit"]) == 0, screen_of(child)
    assert "Trump ♥ Hearts" in screen_of(child)
    # "ke", Up (the answer before: "hearts"), Down (back to "ke"), "ep"; Home, Delete the k,
    # Right, Left, a k again: "keep".
    child.send("ke" + UP)
    child.expect("hearts")
    child.send(DOWN + "ep" + HOME + DELETE + RIGHT + LEFT + "k\r")
    assert child.expect([r"Your card > ", r"is not a card|Discard"]) == 0, screen_of(child)
    # Up twice: "keep", then "hearts"; Ctrl-U empties the line.  A card by its number, typed
    # with a typo mended by Backspace.
    child.send(UP + UP + "\x15" + "9" + BACKSPACE + "x" + LEFT)
    child.expect_exact("x")  # echoed: what follows is the resize's
    child.setwinsize(24, 79)  # a resize: the screen drawn again, the line typed written again
    child.expect(r"Your card > ")
    hand = hand_of(screen_of(child))
    legal = legal_of(screen_of(child))
    child.expect_exact("x")
    assert screen_of(child) == "", "the x right after the prompt"
    # The cursor is back before the "x": the number goes there, Delete takes the "x" out.
    child.send(str(hand.index(legal[0]) + 1) + DELETE + "\r")
    assert child.expect([r"Your card > |Press Enter", r"is not a card|no card"]) == 0, screen_of(child)
    assert "Not allowed" not in screen_of(child) and "'x" not in screen_of(child)
    child.sendline("quit")
    child.expect(r"You leave the table\.")
    child.expect(pexpect.EOF)
    assert child.wait() == 0


def test_an_answer_typed_at_a_page_and_hint_all() -> None:
    """A suit typed at the rules page is the trump (it used to turn the page, and was lost);
    ``hint all`` lists every option on a page of its own, where the discard typed is taken."""
    child = spawn("--seed", "3", "--bots", "random", "--speed", "0")
    child.expect(PROMPTS[TRUMP])
    child.sendline("rules")
    child.expect(PROMPTS[PAGE])
    child.sendline("h")
    assert child.expect([r"Discard(?: or sit)? > ", PROMPTS[PAGE], PROMPTS[TRUMP]]) == 0, screen_of(child)
    assert "Trump ♥ Hearts" in screen_of(child)
    child.sendline("hint all")
    child.expect(r"Hint from the \w+ bot")
    assert child.expect([PROMPTS[MORE], PROMPTS[PAGE]]) in (0, 1)
    listed = screen_of(child)
    assert "Your hand" not in listed and "more: 'hint all'" not in listed
    child.sendline("keep")
    assert child.expect([r"Your card > ", PROMPTS[MORE], PROMPTS[PAGE], r"Discard"]) == 0, screen_of(child)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
