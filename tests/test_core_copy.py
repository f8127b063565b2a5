"""Copies are independent: playing a copy to the end leaves the original exactly as it was."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sobedesce.core import Match, dumps_record, summary


def snapshot(match: Match) -> tuple[str, str, list[int]]:
    current = match.round
    hands = list(current.hands) if current is not None else []
    return dumps_record(match), repr(summary(match)), hands


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(["classic", "table"]))
def test_playing_a_copy_leaves_the_original_unchanged(seed: int, rules: str) -> None:
    rng = random.Random(seed)
    match = Match(rules)
    for _ in range(3):
        if match.is_over:
            break
        match.deal(rng=rng)
        while match.current_seat is not None:
            before = snapshot(match)
            for source in (match, match.round):
                assert source is not None
                twin = source.copy()
                while twin.legal_actions():
                    twin.apply(rng.choice(twin.legal_actions()))
                assert snapshot(match) == before
            match.apply(rng.choice(match.legal_actions()))
