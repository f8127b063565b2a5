"""One arena job: a block of consecutive deals played with one rotation of the bots.

A job is a pure function of its :class:`JobSpec`: every deck and every bot's random
generator is derived from ``(seed, deal, rotation, seat)``, never from the process, so a job
gives the same result in this process, in a process pool or on a Ray worker.

>>> spec = JobSpec(bots=("random",) * 4, rules="classic", seed=1, block=0, rotation=0, start=0, stop=3)
>>> result = play_job(spec)
>>> len(result.deltas), len(result.active)
(3, 3)
>>> play_job(spec).deltas == result.deltas
True
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from sobedesce.core import CARDS, Action, Card, IllegalActionError, Match, SeatView, dumps_record, find_rules, seat_view

__all__ = [
    "SEATS",
    "BotFailure",
    "JobResult",
    "JobSpec",
    "MatchOutcome",
    "bot_rng",
    "deal_deck",
    "entry_at_seat",
    "play_job",
    "seat_of_entry",
]

SEATS = 4

# Decision times are kept as a histogram of log-spaced buckets, 1% wide, so that jobs can be
# merged cheaply however many decisions they hold; a quantile read from it is within 1%.
_BUCKETS_PER_E = 1.0 / math.log(1.01)


class BotFailure(Exception):
    """A bot broke the rules (returned an illegal action) or raised an exception.

    It carries one message string only, so that it pickles across processes and Ray.  When
    :func:`~sobedesce.arena.run_arena` raises it, every other game has been played:
    ``errors`` lists every failure (one line each) and ``result`` holds the arena's result, in
    which each failed round counts as a void round (no score change) and ends its match.
    """

    errors: list[str]
    result: object | None = None


def _derive(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def deal_deck(seed: int, deal: int) -> tuple[Card, ...]:
    """The deck of deal ``deal`` (top card first), the same for every rotation.

    >>> deal_deck(1, 0) == deal_deck(1, 0), deal_deck(1, 0) == deal_deck(1, 1)
    (True, False)
    """
    cards = list(CARDS)
    random.Random(_derive(f"sobedesce-arena:{seed}:deck:{deal}")).shuffle(cards)
    return tuple(cards)


def bot_rng(seed: int, deal: int, rotation: int, seat: int) -> random.Random:
    """The random generator given to the bot at ``seat`` for deal ``deal`` in ``rotation``."""
    return random.Random(_derive(f"sobedesce-arena:{seed}:bot:{deal}:{rotation}:{seat}"))


def seat_of_entry(entry: int, rotation: int) -> int:
    """Where bot ``entry`` (its index in the ``--bots`` list) sits in ``rotation``."""
    return (entry + rotation) % SEATS


def entry_at_seat(seat: int, rotation: int) -> int:
    """Which bot entry sits at ``seat`` in ``rotation``."""
    return (seat - rotation) % SEATS


def time_bucket(ns: int) -> int:
    return int(math.log(max(ns, 1)) * _BUCKETS_PER_E)


def bucket_ms(bucket: int) -> float:
    """The representative time of a bucket, in milliseconds (its geometric middle)."""
    return math.exp((bucket + 0.5) / _BUCKETS_PER_E) / 1e6


@dataclass(frozen=True, slots=True)
class JobSpec:
    """Deals ``start`` to ``stop - 1`` played in sequence with bots rotated by ``rotation``."""

    bots: tuple[str, ...]
    rules: str
    seed: int
    block: int
    rotation: int
    start: int
    stop: int
    save: bool = False
    clock: bool = False
    """Levels keep their deadlines by the clock (else their sample budgets alone decide)."""


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A match of a job: the deals it spans, and (when it finished) its winners and riscos, by seat."""

    first_deal: int
    rounds: int
    finished: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    riscos: tuple[float, ...] | None


@dataclass(slots=True)
class JobResult:
    """What a job gives back, indexed by seat (the arena maps seats to bots)."""

    block: int
    rotation: int
    start: int
    deltas: list[tuple[int, ...]] = field(default_factory=list)
    """Per deal, the score change of each seat (0 for a seat that sat out)."""
    active: list[tuple[bool, ...]] = field(default_factory=list)
    """Per deal, whether each seat played."""
    matches: list[MatchOutcome] = field(default_factory=list)
    decisions: list[int] = field(default_factory=lambda: [0] * SEATS)
    """Per seat, how many decisions its bot took."""
    times: list[dict[int, int]] = field(default_factory=lambda: [{} for _ in range(SEATS)])
    """Per seat, a histogram of decision times (see :func:`time_bucket`)."""
    records: list[tuple[str, str]] = field(default_factory=list)
    """With ``save``: (file name, record text) for each match."""
    errors: list[str] = field(default_factory=list)
    """One line per round abandoned because a bot broke the rules or raised (the arena goes on)."""


def record_name(rotation: int, first_deal: int) -> str:
    """The file name of the record of the match starting at ``first_deal`` in ``rotation``."""
    return f"rot{rotation}-deal{first_deal:06d}.json"


def _player_names(bots: tuple[str, ...], rotation: int) -> list[str]:
    return [f"{bots[entry_at_seat(seat, rotation)]}#{entry_at_seat(seat, rotation)}" for seat in range(SEATS)]


def _make_seat(name: str, clock: bool = False) -> tuple[Any, bool]:
    """The player at a seat named ``name``, and whether it is the oracle.

    The oracle is its own kind of seat (:class:`~sobedesce.bots.oracle.OracleSeat`, handed a
    copy of the whole match), built here from its name and nothing else.  Every other name is
    a bot from :func:`~sobedesce.bots.make_bot`, which is handed a seat's view and nothing
    else, whatever its class or attributes.
    """
    from sobedesce.bots import bot_key, make_bot  # late: workers import the bots registry themselves
    from sobedesce.bots.oracle import OracleSeat

    if bot_key(name) == OracleSeat.name:
        return OracleSeat(), True
    return make_bot(name, timed=clock), False


def play_job(spec: JobSpec) -> JobResult:
    """Play a job.  A round in which a bot breaks the rules or crashes is recorded in
    ``errors`` (naming the bot), counted as void and ends its match; the job goes on.

    Two parts play it, so that no bot is called from a frame that holds the match: the referee
    (:func:`_referee`, a generator) holds the matches and asks for one decision at a time; the
    dispatcher (:func:`_dispatch`) holds the seats and calls them with what the referee hands
    out, a seat's view (the oracle alone: a copy of the match).  See docs/decisions.md.
    """
    rotation = spec.rotation
    # One player object per entry, so that entries of the same name stay separate.
    made = [_make_seat(spec.bots[entry_at_seat(seat, rotation)], spec.clock) for seat in range(SEATS)]
    seats = [player for player, _oracle in made]
    oracles = frozenset(seat for seat, (_player, oracle) in enumerate(made) if oracle)
    result = JobResult(block=spec.block, rotation=rotation, start=spec.start)
    _dispatch(_referee(spec, oracles, result), seats, oracles, result.times, result.decisions)
    return result


# What the referee asks for: the seat to act, what it is shown (its view; the oracle: a copy of
# the match) and its random generator.
_Request = tuple[int, "SeatView | Match", random.Random]


class _Refusal:
    """What the dispatcher sends back instead of an action: why there is none (the bot raised,
    or returned something else).  Text only: an exception's traceback would hold frames."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _dispatch(
    referee: Generator[_Request, Action | _Refusal, None],
    seats: list[Any],
    oracles: frozenset[int],
    times: list[dict[int, int]],
    decisions: list[int],
) -> None:
    """Call the seats until the referee is done.  Its locals are the seats, the request being
    answered (the seat's own view and generator) and the counters; a bot's answer goes
    straight back to the referee and is never kept here, so the next bot does not find it here."""
    request = next(referee, None)
    while request is not None:
        seat, shown, rng = request
        try:
            request = referee.send(_ask(seats[seat], seat, seat in oracles, shown, rng, times[seat], decisions))
        except StopIteration:
            return


def _ask(
    player: Any,
    seat: int,
    oracle: bool,
    shown: SeatView | Match,
    rng: random.Random,
    hist: dict[int, int],
    decisions: list[int],
) -> Action | _Refusal:
    """One decision, timed: the frame a bot is called from."""
    try:
        if oracle:
            began = time.perf_counter_ns()
            action = player.act_full(shown, seat, rng)
            spent = time.perf_counter_ns() - began
        else:
            began = time.perf_counter_ns()
            action = player.act(shown, rng)
            spent = time.perf_counter_ns() - began
    except (Exception, SystemExit) as error:
        # SystemExit too: sys.exit() in a bot ended the whole arena, silently, with its status.
        return _Refusal(f"raised {type(error).__name__}: {_one_line(_text(str, error))} at {_where(error)}")
    decisions[seat] += 1
    bucket = time_bucket(spent)
    hist[bucket] = hist.get(bucket, 0) + 1
    if not isinstance(action, Action):
        return _Refusal(f"broke the rules: returned {_text(repr, action)}, which is not an action")
    return action


def _where(error: BaseException) -> str:
    """Where ``error`` was raised: the innermost frame of its traceback, as ``file:line in
    function``, the file relative to the current directory when it is below it.  Text, built
    here: the traceback itself (its frames) never leaves the frame that caught it."""
    tb = error.__traceback__
    if tb is None:
        return "an unknown place"
    # The innermost frame outside this package, if any: a bot's own line calling the core
    # (``Play("AS")``) says more to its author than the core's line that refused it.
    outside = None
    while True:
        if not _ours(tb.tb_frame):
            outside = tb
        if tb.tb_next is None:
            break
        tb = tb.tb_next
    tb = outside or tb
    code = tb.tb_frame.f_code
    return f"{_one_line(_short_path(code.co_filename))}:{tb.tb_lineno} in {code.co_name}"


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""The folder of the ``sobedesce`` package."""


def _ours(frame: FrameType) -> bool:
    """Whether a frame runs this package's code, or code made at run time (``<string>``: a
    dataclass's ``__init__``), rather than a bot's.  By its module's name first: the compiled
    build's frames name their source as it was built (``src/sobedesce/core/_checks.py``), not
    where the package is installed."""
    module = str(frame.f_globals.get("__name__", ""))
    filename = frame.f_code.co_filename
    return module == "sobedesce" or module.startswith("sobedesce.") or filename.startswith((_PACKAGE, "<"))


def _short_path(path: str) -> str:
    """``path`` relative to the current directory when it lies below it, else as given."""
    try:
        here = os.getcwd()
        full = os.path.abspath(path)
        # (Below the root is every path: one run from / keeps them whole.)
        if os.path.dirname(here) != here and os.path.commonpath([here, full]) == here:
            return os.path.relpath(full, here)
    except (OSError, ValueError):
        pass  # no current directory (removed), another drive, or no path at all (<string>)
    return path


def _one_line(text: str) -> str:
    """``text`` on one line: an error report is one line per failure."""
    return " ".join(text.splitlines())


def _text(how: Callable[[object], str], value: object) -> str:
    """``how(value)`` (``str`` or ``repr``), or the plain ``object`` repr when the value's own
    method raises: a bot's answer is described in a report, never allowed to end the job."""
    try:
        return how(value)
    except Exception:
        return object.__repr__(value)


def _referee(spec: JobSpec, oracles: frozenset[int], result: JobResult) -> Generator[_Request, Action | _Refusal, None]:
    """Deal and judge the job's rounds, asking the dispatcher for each decision; fills ``result``.

    While a bot decides, this generator is suspended: its frame, which holds the match, is not
    on the call stack.
    """
    rules = find_rules(spec.rules)
    rotation = spec.rotation
    players = _player_names(spec.bots, rotation)
    match: Match | None = None
    first_deal = spec.start
    for deal in range(spec.start, spec.stop):
        if match is None or match.is_over:
            if match is not None:
                _close(spec, result, match, first_deal)
            match = Match(rules, players=players)
            first_deal = deal
        current = match.deal(deal_deck(spec.seed, deal), dealer=deal % SEATS)
        rngs = [bot_rng(spec.seed, deal, rotation, seat) for seat in range(SEATS)]
        failure: str | None = None
        while not current.is_over:
            seat = current.to_act
            assert seat is not None
            answer = yield (seat, match.copy() if seat in oracles else seat_view(match, seat), rngs[seat])
            if isinstance(answer, _Refusal):
                failure = f"bot {_who(spec, seat)} {answer.text}"
            else:
                try:
                    match.apply(answer)
                    continue
                except IllegalActionError as error:
                    failure = f"bot {_who(spec, seat)} broke the rules: {_text(str, answer)} is illegal: {error.reason}"
                except Exception as error:
                    # An action that is none of the game's, or whose own methods raise: the
                    # bot's failure like any other, reported without a traceback.
                    failure = (
                        f"bot {_who(spec, seat)} broke the rules: {_text(repr, answer)} cannot be applied:"
                        f" {type(error).__name__}: {error}"
                    )
            break
        if failure is not None:
            # The round is void and its match abandoned; the job goes on with a fresh match.
            result.errors.append(
                f"{failure} (deal {deal}, rotation {rotation}, round {len(match.rounds)} of its match)"
            )
            result.deltas.append((0, 0, 0, 0))
            result.active.append((False, False, False, False))
            _close(spec, result, match, first_deal)
            match = None
            continue
        deltas = current.deltas
        assert deltas is not None
        result.deltas.append(tuple(deltas))
        result.active.append(tuple(a == 1 for a in current.active))
    if match is not None:
        _close(spec, result, match, first_deal)


def _close(spec: JobSpec, result: JobResult, match: Match, first_deal: int) -> None:
    """Record the outcome of a match that ends (finished, abandoned, or cut by the block's end)."""
    result.matches.append(
        MatchOutcome(
            first_deal=first_deal,
            rounds=len(match.rounds),
            finished=match.is_over,
            scores=tuple(match.scores),
            winners=tuple(match.winners),
            riscos=tuple(match.riscos()) if match.is_over else None,  # type: ignore[arg-type]
        )
    )
    if spec.save:
        result.records.append((record_name(spec.rotation, first_deal), dumps_record(match) + "\n"))


def _who(spec: JobSpec, seat: int) -> str:
    entry = entry_at_seat(seat, spec.rotation)
    return f"{spec.bots[entry]!r} (entry {entry} of --bots, at seat {seat})"
