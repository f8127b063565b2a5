"""How well the match-equity model's win chances match the matches an arena played.

    .venv/bin/sobedesce arena --bots strong,basic,basic,basic --rules table --deals 800 --save runs/t
    .venv/bin/python benchmarks/equity_calibration.py runs/t

Reads the records an arena wrote with ``--save``; for every finished match, every round and
every seat, takes the chance of winning the match that ``bots/_equity.py`` gives from the
scores at the start of the round, and groups them by tenths: the mean prediction and how
often those seats did win (alone or shared).  A calibrated model has the two close in every
row, which is what makes ``bots_ab.py``'s match-win chance a fair stand-in for match wins.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sobedesce.bots._equity import equity_for
from sobedesce.core import read_record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("records", type=Path, help="the directory given to arena --save")
    args = parser.parse_args()
    files = sorted(args.records.glob("*.json"))
    if not files:
        parser.error(f"no records in {args.records}")
    rows = [[0, 0.0, 0] for _ in range(10)]  # count, sum of predictions, wins
    for path in files:
        match = read_record(path.read_text())
        if not match.is_over:
            continue
        equity = equity_for(match.rules)
        winners = {s for s in range(4) if match.scores[s] <= match.rules.target_score}
        scores = list(match.initial_scores)
        for rnd in match.rounds:
            for seat in range(4):
                p = equity.win(scores, seat)
                row = rows[min(int(p * 10), 9)]
                row[0] += 1
                row[1] += p
                row[2] += seat in winners
            scores = [s + d for s, d in zip(scores, rnd.deltas, strict=True)]
    print("predicted      seats   mean prediction   won")
    for tenth, (count, total, wins) in enumerate(rows):
        if count:
            print(f"{tenth / 10:.1f} to {(tenth + 1) / 10:.1f}  {count:7}   {total / count:15.3f}   {wins / count:.3f}")


if __name__ == "__main__":
    main()
