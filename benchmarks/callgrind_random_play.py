"""Instructions per random round, counted by valgrind's callgrind: exact, and the same on a busy machine.

    .venv/bin/python benchmarks/callgrind_random_play.py [--rules classic|table] [--rounds N] [--seed S]
    .venv/bin/python benchmarks/callgrind_random_play.py --profile out.callgrind  # keep the profile
    .venv/bin/python benchmarks/callgrind_random_play.py --play N   # the workload alone, no valgrind
    PYTHONPATH=/elsewhere/src python benchmarks/callgrind_random_play.py  # another checkout's core

It runs the workload under ``valgrind --tool=callgrind`` twice, with N rounds and with none,
and divides the difference of the two instruction totals by N, so the interpreter's start-up
and the imports cancel out.  The workload is ``sobedesce bench``'s random play through the
public API: rounds of chained matches, each dealt with ``match.deal(rng=rng)``, every
decision ``match.apply(rng.choice(match.legal_actions()))``, one seeded ``random.Random``.
It measures whichever build of ``sobedesce`` the interpreter imports (pure or compiled) and
says which.  Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys


def play(rules: str, rounds: int, seed: int) -> int:
    """Play ``rounds`` random rounds; return the number of decisions."""
    from sobedesce.core import Match

    rng = random.Random(seed)
    choice = rng.choice
    match = Match(rules)
    decisions = 0
    for _ in range(rounds):
        if match.is_over:
            match = Match(rules)
        match.deal(rng=rng)
        legal = match.legal_actions()
        while legal:
            match.apply(choice(legal))
            decisions += 1
            legal = match.legal_actions()
    return decisions


def engine_build() -> str:
    """``pure`` or ``compiled``: the test of ``sobedesce bench``, restated so that this script
    also measures older checkouts of the core, whose ``bench`` does not have it."""
    import importlib.machinery

    from sobedesce.core import game

    path = getattr(game, "__file__", None) or ""
    return "compiled" if path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"


def instructions(rules: str, rounds: int, seed: int, out_file: str = "/dev/null") -> int:
    """Instructions executed by this script playing ``rounds`` rounds, counted by callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--dump-instr=no",
        f"--callgrind-out-file={out_file}",
        sys.executable,
        os.path.abspath(__file__),
        "--rules",
        rules,
        "--seed",
        str(seed),
        "--play",
        str(rounds),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic", choices=["classic", "table"])
    parser.add_argument("--rounds", type=int, default=500, help="rounds measured (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="also keep callgrind's profile of the N rounds in FILE (read it with callgrind_annotate)",
    )
    parser.add_argument("--play", type=int, default=None, metavar="N", help="only play N rounds (what valgrind runs)")
    args = parser.parse_args()
    if args.play is not None:
        play(args.rules, args.play, args.seed)
        return 0
    decisions = play(args.rules, args.rounds, args.seed)
    total = instructions(args.rules, args.rounds, args.seed, args.profile or "/dev/null")
    base = instructions(args.rules, 0, args.seed)
    per_round = (total - base) / args.rounds
    print(
        f"{engine_build()} build, {args.rules} rules, {args.rounds} random rounds (seed {args.seed}, "
        f"{decisions / args.rounds:.2f} decisions a round): {per_round:,.0f} instructions a round, "
        f"{(total - base) / decisions:,.0f} a decision"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
