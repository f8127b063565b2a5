"""``sobedesce arena``: bots against each other on duplicate deals, with confidence intervals.

A thin layer over :func:`sobedesce.arena.run_arena`; see docs/arena.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sobedesce.arena import ArenaInterrupted

DEFAULT_DEALS = 500
QUICK_DEALS = 40
QUICK_BLOCK = 20
MAX_DEALS = 10_000_000
"""More deals than this would hold the results of days of play in memory: refused."""
JOBS_A_CORE = 4
"""--jobs is at most this many worker processes a core."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="pit four bots against each other on duplicate deals",
        description="Play every deal once with each rotation of the four bots around the table "
        "(duplicate deals) and report each bot's mean score change per round with a 95% "
        "confidence interval. Lower is better: a score falls when tricks are won. "
        "Exit status: 0 done, 1 a bot broke the rules or crashed, 2 bad input, "
        "130 interrupted by Ctrl-C (a partial report: the deals played in every rotation).",
    )
    parser.add_argument(
        "--bots",
        default="random,random,random,random",
        help="four bot names, comma-separated, one per entry (default: four random bots)",
    )
    parser.add_argument("--rules", default="classic", help="rule set: classic (default) or table")
    parser.add_argument(
        "--deals",
        type=int,
        default=None,
        help=f"number of deals, at most {MAX_DEALS:,} (default {DEFAULT_DEALS}; {QUICK_DEALS} with --quick)",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed; same seed, same results (default 0)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        help=f"worker processes (default: all cores; 1 runs in this process; at most {JOBS_A_CORE} a core)",
    )
    parser.add_argument(
        "--block",
        type=int,
        default=None,
        help=f"deals per job; each block starts fresh matches (default 50; {QUICK_BLOCK} with --quick)",
    )
    parser.add_argument("--quick", action="store_true", help=f"a small, fast run for CI ({QUICK_DEALS} deals)")
    parser.add_argument(
        "--save", metavar="DIR", help="write every match's record into DIR (new or empty), one file per match"
    )
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run the jobs as Ray tasks on the cluster at ADDRESS ('local' starts a local Ray; "
        "needs pip install 'sobe-e-desce[cluster]')",
    )
    parser.add_argument(
        "--clock",
        action="store_true",
        help="the level expert keeps its deadline per decision by the clock, as at a table; "
        "by default it plays at its sample budget, so that the results depend on the seed alone",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar, even on a terminal")
    parser.set_defaults(run=run)


def _fail(message: str) -> int:
    print(f"sobedesce arena: error: {message}", file=sys.stderr)
    return 2


def _progress_columns() -> list[Any]:
    """The progress bar's columns: ``arena [bar] 40/160 rounds 0:00:14 0:00:42``."""
    from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, Task, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class TimeLeftColumn(ProgressColumn):
        """The time left at the pace since the start.  rich's own column takes the pace from
        its recent updates only, and the arena's come a block of rounds at a time, several
        at once from parallel jobs: two blocks a second apart after 14 s made 40 of 160
        rounds look like 6 s to go, not 42."""

        def render(self, task: Task) -> Text:
            elapsed = task.elapsed
            if task.total is None or not task.completed or not elapsed:
                return Text("-:--:--", style="progress.remaining")
            left = max(0, round(elapsed * (task.total - task.completed) / task.completed))
            hours, rest = divmod(left, 3600)
            return Text(f"{hours}:{rest // 60:02d}:{rest % 60:02d}", style="progress.remaining")

    return [
        TextColumn("arena"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rounds"),
        TimeElapsedColumn(),
        TimeLeftColumn(),
    ]


@contextmanager
def _progress_bar(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(*_progress_columns(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("arena", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def run(args: argparse.Namespace) -> int:
    from sobedesce.arena import DEFAULT_BLOCK, ArenaError, ArenaInterrupted, BotFailure, SaveFailure, run_arena

    bots = [name for name in args.bots.split(",")] if args.bots.strip() else []
    deals = args.deals if args.deals is not None else (QUICK_DEALS if args.quick else DEFAULT_DEALS)
    block = args.block if args.block is not None else (QUICK_BLOCK if args.quick else DEFAULT_BLOCK)
    if args.jobs is not None and args.ray is not None:
        return _fail("--jobs and --ray exclude each other (Ray decides where jobs run)")
    if deals > MAX_DEALS:
        return _fail(f"--deals is at most {MAX_DEALS:,}, not {deals:,}")
    most_jobs = JOBS_A_CORE * (os.cpu_count() or 1)
    if args.jobs is not None and args.jobs > most_jobs:
        # Each is a process: --jobs 100000 on a long run started that many.
        return _fail(f"--jobs is at most {most_jobs} here ({JOBS_A_CORE} a core), not {args.jobs}")
    if args.save == "":
        # Path("") is the current directory: the records would be mixed with what is there.
        return _fail("--save needs the name of a new or empty directory, not ''")
    if args.save == "-":
        # As for replay, demo and play, "-" means standard output there, never a directory.
        return _fail("--save - is refused: the records are files of a directory, name the directory")
    if args.save is not None and os.path.lexists(args.save) and not os.path.isdir(args.save):
        return _fail(f"{args.save} is a file: --save needs a new or empty directory")
    if args.save is not None and os.path.isdir(args.save):
        try:
            taken = bool(os.listdir(args.save))
        except OSError as error:
            return _fail(f"cannot read {args.save}: {error.strerror}")
        if taken:
            # Records of another run would be mixed with this one's, some of them overwritten.
            return _fail(f"{args.save} is not empty: --save needs a new or empty directory")
    show = sys.stderr.isatty() and not args.no_progress
    try:
        with _progress_bar(show) as progress:
            result = run_arena(
                bots,
                args.rules,
                deals,
                args.seed,
                args.jobs,
                block=block,
                save=args.save,
                ray=args.ray,
                progress=progress,
                clock=args.clock,
            )
    except ArenaError as error:
        return _fail(str(error))
    except ArenaInterrupted as stop:
        return _interrupted(stop, deals, args)
    except (BotFailure, SaveFailure) as error:
        # The other games went on: report them, then every failure, one line each.
        if error.result is not None:
            _print_summary(error.result.summary(), args.json, error.errors, pipe_may_close=True)  # type: ignore[attr-defined]
        for line in getattr(error, "errors", None) or [str(error)]:
            print(f"sobedesce arena: error: {line}", file=sys.stderr)
        return 1
    _print_summary(result.summary(), args.json)
    if args.save:
        print(f"records saved in {args.save}", file=sys.stderr)
    return 0


def _print_summary(
    summary: dict[str, Any], as_json: bool, errors: list[str] | None = None, pipe_may_close: bool = False
) -> None:
    """Print the report.  With ``pipe_may_close``, a reader gone (``| head``) is no reason to stop:
    what follows (the failures on stderr, the exit status) is still to be said."""
    if errors:
        summary["errors"] = errors
    try:
        if as_json:
            print(json.dumps(summary, indent=1, ensure_ascii=False))
        else:
            _print_tables(summary)
    except BrokenPipeError:
        if not pipe_may_close:
            raise
        # Nothing more goes to the closed pipe, not even the flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _interrupted(stop: ArenaInterrupted, deals: int, args: argparse.Namespace) -> int:
    """Ctrl-C: the results of the first deals, those played in every rotation, then what is kept."""
    result = stop.result
    lines: list[str] = []
    if result is not None:
        summary = result.summary()
        summary["interrupted"] = True
        _print_summary(summary, args.json, stop.errors, pipe_may_close=True)
        lines += [f"error: {line}" for line in stop.errors]
        lines.append(
            f"interrupted after {result.deals:,} of {deals:,} deals: the results are those of the first"
            f" {result.deals:,}, as --deals {result.deals} with the same options gives them"
        )
    else:
        lines.append("interrupted before the first block of deals was played in every rotation: no results yet")
    if args.save:
        lines.append(f"the records written before it are in {args.save}, each one whole")
    if sys.stderr.isatty():
        print(file=sys.stderr)  # off the line where the terminal echoed ^C
    for line in lines:
        print(f"sobedesce arena: {line}", file=sys.stderr)
    return 130


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:+.{digits}f}"


def _ci(interval: list[float] | None) -> str:
    if interval is None:
        return "-"
    return f"[{interval[0]:+.2f}, {interval[1]:+.2f}]"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _ms(value: float | None) -> str:
    # Three digits below 100 ms (0.0326); whole milliseconds above, never 1.74e+03.
    if value is None:
        return "-"
    return f"{value:.3g}" if value < 100 else f"{value:,.0f}"


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _print_tables(summary: dict[str, Any], console: Any = None) -> None:
    from rich import box
    from rich.console import Console
    from rich.table import Table

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich ends the program with exit status 1 here, which the arena's says is a bot's
            # failure: the pipe's reader has gone, and the command ends as on any closed pipe.
            self.quiet = True
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise BrokenPipeError

    if console is None:
        console = _Console()
        if not console.is_terminal:
            # A file or pipe: no reason to squeeze the table, whatever the length of the names.
            longest = max(len(f"{row['entry']}: {row['name']}") for row in summary["bots"])
            console = _Console(width=max(140, 124 + longest))
    title = (
        f"{summary['rules']} rules, {_plural(summary['deals'], 'duplicate deal', 'duplicate deals')} x 4 rotations = "
        f"{_plural(summary['rounds'], 'round', 'rounds')}, {_plural(summary['matches'], 'completed match', 'completed matches')}, "
        f"seed {summary['seed']}" + (", bots by the clock" if summary.get("clock") else "")
    )
    columns: list[tuple[str, Any]] = [
        ("Δ/round", lambda row: _num(row["mean_delta"])),
        ("95% CI", lambda row: _ci(row["ci95"])),
        ("vs others", lambda row: _num(row["delta_vs_others"])),
        ("95% CI", lambda row: _ci(row["delta_vs_others_ci95"])),
        ("play", lambda row: _pct(row["play_rate"])),
        ("match wins", lambda row: _pct(row["match_win_rate"])),
        ("riscos/match", lambda row: _num(row["riscos_per_match"], 2)),
        ("ms median", lambda row: _ms(row["decision_ms_median"])),
        ("ms p99", lambda row: _ms(row["decision_ms_p99"])),
    ]

    def table(heading: str, rows: list[tuple[str, dict[str, Any]]], shown: list[tuple[str, Any]]) -> Table:
        out = Table(title=heading, title_justify="left", box=box.SIMPLE_HEAD)
        # A long name (bot settings) folds; the figures never do.
        out.add_column("bot", overflow="fold", min_width=min(18, max(len(label) for label, _ in rows)))
        for column, _ in shown:
            out.add_column(column, justify="right", no_wrap=True)
        for label, row in rows:
            out.add_row(label, *(figure(row) for _, figure in shown))
        return out

    def tables(heading: str, rows: list[tuple[str, dict[str, Any]]]) -> list[Table]:
        whole = table(heading, rows, columns)
        if console.measure(whole, options=console.options.update_width(10_000)).maximum <= console.width:
            return [whole]
        # Too wide for the terminal (80 columns): squeezed, every figure would be cut to "…"
        # and the names dropped.  Two tables instead, each narrow enough to read.
        return [
            table(f"{heading}: score", rows, columns[:4]),
            table(f"{heading}: play and time", rows, columns[4:]),
        ]

    def emit(renderable: Any) -> None:
        if console.is_terminal:
            console.print(renderable)
            return
        # To a file or pipe: rich pads every line to the table's width; a file gets its lines
        # without the trailing spaces.
        with console.capture() as captured:
            console.print(renderable)
        lines = "\n".join(line.rstrip() for line in captured.get().splitlines())
        console.print(lines, highlight=False, markup=False, soft_wrap=True)

    console.print(title, highlight=False)
    for printed in tables("per entry", [(f"{row['entry']}: {row['name']}", row) for row in summary["bots"]]):
        emit(printed)
    for printed in tables("per bot", list(summary["by_name"].items())):
        emit(printed)
    emit(
        "Δ is the change of the bot's own score per round dealt (a sit-out counts 0); "
        "negative is better. Δ vs others: the bot's Δ minus the mean Δ of the other entries."
    )
