"""Options of every subcommand refused up front, one line and exit status 2, never a traceback
after the work has started: numbers that are not finite, save paths that cannot be written or
would mix or overwrite what is there, sizes that would exhaust the memory."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sobedesce.cli.main import main


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``sobedesce ARGS`` in this process; it must exit 2 at once: returns its one error line."""
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert not captured.out and "Traceback" not in captured.err
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "0", "-1"])
def test_bench_seconds_must_be_positive_and_finite(capsys: pytest.CaptureFixture[str], value: str) -> None:
    assert "--seconds must be positive" in refused(capsys, "bench", f"--seconds={value}")
    # With a bad --processes too: were --seconds let through, the run would stop there, not go on for ever.
    assert "--seconds must be positive" in refused(capsys, "bench", "server", f"--seconds={value}", "--processes=9")


@pytest.mark.parametrize("option", ["--warmup", "--think"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_bench_server_pauses_must_be_finite(capsys: pytest.CaptureFixture[str], option: str, value: str) -> None:
    message = refused(capsys, "bench", "server", f"{option}={value}", "--processes=9")
    assert f"{option} must be 0 or more and finite" in message


@pytest.mark.parametrize("args", [["--pace=nan"], ["--pace=inf"], ["--away-after=nan"], ["--away-after=inf"]])
def test_serve_pauses_must_be_finite(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    # With a store that cannot open: were the pause let through, serve would stop there, not serve.
    assert "finite" in refused(capsys, "serve", *args, "--db", "bogus://x")


def test_demo_save_path_is_checked_before_the_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert f"cannot save to {tmp_path}: it is a directory" in refused(capsys, "demo", "--save", str(tmp_path))
    assert "No such file or directory" in refused(capsys, "demo", "--save", str(tmp_path / "no" / "x.json"))
    path = tmp_path / "demo.json"
    assert main(["demo", "--seed", "1", "--save", str(path)]) == 0
    assert f"Record saved to {path}" in capsys.readouterr().out


def test_arena_deals_are_capped(capsys: pytest.CaptureFixture[str]) -> None:
    # With an unknown rule set too: were the deals let through, the run would stop there at once.
    message = refused(capsys, "arena", "--deals", "99999999999999999999", "--rules", "nonesuch")
    assert "--deals is at most 10,000,000" in message


def test_arena_save_never_mixes_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = tmp_path / "runs"
    args = ["arena", "--deals", "1", "--block", "1", "--jobs", "1", "--no-progress", "--json", "--save", str(runs)]
    assert main(args) == 0
    first = sorted(p.name for p in runs.iterdir())
    assert first
    capsys.readouterr()
    assert "is not empty" in refused(capsys, *args)
    assert sorted(p.name for p in runs.iterdir()) == first
    (tmp_path / "empty").mkdir()
    assert main([*args[:-1], str(tmp_path / "empty")]) == 0
    capsys.readouterr()
    record = tmp_path / "record.json"
    record.write_text("{}", encoding="utf-8")
    assert f"{record} is a file: --save needs a new or empty directory" in refused(capsys, *args[:-1], str(record))
    assert record.read_text(encoding="utf-8") == "{}"


def test_demo_help_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "four random players" in capsys.readouterr().out


def test_an_unknown_option_is_refused_with_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--bogus"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "usage: sobedesce play" in err and "--speed SECONDS" in err
    assert "sobedesce play: error: unrecognized arguments: --bogus" in err


def test_demo_never_overwrites_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ana.json"
    path.write_text("a saved match\n", encoding="utf-8")
    assert "ana.json exists: --save names a new file" in refused(capsys, "demo", "--seed", "1", "--save", str(path))
    assert path.read_text(encoding="utf-8") == "a saved match\n"


@pytest.mark.parametrize("case", ["a directory", "an existing file", "a missing folder", "a dangling link"])
def test_play_and_demo_refuse_a_save_path_in_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """One check of --save for both (they had twin checks with their own wording): the same
    message, play adding only how to continue the match saved there."""
    path = {
        "a directory": tmp_path,
        "an existing file": tmp_path / "ana.json",
        "a missing folder": tmp_path / "no" / "x.json",
        "a dangling link": tmp_path / "link.json",
    }[case]
    if case == "an existing file":
        path.write_text("a saved match\n", encoding="utf-8")
    if case == "a dangling link":
        path.symlink_to(tmp_path / "nowhere.json")
    demo = refused(capsys, "demo", "--seed", "1", "--save", str(path)).removeprefix("sobedesce demo: ").rstrip("\n")
    play = refused(capsys, "play", "--speed", "0", "--bots", "random", "--save", str(path))
    assert play.removeprefix("sobedesce play: ").startswith(demo), (demo, play)
    expected = {
        "a directory": f"cannot save to {path}: it is a directory",
        "an existing file": f"{path} exists: --save names a new file",
        "a missing folder": f"cannot save to {path}: No such file or directory",
        "a dangling link": f"{path} exists: --save names a new file",
    }[case]
    assert demo == expected
    if "exists" in expected:
        assert play.rstrip("\n").endswith(f"(to continue the match saved there, use --resume {path})")
    assert not (tmp_path / "nowhere.json").exists() and (
        case != "an existing file" or path.read_text() == "a saved match\n"
    )


def test_play_refuses_a_name_that_the_table_gives_bots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Saved under such a name, the match could never be resumed: --resume never seats you at
    # a seat named like a bot.
    path = tmp_path / "m.json"
    for name in ("Bot 1 (hard)", "basic#2"):
        error = refused(capsys, "play", "--name", name, "--speed", "0", "--save", str(path))
        assert f"--name {name!r} is how the table names a bot" in error
        assert not path.exists()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_that_cannot_encode_the_suits_gets_their_letters(tmp_path: Path, encoding: str) -> None:
    """LANG=C (or PYTHONIOENCODING=ascii): no UnicodeEncodeError, the suits as letters."""
    env = {**os.environ, "PYTHONIOENCODING": encoding, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "sobedesce"]
    record = tmp_path / "demo.json"
    demo = subprocess.run(
        [*command, "demo", "--seed", "4", "--save", str(record)], capture_output=True, env=env, timeout=60
    )
    assert demo.returncode == 0 and b"Traceback" not in demo.stderr, demo.stderr
    assert b"trump S Spades (named)" in demo.stdout
    replay = subprocess.run([*command, "replay", str(record)], capture_output=True, env=env, timeout=60)
    assert replay.returncode == 0 and b"Traceback" not in replay.stderr, replay.stderr
    play = subprocess.run(
        [*command, "play", "--seed", "5", "--speed", "0", "--bots", "random"],
        input=b"quit\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert play.returncode == 0 and b"Traceback" not in play.stderr, play.stderr
    assert b"You leave the table." in play.stdout
    assert re.search(rb"Your hand   1 [A7KJQ65432][SHDC]", play.stdout), play.stdout


@pytest.mark.parametrize("value", ["1e10", "61", "-1", "nan"])
def test_play_speed_is_a_pace_the_clock_can_keep(capsys: pytest.CaptureFixture[str], value: str) -> None:
    # 1e10 is finite, but twice it (the pause at the end of a trick) overflowed time.sleep.
    error = refused(capsys, "play", "--seed", "1", "--bots", "random", f"--speed={value}")
    assert "--speed must be a finite number of seconds, 0 to 60" in error


def test_arena_help_names_only_the_levels_that_keep_a_deadline(capsys: pytest.CaptureFixture[str]) -> None:
    """--clock: only the level with a deadline (expert) has one to keep; 'hard' plays by its
    rules in no time, so the help must not promise it a clock."""
    from sobedesce.arena.jobs import _make_seat

    timed = [
        level for level in ("easy", "hard", "expert") if getattr(_make_seat(level, clock=True)[0], "deadline", None)
    ]
    assert timed == ["expert"]
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    clock_help = " ".join(capsys.readouterr().out.split("\n  --clock", 1)[1].split("--no-progress")[0].split())
    assert "the level expert keeps its deadline" in clock_help and "hard" not in clock_help
