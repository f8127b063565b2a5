"""Paired A/B test of two bots (or two settings of one) against three ``basic`` bots.

    .venv/bin/python benchmarks/bots_ab.py strong strong --b '{"play_samples": 100}' --rules table --deals 300

Every deal is played with the hero in each seat in turn, once as A and once as B, with the
same deck, start scores (drawn from 2..20), dealer and random generators.  Where A and B make
the same decisions the two rounds are identical, so the paired difference has far less noise
than two separate runs.  It prints each hero's change per round minus the basics' mean, the
paired difference B - A with a 95% interval over deals (negative: B is better) and how many
rounds differed; then the same for the hero's chance of winning the match (the match-equity
model of ``bots/_equity.py``, in points of percent per round; positive is better), a
lower-noise stand-in for match wins.  One process per core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time

from bots_duel import play_round  # the same round, timed for the hero; this script's folder is on sys.path

from sobedesce.bots import make_bot
from sobedesce.bots._equity import equity_for
from sobedesce.core import find_rules

_STATE: dict = {}


def _init(a, a_settings, b, b_settings, rules):
    _STATE["a"] = make_bot(a, **a_settings)
    _STATE["b"] = make_bot(b, **b_settings)
    _STATE["villain"] = make_bot("basic")
    _STATE["rules"] = find_rules(rules)
    _STATE["equity"] = equity_for(_STATE["rules"])


def _deal(args):
    i, seed = args
    deck_seed = seed * 100003 + i
    pick = random.Random(deck_seed)
    scores = tuple(pick.randint(2, 20) for _ in range(4))
    dealer = pick.randrange(4)
    out = []
    for seat in range(4):
        pair = []
        for key in ("a", "b"):
            bots = [_STATE["villain"]] * 4
            bots[seat] = _STATE[key]
            times: list[float] = []
            deltas = play_round(bots, _STATE["rules"], deck_seed, dealer, i, scores, times, bots[seat].name)
            equity = _STATE["equity"]
            after = tuple(scores[o] + deltas[o] for o in range(4))
            gain = 100.0 * (equity.win(after, seat) - equity.win(scores, seat))
            pair.append((deltas[seat] - sum(deltas[o] for o in range(4) if o != seat) / 3, times, gain))
        out.append(pair)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--a", dest="a_settings", default="{}", help="settings of A (JSON)")
    parser.add_argument("--b", dest="b_settings", default="{}", help="settings of B (JSON)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    started = time.time()
    init = (args.a, json.loads(args.a_settings), args.b, json.loads(args.b_settings), args.rules)
    with multiprocessing.Pool(args.jobs, _init, init) as pool:
        results = pool.map(_deal, [(i, args.seed) for i in range(args.deals)], chunksize=4)
    per_a, per_b, per_diff = [], [], []
    win_a, win_b, win_diff = [], [], []
    changed = 0
    times = {"a": [], "b": []}
    for deal in results:
        da = [p[0][0] for p in deal]
        db = [p[1][0] for p in deal]
        changed += sum(1 for x, y in zip(da, db, strict=True) if x != y)
        per_a.append(statistics.mean(da))
        per_b.append(statistics.mean(db))
        per_diff.append(statistics.mean(db) - statistics.mean(da))
        wa = statistics.mean(p[0][2] for p in deal)
        wb = statistics.mean(p[1][2] for p in deal)
        win_a.append(wa)
        win_b.append(wb)
        win_diff.append(wb - wa)
        for p in deal:
            times["a"].extend(p[0][1])
            times["b"].extend(p[1][1])
    n = len(per_diff)

    def ci(xs):
        return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))

    def t(key):
        xs = sorted(times[key])
        return f"median {xs[len(xs) // 2] * 1000:.1f} ms, p99 {xs[int(len(xs) * 0.99)] * 1000:.0f} ms"

    print(f"{args.rules}, {n} deals x 4 seats vs 3 basic ({time.time() - started:.0f} s)")
    print(f"  A {args.a} {args.a_settings}: {statistics.mean(per_a):+.3f} ± {ci(per_a):.3f} per round; {t('a')}")
    print(f"  B {args.b} {args.b_settings}: {statistics.mean(per_b):+.3f} ± {ci(per_b):.3f} per round; {t('b')}")
    print(f"  B - A: {statistics.mean(per_diff):+.3f} ± {ci(per_diff):.3f} ({changed} of {4 * n} rounds differ)")
    print(
        f"  match-win chance per round (equity model, points of %): A {statistics.mean(win_a):+.3f},"
        f" B {statistics.mean(win_b):+.3f}, B - A {statistics.mean(win_diff):+.3f} ± {ci(win_diff):.3f}"
    )


if __name__ == "__main__":
    main()
