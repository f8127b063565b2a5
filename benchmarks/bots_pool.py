"""One bot against a pool of different opponents at one table, pair by pair.

    .venv/bin/python benchmarks/bots_pool.py --bots expert,basic:sit_margin=-0.5,basic:sit_margin=0.5,basic \\
        --rules table --deals 200 --seed 51

Runs one duplicate arena (``sobedesce.arena.run_arena``, levels at their sample budgets, so
reproducible by seed) with four *different* entries and reports, for the first entry against
each other one, the per-deal paired difference of their changes per round (each deal averaged
over its four rotations; negative: the first entry did better) with a 95% t interval over
deals, and every entry's share of match wins.  One table of four different bots measures the
first against three opponents at the price of one arena; the opponents also meet each other,
which a table of three copies of one opponent does not show.
"""

from __future__ import annotations

import argparse
import json

from sobedesce.arena import mean_ci, run_arena


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", required=True, help="four different bot names, the hero first")
    parser.add_argument("--rules", default="table")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--block", type=int, default=50)
    args = parser.parse_args()
    bots = args.bots.split(",")
    result = run_arena(bots, args.rules, args.deals, args.seed, args.jobs, block=args.block)
    summary = result.summary()
    hero = result.per_deal(0)
    pairs = []
    for entry in range(1, 4):
        other = result.per_deal(entry)
        mean, low, high = mean_ci([a - b for a, b in zip(hero, other, strict=True)])
        pairs.append({"opponent": bots[entry], "hero_minus_opponent": mean, "ci95": [low, high]})
    out = {
        "bots": bots,
        "rules": args.rules,
        "deals": args.deals,
        "seed": args.seed,
        "pairs": pairs,
        "match_win_rate": [row["match_win_rate"] for row in summary["bots"]],
        "matches": summary["matches"],
        "delta_vs_others": [row["delta_vs_others"] for row in summary["bots"]],
        "decision_ms_median": [row["decision_ms_median"] for row in summary["bots"]],
        "decision_ms_p99": [row["decision_ms_p99"] for row in summary["bots"]],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
