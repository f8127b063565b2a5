"""The terminal frontend: draws the table, paces the bots, reads the person's answers.

All game logic is in :class:`~sobedesce.table.TableDriver`; this module only turns
its view and events into screens and prompts into decisions.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import os
import select
import shlex
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from rich.cells import chop_cells
from rich.console import Console
from rich.text import Text

from sobedesce.core import Exchange, IllegalActionError, Phase, Play
from sobedesce.table import Event, TableDriver
from sobedesce.table.driver import BotError

from .inputs import COMMANDS, Command, InputError, echo, parse_input
from .lineedit import LineEditor
from .render import (
    LOG_LINES,
    Guidance,
    TableScreen,
    block_chunks,
    card_text,
    cards_text,
    describe_event,
    help_lines,
    hint_lines,
    history_lines,
    match_over_lines,
    page_chunks,
    print_lines,
    printable,
    reason_text,
    round_over_lines,
    rules_lines,
    screen_rows,
    table_screen,
)

try:
    import termios
except ImportError:  # not a POSIX system: no line editing, lines as the console reads them
    termios = None  # type: ignore[assignment]

__all__ = ["LineReader", "Resized", "TerminalTable"]


class Resized(Exception):
    """The terminal was resized while a line was awaited: draw the screen again, and ask again
    (what was typed but not entered is kept and written again after the prompt where the
    reader edits the line; elsewhere it is dropped: the new screen would not show it)."""


class LineReader:
    """Reads the person's lines from a file descriptor so that Ctrl-C always interrupts.

    ``input()`` has a race: a SIGINT that lands just before it starts its blocking read is
    raised only after the next key.  Here the wait is a ``select`` on the input and on a
    pipe that the interpreter writes to whenever a signal arrives
    (:func:`signal.set_wakeup_fd`), so an interrupt ends the wait at once, whenever it
    came; the ``KeyboardInterrupt`` is then raised as soon as Python code runs again.  The
    wait also wakes every half second, in case the wakeup pipe could not be installed (a
    thread other than the main one).  End of input raises ``EOFError``, like ``input()``.

    With ``watch_resize`` (in the main thread), a resize of the terminal (``SIGWINCH``) from
    the reader's creation on makes the next wait, or the one under way, raise
    :class:`Resized`, so that the screen is drawn again for the new size at once (the
    line typed but not entered is then kept, or dropped: see ``_ConsoleReader.resized``).  So does the program's continuing after Ctrl-Z
    (``SIGCONT``, at ``fg``): the shell has written over the screen.  :meth:`close` stops
    watching.

    With ``echo`` (where to write on the screen) and ``fd`` a terminal, each line is edited
    here, key by key (:class:`~sobedesce.terminal.lineedit.LineEditor`: arrows, Home/End,
    Backspace/Delete, Up/Down for the earlier lines), the terminal in non-canonical mode
    without echo for the while, and :meth:`readline` writes its prompt; waits are the same.
    """

    def __init__(self, fd: int, *, watch_resize: bool = False, echo: Callable[[str], None] | None = None) -> None:
        self.fd = fd
        self._pending = b""
        self._ended = False
        self._resized = False
        self._previous_handlers: dict[int, Any] = {}
        # At a terminal, given where to write (``echo``: the screen), lines are edited here.
        self._echo = echo if echo is not None and termios is not None and os.isatty(fd) else None
        self.history: list[str] = []
        self._editor = LineEditor(self.history)
        self._keys = ""  # read, decoded, not yet taken by the editor
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        if watch_resize:
            for name in ("SIGWINCH", "SIGCONT"):
                signum = getattr(signal, name, None)
                if signum is None:
                    continue
                # Installed now, not at each wait: a resize between two waits (while the screen
                # is drawn, the bots move) is not lost, SIGWINCH being ignored by default.
                with contextlib.suppress(ValueError):  # not the main thread: no watching
                    self._previous_handlers[signum] = signal.signal(signum, self._on_resize)

    def _on_resize(self, signum: int, frame: Any) -> None:
        self._resized = True

    def close(self) -> None:
        """Stop watching: the handlers of ``SIGWINCH`` and ``SIGCONT`` before this reader are back."""
        handlers, self._previous_handlers = self._previous_handlers, {}
        for signum, previous in handlers.items():
            signal.signal(signum, signal.SIG_DFL if previous is None else previous)

    @property
    def edits(self) -> bool:
        """Whether :meth:`readline` edits the line itself (and writes its prompt)."""
        return self._echo is not None

    def readline(self, prompt: str = "") -> str:
        """The next line; at a terminal with ``echo``, edited with the keys (see
        :class:`~sobedesce.terminal.lineedit.LineEditor`) after writing ``prompt``."""
        if self._echo is not None and termios is not None:
            try:
                saved = termios.tcgetattr(self.fd)
            except termios.error:  # no longer a terminal (hung up): lines as the kernel makes them
                self._echo(prompt)
                self._echo = None
            else:
                return self._edited(prompt, self._echo, saved)
        while b"\n" not in self._pending and not self._ended:
            self._wait()
            chunk = os.read(self.fd, 4096)
            if chunk:
                self._pending += chunk
            else:
                self._ended = True
        if not self._pending:
            raise EOFError
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").rstrip("\r")

    def _edited(self, prompt: str, echo: Callable[[str], None], saved: list[Any]) -> str:
        """A line read key by key, the terminal in non-canonical mode meanwhile, without its
        echo (the editor writes the line) but with its signals (Ctrl-C, Ctrl-Z) as they are."""
        assert termios is not None
        keys = list(saved)
        keys[3] &= ~(termios.ICANON | termios.ECHO | termios.IEXTEN)
        keys[6] = list(saved[6])
        keys[6][termios.VMIN], keys[6][termios.VTIME] = 1, 0
        # TCSANOW, not TCSAFLUSH: what was typed ahead is kept (the table drops it when it must).
        termios.tcsetattr(self.fd, termios.TCSANOW, keys)
        editor, taken = self._editor, False
        stop = getattr(signal, "SIGTSTP", None)
        previous_stop: Any = None
        if stop is not None and self._previous_handlers:  # watching (the main thread): Ctrl-Z

            def suspend(signum: int, frame: Any) -> None:
                # The shell gets the terminal back as it was, whatever shell it is; at ``fg``
                # (SIGCONT: a redraw) the next line puts the reader's mode back.
                with contextlib.suppress(termios.error):
                    termios.tcsetattr(self.fd, termios.TCSANOW, saved)
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)  # stopped here, until fg
                signal.signal(signum, suspend)
                self._resized = True

            with contextlib.suppress(ValueError):
                previous_stop = signal.signal(stop, suspend)
        ending: dict[int, Any] = {}
        if self._previous_handlers:  # the main thread: a kill or a hang-up ends the program here

            def end(signum: int, frame: Any) -> None:
                # Killed (SIGTERM) or hung up (SIGHUP) mid-line: the terminal as it was first,
                # then the signal's own handling (the shell would be left without its echo).
                with contextlib.suppress(termios.error):
                    termios.tcsetattr(self.fd, termios.TCSANOW, saved)
                previous = ending.get(signum)
                if callable(previous):
                    previous(signum, frame)
                    return
                signal.signal(signum, signal.SIG_DFL if previous is None else previous)
                os.kill(os.getpid(), signum)

            for name in ("SIGTERM", "SIGHUP"):
                signum = getattr(signal, name, None)
                if signum is not None:
                    with contextlib.suppress(ValueError):
                        ending[signum] = signal.signal(signum, end)
        try:
            try:
                width = os.get_terminal_size(self.fd).columns
            except OSError:
                width = 0
            echo(editor.begin(prompt, width if width > 0 else 80))  # 0: a terminal that does not say
            while True:
                out, line, self._keys = editor.feed(self._keys)
                if out:
                    echo(out)
                if line == "\x04":  # Ctrl-D on an empty line
                    raise EOFError
                if line is not None:
                    taken = True
                    return line
                if self._ended:
                    if editor.text:  # the input ended mid-line: the line as it is
                        line, taken = editor.text, True
                        echo(editor.finish() + "\r\n")
                        editor.reset()
                        return line
                    raise EOFError
                self._wait()
                chunk = os.read(self.fd, 4096)
                self._keys += self._decoder.decode(chunk, final=not chunk)
                self._ended = not chunk
        finally:
            if not taken:  # Ctrl-C, a resize, the end: what is written next goes under the line
                echo(editor.finish())
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSANOW, saved)
            if stop is not None and previous_stop is not None:
                signal.signal(stop, previous_stop)
            for signum, previous in ending.items():
                signal.signal(signum, signal.SIG_DFL if previous is None else previous)

    def discard_pending(self) -> None:
        """Forget what was read but not yet returned (and the line being edited)."""
        self._pending = b""
        self._keys = ""
        self._decoder.reset()
        self._editor.reset()

    def _wait(self) -> None:
        wake_read, wake_write = os.pipe()
        try:
            os.set_blocking(wake_read, False)
            os.set_blocking(wake_write, False)
            try:
                previous: int | None = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
            except ValueError:  # not the main thread: fall back on the half-second wake-ups
                previous = None
            try:
                while True:
                    if self._resized:
                        self._resized = False
                        raise Resized
                    ready, _, _ = select.select([self.fd, wake_read], [], [], 0.5)
                    # A signal's handler (KeyboardInterrupt, a resize) runs here, back in Python code.
                    if self._resized:
                        continue
                    if self.fd in ready:
                        return
                    if wake_read in ready:
                        with contextlib.suppress(BlockingIOError):
                            os.read(wake_read, 512)
            finally:
                if previous is not None:
                    signal.set_wakeup_fd(previous)
        finally:
            os.close(wake_read)
            os.close(wake_write)


def _stdin_fd() -> int | None:
    """The descriptor of standard input when it can be waited on with ``select``."""
    if os.name != "posix":
        return None
    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return None


class _ConsoleReader:
    """``read(prompt)`` at a terminal: shows ``prompt``, then reads a line with a
    :class:`LineReader`; ``discard_typeahead()`` drops keys typed while no prompt showed."""

    def __init__(self, console: Console, fd: int) -> None:
        self.console = console
        # The line is edited (arrows, Home/End, Delete, Up/Down) when the screen is the terminal
        # typed at: the editor writes the line there, and would write into a pipe otherwise.
        screen = console.file
        try:
            at_terminal = os.isatty(screen.fileno())
        except (AttributeError, OSError, ValueError):
            at_terminal = False
        self.reader = LineReader(
            fd, watch_resize=os.isatty(fd), echo=functools.partial(self._write, screen) if at_terminal else None
        )

    @staticmethod
    def _write(screen: Any, text: str) -> None:
        screen.write(text)
        screen.flush()

    def __call__(self, prompt: str) -> str:
        if self.reader.edits:
            return self.reader.readline(prompt)
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        return self.reader.readline()

    def close(self) -> None:
        self.reader.close()

    def resized(self) -> None:
        """The screen was drawn again: the line being edited is kept (the next prompt writes it
        again, the cursor where it was); a line the kernel held, no longer shown, is dropped."""
        if not self.reader.edits:
            self.discard_typeahead()

    def discard_typeahead(self) -> None:
        if os.isatty(self.reader.fd):  # never from a pipe or a file: those are answers given in advance
            self.reader.discard_pending()
            with contextlib.suppress(OSError, ImportError):
                import termios

                termios.tcflush(self.reader.fd, termios.TCIFLUSH)


def console_reader(console: Console) -> Callable[[str], str]:
    """``read(prompt)`` for the console: a :class:`_ConsoleReader` on standard input, or
    ``console.input`` where standard input cannot be waited on with ``select``."""
    fd = _stdin_fd()
    if fd is None:
        return lambda prompt: console.input(prompt, markup=False)
    return _ConsoleReader(console, fd)


def shell_path(path: str) -> str:
    """``path`` as a command to copy writes it: quoted for the shell, and after ``./`` when it
    starts with ``-`` (``--resume -x.json`` is read as an unknown option, ``./-x.json`` is not)."""
    return shlex.quote(os.path.join(".", path) if path.startswith("-") else path)


class _Quit(Exception):
    """The person typed ``quit``."""


_YES = frozenset({"y", "yes", "s", "sim", "again", "play", "play again"})
_NO = frozenset({"n", "no", "não", "nao", "leave"})
"""The answers to "Play again?" (English and Portuguese)."""
_AGAIN = "Play again? (y/n) > "

_PAUSE_SLICE = 0.05
"""Seconds between two looks at the window's size while the table pauses."""

_PAGES = ("rules", "help", "history")
"""The commands that show a page (at a decision, ``history`` is shown under the hand when it fits)."""


class TerminalTable:
    """Runs a match at a terminal until it ends or the person leaves.

    ``read`` reads one line after showing a prompt (default: the console's ``input``);
    ``sleep`` paces the bots (``speed`` seconds a move, 0 for instant).  With ``again``, a
    match played to its end here asks "Play again?", and ``again`` makes the next match's
    driver from the finished one's (with notes for the new table's log).
    """

    def __init__(
        self,
        driver: TableDriver,
        console: Console,
        *,
        speed: float = 0.6,
        read: Callable[[str], str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        notes: Sequence[str] = (),
        again: Callable[[TableDriver], tuple[TableDriver, Sequence[str]]] | None = None,
    ) -> None:
        self.again = again
        self._play_again = False
        self.console = console
        self.speed = max(0.0, speed)
        self.read = read or console_reader(console)
        self.sleep = sleep
        self._moved_since_prompt = False
        self._drawn: tuple[tuple[int, int], Callable[[], None]] | None = None
        self._sit_down(driver, notes)

    def _sit_down(self, driver: TableDriver, notes: Sequence[str]) -> None:
        """A clean table for ``driver``'s match: its log starting with ``notes``."""
        self.driver = driver
        self.log: deque[Text] = deque((Text(n, style="dim") for n in notes), maxlen=LOG_LINES)
        # What the person asked to see under their hand (a hint, the history), drawn for a width.
        self.notice: Callable[[int], list[Text]] | None = None
        self._save_failing = False

    @property
    def names(self) -> list[str]:
        """The players' names as the screen shows them: a record's or ``--name``'s control
        characters (escape sequences, newlines) never reach the terminal."""
        return [printable(name) for name in self.driver.names]

    # -- the loop ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends (0), the person quits or input ends (0), or Ctrl-C (130);
        1 instead of 0 when the match it was told to save could not be saved."""
        try:
            self._loop()
            while self._play_again and self.again is not None:
                # The same reader (what was typed ahead stays), a new match at a clean table.
                self._play_again = False
                self._sit_down(*self.again(self.driver))
                self._loop()
        except _Quit:
            self._leave("You leave the table.")
            return self._unsaved()
        except EOFError:
            self._leave("End of input: you leave the table.")
            return self._unsaved()
        except BotError as error:
            # A bot that fails ends the match as it ends an arena's run: one line naming the
            # bot and the failure, the match saved as it stood, status 1, no traceback.
            print(f"sobedesce play: error: {error}", file=sys.stderr)
            self._leave("The match stops: a bot failed.")
            return 1
        except KeyboardInterrupt:
            self._leave("Interrupted.")
            return 130
        finally:
            close = getattr(self.read, "close", None)
            if close is not None:
                close()
        return 0

    def _unsaved(self) -> int:
        """1 if the match was to be saved and its last save failed (a script must not take the
        program's end for a saved match), else 0."""
        return 1 if self.driver.save_path and self.driver.save_error is not None else 0

    def _leave(self, why: str) -> None:
        try:
            self.driver.save()
        except OSError as error:
            self.driver.save_error = error
        self.console.print()
        path = self.driver.save_path
        if path and self.driver.save_error is not None:
            self.console.print(
                f"{why} The match could not be saved in {path}: {self._save_problem()}.",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        elif path and self.driver.status == "over":  # nothing to continue: how to replay it
            self.console.print(
                f"{why} The match is over and saved in {path}; replay it with: sobedesce replay {shell_path(path)}",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
        elif path:
            self.console.print(f"{why} The match is saved in {path}.", markup=False, highlight=False, soft_wrap=True)
            # A command to copy as it is: the path quoted for the shell, and the seed given
            # again, without which the next deals would no longer be the seeded ones.
            again = f"sobedesce play --resume {shell_path(path)}"
            if self.driver.seed is not None:
                again += f" --seed {self.driver.seed}"
            self.console.print(f"Continue it with: {again}", markup=False, highlight=False, soft_wrap=True)
        else:
            self.console.print(
                f"{why} (Nothing saved: use --save FILE to keep a match.)", markup=False, highlight=False
            )

    def _loop(self) -> None:
        driver = self.driver
        if driver.match.phase == Phase.MATCH_OVER:  # a finished match was resumed: show how it ended
            match = driver.match
            ended = Event(
                "match",
                len(match.rounds) - 1,
                scores=tuple(match.scores),
                winners=tuple(match.winners),
                riscos=tuple(match.riscos() or ()),
            )
            self._match_over(ended)
            return
        while True:
            status = driver.status
            if status == "over":
                return
            if status == "deal":
                self._show_events(driver.deal())
            elif status == "bot":
                self._show_events(driver.play_bot())
            else:
                self._human_turn()

    # -- drawing -------------------------------------------------------------------------

    def _size(self) -> tuple[int, int]:
        """The window's width and height now.  At a terminal they are asked of it at each
        screen, so a resize is followed even when ``COLUMNS``/``LINES`` (read once by the
        console) say otherwise; elsewhere they are the console's."""
        console = self.console
        if console.is_terminal:
            with contextlib.suppress(AttributeError, OSError, ValueError):
                size = os.get_terminal_size(console.file.fileno())
                if size.columns > 0 and size.lines > 0:
                    console.width, console.height = size.columns, size.lines
        return console.width, console.height

    def _table(self, *, guidance: Guidance = None, message: Text | str | None = None) -> TableScreen:
        """The table laid out for the window as it is now."""
        width, height = self._size()
        return table_screen(
            self.driver.view(),
            self.names,
            log=list(self.log),
            notice=self.notice(width) if self.notice is not None else (),
            guidance=guidance,
            message=message,
            width=width,
            height=height,
        )

    def _draw(self, *, guidance: Guidance = None, message: Text | str | None = None) -> None:
        self._screen(self._table(guidance=guidance, message=message).lines)
        # What a pause draws again if the window is resized meanwhile (see _pause).
        self._drawn = (self._size(), functools.partial(self._draw, guidance=guidance, message=message))

    def _screen(self, lines: Sequence[Text], *, blank: bool = False) -> None:
        """Clear the terminal and show ``lines``; ``blank``: then an empty line, if there is
        room for it above the prompt."""
        self.console.clear()
        print_lines(self.console, lines)
        if blank and len(lines) < screen_rows(self.console.height):
            self.console.print()

    def _paged(self, make: Callable[[int], Sequence[Text]], prompt: str, *, answers: bool = False) -> str:
        """Show the page ``make(width)`` and return the answer to ``prompt``.  A page taller
        than the window is shown a screenful at a time, Enter for the next (``quit`` leaves);
        with ``answers``, anything else typed at one of those screens is returned at once too
        (an answer for the prompt under the page: the caller takes it)."""
        index = 0
        while True:
            width, height = self._size()
            chunks = page_chunks(make(width), width, height)
            index = min(index, len(chunks) - 1)
            last = index == len(chunks) - 1
            self._screen(chunks[index], blank=True)
            answer = self._ask(prompt if last else f"Press Enter for more ({index + 1}/{len(chunks)}) > ")
            if answer is None:  # resized: the same page, laid out again
                continue
            if last:
                return answer
            command = COMMANDS.get(" ".join(answer.split()).lower())
            if command == "quit":
                raise _Quit
            if command in _PAGES:  # another page asked for: the caller shows it
                return answer
            if answers and answer.strip():
                return answer
            index += 1

    def _page(
        self, make: Callable[[int], Sequence[Text]], prompt: str = "Press Enter to return to the table > "
    ) -> str | None:
        """Show the page ``make(width)`` until Enter (``None``); ``rules``, ``help`` or
        ``history`` typed at it shows that page instead, ``quit`` leaves the table.  Anything
        else typed at it closes it and is returned: the answer to the prompt under the page
        (a card, ``hint``, ``y``…), which the caller takes — or refuses, with the reason —
        exactly as if it had been typed there.  (It used to turn the page, and was lost.)"""
        while True:
            answer = self._paged(make, prompt, answers=True)
            key = " ".join(answer.split()).lower()
            command = COMMANDS.get(key)
            if command == "quit":
                raise _Quit
            if command in _PAGES:
                make = self._page_of(command)
                continue
            return answer if key else None

    def _page_of(self, command: str) -> Callable[[int], Sequence[Text]]:
        """The page a command shows: ``rules``, ``help`` or ``history``."""
        driver = self.driver
        if command == "rules":
            return functools.partial(rules_lines, driver.match.rules)
        if command == "help":
            phase = driver.view().phase if driver.status == "human" else None
            return functools.partial(help_lines, phase, driver.match.rules)
        return functools.partial(history_lines, driver.view(), self.names)

    def _ask(self, prompt: str) -> str | None:
        """The person's answer to ``prompt``; ``None`` when the window was resized meanwhile
        (the caller draws its screen again and asks again)."""
        if self._moved_since_prompt:
            # Keys typed while the table moved on (the bots, a forced card) answered no prompt:
            # they are dropped rather than taken as the next decision.
            self._moved_since_prompt = False
            discard = getattr(self.read, "discard_typeahead", None)
            if discard is not None:
                discard()
        try:
            return self.read(prompt)
        except Resized:
            # The screen is cleared and drawn again: a line typed but not entered is written again
            # after the prompt where the reader edits the line; elsewhere it would no longer show,
            # so it is dropped rather than sent with what is typed next.
            resized = getattr(self.read, "resized", None) or getattr(self.read, "discard_typeahead", None)
            if resized is not None:
                resized()
            return None

    def _pause(self, factor: float = 1.0) -> None:
        """Wait ``factor`` times the bots' pace, the screen just drawn in sight: in slices, so
        that a resize meanwhile draws it again for the new size at once (as at a prompt),
        rather than leaving the old layout wrapped and garbled until the next move."""
        left = self.speed * factor
        while left > 1e-9:
            step = min(left, _PAUSE_SLICE)
            self.sleep(step)
            left -= step
            if self._drawn is not None and self._size() != self._drawn[0]:
                self._drawn[1]()

    def _save_problem(self) -> str:
        error = self.driver.save_error
        return (error.strerror or str(error)) if error is not None else ""

    def _report_saving(self) -> None:
        """Say once when saving after a move fails, and once when it works again: the match
        goes on in memory meanwhile, and each move tries to save it again."""
        if self.driver.save_error is not None and not self._save_failing:
            self._save_failing = True
            self.log.append(
                Text(
                    f"! Not saved ({self._save_problem()}): each move tries again.",
                    style="bold red",
                )
            )
        elif self.driver.save_error is None and self._save_failing:
            self._save_failing = False
            self.log.append(Text("Saved again: nothing is lost.", style="bold"))

    def _show_events(self, events: Sequence[Event], *, forced: Text | None = None) -> None:
        """Log ``events`` (the person's forced play as ``forced``) and pace them."""
        driver = self.driver
        if events:
            self._moved_since_prompt = True
        for event in events:
            if forced is not None and event.kind == "play" and event.seat == driver.human:
                self.log.append(forced)
                if self.speed > 0:
                    self._draw(guidance=self._while_paced())
                    self._pause(2.0)
                continue
            self.log.append(describe_event(event, self.names, driver.human))
            if event.kind in ("round", "match"):
                continue
            if self.speed > 0 and (event.seat != driver.human or event.kind == "trick"):
                self._draw(guidance=self._while_paced())
                self._pause(2.0 if event.kind == "trick" else 1.0)
        self._report_saving()
        ended = next((event for event in events if event.kind == "match"), None)
        for event in events:
            if event.kind == "round":
                self._round_over(event, last=ended is not None)
        if ended is not None:
            # The last round's summary and the match's end are one page, shown a screenful at a time.
            last_round = next((event for event in events if event.kind == "round"), None)
            self._match_over(ended, last_round, offer_again=self.again is not None)

    def _while_paced(self) -> Text | None:
        """The line under the hand while the table pauses: no prompt is up, so when the
        person is to act next it must not ask them to type yet."""
        if self.driver.status != "human":
            return None  # the default: who is awaited
        return Text("Your turn next…", style="dim")

    def _round_over(self, event: Event, *, last: bool) -> None:
        driver = self.driver
        if self.speed > 0:
            self._draw()
            self._pause(2.0)
        next_dealer = None if last else driver.match.next_dealer
        self.notice = None

        def summary(message: Text | None, width: int) -> list[Text]:
            lines = round_over_lines(event, self.names, driver.human, next_dealer, width)
            return [*lines, message] if message is not None else lines

        if last:
            return  # the summary is shown with the end of the match (_match_over)
        message: Text | None = None
        typed: str | None = None  # typed at a page opened from here: an answer to this prompt
        while True:
            if typed is None:
                text = self._paged(
                    functools.partial(summary, message), f"Press Enter to deal round {event.round_index + 2} > "
                )
            else:
                text, typed = typed, None
            key = " ".join(text.split()).lower()
            if not key:
                return
            command = COMMANDS.get(key)
            message = None
            if command == "quit":
                raise _Quit
            if command in _PAGES:
                typed = self._page(self._page_of(command))
            elif command in ("hint", "hint all"):
                message = Text("No decision is due: 'hint' helps when you choose trump, exchange or play.")
            else:
                message = Text(
                    f"? Press Enter to deal round {event.round_index + 2}, or type rules, history, help or quit."
                )

    def _match_over(self, event: Event, last_round: Event | None = None, *, offer_again: bool = False) -> None:
        """The end of the match: the last round's summary (``last_round``), the winners, the
        final scores and riscos, and where the record is.  Taller than the window, it is shown
        a screenful at a time (Enter for more), like every other page; the last screen has no
        prompt, and the program ends under it, or (``offer_again``) asks "Play again?".
        ``quit``, or the end of input, shows the rest at once and plays no more."""
        driver = self.driver
        question = _AGAIN

        def page(width: int) -> list[list[Text]]:
            # Blocks kept whole on a screen, the last ones on the last screen: the winners and
            # the scores are in sight when "Play again?" is asked, a command under its label.
            blocks: list[list[Text]] = []
            if last_round is not None:
                blocks.append(round_over_lines(last_round, self.names, driver.human, None, width))
            blocks.append(match_over_lines(event, self.names, driver.human, len(driver.match.rounds), width))
            if driver.save_path and driver.save_error is not None:
                blocks.append([Text(f"The record could not be saved in {driver.save_path}: {self._save_problem()}.")])
            elif driver.save_path:
                # A command to copy: on a line of its own, cut only where the window's edge is
                # (not at its spaces), as the terminal would wrap it.
                command = f"sobedesce replay {shell_path(driver.save_path)}"
                blocks.append(
                    [Text("The record is saved; replay it with:"), *(Text(part) for part in chop_cells(command, width))]
                )
            return blocks

        index = 0
        typed: str | None = None  # typed at a page opened from "Play again?": the answer to it
        while True:
            width, height = self._size()
            chunks = block_chunks(page(width), width, height)
            index = len(chunks) - 1 if typed is not None else min(index, len(chunks) - 1)
            if typed is None:
                self._screen(chunks[index])
            if index == len(chunks) - 1:
                if not offer_again:
                    return
                if typed is None:
                    try:
                        answer = self._ask(question)
                    except EOFError:
                        self.console.print()
                        return
                else:
                    answer, typed = typed, None
                if answer is None:
                    continue
                key = " ".join(answer.split()).lower()
                if key in _YES:
                    self._play_again = True
                    return
                if key in _NO or COMMANDS.get(key) == "quit":
                    return
                if COMMANDS.get(key) in _PAGES:  # rules, help or history, as at any prompt
                    typed = self._page(self._page_of(COMMANDS[key]))
                    question = _AGAIN
                    continue
                # Said in the prompt: a line more on the page could push its top off the screen.
                question = f"{echo(answer.strip())} is not an answer: y or n? > " if key else "y or n? > "
                continue
            try:
                answer = self._ask(f"Press Enter for more ({index + 1}/{len(chunks)}) > ")
            except EOFError:
                self.console.print()  # the rest under the prompt, not after it on its line
                answer = "quit"
            if answer is None:  # resized: the same screen, laid out again
                continue
            if COMMANDS.get(" ".join(answer.split()).lower()) == "quit":
                for chunk in chunks[index + 1 :]:  # no one to press Enter: the rest at once
                    print_lines(self.console, chunk)
                return
            index += 1

    # -- the person's turn -----------------------------------------------------------------

    def _human_turn(self) -> None:
        driver = self.driver
        forced = driver.forced_play()
        if forced is not None:
            # One event: the card goes on the table and the log says it was forced, and why,
            # in place of "You play …".  No prompt is shown meanwhile, so keys typed now
            # answer nothing: they are dropped at the next prompt (see _ask).
            card, why = forced
            note = Text("Forced: you play ", style="bold").append_text(card_text(card, "bold"))
            note.append(" — ", style="bold").append_text(reason_text(why, "bold")).append(".", style="bold")
            self.notice = None
            self._show_events(driver.play_human(Play(card)), forced=note)
            return
        message: Text | str | None = None
        must_play = driver.must_play_reason()
        # What was typed at a page (rules, help, a long hint…) other than Enter: taken as if
        # typed at the table, with the same checks and the same messages.
        typed: str | None = None
        while True:
            view = driver.view()
            guidance, prompt = self._prompt_for(view.phase, must_play)
            if typed is None:
                screen = self._table(guidance=guidance, message=message)
                if not screen.notice_shown and self.notice is not None:
                    # A hint or the history too long for the window: a page of its own, then the table.
                    notice, self.notice = self.notice, None
                    typed = self._page(notice)
                    if typed is not None:
                        continue
                    screen = self._table(guidance=guidance, message=message)
                self._screen(screen.lines)
                text = self._ask(prompt)
                if text is None:  # resized: the same screen, laid out again
                    continue
            else:
                text, typed = typed, None
            message = None
            self.notice = None
            try:
                parsed = parse_input(
                    text,
                    view.phase,
                    view.hand,
                    turn_allowed=view.rules.turn_up_allowed,
                    keep_allowed=view.rules.min_discard == 0,
                    sit_allowed=must_play is None,
                )
            except InputError as error:
                message = Text(f"? {error}", style="bold")
                continue
            if isinstance(parsed, Command):
                if parsed.name == "quit":
                    raise _Quit
                if parsed.name in ("hint", "hint all"):
                    # The strong bot may take seconds, once a decision (the driver keeps the
                    # hint until the decision is made): say so meanwhile.
                    if self.console.is_terminal and not driver.hint_ready():
                        thinking = Text("Working out a hint…", style="dim")
                        self._screen(self._table(guidance=guidance, message=thinking).lines)
                    options = driver.hint()
                    # 'hint all': every option, too many for under the hand: on a page of its own.
                    self.notice = functools.partial(
                        hint_lines, options, driver.hint_bot_name, every=parsed.name == "hint all"
                    )
                elif parsed.name == "history":
                    self.notice = functools.partial(history_lines, view, self.names)
                elif parsed.name in ("rules", "help"):
                    typed = self._page(self._page_of(parsed.name))
                continue
            named = (
                [parsed.card]
                if isinstance(parsed, Play)
                else list(parsed.discard)
                if isinstance(parsed, Exchange)
                else []
            )
            absent = [card for card in named if card not in view.hand]
            if absent:
                # The rules core would say "does not hold 7D": whose, and not as the hand shows it.
                message = Text("Not allowed: you do not hold ", style="bold red")
                message.append_text(cards_text(absent)).append(". Try again.")
                continue
            try:
                events = driver.play_human(parsed)
            except IllegalActionError as error:
                message = Text("Not allowed: ", style="bold red")
                message.append_text(reason_text(error.reason, "bold red")).append(". Try again.", style="bold red")
                continue
            self._show_events(events)
            return

    def _prompt_for(self, phase: Phase, must_play: str | None) -> tuple[Guidance, str]:
        """The line under the hand (with its shorter forms for a small window: the prompt
        says what to type) and the prompt, for a decision in ``phase``."""
        rules = self.driver.match.rules
        if phase == Phase.TRUMP:
            choices = "S/H/D/C" + ("/turn" if rules.turn_up_allowed else "")
            return None, f"Trump ({choices}) > "
        if phase == Phase.EXCHANGE:
            if rules.min_discard == rules.max_discard:
                span = f"exactly {rules.min_discard}"
            else:
                span = f"{rules.min_discard}-{rules.max_discard}"
            keep = " or 'keep'" if rules.min_discard == 0 else ""
            # A variant without exchanges has nothing to discard ("Discard exactly 0 cards").
            what = f"Discard {span} cards (2c 5h or 1 4){keep}" if rules.max_discard else "Type 'keep' (no exchanges)"
            if must_play:
                reason = must_play.removeprefix("must play: ")
                said = reason_text(reason)
                guidance = Text("You must play: ").append_text(said)
                guidance.append(f". {what}.")
                return (guidance, Text("You must play: ").append_text(said.copy()).append(".")), "Discard > "
            guidance = Text(f"{what}, or 'sit' to sit out.")
            return (guidance, None), "Discard or sit > "
        return None, "Your card > "
