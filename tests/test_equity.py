"""The match-equity model the strong bot uses near the end of a match."""

from __future__ import annotations

import random

import pytest

from sobedesce.bots._equity import FREE_STEPS, MUST_PLAY_STEPS, Equity, equity_for
from sobedesce.bots._search import objective
from sobedesce.core.rules import Rules, find_rules


def _monte_carlo(scores: tuple[int, ...], seat: int, must_play_at: int | None, n: int, seed: int) -> float:
    """The same model by simulation: independent walks, the match ends when any seat reaches 0."""
    rng = random.Random(seed)
    free = (list(FREE_STEPS), list(FREE_STEPS.values()))
    forced = (list(MUST_PLAY_STEPS), list(MUST_PLAY_STEPS.values()))
    wins = 0
    for _ in range(n):
        s = list(scores)
        while min(s) > 0:
            for i in range(4):
                steps, weights = forced if must_play_at is not None and s[i] <= must_play_at else free
                s[i] += rng.choices(steps, weights)[0]
        wins += s[seat] <= 0
    return wins / n


@pytest.mark.parametrize("scores", [(20, 20, 20, 20), (4, 9, 15, 20), (12, 3, 3, 30)])
def test_dynamic_programme_matches_simulation(scores: tuple[int, ...]) -> None:
    eq = Equity(0, 5)
    for seat in (0, 1):
        exact = eq.win(scores, seat)
        estimate = _monte_carlo(scores, seat, 5, 4000, seed=seat)
        assert exact == pytest.approx(estimate, abs=0.03)


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_equity_shape(rules: str) -> None:
    eq = equity_for(find_rules(rules))
    start = [eq.win((20, 20, 20, 20), seat) for seat in range(4)]
    assert max(start) == pytest.approx(min(start))
    # Closer to the target is better; the others closer is worse.
    for own in range(1, 40):
        assert eq.win((own, 12, 15, 20), 0) > eq.win((own + 1, 12, 15, 20), 0)
        assert eq.win((10, own, 15, 20), 0) < eq.win((10, own + 1, 15, 20), 0)
    # A finished match is certain; everyone at or below the target wins.
    assert eq.win((0, 3, 4, 5), 0) == 1.0
    assert eq.win((-2, 0, 4, 5), 1) == 1.0
    assert eq.win((3, -1, 4, 5), 0) == 0.0
    assert eq.points_per_win > 10


def test_target_is_read_from_the_rules() -> None:
    rules = Rules.from_spec({"preset": "table", "target_score": 5})
    eq = equity_for(rules)
    assert eq.win((5, 8, 8, 8), 0) == 1.0
    assert 0.0 < eq.win((6, 8, 8, 8), 0) < 1.0


def test_objective_with_equity_prefers_winning_the_match() -> None:
    eq = (equity_for(find_rules("classic")), 1.0)
    scores = (2, 3, 15, 15)
    win = objective((-2, 0, 0, -3), 0, 1.0, scores, 0, eq)
    other_wins = objective((0, -3, -2, 0), 0, 1.0, scores, 0, eq)
    nothing = objective((0, 0, -1, -1), 0, 1.0, scores, 0, eq)
    assert win < nothing < other_wins
    # With weight 0 it is the linear objective.
    linear = objective((-1, 0, 0, 0), 0, 1.0, (20, 20, 20, 20), 0)
    assert objective((-1, 0, 0, 0), 0, 1.0, (20, 20, 20, 20), 0, (eq[0], 0.0)) == linear


def test_riscos_valuation_is_separate_from_equity() -> None:
    """``riscos`` values a round that ends the match by the riscos; without it such a round
    counts like any other, and the equity part (which needs the scores) still applies."""
    scores = (2, 9, 15, 15)
    deltas = (-2, 0, 0, -1)  # seat 0 reaches 0 and wins the match
    linear = deltas[0] - (deltas[1] + deltas[2] + deltas[3]) / 3
    assert objective(deltas, 0, 1.0) == linear
    assert objective(deltas, 0, 1.0, scores, 0, riscos=False) == linear
    with_riscos = objective(deltas, 0, 1.0, scores, 0)
    assert with_riscos < linear  # the win is worth far more than its two points
    eq = (equity_for(find_rules("table")), 0.5)
    blended = objective(deltas, 0, 1.0, scores, 0, eq, riscos=False)
    change = eq[0].points_per_win * (eq[0].win(scores, 0) - 1.0)
    assert blended == pytest.approx(0.5 * change + 0.5 * linear)
    assert blended < linear


def test_equity_does_not_need_the_riscos_valuation() -> None:
    from sobedesce.bots._search import _objective_inputs
    from sobedesce.core import Match, seat_view

    match = Match("table", scores=(4, 9, 15, 15))
    match.deal(rng=random.Random(1), dealer=0)
    view = seat_view(match, match.current_seat)
    scores, target, eq = _objective_inputs(view, False, 0.5)
    assert scores == (4, 9, 15, 15) and target == 0
    assert eq is not None and eq[1] == 0.5
    assert _objective_inputs(view, False, 0.0) == (None, 0, None)
    assert _objective_inputs(view, True, 0.0)[0] == (4, 9, 15, 15)
