"""Paired A/B test of two bots (or two settings of one) against three ``basic`` bots, or others.

    .venv/bin/python benchmarks/bots_ab.py strong strong --b '{"play_samples": 100}' --rules table --deals 300

``--others`` seats three other bots instead (names with settings, as the arena takes them), in
the seats after the hero's, in that order, so that a change can be measured, paired, at a table
like the pool's (``benchmarks/bots_pool.py``) rather than against ``basic`` alone:

    .venv/bin/python benchmarks/bots_ab.py strong strong --b '{"play_decks": false}' \\
        --others strong:wide_exchange=false,basic:trump_bias=0.3,basic --rules table --deals 300

Every deal is played with the hero in each seat in turn, once as A and once as B, with the
same deck, start scores (drawn from 2..20), dealer and random generators.  Where A and B make
the same decisions the two rounds are identical, so the paired difference has far less noise
than two separate runs.  It prints each hero's change per round minus the others' mean, the
paired difference B - A with a 95% interval over deals (negative: B is better) and how many
rounds differed, and the same for the hero's own change alone (what it takes from the others
shows in the first, not in this); then the same for the hero's chance of winning the match
(the match-equity model of ``bots/_equity.py``, in points of percent per round; positive is
better), a lower-noise stand-in for match wins.  One process per core.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from typing import NamedTuple

from bots_duel import play_round  # the same round, timed for the hero; this script's folder is on sys.path

from sobedesce.bots import make_bot
from sobedesce.bots._equity import equity_for
from sobedesce.core import find_rules

_STATE: dict = {}


class Run(NamedTuple):
    """One hero's round in one seat."""

    vs_others: float  # its change minus the others' mean
    times: list[float]
    win_gain: float  # its match-win chance after the round minus before, points of %
    own: float  # its change


def _init(a, a_settings, b, b_settings, rules, others, more):
    # Levels at their sample budgets (``timed=False``), so that a run is reproducible by seed.
    heroes = [make_bot(a, timed=False, **a_settings), make_bot(b, timed=False, **b_settings)]
    _STATE["heroes"] = [*heroes, *(make_bot(name, timed=False) for name in more)]
    _STATE["others"] = [make_bot(name, timed=False) for name in others]
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
        runs = []
        for hero in _STATE["heroes"]:
            bots = [_STATE["others"][(o - seat - 1) % 4] if o != seat else hero for o in range(4)]
            times: list[float] = []
            deltas = play_round(bots, _STATE["rules"], deck_seed, dealer, i, scores, times, hero_seat=seat)
            after = tuple(scores[o] + deltas[o] for o in range(4))
            gain = 100.0 * (_STATE["equity"].win(after, seat) - _STATE["equity"].win(scores, seat))
            others_mean = sum(deltas[o] for o in range(4) if o != seat) / 3
            runs.append(Run(deltas[seat] - others_mean, times, gain, deltas[seat]))
        out.append(runs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--a", dest="a_settings", default="{}", help="settings of A (JSON)")
    parser.add_argument("--b", dest="b_settings", default="{}", help="settings of B (JSON)")
    parser.add_argument("--others", default="basic,basic,basic", help="the three other seats' bots, after the hero's")
    parser.add_argument(
        "--more",
        default="",
        help="more heroes, each measured against A as B is (names with settings, as the arena takes them)",
    )
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    others = args.others.split(",")
    if len(others) != 3:
        parser.error(f"--others takes three bot names, not {len(others)}: {args.others!r}")
    more = [name for name in args.more.split(",") if name]
    try:
        settings = [json.loads(text) for text in (args.a_settings, args.b_settings)]
    except ValueError as error:
        parser.error(f"--a and --b take settings as a JSON object: {error}")
    if not all(isinstance(one, dict) for one in settings):
        parser.error(f"--a and --b take settings as a JSON object, like '{{\"play_samples\": 100}}', not {settings}")
    try:
        init = (args.a, settings[0], args.b, settings[1], args.rules, others, more)
        _init(*init)  # every bot built once here, so that a bad name or setting stops the run at once
    except (ValueError, TypeError) as error:
        parser.error(str(error))
    started = time.time()
    with multiprocessing.Pool(args.jobs, _init, init) as pool:
        results = pool.map(_deal, [(i, args.seed) for i in range(args.deals)], chunksize=4)
    names = [f"{args.a} {args.a_settings}", f"{args.b} {args.b_settings}", *more]
    labels = [chr(ord("A") + j) for j in range(len(names))]
    heroes = range(len(names))

    def per_deal(field: str) -> list[list[float]]:
        """Per hero, the deal's mean of ``field`` over the four seats."""
        return [[statistics.mean(getattr(runs[j], field) for runs in deal) for deal in results] for j in heroes]

    per, own, wins = per_deal("vs_others"), per_deal("own"), per_deal("win_gain")
    times = [sorted(t for deal in results for runs in deal for t in runs[j].times) for j in heroes]
    n = len(results)

    def ci(xs):
        return 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))

    def minus_a(series: list[list[float]], j: int) -> list[float]:
        """Hero ``j``'s figures minus A's, deal by deal."""
        return [x - y for x, y in zip(series[j], series[0], strict=True)]

    def t(xs):
        if not xs:
            return "no decision timed"
        return f"median {xs[len(xs) // 2] * 1000:.1f} ms, p99 {xs[int(len(xs) * 0.99)] * 1000:.0f} ms"

    against = "3 basic" if others == ["basic"] * 3 else ", ".join(others)
    print(f"{args.rules}, {n} deals x 4 seats vs {against} ({time.time() - started:.0f} s)")
    for label, name, xs, ys, ts in zip(labels, names, per, own, times, strict=True):
        print(
            f"  {label} {name}: {statistics.mean(xs):+.3f} ± {ci(xs):.3f} per round"
            f" (its own change {statistics.mean(ys):+.3f}); {t(ts)}"
        )
    for j in range(1, len(names)):
        diff, mine = minus_a(per, j), minus_a(own, j)
        changed = sum(1 for deal in results for runs in deal if runs[j].vs_others != runs[0].vs_others)
        print(
            f"  {labels[j]} - A: {statistics.mean(diff):+.3f} ± {ci(diff):.3f} ({changed} of {4 * n} rounds differ);"
            f" its own change {statistics.mean(mine):+.3f} ± {ci(mine):.3f}"
        )
    print("  match-win chance per round (equity model, points of %):")
    for j in range(1, len(names)):
        diff = minus_a(wins, j)
        print(
            f"    A {statistics.mean(wins[0]):+.3f}, {labels[j]} {statistics.mean(wins[j]):+.3f},"
            f" {labels[j]} - A {statistics.mean(diff):+.3f} ± {ci(diff):.3f}"
        )


if __name__ == "__main__":
    main()
