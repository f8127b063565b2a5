"""``strong``: sampling search with inference.

For every decision it samples deals consistent with everything the seat knows, weights each
deal by how likely the other seats' observed decisions are under it (the basic policy's
soft likelihood of their trump choice, sit-outs, discard counts and cards played; in the
card play also who sat out and who played when it could have sat out; at the round's first
card, with ``first_lead_decks``, whole decks weighed by every seat's trump and exchange
decisions, :class:`~._search.FirstLeadDraw`, and at the later cards, with ``play_decks``, the
same read through decks built backwards from the play, :class:`~._search.PlayDeckDraw`), and
scores every option by playing the round out on each deal with basic-like policies for all
seats (each seat playing for its own score).  It picks the option with the best weighted
mean of its objective: its own change against the others' (``rivalry``), and, once some
score is within ``equity_from`` points of the target, a blend (``equity``) with the change
of its chance of winning the match (``_equity``).  With ``match_aware`` (off by default) a
simulated round that ends the match is valued by the seat's riscos instead of its change.

Every legal discard is an exchange option (screened by successive halving on common
worlds).  The search is anytime.  The exchange and the card play first draw their weighted
candidate deals in chunks and resample all of them at once (resampling chunk by chunk from a
few candidates would lean toward deals drawn from the view alone); then every phase plays its
options out in batches of about ``batch`` play-outs (``batch`` divided by the number of
options, at least one deal), the same deals for all options, so comparisons stay paired.
Two limits stop it, whichever comes first:

- the **sample budget** (``play_samples``, ``exchange_samples``, ``trump_samples``): without a
  deadline this alone decides, so the same view, rng and settings give the same decision on
  any machine, however fast or loaded (the arena's default, and the terminal's with
  ``--seed``);
- the **deadline** (``deadline``, seconds per decision from the call, kept by the clock,
  ``time.perf_counter`` unless a ``clock`` callable is injected): after each batch it checks
  that one more batch, taking ``MARGIN`` times as long as the longest so far, would end before
  the deadline; when it would not, the bot answers with the best option on the deals evaluated
  so far.  Drawing candidates stops at half the deadline (``DRAW_SHARE``: fewer deals then),
  the exchange's screening stage at three quarters (``SCREEN_SHARE``) so that the kept options
  get the rest.  At least one batch is always evaluated; if not one deal was found, the basic
  policy answers.  The levels a table offers use a deadline (``LEVELS``).

``batch=0`` draws and plays out every sample of a decision at once (no deadline then): the
fourth round's search, by which the figures measured before the clock can be reproduced.
Without a deadline the batched search plays the same deals.

``time_limit`` (seconds, optional) is not a clock either: it caps the budgets by a fixed cost
model (a rough, hard-coded number of microseconds per sample for each kind of decision), so
a run with it is still reproducible by seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from sobedesce.core import SIT_OUT, Action, Phase, Play, SeatView

from ._search import (
    FIRST_LEAD_OVERSAMPLE,
    ExchangeDraw,
    FirstLeadDraw,
    PlayContext,
    PlayDeckDraw,
    PlayDraw,
    Value,
    evaluate_exchange,
    evaluate_play,
    evaluate_trump,
    exchange_candidates,
    sample_play_worlds,
    sample_trump_decks,
)
from .base import Option, forced_action
from .basic import BasicBot, exchange_action, trump_action


class StrongBot:
    name = "strong"

    def __init__(
        self,
        play_samples: int = 100,
        exchange_samples: int = 500,
        trump_samples: int = 400,
        inference: bool = True,
        time_limit: float | None = None,
        rivalry: float = 1.0,
        match_aware: bool = False,
        sit_out_cost: float = 1.0,
        phases: str = "tep",
        wide_exchange: bool = True,
        exchange_screen: int = 120,
        exchange_keep: int = 8,
        equity: float = 0.5,
        equity_from: int = 8,
        play_evidence: bool = True,
        play_oversample: int = 4,
        first_lead_decks: bool = True,
        play_decks: bool = True,
        deadline: float | None = None,
        batch: int = 100,
        clock: Callable[[], float] | None = None,
    ) -> None:
        budgets = {
            "play_samples": play_samples,
            "exchange_samples": exchange_samples,
            "trump_samples": trump_samples,
            "play_oversample": play_oversample,
            "exchange_screen": exchange_screen,
            "exchange_keep": exchange_keep,
        }
        for setting, value in budgets.items():
            if value < 1:
                raise ValueError(f"{setting} must be at least 1, not {value}")
        # ``not x > 0`` and ``isfinite``: a NaN passed ``x <= 0`` and every comparison after it
        # was false (a deadline of NaN was never out; a rivalry of NaN valued every option alike).
        for setting, seconds in {"time_limit": time_limit, "deadline": deadline}.items():
            if seconds is not None and not (seconds > 0 and math.isfinite(seconds)):
                raise ValueError(f"{setting} must be positive seconds or none, not {seconds}")
        for setting, weight in {"rivalry": rivalry, "sit_out_cost": sit_out_cost, "equity": equity}.items():
            if not math.isfinite(weight):
                raise ValueError(f"{setting} must be a finite number, not {weight}")
        if batch < 0:
            raise ValueError(f"batch must be at least 1 (or 0: every sample at once), not {batch}")
        if batch == 0 and deadline is not None:
            raise ValueError("batch=0 draws every sample at once, so it cannot keep a deadline")
        self.deadline = deadline
        self.batch = batch
        self.clock: Callable[[], float] = clock or time.perf_counter
        self.play_evidence = play_evidence
        self.play_oversample = play_oversample
        self.first_lead_decks = first_lead_decks
        self.play_decks = play_decks
        self.equity_from = equity_from
        self.equity = equity
        self.wide_exchange = wide_exchange
        self.exchange_screen = exchange_screen
        self.exchange_keep = exchange_keep
        self.sit_out_cost = sit_out_cost
        self.rivalry = rivalry
        self.match_aware = match_aware
        self.phases = phases
        self._basic = BasicBot()
        self.play_samples = play_samples
        self.exchange_samples = exchange_samples
        self.trump_samples = trump_samples
        self.inference = inference
        self.time_limit = time_limit

    def act(self, view: SeatView, rng: random.Random) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        if "tep"[int(view.phase) - 1] not in self.phases:
            return self._basic.act(view, rng)
        return self.explain(view, rng)[0].action

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        legal = view.legal_actions
        if not legal:
            return []
        # The deadline counts from here: preparing the options is part of the decision.
        watch = Stopwatch(self.deadline, self.clock)
        if view.phase == Phase.TRUMP:
            return self._trump(view, rng, watch)
        if view.phase == Phase.EXCHANGE:
            return self._exchange(view, rng, watch)
        return self._play(view, rng, watch)

    def _equity(self, view: SeatView) -> float:
        """The weight of match equity in the objective: none until some score is within
        ``equity_from`` points of the target."""
        if min(view.scores) - view.rules.target_score > self.equity_from:
            return 0.0
        return self.equity

    def _scale(self, n: int, cost: int) -> int:
        """Samples within the time limit by the fixed cost model (``cost`` microseconds a
        sample, an estimate: the clock is never read)."""
        if self.time_limit is None:
            return n
        return max(4, min(n, int(self.time_limit * 1e6 / max(cost, 1))))

    def _deals_per_batch(self, n: int, options: int) -> int:
        """Deals per batch: about ``batch`` play-outs, at least one deal (``batch=0``: all)."""
        return max(1, self.batch // options) if self.batch else n

    def _fallback(self, view: SeatView, rng: random.Random) -> list[Option]:
        """Not one batch found a deal: the basic policy's choice first, then the rest."""
        choice = self._basic.act(view, rng)
        rest = [a for a in view.legal_actions if a != choice]
        return [Option(choice, 0.0, "basic's choice: no sampled deal in time")] + [Option(a, 0.0) for a in rest]

    def _trump(self, view: SeatView, rng: random.Random, watch: Stopwatch) -> list[Option]:
        options = [0, 1, 2, 3] + ([4] if view.rules.turn_up_allowed else [])
        n = self._scale(self.trump_samples, 400 * len(options))
        means = Means()
        done = 0
        while done < n:
            size = min(self._deals_per_batch(n, len(options)), n - done)
            decks = sample_trump_decks(view, rng, size)
            done += size
            values = evaluate_trump(view, decks, options, self.rivalry, self.match_aware, self._equity(view))
            means.add(values, len(decks))
            if not watch.lap():
                break
        values = means.values()
        ranked = sorted(values.items(), key=lambda item: item[1][1])
        return [
            Option(trump_action(o), v[0], "", v[1], v[2], v[3])  # no note: it said the action again
            for o, v in ranked
        ]

    def _exchange(self, view: SeatView, rng: random.Random, watch: Stopwatch) -> list[Option]:
        candidates = exchange_candidates(view, every_subset=self.wide_exchange)
        width = min(len(candidates), self.exchange_keep + 1) if self.wide_exchange else len(candidates)
        n = self._scale(self.exchange_samples, 300 * width)
        sit_bias = 0.0
        if None in candidates and self.sit_out_cost:
            # Sitting out uses up one of the allowed sit-outs in a row: the next round may
            # have to be played whatever the hand.
            streak = view.sat_out_streaks[view.seat] + 1
            factor = 1.0 if streak >= view.rules.max_sit_outs_in_row else 0.3
            sit_bias = self.sit_out_cost * factor
        equity = self._equity(view)
        # Every world is resampled from every candidate deal at once (drawn in chunks, within
        # half the deadline), then played out in batches: the same worlds as ``batch=0``
        # unless the clock stops the drawing early (then fewer).
        draw = ExchangeDraw(view, n, weighted=self.inference)
        chunk = self.batch * DRAW_CHUNK if self.batch else draw.want
        while not draw.done:
            draw.draw(rng, min(chunk, draw.want - draw.tried))
            if not watch.lap_fits(DRAW_SHARE, tick=True):
                break
        watch.batch = 0.0  # play-out batches take another time than drawing
        everything = draw.worlds(rng)
        n = len(everything)
        means = Means()
        done = 0
        # Successive halving on common worlds: every option on the first ``screen`` worlds
        # (within three quarters of the deadline), then the ``exchange_keep`` best and sitting
        # out on the rest; every value is over all the worlds its option saw.
        screen = min(self.exchange_screen, max(4, n // 3))
        screening = self.wide_exchange and len(candidates) > self.exchange_keep and n > screen
        stage_end = screen if screening else n
        options: Sequence[int | None] = candidates
        while done < n:
            size = min(self._deals_per_batch(n, len(options)), stage_end - done)
            worlds = everything[done : done + size]
            done += size
            values = evaluate_exchange(view, worlds, options, self.rivalry, self.match_aware, equity)
            means.add(values, sum(w for w, _ in worlds))
            more = watch.lap()
            if done >= stage_end or not more or not watch.lap_fits(SCREEN_SHARE):
                if screening and means.weight > 0.0 and more:
                    # The screen is over: keep the best options for the other worlds.
                    first = means.values()
                    ranked = sorted(options, key=lambda o: first[o][1] + (sit_bias if o is None else 0.0))
                    survivors = ranked[: self.exchange_keep]
                    if None in options and None not in survivors:
                        survivors.append(None)
                    options = survivors
                    means.keep(options)
                    watch.batch = 0.0  # fewer options: batches of this stage are shorter
                    screening = False
                    stage_end = n
                    continue
                if not more:
                    break
        if means.weight <= 0.0:
            return self._fallback(view, rng)
        values = means.values()
        if None in values and sit_bias:
            own, obj, tricks, none = values[None]
            values[None] = (own, obj + sit_bias, tricks, none)
        out = []
        for option, value in sorted(values.items(), key=lambda item: item[1][1]):
            if option is None:
                out.append(Option(SIT_OUT, value[0], "sit out: the score stays", value[1]))
            else:
                note = f"discard {option.bit_count()}"
                out.append(Option(exchange_action(option), value[0], note, value[1], value[2], value[3]))
        return out

    def _play(self, view: SeatView, rng: random.Random, watch: Stopwatch) -> list[Option]:
        cards = [a.card for a in view.legal_actions]  # type: ignore[attr-defined]
        ctx = PlayContext(view)
        reading = self.inference and self.play_evidence
        decks = reading and self.first_lead_decks and FirstLeadDraw.applies(view)
        built = reading and self.play_decks and not FirstLeadDraw.applies(view)
        # (A whole deck costs about 80 microseconds to draw and weigh, a deal of current hands
        # about 60, one built back to the deck about PLAY_DECK_COST.)
        drawing = 80 * FIRST_LEAD_OVERSAMPLE if decks else (PLAY_DECK_COST if built else 60) * self.play_oversample
        n = self._scale(self.play_samples, 150 * len(cards) + drawing)
        equity = self._equity(view)
        # As the exchange: every deal resampled from every candidate at once (drawn in
        # chunks, within half the deadline), then played out in batches.
        draw: PlayDraw | FirstLeadDraw
        if decks:
            draw = FirstLeadDraw(ctx, n)
        elif built:
            draw = PlayDeckDraw(ctx, n, oversample=self.play_oversample)
        else:
            draw = PlayDraw(
                ctx, n, weighted=self.inference, evidence=self.play_evidence, oversample=self.play_oversample
            )
        chunk = self._deals_per_batch(n, len(cards)) * draw.oversample
        while not draw.done:
            draw.draw(rng, len(draw.out) + chunk)
            if not watch.lap_fits(DRAW_SHARE, tick=True):
                break
        watch.batch = 0.0
        everything = draw.worlds(rng)
        if not everything:
            # Nothing consistent with the weights: any consistent deal will do.
            everything = sample_play_worlds(ctx, rng, max(4, n // 4), weighted=False, max_tries=n * 200)
        means = Means()
        done = 0
        total = len(everything)
        while done < total:
            size = min(self._deals_per_batch(total, len(cards)), total - done)
            worlds = everything[done : done + size]
            done += size
            values = evaluate_play(ctx, worlds, cards, self.rivalry, self.match_aware, equity)
            means.add(values, sum(w for w, _ in worlds))
            if not watch.lap():
                break
        if means.weight <= 0.0:
            return [Option(Play.of(c), 0.0, "no consistent deal found") for c in cards]
        values = means.values()
        ranked = sorted(values.items(), key=lambda item: item[1][1])
        return [Option(Play.of(c), v[0], "", v[1], v[2], v[3]) for c, v in ranked]


PLAY_DECK_COST = 200
"""Microseconds a deal of :class:`~._search.PlayDeckDraw` costs to draw and weigh, those it
lets go included (the fixed cost model of ``time_limit``; the clock measures itself)."""

DRAW_SHARE = 0.5
"""The share of the deadline within which the candidate deals of an exchange or a card
decision are drawn (the rest is for playing the options out)."""

DRAW_CHUNK = 2
"""Candidate exchange deals drawn between two readings of the clock, per play-out of a batch
(``batch`` 100: 200 candidates, about as long as a batch of play-outs)."""

SCREEN_SHARE = 0.75
"""The share of the deadline by which the exchange's screen ends (every option played out on
the same worlds), so that the options it keeps get the rest."""

MARGIN = 1.25
"""A batch is expected to take up to this many times the longest one so far (a loaded machine
makes batch times vary)."""


class Stopwatch:
    """A decision's deadline, kept by ``clock`` (seconds); without a deadline, never out.

    ``lap()`` is called after each batch: it times the batch and tells whether another batch,
    as long as the longest one so far (times ``MARGIN``), would still end before the
    deadline."""

    def __init__(self, deadline: float | None, clock: Callable[[], float]) -> None:
        self.deadline = deadline
        self.clock = clock
        self.start = clock() if deadline is not None else 0.0
        self.last = self.start
        self.batch = 0.0

    def lap(self) -> bool:
        return self.lap_fits(1.0, tick=True)

    def lap_fits(self, share: float, tick: bool = False) -> bool:
        """Whether one more batch fits within ``share`` of the deadline (``tick``: a batch
        has just ended, time it)."""
        if self.deadline is None:
            return True
        if tick:
            now = self.clock()
            self.batch = max(self.batch, now - self.last)
            self.last = now
        return self.last - self.start + MARGIN * self.batch <= self.deadline * share


class Means:
    """Weighted means of each option's :data:`~._search.Value` (own change, objective, tricks,
    chance of none), accumulated batch by batch."""

    def __init__(self) -> None:
        self.sums: dict[Any, list[float]] = {}
        self.weight = 0.0
        self.first: dict[Any, Value] | None = None
        """The first batch's values, returned as they are while there is no other batch."""
        self.batches = 0

    def add(self, values: dict[Any, Value], weight: float) -> None:
        if weight <= 0.0:
            return
        self.batches += 1
        if self.batches == 1:
            self.first = dict(values)
        for option, (own, obj, tricks, none) in values.items():
            acc = self.sums.setdefault(option, [0.0, 0.0, 0.0, 0.0, 0.0])
            acc[0] += own * weight
            acc[1] += obj * weight
            acc[2] += tricks * weight
            acc[3] += none * weight
            acc[4] += weight
        self.weight += weight

    def keep(self, options: Sequence[Any]) -> None:
        self.sums = {o: self.sums[o] for o in options if o in self.sums}

    def values(self) -> dict[Any, Value]:
        if self.batches == 1 and self.first is not None:
            return {o: self.first[o] for o in self.sums}
        return {o: (a[0] / a[4], a[1] / a[4], a[2] / a[4], a[3] / a[4]) for o, a in self.sums.items() if a[4] > 0.0}
