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
import random
import time
from dataclasses import dataclass, field
from typing import Any

from sobedesce.core import CARDS, Action, Card, IllegalActionError, Match, dumps_record, find_rules, seat_view

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


def play_job(spec: JobSpec) -> JobResult:
    """Play a job.  A round in which a bot breaks the rules or crashes is recorded in
    ``errors`` (naming the bot), counted as void and ends its match; the job goes on."""
    from sobedesce.bots import make_bot  # late: workers import the bots registry themselves

    rules = find_rules(spec.rules)
    rotation = spec.rotation
    # One bot object per entry, so that entries of the same name stay separate.
    by_seat = [make_bot(spec.bots[entry_at_seat(seat, rotation)]) for seat in range(SEATS)]
    omniscient = [bool(getattr(bot, "omniscient", False)) for bot in by_seat]
    players = _player_names(spec.bots, rotation)
    result = JobResult(block=spec.block, rotation=rotation, start=spec.start)
    times = result.times
    decisions = result.decisions
    match: Match | None = None
    first_deal = spec.start

    def close(match: Match) -> None:
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
            result.records.append((record_name(rotation, first_deal), dumps_record(match) + "\n"))

    for deal in range(spec.start, spec.stop):
        if match is None or match.is_over:
            if match is not None:
                close(match)
            match = Match(rules, players=players)
            first_deal = deal
        current = match.deal(deal_deck(spec.seed, deal), dealer=deal % SEATS)
        rngs = [bot_rng(spec.seed, deal, rotation, seat) for seat in range(SEATS)]
        try:
            _play_round(spec, deal, match, by_seat, omniscient, rngs, times, decisions)
        except BotFailure as failure:
            # The round is void and its match abandoned; the job goes on with a fresh match.
            result.errors.append(str(failure))
            result.deltas.append((0, 0, 0, 0))
            result.active.append((False, False, False, False))
            close(match)
            match = None
            continue
        deltas = current.deltas
        assert deltas is not None
        result.deltas.append(tuple(deltas))
        result.active.append(tuple(a == 1 for a in current.active))
    if match is not None:
        close(match)
    return result


def _play_round(
    spec: JobSpec,
    deal: int,
    match: Match,
    by_seat: list[Any],
    omniscient: list[bool],
    rngs: list[random.Random],
    times: list[dict[int, int]],
    decisions: list[int],
) -> None:
    """Play the round just dealt to its end; raises :class:`BotFailure` naming a failing bot."""
    rotation = spec.rotation
    current = match.round
    assert current is not None
    while not current.is_over:
        seat = current.to_act
        bot = by_seat[seat]
        try:
            if omniscient[seat]:
                view_match = match.copy()
                began = time.perf_counter_ns()
                action = bot.act_full(view_match, seat, rngs[seat])
                spent = time.perf_counter_ns() - began
            else:
                view = seat_view(match, seat)
                began = time.perf_counter_ns()
                action = bot.act(view, rngs[seat])
                spent = time.perf_counter_ns() - began
        except Exception as error:
            raise BotFailure(
                f"bot {_who(spec, seat)} raised {type(error).__name__}: {error} "
                f"(deal {deal}, rotation {rotation}, round {len(match.rounds)} of its match)"
            ) from None
        decisions[seat] += 1
        hist = times[seat]
        bucket = time_bucket(spent)
        hist[bucket] = hist.get(bucket, 0) + 1
        if not isinstance(action, Action):
            raise BotFailure(
                f"bot {_who(spec, seat)} broke the rules: returned {action!r}, which is not an action "
                f"(deal {deal}, rotation {rotation}, round {len(match.rounds)} of its match)"
            )
        try:
            match.apply(action)
        except IllegalActionError as error:
            raise BotFailure(
                f"bot {_who(spec, seat)} broke the rules: {action} is illegal: {error.reason} "
                f"(deal {deal}, rotation {rotation}, round {len(match.rounds)} of its match)"
            ) from None


def _who(spec: JobSpec, seat: int) -> str:
    entry = entry_at_seat(seat, spec.rotation)
    return f"{spec.bots[entry]!r} (entry {entry} of --bots, at seat {seat})"
