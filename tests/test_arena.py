"""The arena: duplicate deals, reproducibility, statistics, records, what bots see and the CLI.

The Ray tests are in tests/test_arena_ray.py (they need the [cluster] extra)."""

from __future__ import annotations

import doctest
import json
import math
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import ClassVar

import pytest

import sobedesce.arena.jobs
import sobedesce.arena.runner
import sobedesce.arena.stats
from sobedesce import bots as bots_module
from sobedesce.arena import ArenaError, BotFailure, deal_deck, plan_jobs, run_arena, t_quantile
from sobedesce.bots.oracle import OracleSeat
from sobedesce.cli.main import main
from sobedesce.core import Card, Match, Phase, Round, SeatView, read_record
from sobedesce.core.actions import SIT_OUT, Action, Exchange, NameTrump, Play

TIMING = ("decision_ms_median", "decision_ms_p99")


def comparable(summary: dict) -> dict:
    """The summary without the fields that measure time (they differ from run to run)."""
    out = {k: v for k, v in summary.items() if k != "elapsed_s"}
    out["bots"] = [{k: v for k, v in row.items() if k not in TIMING} for row in summary["bots"]]
    out["by_name"] = {n: {k: v for k, v in row.items() if k not in TIMING} for n, row in summary["by_name"].items()}
    return out


def load_records(directory: Path) -> dict[tuple[int, int], Match]:
    """{(rotation, first deal): match} from a --save directory."""
    found = {}
    for path in sorted(directory.iterdir()):
        parsed = re.fullmatch(r"rot(\d)-deal(\d+)\.json", path.name)
        assert parsed, path.name
        found[int(parsed[1]), int(parsed[2])] = read_record(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize("module", [sobedesce.arena.jobs, sobedesce.arena.runner, sobedesce.arena.stats])
def test_doctests(module):
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_t_quantile_matches_tables():
    table = {1: 12.706, 2: 4.303, 3: 3.182, 5: 2.571, 10: 2.228, 29: 2.045, 120: 1.980}
    for df, value in table.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=0.004)


def test_duplicate_deals_from_saved_records(tmp_path):
    deals = 14
    run_arena(["random"] * 4, "classic", deals, seed=11, jobs=1, block=5, save=tmp_path)
    records = load_records(tmp_path)
    decks: dict[int, list[tuple]] = defaultdict(list)
    seats_of_entry: dict[tuple[int, int], set[int]] = defaultdict(set)
    per_rotation: dict[int, list[int]] = defaultdict(list)
    for (rotation, first), match in records.items():
        for offset, current in enumerate(match.rounds):
            deal = first + offset
            per_rotation[rotation].append(deal)
            decks[deal].append(current.deck)
            assert current.deck == deal_deck(11, deal)
            assert current.dealer == deal % 4
            for seat, player in enumerate(match.players):
                name, entry = player.split("#")
                assert name == "random"
                assert int(entry) == (seat - rotation) % 4
                seats_of_entry[int(entry), deal].add(seat)
    # Every rotation plays every deal exactly once, with the same deck.
    for rotation in range(4):
        assert sorted(per_rotation[rotation]) == list(range(deals))
    for deal in range(deals):
        assert len(decks[deal]) == 4 and len(set(decks[deal])) == 1
    # Distinct deals differ.
    assert len({decks[d][0] for d in range(deals)}) == deals
    # Each bot plays every deal from every seat.
    for entry in range(4):
        for deal in range(deals):
            assert seats_of_entry[entry, deal] == {0, 1, 2, 3}
    # Blocks start fresh matches: a match never crosses a block boundary.
    for (_rotation, first), match in records.items():
        assert first // 5 == (first + len(match.rounds) - 1) // 5


def test_reproducible_and_independent_of_jobs():
    one = run_arena(["random"] * 4, "table", 24, seed=5, jobs=1, block=4).summary()
    two = run_arena(["random"] * 4, "table", 24, seed=5, jobs=2, block=4).summary()
    again = run_arena(["random"] * 4, "table", 24, seed=5, jobs=3, block=4).summary()
    assert comparable(one) == comparable(two) == comparable(again)
    other = run_arena(["random"] * 4, "table", 24, seed=6, jobs=1, block=4).summary()
    assert comparable(other) != comparable(one)


def test_statistics_recomputed_from_records(tmp_path):
    deals = 30
    result = run_arena(["random"] * 4, "classic", deals, seed=3, jobs=2, block=10, save=tmp_path)
    summary = result.summary()
    records = load_records(tmp_path)
    deltas = defaultdict(lambda: [0.0] * deals)  # entry -> per deal, summed over rotations
    played = defaultdict(int)
    wins = defaultdict(int)
    riscos = defaultdict(float)
    finished = 0
    for (rotation, first), match in records.items():
        entry_at = [(seat - rotation) % 4 for seat in range(4)]
        for offset, current in enumerate(match.rounds):
            for seat in range(4):
                deltas[entry_at[seat]][first + offset] += current.deltas[seat]
                played[entry_at[seat]] += current.active[seat] == 1
        if match.is_over:
            finished += 1
            for seat in range(4):
                wins[entry_at[seat]] += seat in match.winners
                riscos[entry_at[seat]] += match.riscos()[seat]
    assert summary["rounds"] == 4 * deals
    assert summary["matches"] == finished
    t = 2.0452  # t(0.975, 29)
    per_deal = {entry: [d / 4 for d in deltas[entry]] for entry in range(4)}
    for entry, row in enumerate(summary["bots"]):
        values = per_deal[entry]
        mean = statistics.fmean(values)
        half = t * statistics.stdev(values) / math.sqrt(deals)
        assert row["mean_delta"] == pytest.approx(mean)
        assert row["ci95"] == pytest.approx([mean - half, mean + half], abs=1e-3)
        others = [statistics.fmean(per_deal[k][i] for k in range(4) if k != entry) for i in range(deals)]
        diffs = [a - b for a, b in zip(values, others, strict=True)]
        half = t * statistics.stdev(diffs) / math.sqrt(deals)
        assert row["delta_vs_others"] == pytest.approx(statistics.fmean(diffs))
        assert row["delta_vs_others_ci95"] == pytest.approx(
            [statistics.fmean(diffs) - half, statistics.fmean(diffs) + half], abs=1e-3
        )
        # The mean over deals equals the mean over every round dealt to the bot.
        per_round = [delta for _deal, _rot, delta, _active in result.round_deltas(entry)]
        assert len(per_round) == 4 * deals
        assert row["mean_delta"] == pytest.approx(statistics.fmean(per_round))
        assert row["play_rate"] == pytest.approx(played[entry] / (4 * deals))
        assert row["match_win_rate"] == pytest.approx(wins[entry] / finished)
        assert row["riscos_per_match"] == pytest.approx(riscos[entry] / finished)
        assert row["decisions"] > 0 and row["decision_ms_median"] <= row["decision_ms_p99"]
    # Riscos sum to zero over a finished match, so over the entries too.
    assert sum(row["riscos_per_match"] for row in summary["bots"]) == pytest.approx(0, abs=1e-9)
    pooled = summary["by_name"]["random"]
    assert pooled["entries"] == [0, 1, 2, 3]
    assert pooled["rounds"] == 16 * deals
    assert pooled["mean_delta"] == pytest.approx(statistics.fmean(row["mean_delta"] for row in summary["bots"]))
    assert pooled["delta_vs_others"] is None


def test_by_name_groups_entries():
    summary = run_arena(["random", "Random", "random", "random"], deals=3, seed=1, jobs=1).summary()
    assert [row["name"] for row in summary["bots"]] == ["random"] * 4
    assert list(summary["by_name"]) == ["random"]


def test_saved_records_replay(tmp_path):
    run_arena(["random"] * 4, "table", 8, seed=2, jobs=1, block=4, save=tmp_path)
    files = sorted(tmp_path.iterdir())
    assert files
    for path in files[:3]:
        done = subprocess.run(
            [sys.executable, "-m", "sobedesce", "replay", str(path)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr


def test_bad_input_raises():
    with pytest.raises(ArenaError, match="exactly 4"):
        run_arena(["random"] * 3, deals=1)
    with pytest.raises(ArenaError, match="unknown bot"):
        run_arena(["random", "nonesuch", "random", "random"], deals=1)
    with pytest.raises(ArenaError, match="positive"):
        run_arena(["random"] * 4, deals=0)
    with pytest.raises(ArenaError, match="unknown rule set"):
        run_arena(["random"] * 4, "nonesuch", deals=1)


class CheatBot:
    """Sits out whenever it is asked, even when the rules say it must play."""

    name = "cheat"

    def act(self, view, rng):
        if view.phase == Phase.EXCHANGE:
            return SIT_OUT
        return rng.choice(view.legal_actions)


def test_illegal_action_is_reported(monkeypatch, capsys):
    monkeypatch.setitem(bots_module.BOTS, "cheat", CheatBot)
    with pytest.raises(BotFailure, match=r"'cheat' \(entry 1 of --bots.*broke the rules.*must play"):
        run_arena(["random", "cheat", "random", "random"], deals=20, seed=1, jobs=1)
    if multiprocessing.get_start_method() == "fork":  # the workers inherit the patched registry
        with pytest.raises(BotFailure, match=r"'cheat' \(entry 1 of --bots.*broke the rules"):
            run_arena(["random", "cheat", "random", "random"], deals=20, seed=1, jobs=2, block=5)
    assert main(["arena", "--bots", "random,cheat,random,random", "--deals", "20", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "cheat" in err and "broke the rules" in err and "Traceback" not in err


def _altered(action, field: str, value):
    """``action`` with a field set past its constructor's check (round the frozen dataclass)."""
    object.__setattr__(action, field, value)
    return action


_CARD = r": must be a card \(an int 0-39 from the core's card functions\), not "


@pytest.mark.parametrize(
    ("phase", "make", "message"),
    [
        (Phase.PLAY, lambda: Play(99), r"raised ValueError: Play" + _CARD + "99"),
        (Phase.PLAY, lambda: Play(-1), r"raised ValueError: Play" + _CARD + "-1"),
        (Phase.PLAY, lambda: Play("AS"), r"raised TypeError: Play" + _CARD + "'AS'"),
        (Phase.TRUMP, lambda: NameTrump("H"), r"raised TypeError: NameTrump: must be a suit .*, not 'H'"),
        (Phase.TRUMP, lambda: NameTrump(True), r"raised TypeError: NameTrump: must be a suit .*, not True"),
        (Phase.EXCHANGE, lambda: Exchange(("AS",)), r"raised TypeError: Exchange" + _CARD + "'AS'"),
        (Phase.PLAY, Action, r"broke the rules: .*Action.* cannot be applied: TypeError: apply needs an action"),
        (Phase.PLAY, lambda: _altered(Play(0), "card", "AS"), r"broke the rules: .* cannot be applied: TypeError"),
        (Phase.PLAY, lambda: _altered(Play(0), "card", 99), r"broke the rules: 99 is illegal: Play" + _CARD + "99"),
        (Phase.TRUMP, lambda: _altered(NameTrump(0), "suit", 7), r"broke the rules: .* is illegal: not a suit: 7"),
    ],
    ids=[
        "Play(99)",
        "Play(-1)",
        "Play('AS')",
        "NameTrump('H')",
        "NameTrump(True)",
        "Exchange(('AS',))",
        "Action()",
        "altered-card-AS",
        "altered-card-99",
        "altered-suit-7",
    ],
)
def test_a_malformed_action_is_reported_like_an_illegal_one(monkeypatch, capsys, phase, make, message):
    """A bot whose answer is no well-made action voids its round with one line, and the other
    games finish: before, ``Play(99)`` ended the whole arena with an IndexError from the core."""

    class Malformed:
        name = "malformed"

        def act(self, view, rng):
            return make() if view.phase == phase else rng.choice(view.legal_actions)

    monkeypatch.setitem(bots_module.BOTS, "malformed", Malformed)
    with pytest.raises(BotFailure, match=r"'malformed' \(entry 1 of --bots, at seat \d\) " + message) as caught:
        run_arena(["random", "malformed", "random", "random"], deals=4, seed=1, jobs=1)
    failure = caught.value
    assert failure.result is not None and failure.result.rounds == 16
    assert failure.errors and all("'malformed' (entry 1" in line and "\n" not in line for line in failure.errors)
    assert main(["arena", "--bots", "random,malformed,random,random", "--deals", "4", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "malformed" in err and "Traceback" not in err


class ClaimsOmniscience:
    """A bot that says it sees every card: a flag the arena does not read; it gets a view."""

    name = "claims"
    omniscient = True
    views = 0

    def act_full(self, match, seat, rng):  # pragma: no cover - the arena must not call it
        raise AssertionError("a bot got the whole match")

    def act(self, view, rng):
        assert isinstance(view, SeatView) and view.seat == view.to_act
        ClaimsOmniscience.views += 1
        return rng.choice(view.legal_actions)


def test_a_bot_gets_a_view_whatever_it_claims(monkeypatch):
    monkeypatch.setitem(bots_module.BOTS, "claims", ClaimsOmniscience)
    ClaimsOmniscience.views = 0
    summary = run_arena(["claims", "random", "random", "random"], deals=4, seed=1, jobs=1).summary()
    assert ClaimsOmniscience.views == summary["bots"][0]["decisions"] > 0


def test_the_oracle_is_a_seat_of_its_own_kind(monkeypatch):
    """Named ``oracle`` in ``--bots``, the arena builds an :class:`OracleSeat` and hands it a
    copy of the whole match with ``act_full``; the name is the only way to seat it."""
    calls = []
    act_full = OracleSeat.act_full

    def spy(self, match, seat, rng):
        assert type(self) is OracleSeat and isinstance(match, Match) and match.current_seat == seat
        calls.append(seat)
        return act_full(self, match, seat, rng)

    monkeypatch.setattr(OracleSeat, "act_full", spy)
    summary = run_arena(["oracle", "random", "random", "random"], deals=4, seed=1, jobs=1).summary()
    assert len(calls) == summary["bots"][0]["decisions"] > 0
    with pytest.raises(ArenaError, match="seated by its name only"):
        run_arena(["sobedesce.bots.oracle:OracleSeat", "random", "random", "random"], deals=1)
    with pytest.raises(TypeError, match="not a bot that plays from a view"):
        OracleSeat().act(None, random.Random(0))


def _is_deck(value) -> bool:
    return isinstance(value, (tuple, list)) and len(value) == 40 and all(isinstance(c, Card) for c in value)


def _secrets_in(value) -> list[str]:
    """What ``value`` (or, one level down, an item of a container) holds that a bot must not see."""
    found = []
    items = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, (tuple, list)) else []
    for item in [value, *items]:
        if isinstance(item, Match):
            found.append("a Match")
        elif isinstance(item, Round):
            found.append("a Round")
        elif _is_deck(item):
            found.append("a 40-card deck")
        elif isinstance(item, Exchange):
            found.append("an exchange (another seat's discards)")
    return found


class SpyBot:
    """Plays at random; before each decision it walks every frame of the call stack, its own
    and every ``f_back``, and notes any local that holds the match, a round, the deck or a
    decision of another seat."""

    name = "spy"
    seen: ClassVar[list[str]] = []
    decisions = 0

    def act(self, view, rng):
        SpyBot.decisions += 1
        frame = sys._getframe()
        while frame is not None:
            for local, value in frame.f_locals.items():
                for secret in _secrets_in(value):
                    SpyBot.seen.append(f"{frame.f_code.co_qualname}(): {local} holds {secret}")
            frame = frame.f_back
        return rng.choice(view.legal_actions)


def test_no_frame_below_a_bot_holds_the_match(monkeypatch):
    """When a bot decides, no frame on the call stack holds the match, a round, the deck or
    another seat's exchange in its locals (the oracle, which sees every card, plays at the
    same table: what it is handed must not linger either)."""
    monkeypatch.setitem(bots_module.BOTS, "spy", SpyBot)
    SpyBot.seen, SpyBot.decisions = [], 0
    for rules in ("classic", "table"):
        run_arena(["spy", "oracle", "basic", "random"], rules, deals=6, seed=4, jobs=1, block=3)
    assert SpyBot.decisions > 0
    assert not SpyBot.seen, sorted(set(SpyBot.seen))


def test_exchange_legality_is_checked(monkeypatch):
    class Hoarder(CheatBot):
        def act(self, view, rng):
            if view.phase == Phase.EXCHANGE:
                return Exchange(())  # keeping every card: legal in classic, not in table
            return rng.choice(view.legal_actions)

    monkeypatch.setitem(bots_module.BOTS, "hoarder", Hoarder)
    run_arena(["hoarder", "random", "random", "random"], "classic", deals=4, seed=1, jobs=1)
    with pytest.raises(BotFailure, match="must discard at least 1"):
        run_arena(["hoarder", "random", "random", "random"], "table", deals=4, seed=1, jobs=1)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sobedesce", "arena", *args], capture_output=True, text=True, check=False
    )


def test_cli_json_shape(tmp_path):
    done = run_cli("--quick", "--json", "--seed", "4", "--jobs", "2", "--save", str(tmp_path / "records"))
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    for key in ("rules", "deals", "seed", "rounds", "matches", "bots", "by_name"):
        assert key in summary
    assert summary["rules"] == "classic" and summary["seed"] == 4 and summary["rounds"] == 4 * summary["deals"]
    assert len(summary["bots"]) == 4
    for row in summary["bots"]:
        for key in (
            "name",
            "mean_delta",
            "ci95",
            "play_rate",
            "match_win_rate",
            "riscos_per_match",
            "decision_ms_median",
            "decision_ms_p99",
            "delta_vs_others",
            "delta_vs_others_ci95",
        ):
            assert key in row
        low, high = row["ci95"]
        assert low <= row["mean_delta"] <= high
    assert list((tmp_path / "records").iterdir())
    # The library gives the same numbers.
    library = run_arena(["random"] * 4, "classic", summary["deals"], 4, jobs=1, block=summary["block"]).summary()
    assert comparable(library) == comparable(summary)


def test_cli_table():
    done = run_cli("--deals", "6", "--seed", "1", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "per entry" in done.stdout and "per bot" in done.stdout and "0: random" in done.stdout


def test_cli_table_with_bot_settings():
    """Settings after a bot's name make two versions of one bot separate entries; piped, the
    long name stays whole and so do the figures."""
    name = "basic:sit_margin=0.25:explain_samples=4"
    done = run_cli("--bots", f"{name},basic,random,random", "--deals", "6", "--seed", "1", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert f"0: {name}" in done.stdout and "1: basic " in done.stdout
    assert "…" not in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,random,random"], "exactly 4 bots"),
        (["--bots", "random,random,random,random,random"], "exactly 4 bots"),
        (["--bots", "random,nonesuch,random,random"], "unknown bot 'nonesuch'"),
        (["--deals", "0"], "positive"),
        (["--deals", "-3"], "positive"),
        (["--rules", "nonesuch"], "unknown rule set"),
        (["--jobs", "0"], "jobs"),
        (["--bots", "strong:depth=3,random,random,random"], "bot 'strong' has no setting 'depth'"),
        (["--bots", "basic:sit_margin=high,random,random,random"], "bad settings for bot 'basic'"),
    ],
)
def test_cli_bad_input(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_bot_rngs_are_independent_of_the_process():
    # The generators are built from strings of the seed, deal, rotation and seat alone.
    from sobedesce.arena import bot_rng

    assert bot_rng(1, 2, 3, 0).random() == bot_rng(1, 2, 3, 0).random()
    assert bot_rng(1, 2, 3, 0).random() != bot_rng(1, 2, 0, 0).random()
    assert isinstance(bot_rng(1, 2, 3, 0), random.Random)


def test_cli_unreachable_ray_address():
    done = run_cli("--quick", "--ray", "127.0.0.1:1")
    assert done.returncode == 2
    assert "Ray" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["play", "demo", "replay", "arena", "bench"])
def test_help_texts_print_as_written(command, capsys):
    """argparse only %-formats argument help, not descriptions: a '%%' in a description
    would be printed doubled."""
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "%%" not in out and "usage: sobedesce " + command in out


def test_levels_play_at_their_budget_unless_by_the_clock():
    """The arena's figures depend on the seed alone: a level's deadline is dropped unless
    ``clock`` (``--clock``) asks for it."""
    from sobedesce.arena.jobs import _make_seat
    from sobedesce.bots import LEVEL_DEADLINE

    assert _make_seat("expert")[0].deadline is None
    assert _make_seat("expert", clock=True)[0].deadline == LEVEL_DEADLINE
    assert plan_jobs(["random"] * 4, "classic", 2, 1, 2, False, clock=True)[0].clock is True
    summary = run_arena(["random"] * 4, "classic", 2, 1, jobs=1, clock=True).summary()
    assert summary["clock"] is True
    assert run_arena(["random"] * 4, "classic", 2, 1, jobs=1).summary()["clock"] is False


def test_the_report_is_readable_in_an_80_column_terminal():
    """Squeezed into 80 columns the one wide table cut every figure to '…' and dropped the
    names; it is printed as two narrower tables instead, every figure whole."""
    import io

    from rich.console import Console

    from sobedesce.cli.arena import _ci, _num, _print_tables

    summary = run_arena(["basic", "random", "random", "random"], "classic", 4, 1, jobs=1, block=2).summary()
    stream = io.StringIO()
    _print_tables(summary, Console(file=stream, width=80, force_terminal=True, color_system=None))
    out = stream.getvalue()
    assert "…" not in out
    assert all(len(line) <= 80 for line in out.splitlines())
    for row in summary["bots"]:
        line = next(line for line in out.splitlines() if line.strip().startswith(f"{row['entry']}: {row['name']}"))
        assert _num(row["mean_delta"]) in line and _ci(row["ci95"]) in line
    wide = io.StringIO()
    _print_tables(summary, Console(file=wide, width=160, force_terminal=True, color_system=None))
    assert "per entry: score" not in wide.getvalue() and "ms p99" in wide.getvalue()


@pytest.mark.parametrize(
    ("bots", "settings", "message"),
    [
        ("basic,basic,basic,basic", {}, r"^the bots are a list of four names, not one string"),
        (["basic", "basic", "basic", 4], {}, r"^the bots are four names \(strings\)"),
        (["basic"] * 4, {"seed": "7"}, r"^the seed must be an integer, not '7'$"),
        (["basic"] * 4, {"seed": 7.0}, r"^the seed must be an integer, not 7.0$"),
        (["basic"] * 4, {"deals": True}, r"^the number of deals must be a positive integer, not True$"),
        (["basic"] * 4, {"jobs": "2"}, r"^the number of jobs must be a positive integer, not '2'$"),
    ],
)
def test_run_arena_refuses_values_of_the_wrong_kind(bots: object, settings: dict[str, object], message: str) -> None:
    """Before: a string of bots was split into its 23 letters, a seed of '7' or 7.0 named other
    deals silently, deals=True played one deal and jobs='2' raised from inside."""
    with pytest.raises(ArenaError, match=message):
        run_arena(bots, "classic", **settings)  # type: ignore[arg-type]
