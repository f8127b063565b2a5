"""``sobedesce demo``: a complete match between built-in bots, printed round by round."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from sobedesce.core import PRESETS, Match, RulesError, dumps_record, find_rules, risco_text

from .play import save_problem
from .show import describe_round, seat_name


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="watch a whole match between random players",
        description="Play a whole match between four random players and print it round by round: "
        "a quick look at the game and the record (--save) without playing.",
    )
    parser.add_argument(
        "--rules", default="classic", type=str.lower, choices=sorted(PRESETS), help="rule set (default: classic)"
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed, for a reproducible match")
    parser.add_argument("--save", metavar="FILE", help="write the match record to FILE")
    parser.set_defaults(run=run)


def play_random_match(rules: str, rng: random.Random) -> Match:
    match = Match(find_rules(rules), players=["Ana", "Bruno", "Carla", "Duarte"])
    while not match.is_over:
        if match.current_seat is None:
            match.deal(rng=rng)
        else:
            match.apply(rng.choice(match.legal_actions()))
    return match


def run(args: argparse.Namespace) -> int:
    try:
        find_rules(args.rules)
    except RulesError as error:
        raise SystemExit(f"sobedesce demo: {error}") from None
    if args.seed is not None and args.seed < 0:
        # random.Random(-n) is random.Random(n): --seed -1 replayed the match of --seed 1.
        print(f"sobedesce demo: --seed must be 0 or more, not {args.seed}", file=sys.stderr)
        return 2
    if args.save == "-":
        # Standard output carries the match as it is played, so the record cannot go there too;
        # before, a file named "-" was written ("Record saved to -").
        print(
            "sobedesce demo: --save - is refused: standard output carries the match, name the record's file",
            file=sys.stderr,
        )
        return 2
    if args.save is not None:
        # A path that cannot be written is refused before the match is played, not after;
        # an existing file (a saved match, or anything else) is never overwritten.
        problem = save_problem(args.save)
        if problem is not None:
            print(f"sobedesce demo: {problem}", file=sys.stderr)
            return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    match = play_random_match(args.rules, random.Random(seed))
    rules = match.rules
    print(f"A {rules.name} match between four random players (seed {seed})")
    print(
        f"Scores start at {rules.start_score}; a trick won takes a point off, no trick adds "
        f"{rules.no_trick_penalty}; first to {rules.target_score} wins."
    )
    if rules.doubled_suit is not None:
        # Else a round of Clubs shows "0 tricks +10" against "no trick adds 5", unexplained.
        times = {2: "double", 3: "triple"}.get(rules.doubled_multiplier, f"x{rules.doubled_multiplier}")
        print(f"When {rules.doubled_suit.title} are trumps, every change counts {times}.")
    print()
    for number, current in enumerate(match.rounds, start=1):
        print("\n".join(describe_round(match, number, current)))
    riscos = match.riscos() or []
    winners = ", ".join(seat_name(match, s) for s in match.winners)
    print(
        f"\nThe match is over after {len(match.rounds)} rounds. Winner{'s' if len(match.winners) > 1 else ''}: {winners}"
    )
    print("Final scores: " + ", ".join(f"{seat_name(match, s)} {match.scores[s]}" for s in range(4)))
    print("Riscos: " + ", ".join(f"{seat_name(match, s)} {risco_text(riscos[s])}" for s in range(4)))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as stream:
            stream.write(dumps_record(match) + "\n")
        print(f"Record saved to {args.save}")
    return 0
