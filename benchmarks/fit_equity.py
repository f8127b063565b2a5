"""Fit the round-change distributions behind the strong bot's match equity (bots/_equity.py).

    .venv/bin/python benchmarks/fit_equity.py --rules classic --matches 2000

Plays whole matches of four ``basic`` bots and prints, for seats that must play (their score
is at or below the preset's must-play threshold) and for the others, how often each change
of score happened in a round.  ``FREE_STEPS`` is the mean of the two presets' "may sit out"
rows; ``MUST_PLAY_STEPS`` is classic's "must play" row.
"""

from __future__ import annotations

import argparse
import collections
import random

from sobedesce.bots import make_bot
from sobedesce.core import Match, find_rules, seat_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rules = find_rules(args.rules)
    threshold = rules.must_play_at_or_below
    bot = make_bot("basic")
    rng = random.Random(args.seed)
    counts: dict[str, collections.Counter[int]] = {
        "must play": collections.Counter(),
        "may sit out": collections.Counter(),
    }
    rounds = 0
    for _ in range(args.matches):
        match = Match(rules)
        dealer = rng.randrange(4)
        while not match.is_over:
            start = list(match.scores)
            current = match.deal(rng=rng, dealer=(dealer + len(match.rounds)) % 4)
            while not current.is_over:
                match.apply(bot.act(seat_view(match, current.to_act), rng))
            assert current.deltas is not None
            for seat in range(4):
                forced = threshold is not None and start[seat] <= threshold
                counts["must play" if forced else "may sit out"][current.deltas[seat]] += 1
            rounds += 1
    print(f"{args.rules}: {args.matches} matches, {rounds / args.matches:.1f} rounds a match")
    for kind, counter in counts.items():
        total = sum(counter.values())
        if total:
            row = ", ".join(f"{d}: {n / total:.4f}" for d, n in sorted(counter.items()))
            print(f"  {kind} ({total} seat-rounds): {{{row}}}")


if __name__ == "__main__":
    main()
