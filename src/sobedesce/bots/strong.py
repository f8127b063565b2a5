"""``strong``: sampling search with inference.

For every decision it samples deals consistent with everything the seat knows, weights each
deal by how likely the other seats' observed decisions are under it (the basic policy's
soft likelihood of their trump choice, sit-outs, discard counts and cards played; in the
card play also who sat out and who played when it could have sat out), and
scores every option by playing the round out on each deal with basic-like policies for all
seats (each seat playing for its own score).  It picks the option with the best weighted
mean of its objective: its own change against the others' (``rivalry``), and, once some
score is within ``equity_from`` points of the target, a blend (``equity``) with the change
of its chance of winning the match (``_equity``).  With ``match_aware`` (off by default) a
simulated round that ends the match is valued by the seat's riscos instead of its change.

Every legal discard is an exchange option (screened by successive halving on common
worlds).  The thinking budget is the number of sampled deals per decision.  An optional
``time_limit`` (seconds) caps those numbers with a fixed cost model — a rough, hard-coded
number of microseconds per sample for each kind of decision — and never reads the clock: the
same view, rng and settings give the same decision on any machine, however fast or loaded.
"""

from __future__ import annotations

import random

from sobedesce.core import SIT_OUT, Action, Phase, Play, SeatView
from sobedesce.core.cards import Suit

from ._search import (
    PlayContext,
    evaluate_exchange,
    evaluate_play,
    evaluate_trump,
    exchange_candidates,
    sample_exchange_worlds,
    sample_play_worlds,
    sample_trump_decks,
    screen_exchange,
)
from .base import Option
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
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive seconds or none, not {time_limit}")
        self.play_evidence = play_evidence
        self.play_oversample = play_oversample
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
        legal = view.legal_actions
        if not legal:
            raise ValueError("not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if "tep"[int(view.phase) - 1] not in self.phases:
            return self._basic.act(view, rng)
        return self.explain(view, rng)[0].action

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        legal = view.legal_actions
        if not legal:
            return []
        if view.phase == Phase.TRUMP:
            return self._trump(view, rng)
        if view.phase == Phase.EXCHANGE:
            return self._exchange(view, rng)
        return self._play(view, rng)

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

    def _trump(self, view: SeatView, rng: random.Random) -> list[Option]:
        options = [0, 1, 2, 3] + ([4] if view.rules.turn_up_allowed else [])
        n = self._scale(self.trump_samples, 400 * len(options))
        decks = sample_trump_decks(view, rng, n)
        values = evaluate_trump(view, decks, options, self.rivalry, self.match_aware, self._equity(view))
        ranked = sorted(values.items(), key=lambda item: item[1][1])
        return [
            Option(
                trump_action(o),
                v[0],
                ("turn up the 13th card" if o == 4 else f"{Suit(o).title} as trump") + _rank_note(v[1]),
            )
            for o, v in ranked
        ]

    def _exchange(self, view: SeatView, rng: random.Random) -> list[Option]:
        candidates = exchange_candidates(view, every_subset=self.wide_exchange)
        width = min(len(candidates), self.exchange_keep + 1) if self.wide_exchange else len(candidates)
        n = self._scale(self.exchange_samples, 300 * width)
        worlds = sample_exchange_worlds(view, rng, n, weighted=self.inference)
        sit_bias = 0.0
        if None in candidates and self.sit_out_cost:
            # Sitting out uses up one of the allowed sit-outs in a row: the next round may
            # have to be played whatever the hand.
            streak = view.sat_out_streaks[view.seat] + 1
            factor = 1.0 if streak >= view.rules.max_sit_outs_in_row else 0.3
            sit_bias = self.sit_out_cost * factor
        if self.wide_exchange:
            screen = min(self.exchange_screen, max(4, len(worlds) // 3))
            values = screen_exchange(
                view,
                worlds,
                candidates,
                self.exchange_keep,
                screen,
                self.rivalry,
                self.match_aware,
                self._equity(view),
                {None: sit_bias},
            )
        else:
            values = evaluate_exchange(view, worlds, candidates, self.rivalry, self.match_aware, self._equity(view))
        if None in values and sit_bias:
            own, obj = values[None]
            values[None] = (own, obj + sit_bias)
        out = []
        for option, value in sorted(values.items(), key=lambda item: item[1][1]):
            action = SIT_OUT if option is None else exchange_action(option)
            note = "sit out: the score stays" if option is None else f"discard {option.bit_count()}"
            out.append(Option(action, value[0], note + _rank_note(value[1])))
        return out

    def _play(self, view: SeatView, rng: random.Random) -> list[Option]:
        cards = [a.card for a in view.legal_actions]  # type: ignore[attr-defined]
        ctx = PlayContext(view)
        n = self._scale(self.play_samples, 150 * len(cards) + 60 * self.play_oversample)
        worlds = sample_play_worlds(
            ctx, rng, n, weighted=self.inference, evidence=self.play_evidence, oversample=self.play_oversample
        )
        if not worlds:
            worlds = sample_play_worlds(ctx, rng, max(4, n // 4), weighted=False, max_tries=n * 200)
        if not worlds:
            return [Option(Play.of(c), 0.0, "no consistent deal found") for c in cards]
        values = evaluate_play(ctx, worlds, cards, self.rivalry, self.match_aware, self._equity(view))
        return [
            Option(Play.of(c), v[0], _rank_note(v[1]).lstrip("; "))
            for c, v in sorted(values.items(), key=lambda item: item[1][1])
        ]


def _rank_note(objective: float) -> str:
    # What the bot ranks by: its own change against the others' (riscos when the match ends).
    return f"; {objective:+.2f} against the others"
