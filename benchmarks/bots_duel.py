"""One bot against three copies of another, seat-rotated over the same deals.

    .venv/bin/python benchmarks/bots_duel.py strong basic --rules classic --deals 200
    .venv/bin/python benchmarks/bots_duel.py basic random --rules table --deals 100 --hero-settings '{}'

Every deal is played four times, the hero in each seat in turn, from single rounds with
start scores drawn from 6..20 (so the ``classic`` must-play-at-5 rule rarely binds).  It
prints the hero's mean score change per round minus the others' mean, with a 95% interval
over deals, and the hero's decision times (median, p99, max).  The arena measures the real
thing with full matches; this is the quick loop used while tuning the bots.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from sobedesce.bots import OracleSeat, make_bot
from sobedesce.core import Match, seat_view


def play_round(bots, rules, deck_seed, dealer, rng_seed, scores, times, hero_name=None, hero_seat=None):
    """One round; ``times`` gets the decision times of the hero: the seat ``hero_seat``, or the
    one bot named ``hero_name`` when it is alone of its kind at the table."""
    match = Match(rules, scores=scores)
    match.deal(rng=random.Random(deck_seed), dealer=dealer)
    rngs = [random.Random(rng_seed * 10 + s) for s in range(4)]
    rnd = match.round
    while not rnd.is_over:
        seat = match.current_seat
        bot = bots[seat]
        start = time.perf_counter()
        if isinstance(bot, OracleSeat):
            action = bot.act_full(match, seat, rngs[seat])
        else:
            action = bot.act(seat_view(match, seat), rngs[seat])
        if seat == hero_seat or (hero_seat is None and bot.name == hero_name and bots.count(bot) == 1):
            times.append(time.perf_counter() - start)
        match.apply(action)
    return rnd.deltas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hero")
    parser.add_argument("villain")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hero-settings", default="{}")
    args = parser.parse_args()
    hero = OracleSeat() if args.hero == "oracle" else make_bot(args.hero, **json.loads(args.hero_settings))
    villain = make_bot(args.villain)
    times: list[float] = []
    per_deal = []
    own = []
    started = time.time()
    for i in range(args.deals):
        deck_seed = args.seed * 100003 + i
        pick = random.Random(deck_seed)
        scores = tuple(pick.randint(6, 20) for _ in range(4))
        dealer = pick.randrange(4)
        diffs = []
        for seat in range(4):
            bots = [villain] * 4
            bots[seat] = hero
            deltas = play_round(bots, args.rules, deck_seed, dealer, i, scores, times, hero.name)
            others = [deltas[s] for s in range(4) if s != seat]
            diffs.append(deltas[seat] - sum(others) / 3)
            own.append(deltas[seat])
        per_deal.append(statistics.mean(diffs))
    mean = statistics.mean(per_deal)
    ci = 1.96 * statistics.pstdev(per_deal) / math.sqrt(len(per_deal))
    times.sort()
    print(
        f"{args.hero} vs 3 {args.villain}, {args.rules}, {args.deals} deals x 4 seats: "
        f"hero - others {mean:+.3f} ± {ci:.3f} per round (hero's own {statistics.mean(own):+.3f}); "
        f"decision time median {times[len(times) // 2] * 1000:.1f} ms, "
        f"p99 {times[int(len(times) * 0.99)] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; "
        f"{time.time() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
