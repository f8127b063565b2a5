"""Match equity: the chance that a seat wins the match from given scores.

Each seat's score is modelled as an independent random walk whose step is one round's
change, drawn from the distribution of ``basic`` players' changes (fitted on 2 000
basic-vs-basic matches of each preset by ``benchmarks/fit_equity.py``): one distribution for a
seat that may sit out, another for a seat that must play (``must_play_at_or_below``).  A
dynamic programme over (rounds to go, distance to the target) gives, for every distance,
the chance of first reaching the target after exactly *t* more rounds; the match ends when
any seat reaches it, and everyone who reaches it in that round wins.  So

    P(seat wins) = sum over t of  first(t, seat) * product over the others of  alive(t - 1, other)

It ignores that the four changes of a round are linked (the tricks are shared), and the
rare rounds where a rule makes everyone play; it is an approximation to steer decisions
near the end of a match, not an exact value.

>>> from sobedesce.core.rules import find_rules
>>> eq = equity_for(find_rules("classic"))
>>> round(eq.win((20, 20, 20, 20), 0), 2)  # over 0.25: the model overrates shared wins
0.27
>>> eq.win((3, 20, 20, 20), 0) > 0.8
True
>>> eq.win((0, 5, 5, 5), 0), eq.win((4, -1, 5, 5), 0)
(1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from sobedesce.core.rules import Rules

FREE_STEPS: dict[int, float] = {
    -10: 0.0036,
    -8: 0.0215,
    -6: 0.0702,
    -5: 0.0031,
    -4: 0.1465,
    -3: 0.0493,
    -2: 0.2401,
    -1: 0.1122,
    0: 0.2163,
    5: 0.0653,
    10: 0.0720,
}
"""One round's change for a seat that may sit out (both presets agree within 0.01)."""

MUST_PLAY_STEPS: dict[int, float] = {
    -10: 0.0034,
    -8: 0.0231,
    -6: 0.0781,
    -5: 0.0028,
    -4: 0.1707,
    -3: 0.0451,
    -2: 0.3041,
    -1: 0.1435,
    5: 0.0969,
    10: 0.1324,
}
"""One round's change for a seat that must play (classic, score at or below 5)."""

MAX_DISTANCE = 80
HORIZON = 60


class Equity:
    """Win chances for one rule set's target and must-play threshold."""

    def __init__(self, target: int, must_play_at: int | None) -> None:
        self.target = target
        limit = None if must_play_at is None else must_play_at - target
        free = list(FREE_STEPS.items())
        forced = list(MUST_PLAY_STEPS.items())
        steps = [forced if limit is not None and d <= limit else free for d in range(MAX_DISTANCE + 1)]
        # first[t][d]: chance that a seat at distance d first reaches the target in exactly
        # t rounds; alive[t][d]: chance it has not reached it within t rounds.
        first = [[0.0] * (MAX_DISTANCE + 1)]
        alive = [[1.0] * (MAX_DISTANCE + 1)]
        for t in range(1, HORIZON + 1):
            prev = first[-1]
            row = [0.0] * (MAX_DISTANCE + 1)
            for d in range(1, MAX_DISTANCE + 1):
                p = 0.0
                for step, q in steps[d]:
                    nd = d + step
                    if t == 1:
                        if nd <= 0:
                            p += q
                    elif nd > 0:
                        p += q * prev[min(nd, MAX_DISTANCE)]
                row[d] = p
            first.append(row)
            alive.append([a - f for a, f in zip(alive[-1], row, strict=True)])
        self._first = first
        self._alive = alive
        self._cache: dict[tuple[tuple[int, ...], int], float] = {}
        # The scale that makes a change of equity read as points: at the start of a match, one
        # point of one's own score is worth 1 / points_per_win of a win.
        self.points_per_win = 1.0 / (self.win((20, 20, 20, 20), 0) - self.win((21, 20, 20, 20), 0))

    def win(self, scores: Sequence[int], seat: int) -> float:
        """The chance that ``seat`` wins (alone or shared) from these scores; 1 or 0 when some
        score has already reached the target."""
        key = (tuple(scores), seat)
        value = self._cache.get(key)
        if value is None:
            if len(self._cache) > 100_000:
                self._cache.clear()
            value = self._cache[key] = self._win(key[0], seat)
        return value

    def _win(self, scores: Sequence[int], seat: int) -> float:
        target = self.target
        dist = [min(s - target, MAX_DISTANCE) for s in scores]
        if min(dist) <= 0:
            return 1.0 if dist[seat] <= 0 else 0.0
        first = self._first
        alive = self._alive
        mine = dist[seat]
        others = [dist[i] for i in range(4) if i != seat]
        a, b, c = others
        total = 0.0
        for t in range(1, HORIZON + 1):
            prev = alive[t - 1]
            total += first[t][mine] * prev[a] * prev[b] * prev[c]
        return total


@lru_cache(maxsize=16)
def _equity(target: int, must_play_at: int | None) -> Equity:
    return Equity(target, must_play_at)


def equity_for(rules: Rules) -> Equity:
    return _equity(rules.target_score, rules.must_play_at_or_below)


__all__ = ["Equity", "equity_for"]
