"""The skill rating of players: openskill's Plackett-Luce model over the four seats of a match.

A rating is a pair ``(mu, sigma)``; the rating shown to people is its ordinal ``mu - 3 * sigma``,
a conservative estimate that starts at 0 and rises as the store learns a player's skill.

>>> mu, sigma = new_rating()
>>> round(ordinal(mu, sigma), 6)
0.0
>>> after = rate_match([new_rating()] * 4, final_scores=[3, 10, 7, 7], winners=[0])
>>> after[0][0] > mu > after[1][0]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

__all__ = ["SEATS", "new_rating", "ordinal", "rate_match"]

SEATS = 4

# Stateless between calls, so one model serves every thread.
_MODEL = PlackettLuce()


def new_rating() -> tuple[float, float]:
    """The ``(mu, sigma)`` of a player who has not played yet."""
    rating = _MODEL.rating()
    return float(rating.mu), float(rating.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: ``mu - 3 * sigma``."""
    return mu - 3.0 * sigma


def match_ranks(final_scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """The rank of each seat (1 is best): winners share rank 1, the others follow by final score, lower first.

    >>> match_ranks([3, 10, 7, 7], winners=[0])
    [1, 3, 2, 2]
    >>> match_ranks([5, 5, 9, 2], winners=[0, 1])
    [1, 1, 3, 2]
    """
    if len(final_scores) != SEATS:
        raise ValueError(f"a match has {SEATS} final scores, not {len(final_scores)}")
    if any(seat not in range(SEATS) for seat in winners):
        raise ValueError(f"winners are seats 0 to {SEATS - 1}, not {list(winners)}")
    won = set(winners)
    losing_scores = sorted({score for seat, score in enumerate(final_scores) if seat not in won})
    first_losing_rank = 2 if won else 1
    return [
        1 if seat in won else first_losing_rank + losing_scores.index(score) for seat, score in enumerate(final_scores)
    ]


def rate_match(
    ratings: Sequence[tuple[float, float]], final_scores: Sequence[int], winners: Sequence[int]
) -> list[tuple[float, float]]:
    """The four seats' ``(mu, sigma)`` after a finished match, given the ratings they had before it."""
    if len(ratings) != SEATS:
        raise ValueError(f"a match has {SEATS} ratings, not {len(ratings)}")
    ranks = match_ranks(final_scores, winners)
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]
