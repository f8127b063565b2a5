"""Decision times of a bot, by the clock or at its sample budget (docs/bots.md, "A real clock").

Plays rounds of ``--bot`` in seat 0 against three ``basic`` bots (deals and start scores from
``--seed``) and times every decision of seat 0 that has a choice (more than one legal
action), with ``time.perf_counter`` around ``act``: the search's last batch and everything
around it included.  ``--fixed`` makes the bot with ``timed=False`` (sample budget only);
otherwise a level keeps its deadline.

    python benchmarks/bots_clock.py --bot expert --rounds 60 --seed 5
    python benchmarks/bots_clock.py --bot expert --rounds 60 --seed 5 --fixed

Run it once on a quiet machine and once with two arenas running beside it
(``while true; do sobedesce arena --quick --bots strong,basic,basic,basic; done``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from sobedesce.bots import make_bot
from sobedesce.core import Match, Phase, seat_view


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--rules", default="table")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fixed", action="store_true", help="sample budget only (timed=False)")
    args = parser.parse_args()
    hero = make_bot(args.bot, timed=not args.fixed)
    basic = make_bot("basic")
    times: dict[str, list[float]] = {"trump": [], "exchange": [], "play": []}
    master = random.Random(args.seed)
    began = time.time()
    for number in range(args.rounds):
        match = Match(args.rules, scores=tuple(master.randint(6, 20) for _ in range(4)))
        match.deal(rng=random.Random(master.random()), dealer=number % 4)
        rngs = [random.Random(master.random()) for _ in range(4)]
        while match.phase != Phase.DEAL and not match.is_over:
            seat = match.current_seat
            assert seat is not None
            view = seat_view(match, seat)
            if seat == 0 and len(view.legal_actions) > 1:
                start = time.perf_counter()
                action = hero.act(view, rngs[0])
                spent = time.perf_counter() - start
                times[view.phase.name.lower()].append(spent)
            else:
                action = (hero if seat == 0 else basic).act(view, rngs[seat])
            match.apply(action)
    every = [t for kind in times.values() for t in kind]
    out = {
        "bot": args.bot,
        "mode": "fixed budget" if args.fixed else "clock",
        "rules": args.rules,
        "rounds": args.rounds,
        "seed": args.seed,
        "loadavg_1m_end": os.getloadavg()[0],
        "wall_s": round(time.time() - began, 1),
        "decisions": len(every),
        "median_ms": round(1000 * statistics.median(every), 1),
        "p90_ms": round(1000 * quantile(every, 0.90), 1),
        "p99_ms": round(1000 * quantile(every, 0.99), 1),
        "max_ms": round(1000 * max(every), 1),
        "by_phase_p99_ms": {k: round(1000 * quantile(v, 0.99), 1) for k, v in times.items() if v},
        "by_phase_n": {k: len(v) for k, v in times.items()},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
