"""Options of every subcommand refused up front, one line and exit status 2, never a traceback
after the work has started: numbers that are not finite, save paths that cannot be written or
would mix or overwrite what is there, sizes that would exhaust the memory."""

from __future__ import annotations

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
    assert "Is a directory" in refused(capsys, "demo", "--save", str(tmp_path))
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
