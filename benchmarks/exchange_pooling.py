"""Why the strong bot resamples a decision's candidate deals all at once (docs/bots.md, "Eighth round").

    .venv/bin/python benchmarks/exchange_pooling.py --rules table --decisions 30

At exchange decisions of the third and fourth seats to decide, in rounds of four ``basic``
bots, the expected number of trumps left in the stock (what the seat will draw from) is
estimated from the sampler's worlds three ways:

- one large draw: ``sample_exchange_worlds`` for 2,000 worlds (16,000 candidates resampled
  at once), the reference;
- pooled, weighted: 167 draws of 3 worlds (24 candidates each), every world with the weight
  the sampler gives it (its draw's mean candidate weight);
- pooled, weight 1: the same 167 draws, every world counting alike, as the clock's batches
  did from the fifth round to the eighth.

It prints each pooled estimate's mean difference from the large draw (its bias) and mean
absolute difference.
"""

from __future__ import annotations

import argparse
import random
import statistics

from sobedesce.bots import make_bot
from sobedesce.bots._search import sample_exchange_worlds
from sobedesce.core import Match, Phase, SeatView, seat_view
from sobedesce.core.cards import SUIT_MASKS


def trumps_in_stock(world) -> int:
    mask = 0
    for card in world.stock:
        mask |= 1 << card
    return (mask & SUIT_MASKS[world.trump]).bit_count()


def estimate(view: SeatView, rng: random.Random, total: int, size: int, weighted: bool) -> float:
    acc = weight = 0.0
    done = 0
    while done < total:
        for w, world in sample_exchange_worlds(view, rng, size):
            w = w if weighted else 1.0
            acc += w * trumps_in_stock(world)
            weight += w
        done += size
    return acc / weight


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="table")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.decisions < 1:
        parser.error("--decisions must be at least 1")
    basic = make_bot("basic")
    rng = random.Random(args.seed)
    rows: list[tuple[float, float, float]] = []
    deal = 0
    while len(rows) < args.decisions:
        deal += 1
        match = Match(args.rules)
        match.deal(rng=random.Random(args.seed * 100003 + deal), dealer=deal % 4)
        while match.phase in (Phase.TRUMP, Phase.EXCHANGE) and len(rows) < args.decisions:
            seat = match.current_seat
            assert seat is not None
            view = seat_view(match, seat)
            if match.phase == Phase.EXCHANGE and view.exchange_order.index(seat) >= 2:
                large = estimate(view, random.Random(deal), 2000, 2000, True)
                weighted = estimate(view, random.Random(deal + 1), 501, 3, True)
                alike = estimate(view, random.Random(deal + 1), 501, 3, False)
                rows.append((large, weighted, alike))
            match.apply(basic.act(view, rng))
    print(f"{args.rules}, {len(rows)} exchange decisions (third and fourth seats), trumps left in the stock:")
    print(f"  one large draw: {statistics.fmean(r[0] for r in rows):.3f} on average")
    for name, i in (("pooled, weighted", 1), ("pooled, weight 1", 2)):
        diffs = [r[i] - r[0] for r in rows]
        mean_abs = statistics.fmean(abs(d) for d in diffs)
        print(f"  {name:17} bias {statistics.fmean(diffs):+.3f}, mean |difference| {mean_abs:.3f}")


if __name__ == "__main__":
    main()
