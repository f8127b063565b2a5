"""Would the exact posterior lead better?  The round's first lead, three ways (docs/bots.md, "Ninth round").

    .venv/bin/python benchmarks/first_lead_posterior.py --rules table --decisions 250 --seed 915
    .venv/bin/python benchmarks/first_lead_posterior.py --against strong:first_lead_decks=false

Rounds of four ``basic`` bots are dealt (start scores 20; the seat measured goes round the table
independently of the dealer, as in ``bots_regret.py``).  At the seat's lead of the round's first
trick (when it has a choice), every legal card is valued with the real hands, exactly, everyone
playing the basic policies afterwards (the objective with rivalry 1), and the regret against
the best card is taken of three choices:

- ``--against``'s card (default ``basic``);
- ``--bot``'s card (default ``strong``: since the ninth round, whole decks weighed by the trump
  choice and every seat's exchange decision, softly; ``strong:first_lead_decks=false`` draws
  the current hands and weighs them by rules of thumb instead);
- the card of the same one-step search on the *exact* posterior against ``basic`` players: whole
  decks are drawn (the seat's own cards, its draws and a turned card where they were dealt),
  the round is replayed with ``basic`` in every other seat, and a deck is kept only if every
  public action comes out the same (the trump, who sat out, how many cards each exchanged).
  ``basic`` decides by rule, so this rejection sampling draws from exactly the deals the seat
  cannot tell apart from the real one.  ``--worlds`` decks are kept, at most ``--tries``
  drawn; a decision with fewer than 20 kept is left out and counted.

It prints the three mean regrets and the differences between them on the same decisions, with
95% intervals.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from bots_regret import measured_deals, play_values  # the script beside this one

from sobedesce.bots import make_bot
from sobedesce.bots._search import objective
from sobedesce.bots._sim import PlayState
from sobedesce.core import Action, Match, Phase, Round, SeatView, find_rules, seat_view
from sobedesce.core.actions import Exchange
from sobedesce.core.cards import Card
from sobedesce.core.logic import score_changes


def _public(action: Action) -> object:
    """What the other seats see of an action: an exchange's count, anything else whole."""
    return ("exchange", len(action.discard)) if isinstance(action, Exchange) else action


def _own_positions(dealer: int, seat: int, view: SeatView) -> list[int]:
    """The deck positions whose cards ``seat`` knows: its two packets, its draws, a turned card."""
    chooser = (dealer + 1) % 4
    j = (seat - chooser) % 4
    known = {3 * j, 3 * j + 1, 3 * j + 2, 12 + 2 * j, 13 + 2 * j}
    drawn = 0
    for s in view.exchange_order:
        if s == seat:
            break
        if view.active[s]:
            drawn += view.discard_counts[s] or 0
    known.update(range(20 + drawn, 20 + drawn + (view.discard_counts[seat] or 0)))
    if view.turned_card is not None:
        known.add(12)
    return sorted(known)


def _exact_worlds(
    rnd: Round, view: SeatView, actions: list[Action], want: int, tries: int, rng: random.Random
) -> list[PlayState]:
    basic = make_bot("basic")
    deck = rnd.deck
    assert deck is not None
    seat = view.seat
    free = [i for i in range(40) if i not in _own_positions(rnd.dealer, seat, view)]
    cards: list[Card] = [deck[i] for i in free]
    worlds: list[PlayState] = []
    for _ in range(tries):
        if len(worlds) >= want:
            break
        rng.shuffle(cards)
        candidate = list(deck)
        for i, card in zip(free, cards, strict=True):
            candidate[i] = card
        match = Match(rnd.rules, scores=(20, 20, 20, 20))
        match.deal(deck=candidate, dealer=rnd.dealer)
        for action in actions:
            if match.current_seat == seat:
                match.apply(action)
                continue
            theirs = basic.act(seat_view(match, match.current_seat), rng)
            if _public(theirs) != _public(action):
                break
            match.apply(theirs)
        else:
            worlds.append(PlayState.from_round(match.round))
    return worlds


def _interval(diff: list[float]) -> str:
    half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else math.inf
    return f"{statistics.mean(diff):+.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=100, help="decks kept per decision (default 100)")
    parser.add_argument("--tries", type=int, default=8000, help="decks drawn at most per decision (default 8000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="strong", help="the bot measured (default strong)")
    parser.add_argument("--against", default="basic", help="the bot it is compared with (default basic)")
    args = parser.parse_args()
    rules = find_rules(args.rules)
    basic = make_bot("basic")
    bot = make_bot(args.bot)
    other = make_bot(args.against)
    regrets: list[tuple[float, float, float]] = []
    left_out = 0
    for deal, match, seat in measured_deals(rules, args.seed):
        if len(regrets) >= args.decisions:
            break
        rnd = match.round
        actions: list[Action] = []
        while not rnd.is_over and len(regrets) < args.decisions:
            view = seat_view(match, match.current_seat)
            first_lead = view.phase == Phase.PLAY and not view.played_cards
            if first_lead and view.seat == seat and len(view.legal_actions) > 1:
                truth, best = play_values(rnd, view)
                worlds = _exact_worlds(rnd, view, actions, args.worlds, args.tries, random.Random(deal * 31))
                if len(worlds) < 20:
                    left_out += 1
                else:
                    valued = {}
                    for action in view.legal_actions:
                        total = 0.0
                        for world in worlds:
                            st = world.copy()
                            st.play(action.card)  # type: ignore[attr-defined]
                            changes = score_changes(rules, rnd.trump, rnd.active, st.play_out())
                            total += objective(changes, seat, 1.0)
                        valued[action] = total / len(worlds)
                    exact = min(valued, key=lambda a: valued[a])
                    mine = bot.act(view, random.Random(deal))
                    theirs = other.act(view, random.Random(deal))
                    regrets.append((truth[theirs] - best, truth[mine] - best, truth[exact] - best))
            if first_lead:
                break
            action = basic.act(view, random.Random(deal))
            actions.append(action)
            match.apply(action)
    b, s, e = (list(column) for column in zip(*regrets, strict=True))
    print(f"{args.rules}, first leads, {len(regrets)} decisions ({left_out} left out: fewer than 20 decks kept)")
    print(
        f"  regret against the best card: {args.against} {statistics.mean(b):.3f}, {args.bot} {statistics.mean(s):.3f},"
    )
    print(f"  exact posterior {statistics.mean(e):.3f}")
    print(f"  {args.bot} - {args.against} {_interval([x - y for x, y in zip(s, b, strict=True)])}")
    print(f"  exact - {args.bot} {_interval([x - y for x, y in zip(e, s, strict=True)])}")
    print(f"  exact - {args.against} {_interval([x - y for x, y in zip(e, b, strict=True)])}")


if __name__ == "__main__":
    main()
