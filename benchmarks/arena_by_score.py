"""One bot's change per round against the others', split by how close the match is to its end.

    .venv/bin/sobedesce arena --bots strong,basic,basic,basic --rules table --deals 800 --save runs/t
    .venv/bin/python benchmarks/arena_by_score.py runs/t strong

Reads the records an arena wrote with ``--save`` and, for every round in which exactly one
seat's player name starts with the given bot name, takes that seat's change minus the
others' mean, grouped by the lowest score at the start of the round (above 8, 5 to 8, 4 or
below).  It shows where a bot gains and where it trades points for the match.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

from sobedesce.core import read_record

BUCKETS = (("lowest score above 8", 9), ("lowest score 5 to 8", 5), ("lowest score 4 or below", -(10**9)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", type=Path, help="the directory given to arena --save")
    parser.add_argument("bot", help="the bot's name as the records give it (a prefix is enough)")
    args = parser.parse_args()
    groups: dict[str, list[float]] = {name: [] for name, _ in BUCKETS}
    files = sorted(args.records.glob("*.json"))
    if not files:
        parser.error(f"no records in {args.records}")
    for path in files:
        text = path.read_text()
        players = json.loads(text).get("players") or []
        seats = [i for i, name in enumerate(players) if name.startswith(args.bot)]
        if len(seats) != 1:
            continue
        hero = seats[0]
        match = read_record(text)
        scores = list(match.initial_scores)
        for rnd in match.rounds:
            deltas = rnd.deltas
            low = min(scores)
            name = next(name for name, floor in BUCKETS if low >= floor)
            groups[name].append(deltas[hero] - (sum(deltas) - deltas[hero]) / 3)
            scores = [s + d for s, d in zip(scores, deltas, strict=True)]
    for name, values in groups.items():
        if len(values) > 1:
            half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
            print(f"{name:26} {len(values):6} rounds  {statistics.mean(values):+.3f} ± {half:.3f}")
    every = [v for values in groups.values() for v in values]
    if every:
        print(f"{'all rounds':26} {len(every):6} rounds  {statistics.mean(every):+.3f}")


if __name__ == "__main__":
    main()
