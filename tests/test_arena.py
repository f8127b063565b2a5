"""The arena: duplicate deals, reproducibility, statistics, records, what bots see and the CLI.

The Ray tests are in tests/test_arena_ray.py (they need the [cluster] extra)."""

from __future__ import annotations

import doctest
import json
import math
import multiprocessing
import os
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
from sobedesce.cli import arena as cli_arena
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


def test_records_name_each_seat_by_its_entry_always(tmp_path: Path) -> None:
    """Records name a seat ``name#entry`` whether or not names repeat (docs/bots.md said the
    ``#entry`` was added only when entries repeat)."""
    run_arena(["basic", "Random", "beginner", "Basic:Sit_Margin=0.5"], deals=1, jobs=1, save=tmp_path)
    names = ["basic#0", "random#1", "beginner#2", "basic:sit_margin=0.5#3"]
    for (rotation, _first), match in load_records(tmp_path).items():
        assert list(match.players) == [names[(seat - rotation) % 4] for seat in range(4)]


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


def test_a_plan_too_large_to_keep_is_refused_before_any_deal(capsys: pytest.CaptureFixture[str]) -> None:
    # Ten million deals in blocks of one: 40 million jobs, which ran the machine out of memory.
    with pytest.raises(ArenaError, match=r"40,000,000 jobs .* use a block of 40 or more"):
        run_arena(["random"] * 4, deals=10_000_000, block=1)
    code = main(["arena", "--deals", "10000000", "--block", "1", "--no-progress"])
    captured = capsys.readouterr()
    assert code == 2 and not captured.out
    assert "make 40,000,000 jobs" in captured.err and "use a block of 40 or more" in captured.err


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


class RaisesInAct:
    """Raises, with a message of two lines, at its first decision."""

    name = "raises"

    def act(self, view, rng):
        raise RuntimeError("out of\ncheese")

    def explain(self, view, rng):
        return []


class MisusesTheCore:
    """Hands the core a card that is no card: the core raises, in its own code."""

    name = "misuses"

    def act(self, view, rng):
        return Play("ZZ")

    def explain(self, view, rng):
        return []


def test_a_bot_that_raises_is_reported_with_where_it_raised(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Before: ``raised AttributeError: TRICKS (deal 0, …)``, with no file or line to look at."""
    monkeypatch.setitem(bots_module.BOTS, "raises", RaisesInAct)
    line = RaisesInAct.act.__code__.co_firstlineno + 1
    here = Path(RaisesInAct.act.__code__.co_filename)
    for directory, shown in [(here.parent, here.name), (tmp_path, str(here))]:
        monkeypatch.chdir(directory)  # below it: relative to it; elsewhere: the path as Python has it
        with pytest.raises(BotFailure) as caught:
            run_arena(["raises", "random", "random", "random"], deals=1, jobs=1)
        assert caught.value.errors == [
            f"bot 'raises' (entry 0 of --bots, at seat {rotation}) raised RuntimeError: out of cheese"
            f" at {shown}:{line} in act (deal 0, rotation {rotation}, round 1 of its match)"
            for rotation in range(4)
        ]
    # Raised in the core, called from the bot: the bot's line, which its author can mend.
    monkeypatch.setitem(bots_module.BOTS, "misuses", MisusesTheCore)
    monkeypatch.chdir(here.parent)
    with pytest.raises(BotFailure) as caught:
        run_arena(["misuses", "random", "random", "random"], deals=1, jobs=1)
    line = MisusesTheCore.act.__code__.co_firstlineno + 1
    assert all(f" at {here.name}:{line} in act (deal 0" in error for error in caught.value.errors), caught.value.errors


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
    # With settings, it was the library's words ("OracleSeat() builds one"), not the arena's.
    with pytest.raises(ArenaError, match="the oracle takes no settings"):
        run_arena(["Oracle:play_samples=10", "random", "random", "random"], deals=1)
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


def test_the_tables_written_to_a_file_have_no_trailing_spaces_and_count_in_words():
    # Piped, rich padded every line to the table's width (117 to 139 columns); one deal was
    # "1 duplicate deals", and a decision of 1.74 s "1.74e+03" ms.
    done = run_cli("--deals", "1", "--bots", "basic,random,random,random", "--seed", "3", "--no-progress")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("classic rules, 1 duplicate deal x 4 rotations = 4 rounds, 0 completed matches")
    assert [line for line in lines if line != line.rstrip()] == []
    assert any(line.startswith("  0: basic ") for line in lines) and "per bot" in lines
    assert (cli_arena._ms(1740.4), cli_arena._ms(12.34), cli_arena._ms(0.0326), cli_arena._ms(None)) == (
        "1,740",
        "12.3",
        "0.0326",
        "-",
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
        # A trailing comma: the fifth, empty, name was shown as nothing ("got 5: basic, …, random, ").
        (["--bots", "basic,random,random,random,"], "got 5: basic, random, random, random, ''\n"),
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


@pytest.mark.parametrize("command", ["play", "demo", "bench", "arena"])
def test_rules_are_read_in_any_case(command: str) -> None:
    """``arena --rules TABLE`` was taken, ``play --rules TABLE`` refused (an invalid choice)."""
    from sobedesce.cli.main import build_parser
    from sobedesce.core import find_rules

    args = build_parser().parse_args([command, "--rules", "TABLE"])
    assert find_rules(args.rules).name == "table"
    if command != "arena":
        assert args.rules == "table"


def test_help_says_every_exit_status_and_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    """``arena --help`` left out 130 (Ctrl-C), which it exits with; ``bench --help`` showed
    ``--seed SEED`` with no word on it."""
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "0 done, 1 a bot broke the rules or crashed, 2 bad input, 130 interrupted by Ctrl-C" in out
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--seed SEED seed of the random play" in out


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


# -- a new user's bad input: a save directory that cannot be written, Ctrl-C ----------------------------


class _Files:
    """Stands in for the file system under one directory: ``refuse(n)`` makes the n-th file
    written there (counted from 1; ``None``: every one) fail with ``error``; ``half=True`` writes
    half of it first and then raises ``KeyboardInterrupt``, as a Ctrl-C in the middle of the write."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
        import builtins
        import io

        self.directory = directory
        self.real_open = io.open
        self.count = 0
        self.refused: int | None = -1
        self.error: OSError | None = None
        self.half = False
        monkeypatch.setattr(builtins, "open", self.open)
        monkeypatch.setattr(io, "open", self.open)

    def refuse(self, number: int | None, error: OSError | None = None, half: bool = False) -> None:
        self.refused, self.error, self.half = number, error, half

    def open(self, file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        inside = isinstance(file, str | Path) and Path(file).parent == self.directory
        if not inside or not any(letter in mode for letter in "wxa"):
            return self.real_open(file, mode, *args, **kwargs)
        self.count += 1
        if self.refused is not None and self.count != self.refused:
            return self.real_open(file, mode, *args, **kwargs)
        if not self.half:
            assert self.error is not None
            raise self.error
        stream = self.real_open(file, mode, *args, **kwargs)

        class HalfWritten:
            def __enter__(self):  # type: ignore[no-untyped-def]
                return self

            def __exit__(self, *exc):  # type: ignore[no-untyped-def]
                stream.close()

            def write(self, text: str) -> int:
                stream.write(text[: len(text) // 2])
                stream.flush()
                raise KeyboardInterrupt

        return HalfWritten()


def _whole_records(directory: Path) -> list[str]:
    names = sorted(path.name for path in directory.iterdir())
    for name in names:
        read_record((directory / name).read_text(encoding="utf-8"))  # whole: it reads
    return names


def test_a_save_directory_that_cannot_be_written_is_refused_before_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An existing, empty directory without write permission passed the checks, and the first
    record ended the run in a PermissionError traceback, its games lost."""
    records = tmp_path / "records"
    records.mkdir()
    # Every file there refused, as the system refuses them (root writes whatever the mode).
    _Files(monkeypatch, records).refuse(None, PermissionError(13, "Permission denied"))
    code = main(["arena", "--deals", "2", "--block", "1", "--jobs", "1", "--no-progress", "--save", str(records)])
    monkeypatch.undo()
    captured = capsys.readouterr()
    assert code == 2 and not captured.out
    assert captured.err == f"sobedesce arena: error: cannot write in {records}: Permission denied\n"
    assert list(records.iterdir()) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes whatever the mode")
def test_a_read_only_save_directory_is_refused(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    records.chmod(0o555)
    done = run_cli("--deals", "1", "--jobs", "1", "--save", str(records))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot write in {records}: Permission denied" in done.stderr


def test_a_record_cut_by_ctrl_c_is_not_left_half_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while a record was written left it there empty or cut, a file replay calls
    malformed; now each record is whole or absent."""
    records = tmp_path / "records"
    files = _Files(monkeypatch, records)
    files.refuse(4, half=True)  # the probe, two records, then the third record is cut
    with pytest.raises(KeyboardInterrupt):
        run_arena(["random"] * 4, deals=4, seed=2, jobs=1, block=1, save=records)
    monkeypatch.undo()
    names = _whole_records(records)
    assert len(names) == 2 and all(re.fullmatch(r"rot\d-deal\d+\.json", name) for name in names), names


def test_records_that_cannot_be_written_mid_run_lose_no_results(tmp_path: Path) -> None:
    """The directory removed (or the disk full) during a run: an OSError traceback, every game
    played lost.  Now the games go on and their results are whole; the error says what was saved."""
    import shutil

    from sobedesce.arena import SaveFailure

    records = tmp_path / "records"

    def remove_after_the_first_job(done: int, total: int) -> None:
        if done == 2:
            shutil.rmtree(records)

    with pytest.raises(SaveFailure) as caught:
        run_arena(["random"] * 4, deals=4, seed=2, jobs=1, block=2, save=records, progress=remove_after_the_first_job)
    expected = run_arena(["random"] * 4, deals=4, seed=2, jobs=1, block=2)
    assert caught.value.result is not None
    assert comparable(caught.value.result.summary()) == comparable(expected.summary())
    (line,) = caught.value.errors
    assert line == (
        f"cannot save {records / 'rot1-deal000000.json'}: No such file or directory; 1 record saved before it,"
        " none after it; the results are whole"
    )


def test_cli_reports_the_results_when_the_disk_fills_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    records = tmp_path / "records"
    files = _Files(monkeypatch, records)
    files.refuse(3, OSError(errno.ENOSPC, "No space left on device", str(records / "x.json")))
    args = ["--deals", "2", "--block", "1", "--seed", "3", "--jobs", "1", "--no-progress", "--json"]
    code = main(["arena", *args, "--save", str(records)])
    monkeypatch.undo()
    captured = capsys.readouterr()
    assert code == 1 and "Traceback" not in captured.err
    summary = json.loads(captured.out)
    expected = run_arena(["random"] * 4, deals=2, seed=3, jobs=1, block=1).summary()
    assert comparable({k: v for k, v in summary.items() if k != "errors"}) == comparable(expected)
    (line,) = captured.err.splitlines()
    assert line == (
        f"sobedesce arena: error: cannot save {records / 'rot1-deal000000.json'}: No space left on device;"
        " 1 record saved before it, none after it; the results are whole"
    )
    assert summary["errors"] == [line.removeprefix("sobedesce arena: error: ")]


def test_ctrl_c_keeps_the_results_of_the_first_whole_blocks() -> None:
    """Ctrl-C lost every game played; now the blocks played in every rotation, from the first
    on, are kept: the same result as a run of that many deals."""
    from sobedesce.arena import ArenaInterrupted

    def stop_after(jobs: int):  # type: ignore[no-untyped-def]
        def progress(done: int, total: int) -> None:
            if done >= 2 * jobs:
                raise KeyboardInterrupt

        return progress

    with pytest.raises(ArenaInterrupted) as caught:
        run_arena(["basic", "random", "random", "random"], deals=6, seed=5, jobs=1, block=2, progress=stop_after(9))
    result = caught.value.result
    assert result is not None and caught.value.deals == 6 and result.deals == 4
    expected = run_arena(["basic", "random", "random", "random"], deals=4, seed=5, jobs=1, block=2)
    assert comparable(result.summary()) == comparable(expected.summary())
    with pytest.raises(ArenaInterrupted) as caught:
        run_arena(["random"] * 4, deals=6, seed=5, jobs=1, block=2, progress=stop_after(3))
    assert caught.value.result is None


def test_cli_ctrl_c_prints_what_was_played_and_keeps_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records"
    real_play_job = sobedesce.arena.runner.play_job
    calls = []

    def play_job(spec):  # type: ignore[no-untyped-def]
        calls.append(spec)
        if len(calls) == 9:
            raise KeyboardInterrupt  # Ctrl-C during the ninth job
        return real_play_job(spec)

    monkeypatch.setattr(sobedesce.arena.runner, "play_job", play_job)
    args = ["--deals", "6", "--block", "2", "--seed", "5", "--jobs", "1", "--no-progress", "--json"]
    code = main(["arena", *args, "--save", str(records)])
    captured = capsys.readouterr()
    assert code == 130 and "Traceback" not in captured.err
    summary = json.loads(captured.out)
    assert summary["deals"] == 4 and summary["interrupted"] is True
    expected = run_arena(["random"] * 4, deals=4, seed=5, jobs=1, block=2).summary()
    assert comparable({k: v for k, v in summary.items() if k != "interrupted"}) == comparable(expected)
    assert captured.err.splitlines() == [
        "sobedesce arena: interrupted after 4 of 6 deals: the results are those of the first 4,"
        " as --deals 4 with the same options gives them",
        f"sobedesce arena: the records written before it are in {records}, each one whole",
    ]
    assert len(_whole_records(records)) >= 8


_CTRL_C_WHILE_WAITING = """
import concurrent.futures._base as base
import sobedesce.arena.runner as runner
from sobedesce.arena import ArenaInterrupted, run_arena

# Ctrl-C lands while the arena waits for its worker processes: inside concurrent.futures.wait
# when it waits so (after it has locked the first of the futures), else in the queue it reads.
real_enter = base._AcquireFutures.__enter__
calls = []

def enter(self):
    calls.append(1)
    if len(calls) == 2:
        next(iter(self.futures))._condition.acquire()
        raise KeyboardInterrupt
    return real_enter(self)

base._AcquireFutures.__enter__ = enter
if hasattr(runner, "SimpleQueue"):
    class Queue(runner.SimpleQueue):
        gets = 0

        def get(self, *args, **kwargs):
            Queue.gets += 1
            if Queue.gets == 2:
                raise KeyboardInterrupt
            return super().get(*args, **kwargs)

    runner.SimpleQueue = Queue
try:
    run_arena(["random"] * 4, deals=8, seed=1, jobs=2, block=1)
except ArenaInterrupted as stop:
    print("interrupted; results kept:", stop.result is not None)
"""


def test_ctrl_c_while_the_arena_waits_for_its_workers_stops_it() -> None:
    """A Ctrl-C inside concurrent.futures.wait could leave one of the futures locked; shutting
    the pool down then waited for that lock for ever, and the arena hung until killed (seen with
    --jobs 2).  The waiting no longer holds any future's lock.  (The timeout only catches a hang:
    the run takes seconds.)"""
    import signal

    command = [sys.executable, "-c", _CTRL_C_WHILE_WAITING]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as run:
        try:
            out, err = run.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)  # the workers too
            run.communicate()
            pytest.fail("the arena hung after Ctrl-C")
    assert run.returncode == 0, err
    assert out.startswith("interrupted; results kept:"), (out, err)


_STALLING_BOT = '''
import os
import threading

from sobedesce.bots.random_bot import RandomBot


class Stalls(RandomBot):
    """Plays at random, except that the first decision of the whole run (whichever worker
    takes it) never ends: that worker stays busy, the other runs every other job, then idles."""

    name = "stalls"

    def act(self, view, rng):
        try:
            os.close(os.open(os.environ["STALL_MARK"], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return super().act(view, rng)
        threading.Event().wait()
'''


def test_ctrl_c_with_worker_processes_prints_no_traceback(tmp_path: Path) -> None:
    """The terminal sends Ctrl-C to the worker processes too: an idle one printed a
    KeyboardInterrupt traceback (and a busy one went on with its job).  Now the workers ignore
    it and the arena stops them.  The interrupt is sent once every job but the stalled one is
    done (their records are saved), so that one worker is busy and the other idle."""
    import signal
    import time

    (tmp_path / "stalling.py").write_text(_STALLING_BOT, encoding="utf-8")
    records = tmp_path / "records"
    mark = tmp_path / "stalled"
    command = [sys.executable, "-m", "sobedesce", "arena", "--bots", "stalling:Stalls,random,random,random"]
    command += ["--deals", "2", "--block", "1", "--jobs", "2", "--no-progress", "--save", str(records)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]), "STALL_MARK": str(mark)}
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    ) as run:
        try:
            deadline = time.monotonic() + 120  # only against a hang: the jobs take a second
            while not (mark.exists() and records.exists() and len(list(records.glob("rot*.json"))) == 7):
                assert run.poll() is None, run.communicate()
                assert time.monotonic() < deadline, "the other jobs were never done"
                time.sleep(0.05)
            os.killpg(run.pid, signal.SIGINT)  # Ctrl-C, as the terminal sends it: to every process
            _, err = run.communicate(timeout=120)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.communicate()
    assert run.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "sobedesce arena: interrupted" in err


_ENDING_BOTS = """
import os
import sys

from sobedesce.bots.random_bot import RandomBot


class Exits(RandomBot):
    name = "exits"

    def act(self, view, rng):
        sys.exit(4)


class Dies(RandomBot):
    name = "dies"

    def act(self, view, rng):
        os._exit(3)
"""


def _run_with_plugins(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "ending.py").write_text(_ENDING_BOTS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    command = [sys.executable, "-m", "sobedesce", "arena", "--deals", "1", "--block", "1", "--no-progress", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bot_that_calls_sys_exit_is_a_bot_that_raises(tmp_path: Path, jobs: str) -> None:
    """sys.exit() in a bot's act ended the whole arena at once with the bot's exit status (4),
    no word said and no result; it is an exception the bot raises, and voids its round."""
    done = _run_with_plugins(tmp_path, "--bots", "ending:Exits,random,random,random", "--jobs", jobs)
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 4 and all("raised SystemExit: 4" in line for line in lines), lines
    assert "per entry" in done.stdout
    # Where it was raised, carried as text from the worker processes too.
    where = f"{tmp_path / 'ending.py'}:{_ENDING_BOTS.splitlines().index('        sys.exit(4)') + 1} in act"
    assert all(f"SystemExit: 4 at {where} (deal 0" in line for line in lines), lines


def test_a_worker_process_that_dies_is_said_without_a_traceback(tmp_path: Path) -> None:
    """A bot ending its worker process (os._exit), or a worker killed from outside: a
    BrokenProcessPool traceback."""
    done = _run_with_plugins(tmp_path, "--bots", "ending:Dies,random,random,random", "--jobs", "2")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr == (
        "sobedesce arena: error: a worker process ended abruptly (a bot that ends its process,"
        " or killed from outside: out of memory?); the run is stopped\n"
    )


def test_a_bot_that_ends_the_arenas_own_process_ends_the_arena(tmp_path: Path) -> None:
    """With --jobs 1 the games are played in the arena's process: a bot's os._exit ends it
    there, silently, with the bot's status (docs/arena.md says so, and to use --jobs 2)."""
    done = _run_with_plugins(tmp_path, "--bots", "ending:Dies,random,random,random", "--jobs", "1")
    assert (done.returncode, done.stdout, done.stderr) == (3, "", "")


@pytest.mark.parametrize("json_output", [False, True])
def test_a_reader_that_stops_reading_is_not_a_bot_failure(json_output: bool) -> None:
    """``sobedesce arena | head -1``: the tables' console (rich) ended the command with exit
    status 1 when the pipe closed, which the arena's exit status says is a bot's failure; it
    ends as every command does on a closed pipe (0), and quietly."""
    command = [sys.executable, "-m", "sobedesce", "arena", "--deals", "2", "--jobs", "1", "--no-progress"]
    with subprocess.Popen(
        [*command, *(["--json"] if json_output else [])], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        run.stdout.close()  # the reader is gone before a line is written
        err = run.stderr.read()
        code = run.wait(timeout=300)
    assert code == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err, err


def test_a_reader_that_stops_reading_does_not_hide_a_bot_failure(tmp_path: Path) -> None:
    """With a bot failure, the closed pipe ended the command before the failures were said."""
    (tmp_path / "ending.py").write_text(_ENDING_BOTS, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    command = [sys.executable, "-m", "sobedesce", "arena", "--deals", "1", "--jobs", "1", "--no-progress"]
    with subprocess.Popen(
        [*command, "--bots", "ending:Exits,random,random,random"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        run.stdout.close()
        err = run.stderr.read()
        code = run.wait(timeout=300)
    assert code == 1, err
    lines = err.splitlines()
    assert len(lines) == 4 and all("raised SystemExit: 4" in line for line in lines), err


def test_the_progress_bar_estimates_the_time_left_from_the_start() -> None:
    """Rounds are reported a block at a time, several at once from parallel jobs: rich's own
    column took the pace from the last two updates, and said 0:00:06 left at 40 of 160 rounds
    after 14 s (two blocks a second apart), for about 42."""
    import io

    from rich.console import Console
    from rich.progress import Progress

    clock = [0.0]
    stream = io.StringIO()
    console = Console(file=stream, width=100, force_terminal=False, color_system=None)
    bar = Progress(*cli_arena._progress_columns(), console=console, get_time=lambda: clock[0], auto_refresh=False)
    task = bar.add_task("arena", total=None)
    bar.update(task, completed=0, total=160)
    for when, done in ((13.0, 20), (14.0, 40)):
        clock[0] = when
        bar.update(task, completed=done, total=160)
    console.print(bar.make_tasks_table(bar.tasks))
    line = stream.getvalue()
    assert "40/160 rounds 0:00:14 0:00:42" in " ".join(line.split()), line
