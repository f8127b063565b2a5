"""``sobedesce play``: a person plays a whole match against three bots at the terminal."""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
import sys
from typing import TYPE_CHECKING, Any

from sobedesce.core import PRESETS, Match, Phase, RecordFormatError, RecordRuleError, find_rules

if TYPE_CHECKING:
    from sobedesce.table import TableDriver

DEFAULT_BOTS = "hard"
DEFAULT_NAME = "You"
MAX_SPEED = 60


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a match against three bots in the terminal",
        description=(
            "Play Sobe e Desce against three bots. When you decide: hint. At any prompt: rules, history, help, quit."
            " At the end of a match: play again (y/n)."
        ),
    )
    parser.add_argument(
        "--rules", type=str.lower, choices=sorted(PRESETS), default=None, help="rule set (default: classic)"
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help=(
            "the opponents: a level or bot name for all three, or three separated by commas for the seats"
            f" after yours in the order of play; Bot n sits at seat n (default: {DEFAULT_BOTS})"
        ),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the deals and the bots, to reproduce a match (default: deals drawn from the OS's randomness)",
    )
    parser.add_argument("--name", default=None, help=f"your name at the table (default: {DEFAULT_NAME})")
    parser.add_argument("--seat", type=int, choices=range(4), default=None, help="your seat, 0-3 (default: 0)")
    parser.add_argument(
        "--save", metavar="FILE", help="save the match record to FILE (a new file) after every decision"
    )
    parser.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE (and keep saving there)")
    parser.add_argument(
        "--speed", type=float, default=0.6, metavar="SECONDS", help="seconds per bot move, 0 for instant (default: 0.6)"
    )
    parser.set_defaults(run=run)


def _bot_names(text: str | None) -> list[str]:
    names = [n.strip() for n in (DEFAULT_BOTS if text is None else text).split(",")]
    if len(names) not in (1, 3) or names == [""]:
        raise ValueError(f"--bots takes one name or three separated by commas, not {text!r}")
    if "" in names:  # three fields, one of them blank: saying "three" again would not help
        raise ValueError(f"--bots {text!r}: name {names.index('') + 1} of the three is empty")
    return names * 3 if len(names) == 1 else names


# An arena's record names its seats after their bots: ``basic#2`` (entry 2 of the arena).
_ARENA_NAME = re.compile(r"^\S+#\d+$")


def _is_bot_name(name: str) -> bool:
    from sobedesce.terminal import level_of_name

    return level_of_name(name) is not None or _ARENA_NAME.match(name) is not None


def _human_seat(match: Match, args: argparse.Namespace, path: str) -> int:
    """Your seat in the resumed ``match``; a ``ValueError`` says why the options cannot be
    met.  A seat named like a bot is never taken: its name would be shown as yours."""
    players = match.players
    if players is None:
        return int(args.seat) if args.seat is not None else 0
    listed = ", ".join(f"{s}: {name!r}" for s, name in enumerate(players))
    if args.seat is not None:
        seat = int(args.seat)
        if args.name is not None and players[seat] != args.name:
            raise ValueError(f"seat {seat} of {path} is {players[seat]!r}, not {args.name!r} (seats {listed})")
    elif args.name is not None:
        if args.name not in players:
            raise ValueError(f"no seat of {path} is named {args.name!r} (seats {listed})")
        seat = players.index(args.name)
    elif DEFAULT_NAME in players:
        seat = players.index(DEFAULT_NAME)
    else:
        people = [s for s, name in enumerate(players) if not _is_bot_name(name)]
        if not people:
            raise ValueError(f"every seat of {path} is a bot's ({listed}): there is no seat for you")
        seat = people[0]
    if _is_bot_name(players[seat]):
        raise ValueError(f"seat {seat} of {path} is the bot {players[seat]!r}, not a person (seats {listed})")
    return seat


def save_problem(path: str, *, advice: str | None = None, same_as: str | None = None) -> str | None:
    """Why ``--save path`` is refused, if it is, in the words every subcommand uses: a
    directory, a file that exists (never overwritten: ``advice`` says what to do instead), or
    a path where no file can be created (tried, and removed at once).  ``same_as``: a file the
    command is allowed to save into again (``play --resume FILE --save FILE``)."""
    if not path.strip():  # an unset shell variable, say: not a file to create in the current folder
        return "--save needs a file name"
    if same_as is not None and os.path.abspath(path) == os.path.abspath(same_as):
        return None
    if os.path.isdir(path):
        return f"cannot save to {path}: it is a directory"
    if os.path.lexists(path):
        return f"{path} exists: --save names a new file" + (f" ({advice})" if advice else "")
    try:
        with open(path, "x", encoding="utf-8"):
            pass
        os.unlink(path)  # only a probe: nothing is left behind if the command stops before saving
    except OSError as error:
        return f"cannot save to {path}: {error.strerror or error}"
    return None


_SYSTEM_FOLDERS = ("/dev/", "/proc/", "/sys/")
"""Where no path names a record, even when ``stat`` calls it a regular file (``/proc/self/status``)."""


def file_problem(path: str, option: str) -> str | None:
    """Why ``path`` cannot be resumed from or saved into with ``option``, if it cannot: the
    match is saved by replacing the file, so it must be a regular file or a new path (through a
    symlink: its target), never ``-`` (standard input carries the moves), a device, a FIFO or
    a path under ``/dev``, ``/proc`` or ``/sys``."""
    if path == "-":
        return f"{option} - is refused: standard input carries your moves, name the match's file"
    target = os.path.realpath(path)
    if os.path.abspath(path).startswith(_SYSTEM_FOLDERS):  # /dev/stdin, even when it leads to a file
        return f"{option} {path}: a system file, not a match's record"
    if target.startswith(_SYSTEM_FOLDERS):
        return f"{option} {path}: {target} is a system file, not a match's record"
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return None  # a new path (or one that cannot be read: said when it is opened)
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # a folder is refused in its own words
        return f"{option} {path}: it is not a regular file (a device, a FIFO or a socket)"
    return None


def _saved_in(path: str) -> str:
    """Where saving into ``path`` writes: a symlink's target (saving replaces the file, and
    would replace the link itself), else ``path`` as it was given."""
    return os.path.realpath(path) if os.path.islink(path) else path


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from sobedesce.bots import bot_key
    from sobedesce.terminal import TableDriver, bot_label, level_of_name, resolve_bot
    from sobedesce.terminal.app import TerminalTable, shell_path

    from .replay import load

    def fail(message: str, status: int = 2) -> int:
        print(f"sobedesce play: {message}", file=sys.stderr)
        return status

    # A pause longer than a minute a move is no pace to play at, and one of thousands of
    # years (1e10) overflows the clock's sleep half way through the first round.
    if not math.isfinite(args.speed) or not 0 <= args.speed <= MAX_SPEED:
        return fail(f"--speed must be a finite number of seconds, 0 to {MAX_SPEED}")
    for option, given in (("--resume", args.resume), ("--save", args.save)):
        # Before anything is read or written: saving replaces the file, and would replace a
        # device (/dev/stdin) or a FIFO by a file.
        problem = file_problem(given, option) if given else None
        if problem is not None:
            return fail(problem)
    if args.save is not None:
        if args.resume is not None:
            advice = f"without --save the match is saved on into {args.resume}"
        else:
            advice = f"to continue the match saved there, use --resume {shell_path(args.save)}"
        problem = save_problem(args.save, advice=advice, same_as=args.resume)
        if problem is not None:
            return fail(problem)
    if args.resume is not None and not args.resume.strip():
        # Empty, it used to start a new match as if --resume had not been given.
        return fail("--resume needs the name of a saved match (the file --save wrote)")
    # Without --seed every deck comes from the OS's randomness when it is dealt (see
    # TableDriver): nothing on the screen or in the record predicts a deal still to come.
    seed: int | None = args.seed
    notes: list[str] = []
    if args.resume:
        try:
            match = load(args.resume)
        except RecordFormatError as error:
            return fail(f"cannot resume {args.resume}: {error}")
        except RecordRuleError as error:
            return fail(f"cannot resume {args.resume}: {error}", 1)
        if args.rules is not None and find_rules(args.rules).name != match.rules.preset:
            return fail(f"{args.resume} is a match under the {match.rules.name} rules: leave out --rules {args.rules}")
        try:
            human = _human_seat(match, args, args.resume)
        except ValueError as error:
            return fail(f"cannot resume {args.resume}: {error}")
        if match.players is None:
            match.players = tuple(
                args.name or DEFAULT_NAME if s == human else bot_label(s, DEFAULT_BOTS) for s in range(4)
            )
        players = match.players
        assert players is not None
        saved = [level_of_name(players[(human + i) % 4]) for i in range(1, 4)]
        wanted = [level or DEFAULT_BOTS for level in saved]
        if args.bots is not None:
            try:
                asked = _bot_names(args.bots)
            except ValueError as error:
                return fail(str(error))
            # A seat named "Bot 1 (hard)" is played by hard bots: another level would play under
            # a name that says otherwise, and the next --resume would silently go back to it.
            if any(level is not None and bot_key(name) != level for name, level in zip(asked, saved, strict=True)):
                # A seat whose name carries no level is not called "hard": --bots chooses its bot.
                kept = ", ".join(level or "any" for level in saved)
                return fail(
                    f"{args.resume} is played against {kept} bots, and a resumed match keeps its bots:"
                    f" leave out --bots {args.bots}"
                )
            wanted = [name if level is None else level for name, level in zip(asked, saved, strict=True)]
        # Between rounds the next deal comes at once: it is the round the person resumes at.
        notes.append(f"Resumed {args.resume} at round {len(match.rounds) + (match.phase == Phase.DEAL)}.")
        save_path: str | None = _saved_in(args.save or args.resume)
    else:
        if args.name is not None and (not args.name.strip() or not args.name.isprintable()):
            # A blank name showed as nothing beside "(you)"; a control character, drawn, moves the screen.
            return fail(f"--name {args.name!r}: a name needs a letter or sign and no control characters")
        if args.name is not None and _is_bot_name(args.name):
            # Saved under a bot's name, the seat would be taken for a bot's on --resume.
            return fail(f"--name {args.name!r} is how the table names a bot: choose another name")
        try:
            wanted = _bot_names(args.bots)
        except ValueError as error:
            return fail(str(error))
        match = Match(find_rules(args.rules or "classic"))
        human = args.seat if args.seat is not None else 0
        save_path = None if args.save is None else _saved_in(args.save)
    bots: dict[int, Any] = {}
    used: list[str] = []
    for i, name in enumerate(wanted, start=1):
        try:
            # A seeded match replays exactly (and --resume goes on exactly): its bots play at
            # their sample budgets, not by the clock.
            level, bot = resolve_bot(name, timed=seed is None)
        except ValueError as error:
            seat = (human + i) % 4
            if args.resume and match.players is not None and level_of_name(match.players[seat]) is not None:
                # The bot a seat's name gives (a plug-in no longer installed, say), read as
                # --bots reads it: never replaced by another under that name.
                return fail(f"cannot resume {args.resume}: seat {seat} is {match.players[seat]!r}: {error}")
            return fail(str(error))
        bots[(human + i) % 4] = bot
        used.append(level)
    if not args.resume:
        names = [""] * 4
        names[human] = args.name or DEFAULT_NAME
        for i, level in enumerate(used, start=1):
            seat = (human + i) % 4
            names[seat] = bot_label(seat, level)  # Bot n sits at seat n, whatever seat is yours
        match.players = tuple(names)
    notes.insert(0, ("" if seed is None else f"Seed {seed}. ") + "Type 'help' at any prompt.")
    driver = TableDriver(match, human, bots, seed=seed, save_path=save_path)
    try:
        driver.save()
    except OSError as error:
        return fail(f"cannot save to {save_path}: {error.strerror}")
    console = Console(highlight=False, emoji=False)
    return TerminalTable(driver, console, speed=args.speed, notes=notes, again=PlayAgain()).run()


class PlayAgain:
    """Play again (``again`` of the table): the same rules, names, seat and bots; a seeded
    match's next seed (a run of matches replays by seed too); saved, if the first match was,
    in ``BASE-2.json``, ``BASE-3.json``… where ``BASE.json`` is the first match's file, each
    the first such name that no file has."""

    def __init__(self) -> None:
        self.base: str | None = None
        self.number = 1

    def __call__(self, finished: TableDriver) -> tuple[TableDriver, list[str]]:
        from sobedesce.terminal import TableDriver

        old = finished.match
        match = Match(old.rules, players=old.players)
        seed = finished.seed + 1 if isinstance(finished.seed, int) else None
        path = None
        if finished.save_path is not None:
            if self.base is None:
                self.base = finished.save_path
            self.number = _free_number(self.base, self.number + 1)
            path = _numbered(self.base, self.number)
        driver = TableDriver(match, finished.human, finished.bots, seed=seed, save_path=path)
        notes = [("" if seed is None else f"Seed {seed}. ") + "A new match. Type 'help' at any prompt."]
        if path is not None:
            try:
                driver.save()
            except OSError as error:
                driver.save_error = error
                notes.append(f"! Not saved in {path} ({error.strerror or error}): each move tries again.")
            else:
                notes.append(f"Saved in {path}.")
        return driver, notes


def _numbered(base: str, number: int) -> str:
    """``game.json`` and 3 → ``game-3.json``."""
    folder, name = os.path.split(base)
    stem, dot, suffix = name.rpartition(".") if "." in name.lstrip(".") else (name, "", "")
    return os.path.join(folder, f"{stem}-{number}{dot}{suffix}")


def _free_number(base: str, number: int) -> int:
    """``number``, or the first after it, that no file's name has after ``base``."""
    while os.path.lexists(_numbered(base, number)):
        number += 1
    return number


def next_save_path(base: str, number: int = 2) -> str:
    """``game.json`` → ``game-2.json`` (or ``game-3.json`` if that file exists…): the first
    free name from ``number`` on.  The counter is never read from ``base``: ``game-2024.json``
    → ``game-2024-2.json``."""
    return _numbered(base, _free_number(base, number))
