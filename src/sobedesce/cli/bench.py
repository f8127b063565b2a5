"""``sobedesce bench``: random-play speed of the engine, against OpenSpiel's euchre in the same run
(``sobedesce bench server``, the online server under load, is in :mod:`sobedesce.cli.bench_server`).

Both games are driven the same way through their public APIs: every decision is drawn
uniformly from ``legal_actions()``; chance is the deck shuffle for us and the dealing chance
nodes for euchre (4 players, 5-card hands, a trump choice: the nearest peer OpenSpiel has).
The two are measured in alternating slices, by CPU time of this process, so that a busy
machine slows neither more than the other.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from sobedesce.core import PRESETS, Match, Round

PEER = "euchre"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench",
        usage="%(prog)s [engine|server] [options]",
        help="measure the engine's random-play speed, or the online server under load",
        description="engine (the default): random play through the public API, our full rounds per second "
        "against OpenSpiel euchre games per second (pip install 'sobe-e-desce[bench]'), and the cost per "
        "decision of legal_actions() and of copy+apply. server: `sobedesce serve` with N tables of four "
        "WebSocket players: decisions per second and their latency, against a bare WebSocket echo server "
        "at the same pace, and a check that every acknowledged decision is stored.",
    )
    parser.add_argument(
        "target",
        nargs="?",
        choices=["engine", "server"],
        default="engine",
        help="what to measure (default: engine)",
    )
    parser.add_argument("--rules", default="classic", choices=sorted(PRESETS), help="rule set (default: classic)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="engine: time per measured game (default 6, quick 1); server: the measured window (default 20, quick 5)",
    )
    parser.add_argument("--quick", action="store_true", help="a short run, for CI")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    server = parser.add_argument_group("server options")
    server.add_argument(
        "--tables", type=int, default=None, metavar="N", help="tables of four players at once (default 200, quick 20)"
    )
    server.add_argument(
        "--warmup", type=float, default=None, metavar="SECONDS", help="play before measuring (default 3, quick 1)"
    )
    server.add_argument(
        "--think",
        type=float,
        default=None,
        metavar="SECONDS",
        help="mean pause of a player before each decision (default 0: at once, so the server is saturated)",
    )
    server.add_argument(
        "--db", metavar="URL", default=None, help="the server's database (default: SQLite in a temporary folder)"
    )
    server.add_argument(
        "--processes", type=int, default=None, metavar="P", help="server processes (default 1; more need --redis)"
    )
    server.add_argument(
        "--client-processes",
        type=int,
        default=None,
        choices=[1, 2],
        metavar="{1,2}",
        help="processes driving the clients (default 1: this one)",
    )
    parser.set_defaults(run=run)


SERVER_OPTIONS = ("tables", "warmup", "think", "db", "processes", "client_processes")


def sobedesce_round_runner(rules: str, seed: int) -> Callable[[float], tuple[int, int, float]]:
    """A function that plays random rounds for about ``budget`` seconds: (rounds, decisions, elapsed)."""
    rng = random.Random(seed)
    state = {"match": Match(rules)}

    def play(budget: float) -> tuple[int, int, float]:
        rounds = decisions = 0
        match = state["match"]
        choice = rng.choice
        clock = time.process_time
        start = clock()
        deadline = start + budget
        while clock() < deadline:
            for _ in range(50):
                if match.is_over:
                    match = Match(rules)
                match.deal(rng=rng)
                legal = match.legal_actions()
                while legal:
                    match.apply(choice(legal))
                    decisions += 1
                    legal = match.legal_actions()
                rounds += 1
        state["match"] = match
        return rounds, decisions, clock() - start

    return play


def euchre_game_runner(seed: int) -> Callable[[float], tuple[int, int, float]] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(PEER)
    rng = random.Random(seed)

    def play(budget: float) -> tuple[int, int, float]:
        games = decisions = 0
        choice = rng.choice
        clock = time.process_time
        start = clock()
        deadline = start + budget
        while clock() < deadline:
            for _ in range(50):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(choice(state.chance_outcomes())[0])
                    else:
                        state.apply_action(choice(state.legal_actions()))
                        decisions += 1
                games += 1
        return games, decisions, clock() - start

    return play


def _sample_positions(rules: str, seed: int, count: int) -> list[Round]:
    """Rounds met in random play, at a decision, for the per-decision timings.

    A search copies a round, not the whole match history, so rounds are what is copied here,
    as OpenSpiel copies a euchre state."""
    rng = random.Random(seed)
    positions: list[Round] = []
    match = Match(rules)
    while len(positions) < count:
        if match.is_over:
            match = Match(rules)
        current = match.deal(rng=rng)
        while match.current_seat is not None:
            positions.append(current.copy())
            match.apply(rng.choice(match.legal_actions()))
    return positions


def _costs(
    positions: Sequence[Any],
    legal_of: Callable[[Any], Sequence[Any]],
    copy_apply: Callable[[Any, Any], object],
    rng: random.Random,
    budget: float,
) -> dict[str, float]:
    """Nanoseconds per ``legal_actions()`` call and per copy-then-apply, over ``positions``."""
    pairs = [(position, rng.choice(legal_of(position))) for position in positions]
    clock = time.process_time

    def per_call(step: Callable[[], object]) -> float:
        calls = 0
        start = clock()
        while clock() - start < budget:
            step()
            calls += len(positions)
        return (clock() - start) / calls * 1e9

    def all_legal() -> None:
        for position in positions:
            legal_of(position)

    def all_copy_apply() -> None:
        for position, action in pairs:
            copy_apply(position, action)

    return {"legal_actions_ns": per_call(all_legal), "copy_apply_ns": per_call(all_copy_apply)}


def decision_costs(rules: str, seed: int, budget: float) -> dict[str, float]:
    return _costs(
        _sample_positions(rules, seed, 2000),
        Round.legal_actions,
        lambda position, action: position.copy().apply(action),
        random.Random(seed),
        budget,
    )


def euchre_decision_costs(seed: int, budget: float) -> dict[str, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(PEER)
    rng = random.Random(seed)
    positions = []
    while len(positions) < 2000:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                positions.append(state.clone())
                state.apply_action(rng.choice(state.legal_actions()))
    return _costs(
        positions,
        lambda state: state.legal_actions(),
        lambda state, action: state.clone().apply_action(action),
        rng,
        budget,
    )


def measure(rules: str, seconds: float, seed: int) -> dict[str, Any]:
    ours = sobedesce_round_runner(rules, seed)
    peer = euchre_game_runner(seed)
    slices = 6
    our_rates: list[float] = []
    peer_rates: list[float] = []
    our_decisions = our_rounds = 0
    ours(0.05)
    if peer is not None:
        peer(0.05)
    for _ in range(slices):
        rounds, decisions, elapsed = ours(seconds / slices)
        our_rates.append(rounds / elapsed)
        our_rounds += rounds
        our_decisions += decisions
        if peer is not None:
            games, _, elapsed = peer(seconds / slices)
            peer_rates.append(games / elapsed)
    our_rate = statistics.median(our_rates)
    peer_rate = statistics.median(peer_rates) if peer_rates else None
    cost_budget = max(0.2, seconds / 6)
    return {
        "rules": rules,
        "seconds_each": seconds,
        "sobedesce_rounds_per_s": round(our_rate, 1),
        "sobedesce_decisions_per_round": round(our_decisions / our_rounds, 2),
        "openspiel_euchre_games_per_s": round(peer_rate, 1) if peer_rate else None,
        "ratio": round(our_rate / peer_rate, 3) if peer_rate else None,
        "sobedesce": {k: round(v, 1) for k, v in decision_costs(rules, seed, cost_budget).items()},
        "openspiel_euchre": (
            {k: round(v, 1) for k, v in costs.items()}
            if (costs := euchre_decision_costs(seed, cost_budget)) is not None
            else None
        ),
        "python": sys.version.split()[0],
    }


def run(args: argparse.Namespace) -> int:
    if getattr(args, "target", "engine") == "server":
        from . import bench_server

        return bench_server.run(args)
    given = [name for name in SERVER_OPTIONS if getattr(args, name, None) is not None]
    if given:
        option = "--" + given[0].replace("_", "-")
        print(
            f"sobedesce bench: {option} is for the server benchmark: sobedesce bench server {option} ...",
            file=sys.stderr,
        )
        return 2
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 6.0)
    if seconds <= 0:
        print("sobedesce bench: --seconds must be positive", file=sys.stderr)
        return 2
    result = measure(args.rules, seconds, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"Random play, {args.rules} rules, {seconds:g} s each, alternating slices (median)")
    print(
        f"  sobedesce:         {result['sobedesce_rounds_per_s']:>10,.0f} rounds/s "
        f"({result['sobedesce_decisions_per_round']} decisions a round)"
    )
    if result["openspiel_euchre_games_per_s"] is None:
        print("  OpenSpiel euchre:  not installed (pip install 'sobe-e-desce[bench]' to measure the peer)")
    else:
        print(f"  OpenSpiel euchre:  {result['openspiel_euchre_games_per_s']:>10,.0f} games/s")
        print(f"  ratio:             {result['ratio']:>10.2f} x (target >= 1.0)")
    print("Cost per decision (ns):         legal_actions()   copy+apply")
    ours = result["sobedesce"]
    print(f"  sobedesce                       {ours['legal_actions_ns']:>10,.0f}   {ours['copy_apply_ns']:>10,.0f}")
    peer = result["openspiel_euchre"]
    if peer is not None:
        print(f"  OpenSpiel euchre                {peer['legal_actions_ns']:>10,.0f}   {peer['copy_apply_ns']:>10,.0f}")
    return 0
