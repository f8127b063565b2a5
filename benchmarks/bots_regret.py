"""How far a bot's decisions are from those of a player who also saw the other hands.

    .venv/bin/python benchmarks/bots_regret.py exchange --rules table --decisions 300
    .venv/bin/python benchmarks/bots_regret.py play --rules table --bot 'strong:play_samples=200'
    .venv/bin/python benchmarks/bots_regret.py play --rules table --against strong:play_evidence=false

Rounds of four ``basic`` bots are dealt (start scores 20).  The seat measured goes round the
table independently of the dealer, so every place is measured, from the chooser, who decides
first and knows least, to the dealer, who decides last.  At its decisions of the chosen phase
(with at least two legal actions) every legal action is valued with the other seats' real
hands, everyone playing the basic policies afterwards, by the objective the search uses (own
change minus the others' mean, `objective` with rivalry 1):

- ``play``: one play-out from the real position (exact: nothing is left to chance);
- ``exchange``: the mean over ``--stocks`` shuffles of the remaining stock (the order of the
  stock is not known to anybody).  The "hands oracle" picks its option on one half of the
  shuffles and every option is scored on the other half, so its own noise does not flatter it.

It prints the mean regret of the bot and of ``--against`` (default ``basic``) against the best
action (play) or the hands oracle's (exchange), their difference on the same decisions with a
95% interval, and how often the two agree; then the same split by place (exchange: the seat's
place in the exchange order, 1 for the chooser; play: leading or following).  Since both
halves value the rest of the round with the same play-outs, the hands oracle's margin is what
knowing the other hands (and so the stock's contents) is worth.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator

from sobedesce.bots import make_bot
from sobedesce.bots._eval import ExState
from sobedesce.bots._search import objective
from sobedesce.bots._sim import PlayState
from sobedesce.core import Match, Phase, find_rules, seat_view
from sobedesce.core.actions import KIND_SIT_OUT
from sobedesce.core.logic import score_changes
from sobedesce.core.rules import Rules


def play_values(rnd, view):
    base = PlayState.from_round(rnd)
    values = {}
    for action in view.legal_actions:
        st = base.copy()
        st.play(action.card)
        values[action] = objective(score_changes(rnd.rules, rnd.trump, rnd.active, st.play_out()), view.seat, 1.0)
    return values, min(values.values())


def _exchange_values(rnd, view, stocks, rng):
    stock = [int(c) for c in rnd.stock]  # the cards still in the stock
    orders = []
    for _ in range(stocks):
        rng.shuffle(stock)
        orders.append(stock[:])

    def mean_values(some):
        out = {}
        for action in view.legal_actions:
            total = 0.0
            for order in some:
                ex = ExState.from_round(rnd, order[:])
                ex.apply(None if action.kind == KIND_SIT_OUT else action.mask)
                total += objective(ex.finish(view.seat), view.seat, 1.0)
            out[action] = total / len(some)
        return out

    half = stocks // 2
    pick = mean_values(orders[:half])
    values = mean_values(orders[half:])
    return values, values[min(pick, key=pick.get)]


def measured_deals(rules: Rules, seed: int) -> Iterator[tuple[int, Match, int]]:
    """Deals numbered 1, 2, ... (start scores 20, dealer ``deal % 4``), each with the seat
    measured: it turns once every four deals, so that over sixteen deals it holds every place
    relative to the dealer."""
    deal = 0
    while True:
        deal += 1
        match = Match(rules, scores=(20, 20, 20, 20))
        match.deal(rng=random.Random(seed * 1_000_003 + deal), dealer=deal % 4)
        yield deal, match, (deal // 4) % 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("phase", choices=["play", "exchange"])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bot", default="strong", help="the bot measured (default strong)")
    parser.add_argument("--against", default="basic", help="the bot it is compared with (default basic)")
    parser.add_argument("--decisions", type=int, default=300)
    parser.add_argument("--stocks", type=int, default=200, help="stock shuffles per exchange decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rules = find_rules(args.rules)
    basic = make_bot("basic")  # plays every seat; its policy is what the values assume
    bot = make_bot(args.bot)
    other = make_bot(args.against)
    phase = Phase.PLAY if args.phase == "play" else Phase.EXCHANGE
    regret_other: list[float] = []
    regret_bot: list[float] = []
    same: list[bool] = []
    where: list[str] = []
    for deal, match, hero in measured_deals(rules, args.seed):
        if len(regret_bot) >= args.decisions:
            break
        rnd = match.round
        rng = random.Random(deal)
        while not rnd.is_over and len(regret_bot) < args.decisions:
            view = seat_view(match, match.current_seat)
            if view.phase == phase and view.seat == hero and len(view.legal_actions) > 1:
                if phase == Phase.PLAY:
                    values, best = play_values(rnd, view)
                else:
                    values, best = _exchange_values(rnd, view, args.stocks, random.Random(deal * 7))
                mine = bot.act(view, random.Random(deal))
                theirs = other.act(view, random.Random(deal))
                regret_bot.append(values[mine] - best)
                regret_other.append(values[theirs] - best)
                same.append(mine == theirs)
                if phase == Phase.PLAY:
                    trick = view.current_trick
                    where.append("following" if trick is not None and trick.cards else "leading")
                else:
                    where.append(f"place {view.exchange_order.index(hero) + 1} in the exchange order")
            match.apply(basic.act(view, rng))
    against = "the best card" if phase == Phase.PLAY else "the hands oracle"
    print(f"{args.rules}, {args.phase}, {len(regret_bot)} decisions; regret against {against}:")
    _report(args.bot, args.against, regret_bot, regret_other, same, "  ")
    groups: dict[str, list[int]] = defaultdict(list)
    for i, place in enumerate(where):
        groups[place].append(i)
    for place in sorted(groups):
        some = groups[place]
        print(f"  {place}, {len(some)} decisions:")
        pick = [regret_bot[i] for i in some], [regret_other[i] for i in some], [same[i] for i in some]
        _report(args.bot, args.against, *pick, "    ")


def _report(
    bot: str, other: str, regret_bot: list[float], regret_other: list[float], same: list[bool], indent: str
) -> None:
    diff = [a - b for a, b in zip(regret_bot, regret_other, strict=True)]
    half_width = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
    print(f"{indent}{other} {statistics.mean(regret_other):.3f}, {bot} {statistics.mean(regret_bot):.3f}")
    print(
        f"{indent}{bot} - {other} {statistics.mean(diff):+.3f} ± {half_width:.3f}; same action {sum(same) / len(same):.0%}"
    )


if __name__ == "__main__":
    main()
