"""``sobedesce play``: a person plays a whole match against three bots at the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sobedesce.core import PRESETS, Match, RecordFormatError, RecordRuleError, find_rules

DEFAULT_BOTS = "hard"
DEFAULT_NAME = "You"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a match against three bots in the terminal",
        description=(
            "Play Sobe e Desce against three bots. When you decide: hint. At any prompt: rules, history, help, quit."
        ),
    )
    parser.add_argument("--rules", choices=sorted(PRESETS), default=None, help="rule set (default: classic)")
    parser.add_argument(
        "--bots",
        default=None,
        metavar="NAMES",
        help=f"the opponents: a level or bot name for all three, or three separated by commas (default: {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the deals and the bots, to reproduce a match (default: deals drawn from the OS's randomness)",
    )
    parser.add_argument("--name", default=None, help=f"your name at the table (default: {DEFAULT_NAME})")
    parser.add_argument("--seat", type=int, choices=range(4), default=None, help="your seat, 0-3 (default: 0)")
    parser.add_argument("--save", metavar="FILE", help="save the match record to FILE after every decision")
    parser.add_argument("--resume", metavar="FILE", help="continue the match saved in FILE (and keep saving there)")
    parser.add_argument(
        "--speed", type=float, default=0.6, metavar="SECONDS", help="seconds per bot move, 0 for instant (default: 0.6)"
    )
    parser.set_defaults(run=run)


def _bot_names(text: str | None) -> list[str]:
    names = [n.strip() for n in (text or DEFAULT_BOTS).split(",")]
    if any(not n for n in names) or len(names) not in (1, 3):
        raise ValueError(f"--bots takes one name or three separated by commas, not {text!r}")
    return names * 3 if len(names) == 1 else names


def _human_seat(match: Match, args: argparse.Namespace) -> int:
    from sobedesce.terminal import level_of_name

    if args.seat is not None:
        return int(args.seat)
    players = match.players
    if players is None:
        return 0
    wanted = args.name if args.name is not None else DEFAULT_NAME
    if wanted in players:
        return players.index(wanted)
    people = [s for s, name in enumerate(players) if level_of_name(name) is None]
    return people[0] if len(people) == 1 else 0


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from sobedesce.terminal import TableDriver, bot_label, level_of_name, resolve_bot
    from sobedesce.terminal.app import TerminalTable

    from .replay import load

    def fail(message: str, status: int = 2) -> int:
        print(f"sobedesce play: {message}", file=sys.stderr)
        return status

    if args.speed < 0:
        return fail("--speed must be 0 or more")
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
            notes.append(f"The record's {match.rules.name} rules apply, not --rules {args.rules}.")
        human = _human_seat(match, args)
        if match.players is None:
            match.players = tuple(
                args.name or DEFAULT_NAME if s == human else bot_label((s - human) % 4, DEFAULT_BOTS) for s in range(4)
            )
        players = match.players
        assert players is not None
        if args.bots is not None:
            try:
                wanted = _bot_names(args.bots)
            except ValueError as error:
                return fail(str(error))
        else:
            wanted = [level_of_name(players[(human + i) % 4]) or DEFAULT_BOTS for i in range(1, 4)]
        notes.append(f"Resumed {args.resume} at round {max(len(match.rounds), 1)}.")
        save_path = args.save or args.resume
    else:
        try:
            wanted = _bot_names(args.bots)
        except ValueError as error:
            return fail(str(error))
        match = Match(find_rules(args.rules or "classic"))
        human = args.seat if args.seat is not None else 0
        save_path = args.save
    bots: dict[int, Any] = {}
    used: list[str] = []
    for i, name in enumerate(wanted, start=1):
        try:
            # A seeded match replays exactly (and --resume goes on exactly): its bots play at
            # their sample budgets, not by the clock.
            level, bot = resolve_bot(name, timed=seed is None)
        except ValueError as error:
            return fail(str(error))
        bots[(human + i) % 4] = bot
        used.append(level)
    if not args.resume:
        names = [""] * 4
        names[human] = args.name or DEFAULT_NAME
        for i, level in enumerate(used, start=1):
            names[(human + i) % 4] = bot_label(i, level)
        match.players = tuple(names)
    notes.insert(0, ("" if seed is None else f"Seed {seed}. ") + "Type 'help' at any prompt.")
    driver = TableDriver(match, human, bots, seed=seed, save_path=save_path)
    try:
        driver.save()
    except OSError as error:
        return fail(f"cannot save to {save_path}: {error.strerror}", 1)
    console = Console(highlight=False, emoji=False)
    return TerminalTable(driver, console, speed=args.speed, notes=notes).run()
