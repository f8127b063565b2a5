"""Run an arena: split the duplicate deals into jobs, run them, and aggregate the results.

>>> result = run_arena(["random"] * 4, deals=4, seed=3, jobs=1, block=2)
>>> result.rounds, len(result.summary()["bots"])
(16, 4)
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import socket
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from queue import SimpleQueue
from typing import Any

from sobedesce.core import RulesError, find_rules

from .jobs import SEATS, BotFailure, JobResult, JobSpec, bucket_ms, play_job
from .stats import hist_quantile, mean_ci

__all__ = [
    "DEFAULT_BLOCK",
    "ArenaError",
    "ArenaInterrupted",
    "ArenaResult",
    "SaveFailure",
    "check_bots",
    "plan_jobs",
    "run_arena",
]

DEFAULT_BLOCK = 50
# Every job's result is kept until the end (about 2.5 KB each, measured with blocks of one
# deal): a run of ten million deals in blocks of one planned 40 million jobs and ran the
# machine out of memory before its first deal.
MAX_JOBS = 1_000_000
CI_METHOD = (
    "per-deal t interval: for each deal, a bot's delta is averaged over the 4 rotations "
    "(sit-outs count 0); mean ± t(0.975, n-1)·sd/√n over the n deals; delta_vs_others uses the "
    "per-deal paired difference (the bot's value minus the mean of the other entries' values)"
)

Progress = Callable[[int, int], None]
"""Called with (rounds done, rounds in all) as jobs finish."""


class ArenaError(ValueError):
    """Bad arena input: wrong number of bots, unknown bot or rules, deals ≤ 0…"""


class SaveFailure(Exception):
    """A record could not be written during the run (a full disk, the directory removed…).

    Every game was still played: ``result`` holds the arena's result, ``errors`` says which
    record could not be written and why, and how many were written before it (none after it).
    """

    errors: list[str]
    result: ArenaResult | None = None


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_arena`, with what was played before it.

    ``result`` is the result of the blocks every rotation of which had been played, from the
    first block on: the first ``result.deals`` deals, exactly what a run of that many deals
    gives; ``None`` when the first block was not complete.  ``deals`` is the number asked
    for, ``errors`` the failures of bots in those blocks (see :class:`BotFailure`).  The records
    of the jobs finished are saved, each file whole.
    """

    def __init__(self, result: ArenaResult | None, deals: int, errors: list[str]) -> None:
        super().__init__("interrupted")
        self.result = result
        self.deals = deals
        self.errors = errors


def check_bots(bots: Sequence[str]) -> tuple[str, ...]:
    """The bot names, normalised; raises :class:`ArenaError` unless there are four known bots."""
    from sobedesce.bots import bot_key, make_bot
    from sobedesce.bots.oracle import OracleSeat

    if isinstance(bots, str):
        # A string is a sequence too, of its letters: "basic,basic,basic,basic" was 23 bots.
        raise ArenaError(f"the bots are a list of four names, not one string: {bots!r} (split it at the commas)")
    if not all(isinstance(name, str) for name in bots):
        raise ArenaError(f"the bots are four names (strings), not {list(bots)!r}")
    names = tuple(bot_key(name) for name in bots)
    if len(names) != SEATS:
        shown = ", ".join(name or "''" for name in names)  # an empty name (a stray comma) is seen
        raise ArenaError(f"an arena needs exactly 4 bots, one per seat; got {len(names)}: {shown or 'none'}")
    for name in names:
        if name == OracleSeat.name:
            continue  # not a bot: a seat of its own kind, which play_job builds by name
        if name.split(":")[0].strip().lower() == OracleSeat.name:
            raise ArenaError(f"{name!r}: the oracle takes no settings (it plays from every card): write 'oracle'")
        try:
            bot = make_bot(name)
        except ValueError as error:
            raise ArenaError(str(error)) from None
        if isinstance(bot, OracleSeat):
            raise ArenaError(f"{name!r} is the oracle, which is seated by its name only: write 'oracle'")
    return names


def plan_jobs(
    bots: Sequence[str], rules: str, deals: int, seed: int, block: int, save: bool, clock: bool = False
) -> list[JobSpec]:
    """One job per (block of deals, rotation), block by block."""
    specs = []
    for number, start in enumerate(range(0, deals, block)):
        stop = min(start + block, deals)
        for rotation in range(SEATS):
            specs.append(JobSpec(tuple(bots), rules, seed, number, rotation, start, stop, save, clock))
    return specs


@dataclass
class _Tally:
    """Accumulated facts about one bot entry (or a group of entries of the same name)."""

    per_deal: list[float]
    played: int = 0
    rounds: int = 0
    matches: int = 0
    wins: int = 0
    riscos: float = 0.0
    decisions: int = 0
    times: dict[int, int] = field(default_factory=dict)


@dataclass
class ArenaResult:
    """The outcome of :func:`run_arena`; :meth:`summary` is the ``--json`` object."""

    bots: tuple[str, ...]
    rules: str
    deals: int
    seed: int
    block: int
    jobs: list[JobResult]
    """Every job's raw result, ordered by (block, rotation)."""
    elapsed_s: float = 0.0
    clock: bool = False
    """Whether the bots kept their levels' deadlines by the clock (``--clock``)."""

    @property
    def rounds(self) -> int:
        """Rounds played at all tables: every deal once per rotation."""
        return sum(len(job.deltas) for job in self.jobs)

    @property
    def matches(self) -> int:
        """Completed matches (a block's last match may stop unfinished)."""
        return sum(m.finished for job in self.jobs for m in job.matches)

    def per_deal(self, entry: int) -> list[float]:
        """Per deal, bot ``entry``'s score change averaged over the four rotations (sit-out = 0)."""
        totals = [0.0] * self.deals
        for job in self.jobs:
            seat = (entry + job.rotation) % SEATS
            for offset, deltas in enumerate(job.deltas):
                totals[job.start + offset] += deltas[seat]
        return [t / SEATS for t in totals]

    def round_deltas(self, entry: int) -> Iterator[tuple[int, int, int, bool]]:
        """Every round of bot ``entry``: (deal, rotation, its score change, whether it played)."""
        for job in self.jobs:
            seat = (entry + job.rotation) % SEATS
            for offset, (deltas, active) in enumerate(zip(job.deltas, job.active, strict=True)):
                yield (job.start + offset, job.rotation, deltas[seat], active[seat])

    def _tally(self, entry: int) -> _Tally:
        tally = _Tally(per_deal=self.per_deal(entry))
        for job in self.jobs:
            seat = (entry + job.rotation) % SEATS
            tally.rounds += len(job.active)
            tally.played += sum(active[seat] for active in job.active)
            for outcome in job.matches:
                if outcome.finished:
                    assert outcome.riscos is not None
                    tally.matches += 1
                    tally.wins += seat in outcome.winners
                    tally.riscos += outcome.riscos[seat]
            tally.decisions += job.decisions[seat]
            for bucket, count in job.times[seat].items():
                tally.times[bucket] = tally.times.get(bucket, 0) + count
        return tally

    def summary(self) -> dict[str, Any]:
        """The ``sobedesce arena --json`` object (docs/arena.md)."""
        tallies = [self._tally(entry) for entry in range(SEATS)]
        entries = []
        for entry, tally in enumerate(tallies):
            others = [tallies[k].per_deal for k in range(SEATS) if k != entry]
            row = {"entry": entry, "name": self.bots[entry]}
            row.update(_describe(tally, _mean_of(others)))
            entries.append(row)
        by_name: dict[str, dict[str, Any]] = {}
        for name in dict.fromkeys(self.bots):
            mine = [k for k in range(SEATS) if self.bots[k] == name]
            others = [tallies[k].per_deal for k in range(SEATS) if self.bots[k] != name]
            group = _merge([tallies[k] for k in mine])
            row = {"entries": mine}
            row.update(_describe(group, _mean_of(others) if others else None))
            by_name[name] = row
        return {
            "rules": self.rules,
            "deals": self.deals,
            "seed": self.seed,
            "block": self.block,
            "clock": self.clock,
            "rounds": self.rounds,
            "matches": self.matches,
            "matches_unfinished": sum(not m.finished for job in self.jobs for m in job.matches),
            "ci_method": CI_METHOD,
            "bots": entries,
            "by_name": by_name,
            "elapsed_s": round(self.elapsed_s, 3),
        }


def _mean_of(series: Sequence[Sequence[float]]) -> list[float]:
    """The element-wise mean of several per-deal series."""
    return [math.fsum(values) / len(values) for values in zip(*series, strict=True)]


def _merge(tallies: Sequence[_Tally]) -> _Tally:
    """Entries of the same name pooled: their per-deal values averaged, their counts added."""
    merged = _Tally(per_deal=_mean_of([t.per_deal for t in tallies]))
    for t in tallies:
        merged.played += t.played
        merged.rounds += t.rounds
        merged.matches += t.matches
        merged.wins += t.wins
        merged.riscos += t.riscos
        merged.decisions += t.decisions
        for bucket, count in t.times.items():
            merged.times[bucket] = merged.times.get(bucket, 0) + count
    return merged


def _interval(low: float | None, high: float | None) -> list[float] | None:
    return None if low is None or high is None else [low, high]


def _ms(hist: dict[int, int], q: float) -> float | None:
    bucket = hist_quantile(hist, q)
    return None if bucket is None else float(f"{bucket_ms(bucket):.3g}")


def _describe(tally: _Tally, others: list[float] | None) -> dict[str, Any]:
    mean, low, high = mean_ci(tally.per_deal)
    out: dict[str, Any] = {"mean_delta": mean, "ci95": _interval(low, high)}
    if others is None:
        out["delta_vs_others"] = None
        out["delta_vs_others_ci95"] = None
    else:
        diff, d_low, d_high = mean_ci([a - b for a, b in zip(tally.per_deal, others, strict=True)])
        out["delta_vs_others"] = diff
        out["delta_vs_others_ci95"] = _interval(d_low, d_high)
    out.update(
        {
            "rounds": tally.rounds,
            "rounds_played": tally.played,
            "play_rate": tally.played / tally.rounds if tally.rounds else None,
            "matches": tally.matches,
            "match_wins": tally.wins,
            "match_win_rate": tally.wins / tally.matches if tally.matches else None,
            "riscos_per_match": tally.riscos / tally.matches if tally.matches else None,
            "decisions": tally.decisions,
            "decision_ms_median": _ms(tally.times, 0.5),
            "decision_ms_p99": _ms(tally.times, 0.99),
        }
    )
    return out


# -- running -----------------------------------------------------------------------------


def run_arena(
    bots: Sequence[str],
    rules: str = "classic",
    deals: int = 200,
    seed: int = 0,
    jobs: int | None = None,
    *,
    block: int = DEFAULT_BLOCK,
    save: str | os.PathLike[str] | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
    clock: bool = False,
) -> ArenaResult:
    """Play ``deals`` duplicate deals between four bots and gather the results.

    Every deal is played once per rotation of the bots around the table.  ``jobs`` is the
    number of worker processes (default: all cores; 1 plays in this process).  ``ray`` is a
    Ray address, or ``"local"`` to start a local Ray; an already initialised Ray is reused.
    ``save`` is a directory to write every match's record into.  The result does not depend
    on ``jobs`` or ``ray``, only on the bots, rules, deals, seed and block: the levels
    (``expert``…) play at their sample budgets, without their deadlines.  With ``clock`` they
    keep their deadlines by the clock, as at a table, and the result depends on the machine.

    A bot that breaks the rules or raises voids that round (its match ends there) and the
    other games go on; at the end :class:`BotFailure` is raised naming the bot, with every
    failure in ``errors`` and the result of the games in ``result``.
    """
    names = check_bots(bots)
    try:
        preset = find_rules(rules).preset
    except RulesError as error:
        raise ArenaError(str(error)) from None
    if isinstance(deals, bool) or not isinstance(deals, int) or deals <= 0:
        raise ArenaError(f"the number of deals must be a positive integer, not {deals!r}")
    if isinstance(block, bool) or not isinstance(block, int) or block <= 0:
        raise ArenaError(f"the block size must be a positive integer, not {block!r}")
    planned = math.ceil(deals / block) * SEATS
    if planned > MAX_JOBS:
        least = math.ceil(deals * SEATS / MAX_JOBS)
        raise ArenaError(
            f"{deals:,} deals in blocks of {block:,} make {planned:,} jobs (a block in each of the four "
            f"rotations), more than the {MAX_JOBS:,} an arena keeps in memory: use a block of {least:,} or more"
        )
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs <= 0):
        raise ArenaError(f"the number of jobs must be a positive integer, not {jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        # The seed names the deals: a string or a float would be taken for another seed silently.
        raise ArenaError(f"the seed must be an integer, not {seed!r}")
    if save is not None and not os.fspath(save):
        # Path("") is the current directory: the records would be mixed with what is there.
        raise ArenaError("save needs the name of a new or empty directory, not ''")
    out_dir = Path(save) if save is not None else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ArenaError(f"cannot create {out_dir}: {error.strerror}") from None
        _check_writable(out_dir)
    specs = plan_jobs(names, preset, deals, seed, block, out_dir is not None, clock)
    total = deals * SEATS
    done = 0
    began = time.perf_counter()
    results: list[JobResult] = []
    if progress is not None:
        progress(0, total)
    stream: Generator[JobResult, None, None]
    if ray is not None:
        stream = _run_ray(specs, ray)
    elif (jobs or os.cpu_count() or 1) == 1 or len(specs) == 1:
        stream = (play_job(spec) for spec in specs)
    else:
        stream = _run_pool(specs, min(jobs or os.cpu_count() or 1, len(specs)))
    saved = 0
    unsaved: str | None = None
    try:
        for result in stream:
            if out_dir is not None and unsaved is None:
                saved, unsaved = _save_records(out_dir, result.records, saved)
            result.records = []
            results.append(result)
            done += len(result.deltas)
            if progress is not None:
                progress(done, total)
    except KeyboardInterrupt:
        # Ctrl-C: the worker processes (or Ray) stop first; then what was played is kept.
        stream.close()
        partial = _whole_blocks(names, preset, seed, block, clock, results, time.perf_counter() - began)
        kept = [line for job in partial.jobs for line in job.errors] if partial is not None else []
        raise ArenaInterrupted(partial, deals, kept) from None
    results.sort(key=lambda r: (r.block, r.rotation))
    outcome = ArenaResult(names, preset, deals, seed, block, results, time.perf_counter() - began, clock)
    errors = [line for job in results for line in job.errors]
    if errors:
        more = f" (and {len(errors) - 1} more failed rounds)" if len(errors) > 1 else ""
        failure = BotFailure(errors[0] + more)
        failure.errors = errors + ([unsaved] if unsaved else [])
        failure.result = outcome
        raise failure
    if unsaved is not None:
        lost = SaveFailure(unsaved)
        lost.errors = [unsaved]
        lost.result = outcome
        raise lost
    return outcome


def _check_writable(directory: Path) -> None:
    """Raise :class:`ArenaError` unless a file can be written in ``directory``: found out at the
    first record instead, it ended the run in a traceback, the games played lost."""
    probe = directory / f".sobedesce-arena-probe-{os.getpid()}"
    try:
        with open(probe, "x", encoding="utf-8") as stream:
            stream.write("probe\n")
    except OSError as error:
        raise ArenaError(f"cannot write in {directory}: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()


def _save_records(directory: Path, records: Sequence[tuple[str, str]], saved: int) -> tuple[int, str | None]:
    """Write ``records`` (name, text) into ``directory``, ``saved`` being written already: how
    many are written now, and what stopped the writing (``None``: nothing did)."""
    for name, text in records:
        try:
            _write_record(directory / name, text)
        except OSError as error:
            # The games go on (their results are worth having); no record is written after
            # this one, so that the directory holds the run's first matches only.
            return saved, (
                f"cannot save {directory / name}: {error.strerror or error}; {saved} record{'' if saved == 1 else 's'}"
                " saved before it, none after it; the results are whole"
            )
        saved += 1
    return saved, None


def _write_record(path: Path, text: str) -> None:
    """Write a record whole or not at all: into a hidden file first, then renamed.  Written in
    place, a record cut by Ctrl-C (or a full disk) was left behind empty or half written."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        with open(partial, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise


def _whole_blocks(
    names: tuple[str, ...],
    rules: str,
    seed: int,
    block: int,
    clock: bool,
    results: Sequence[JobResult],
    elapsed: float,
) -> ArenaResult | None:
    """The result of the blocks played in every rotation, from the first block on, or ``None``.

    Those are the first deals of the run, played as a run of that many deals plays them, so
    their result is the one such a run gives."""
    by_block: dict[int, list[JobResult]] = {}
    for job in results:
        by_block.setdefault(job.block, []).append(job)
    kept: list[JobResult] = []
    number = 0
    while len(by_block.get(number, ())) == SEATS:
        kept.extend(sorted(by_block[number], key=lambda job: job.rotation))
        number += 1
    if not kept:
        return None
    deals = max(job.start + len(job.deltas) for job in kept)
    return ArenaResult(names, rules, deals, seed, block, kept, elapsed, clock)


def _run_pool(specs: Iterable[JobSpec], workers: int) -> Generator[JobResult, None, None]:
    """Run the jobs in ``workers`` processes; their results as they finish.

    The results come through a queue, filled as each job ends (in the pool's own thread), not
    through ``concurrent.futures.wait``: a Ctrl-C inside ``wait`` could leave a future locked,
    and shutting the pool down then waited for that lock for ever.  Reading the queue holds no
    lock of the pool's.  A few jobs a worker are handed out at a time, not all of them at once
    (millions of pending futures, for a run of millions of deals in blocks of one).

    The workers ignore Ctrl-C, which the terminal sends them too: an idle worker printed a
    ``KeyboardInterrupt`` traceback.  This process stops them instead."""
    executor = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_ctrl_c)
    finished: SimpleQueue[tuple[JobResult | None, BaseException | None]] = SimpleQueue()

    def deliver(future: Future[JobResult]) -> None:
        if future.cancelled():
            return
        error = future.exception()
        finished.put((None, error) if error is not None else (future.result(), None))

    waiting = iter(specs)

    def hand_out() -> bool:
        spec = next(waiting, None)
        if spec is None:
            return False
        executor.submit(play_job, spec).add_done_callback(deliver)
        return True

    stopped = True
    try:
        running = sum(hand_out() for _ in range(2 * workers))
        while running:
            result, error = finished.get()
            running -= 1
            if isinstance(error, BrokenProcessPool):
                lost = BotFailure(_WORKER_DIED)
                lost.errors = [_WORKER_DIED]
                raise lost from None
            if error is not None:
                raise error
            assert result is not None
            running += hand_out()
            yield result
        stopped = False
    finally:
        if stopped:
            # Interrupted (or closed early): the jobs still running are not waited for.
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)


_WORKER_DIED = (
    "a worker process ended abruptly (a bot that ends its process, or killed from outside: out of memory?);"
    " the run is stopped"
)


def _ignore_ctrl_c() -> None:
    """A worker's initializer: SIGINT ignored (see :func:`_run_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_ray(specs: Sequence[JobSpec], address: str) -> Generator[JobResult, None, None]:
    try:
        import ray as ray_module
    except ImportError:
        raise ArenaError("--ray needs Ray, which is not installed: pip install 'sobe-e-desce[cluster]'") from None
    started = False
    if not ray_module.is_initialized():
        _check_reachable(address)
        try:
            if address == "local":
                ray_module.init(include_dashboard=False)
            else:
                ray_module.init(address=address)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ArenaError(f"cannot connect to Ray at {address!r}: {error}") from None
        started = True
    try:
        task = ray_module.remote(play_job)
        pending = [task.remote(spec) for spec in specs]
        while pending:
            finished, pending = ray_module.wait(pending, num_returns=1)
            for ref in finished:
                try:
                    yield ray_module.get(ref)
                except ray_module.exceptions.RayTaskError as error:
                    for ref_left in pending:
                        ray_module.cancel(ref_left)
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, BotFailure):
                        raise BotFailure(str(cause)) from None
                    raise
    finally:
        if started:
            ray_module.shutdown()


def _check_reachable(address: str) -> None:
    """Fail fast on a ``host:port`` nobody listens at (Ray itself would retry for minutes)."""
    if address in ("local", "auto"):
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as error:
        raise ArenaError(f"cannot reach Ray at {address!r}: {error.strerror or error}") from None
