"""Two trees of the engine by the clock: the bench's random rounds, alternating runs of each.

    .venv/bin/python benchmarks/engine_ab.py OLD_SRC NEW_SRC [--runs 6] [--rounds 20000] [--rules R]
    git worktree add /tmp/old <commit> && .venv/bin/python benchmarks/engine_ab.py /tmp/old/src src

Instruction counts (``callgrind_random_play.py``) are exact and blind to the processor's caches:
a change that trades instructions for misses of the cache can count 7% fewer instructions and
take as long.  This plays ``sobedesce bench``'s random rounds (``callgrind_random_play.play``:
``match.deal(rng=rng)``, every decision ``match.apply(rng.choice(match.legal_actions()))``) in a
fresh interpreter for each run, importing ``sobedesce`` from the given ``src`` folder, and alternates
the two trees ``--runs`` times so that a change in the machine's load falls on both alike.  Each
run times five slices of ``--rounds`` rounds (seeds 1 to 5) by CPU time and keeps their median; the report is
the median of the runs of each tree and the ratio of the second to the first.  On a quiet
machine two runs of one tree differ by about 1%, so smaller changes need more runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

CHILD = """
import statistics, sys, time
sys.path.insert(0, sys.argv[1])
sys.path.insert(1, sys.argv[4])
import sobedesce.core.game as game
assert game.__file__.startswith(sys.argv[1]), game.__file__
from callgrind_random_play import play
rules, rounds = sys.argv[2], int(sys.argv[3])
play(rules, rounds // 10, 0)
rates = []
for seed in range(1, 6):
    start = time.process_time()
    play(rules, rounds, seed)
    rates.append(rounds / (time.process_time() - start))
print(statistics.median(rates))
"""


# The play loop is callgrind_random_play.play, beside this file: the bench's random rounds.
HERE = os.path.dirname(os.path.abspath(__file__))


def rate(src: str, rules: str, rounds: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, os.path.abspath(src), rules, str(rounds), HERE],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the first tree's src folder (the one holding sobedesce/)")
    parser.add_argument("new", help="the second tree's src folder")
    parser.add_argument("--runs", type=int, default=6, help="runs of each tree, alternating (default 6)")
    parser.add_argument("--rounds", type=int, default=20000, help="rounds a slice (default 20000)")
    parser.add_argument("--rules", default="classic", choices=["classic", "table"])
    args = parser.parse_args()
    for src in (args.old, args.new):
        if not os.path.isfile(os.path.join(src, "sobedesce", "core", "game.py")):
            parser.error(f"{src} holds no sobedesce/core/game.py: name a tree's src folder")
    if args.runs < 1 or args.rounds < 10:
        parser.error("--runs must be at least 1 and --rounds at least 10")
    rates: dict[str, list[float]] = {args.old: [], args.new: []}
    for _ in range(args.runs):
        for src in (args.old, args.new):
            rates[src].append(rate(src, args.rules, args.rounds))
    old, new = (statistics.median(rates[src]) for src in (args.old, args.new))
    for src, median in ((args.old, old), (args.new, new)):
        spread = f"{min(rates[src]):,.0f}-{max(rates[src]):,.0f}"
        print(f"{src}: {median:,.0f} rounds/s (median of {args.runs} runs, {spread})")
    print(f"ratio: {new / old:.3f} ({args.rules} rules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
