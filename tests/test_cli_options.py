"""Options of every subcommand refused up front, one line and exit status 2, never a traceback
after the work has started: numbers that are not finite, save paths that cannot be written or
would mix or overwrite what is there, sizes that would exhaust the memory."""

from __future__ import annotations

import os
import re
import socket
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lease-seconds", "5"], "--lease-seconds works only with --redis"),
        (["--cluster-name", "mine"], "--cluster-name works only with --redis"),
        (
            ["--lease-seconds", "5", "--cluster-name", "mine"],
            "--lease-seconds and --cluster-name work only with --redis",
        ),
        (["--forwarded-allow-ips", "junk"], "--forwarded-allow-ips takes addresses or networks"),
        (["--forwarded-allow-ips", "10.0.0.1, 10.0.0.0/33"], "not '10.0.0.0/33'"),
    ],
)
def test_serve_options_that_would_be_ignored_are_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    # They were taken silently: a lease or a cluster name without --redis means nothing, and
    # uvicorn trusts no proxy by an entry it cannot read.  Refused before the store is opened.
    assert message in refused(capsys, "serve", *args, "--db", "bogus://x")


def test_serve_checks_forwarded_allow_ips_from_the_environment_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # uvicorn reads $FORWARDED_ALLOW_IPS when the option is not given: it was taken as it came.
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.1,junk")
    assert "$FORWARDED_ALLOW_IPS takes addresses or networks, comma-separated, or '*', not 'junk'" in refused(
        capsys, "serve", "--db", "bogus://x"
    )


def test_serve_on_a_port_in_use_makes_no_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The port was tried after the store was opened: a new --data folder was left with an empty
    # database in it.
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        message = refused(capsys, "serve", "--port", str(port), "--data", str(tmp_path / "data"))
    assert f"cannot listen on 127.0.0.1:{port}" in message
    assert not (tmp_path / "data").exists()


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
    for name in ("", "   ", "Ana\tBela", "\x1b[2J"):
        error = refused(capsys, "play", "--name", name, "--speed", "0", "--save", str(path))
        assert f"--name {name!r}: a name needs a letter or sign and no control characters" in error
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


@pytest.mark.parametrize("target", [[], ["server"]])
@pytest.mark.parametrize("value", ["1e-9", "1e-300", "0.01"])
def test_bench_seconds_too_short_to_measure_are_refused(
    capsys: pytest.CaptureFixture[str], target: list[str], value: str
) -> None:
    """--seconds 1e-300 passed as positive: the engine bench played no round in its slices and
    ended in a ZeroDivisionError traceback; the server bench reported its clients at 57,794,800%
    of a core."""
    args = ["bench", *target, f"--seconds={value}"]
    if target:
        args.append("--processes=9")  # were --seconds let through, the run would stop there
    assert f"--seconds must be at least 0.1, not {float(value):g}" in refused(capsys, *args)


def _file_limit(limit: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX limits of open files")
def test_bench_server_tables_beyond_the_open_file_limit_are_refused() -> None:
    """More players than the process may open connections: 'OSError: [Errno 24] Too many open
    files' in a traceback once the server was started, or, for --tables 100000000, an attempt at
    400 million connections."""
    command = [sys.executable, "-m", "sobedesce", "bench", "server", "--seconds", "1", "--warmup", "0"]
    for tables, connections in (("100", "400"), ("100000000", "400,000,000")):
        done = subprocess.run(
            [*command, "--tables", tables],
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=lambda: _file_limit(200),
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
        assert done.stderr == (
            f"sobedesce bench server: --tables {int(tables):,} needs {connections} connections, more than the"
            " 200 open files a process may have here (ulimit -n)\n"
        )


@pytest.mark.parametrize(
    ("url", "reason", "status"),
    [
        ("postgresql://nobody:secret@127.0.0.1:1/x", "Connection refused", 1),
        ("postgresql+nodriver://a/b", "Can't load plugin: sqlalchemy.dialects:postgresql.nodriver", 1),
        # A bad input, as every other of bench (status 2), refused before a server starts.
        ("postgresql://x:secret@[::1", "not a database URL (invalid literal for int()", 2),
    ],
    ids=["unreachable", "no-such-driver", "malformed"],
)
def test_bench_server_bad_postgresql_url_is_said_without_a_traceback(url: str, reason: str, status: int) -> None:
    pytest.importorskip("sqlalchemy")
    done = subprocess.run(
        [sys.executable, "-m", "sobedesce", "bench", "server", "--db", url, "--tables", "1", "--seconds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr[-3000:]
    (line,) = done.stderr.splitlines()
    assert line.startswith("sobedesce bench server: cannot use the database ") and reason in line, line
    assert "secret" not in line


def test_arena_save_with_an_empty_name_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--save '' passed every check (no such path, not a directory) and was then taken for the
    current directory: the records were written among whatever files were there."""
    from sobedesce.arena import ArenaError, run_arena

    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    message = refused(capsys, "arena", "--deals", "1", "--jobs", "1", "--no-progress", "--save", "")
    assert message == "sobedesce arena: error: --save needs the name of a new or empty directory, not ''\n"
    with pytest.raises(ArenaError, match="save needs the name of a new or empty directory, not ''"):
        run_arena(["random"] * 4, deals=1, jobs=1, save="")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    # "-" made a directory named "-" (the other commands read it as standard in or out).
    message = refused(capsys, "arena", "--deals", "1", "--jobs", "1", "--no-progress", "--save", "-")
    assert message == (
        "sobedesce arena: error: --save - is refused: the records are files of a directory, name the directory\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    "args",
    [["--version"], ["replay", "--help"], ["replay", "--json", "RECORD"], ["replay", "RECORD"]],
    ids=["version", "help", "replay-json", "replay"],
)
def test_a_closed_pipe_ends_a_command_quietly(tmp_path: Path, args: list[str]) -> None:
    """``sobedesce replay x.json | head -0`` (a reader gone before the output is flushed): Python
    said 'Exception ignored ... BrokenPipeError' at exit and the command ended with status 120."""
    record = tmp_path / "record.json"
    record.write_text('{"format": "sobedesce-record", "version": 1, "rounds": []}', encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}  # buffered, as by default
    command = [sys.executable, "-m", "sobedesce", *(str(record) if arg == "RECORD" else arg for arg in args)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as run:
        assert run.stdout is not None and run.stderr is not None
        run.stdout.close()  # the reader is gone before a line is written
        err = run.stderr.read()
        code = run.wait(timeout=60)
    assert (code, err) == (0, b"")


def test_arena_jobs_are_capped(capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs 100000 started as many worker processes as there were jobs, up to the 100,000 asked
    (a run of 2,000,000 deals has 160,000 jobs): a fork bomb.  (With an unknown rule set too:
    were --jobs let through, the run would stop there.)"""
    limit = 4 * (os.cpu_count() or 1)
    message = refused(capsys, "arena", "--jobs", "100000", "--rules", "nonesuch")
    assert message == f"sobedesce arena: error: --jobs is at most {limit} here (4 a core), not 100000\n"
    assert "unknown rule set" in refused(capsys, "arena", "--jobs", str(limit), "--rules", "nonesuch")


def _saved_match(path: Path) -> None:
    from sobedesce.core import Match, dumps_record

    match = Match("classic", players=["You", "Bot 1 (random)", "Bot 2 (random)", "Bot 3 (random)"])
    path.write_text(dumps_record(match) + "\n", encoding="utf-8")


@pytest.mark.parametrize("case", ["-", "/dev/stdin", "/dev/null", "a FIFO", "/proc/self/status"])
@pytest.mark.parametrize("option", ["--resume", "--save"])
def test_play_refuses_a_path_that_is_no_regular_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str, option: str
) -> None:
    """Saving replaces the file: ``--resume /dev/stdin`` replaced the system's /dev/stdin link
    by a file, and ``--resume -`` saved into a file named ``-``.  Refused before anything is
    read or written."""
    monkeypatch.chdir(tmp_path)
    path = case
    if case == "a FIFO":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
    before = sorted(os.listdir(tmp_path))
    error = refused(capsys, "play", "--speed", "0", "--bots", "random", option, path)
    assert error.startswith(f"sobedesce play: {option} "), error
    if case.startswith("/"):
        # Not the file /dev/stdin leads to (a test's stdin may be a file): the path given.
        assert error.strip().endswith(f"{option} {path}: a system file, not a match's record"), error
    assert sorted(os.listdir(tmp_path)) == before, "nothing written"
    assert os.path.islink("/dev/stdin") or not os.path.exists("/dev/stdin")


def test_play_resumed_through_a_symlink_saves_into_its_target(tmp_path: Path) -> None:
    """The atomic save replaced the link itself by a file, the target never updated."""
    target = tmp_path / "target.json"
    _saved_match(target)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    play = subprocess.run(
        [sys.executable, "-m", "sobedesce", "play", "--seed", "5", "--speed", "0", "--resume", str(link)],
        input=b"S\nquit\n",
        capture_output=True,
        timeout=60,
    )
    assert play.returncode == 0 and b"Traceback" not in play.stderr, play.stderr
    assert link.is_symlink() and link.resolve() == target
    from sobedesce.core import read_record

    assert read_record(target.read_text(encoding="utf-8")).rounds, "the target is saved on into"


def test_play_resumed_keeps_the_bots_its_seats_are_named_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--resume FILE --bots easy`` played easy bots under the saved names "Bot 1 (random)",
    and the next --resume silently went back to them: a different level is refused."""
    path = tmp_path / "m.json"
    _saved_match(path)
    saved = path.read_text(encoding="utf-8")
    error = refused(capsys, "play", "--speed", "0", "--resume", str(path), "--bots", "easy")
    assert "is played against random, random, random bots, and a resumed match keeps its bots" in error
    assert "leave out --bots easy" in error
    assert path.read_text(encoding="utf-8") == saved


def test_play_resumed_keeps_tuned_bots_and_says_so_of_seats_without_a_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bots random`` was accepted for seats named ``Bot 1 (expert:play_samples=5)`` (the
    name was not read as a level), and a seat whose name carries no level was called hard."""
    from sobedesce.core import Match, dumps_record

    path = tmp_path / "st.json"
    players = ["You", "Bot 1 (expert:play_samples=5)", "random#2", "Bot 3 (my.bots:MyBot)"]
    path.write_text(dumps_record(Match("classic", players=players)) + "\n", encoding="utf-8")
    error = refused(capsys, "play", "--speed", "0", "--resume", str(path), "--bots", "random")
    assert "is played against expert:play_samples=5, any, my.bots:MyBot bots" in error, error
    assert "a resumed match keeps its bots: leave out --bots random" in error
    # The plug-in is not installed: said, naming the seat, not played by another bot.
    error = refused(capsys, "play", "--speed", "0", "--resume", str(path))
    assert f"cannot resume {path}: seat 3 is 'Bot 3 (my.bots:MyBot)': bot 'my.bots:MyBot'" in error, error


def test_play_save_into_an_existing_dash_file_advises_a_resume_that_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _saved_match(tmp_path / "-x.json")
    error = refused(capsys, "play", "--speed", "0", "--save=-x.json")
    assert "(to continue the match saved there, use --resume ./-x.json)" in error, error


def test_demo_refuses_to_save_into_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``demo --save -`` wrote a file named ``-`` ("Record saved to -"), where ``replay -`` reads
    standard input and ``play --save -`` is refused: refused too, before the match is played."""
    monkeypatch.chdir(tmp_path)
    error = refused(capsys, "demo", "--seed", "4", "--save", "-")
    assert error == "sobedesce demo: --save - is refused: standard output carries the match, name the record's file\n"
    assert not os.listdir(tmp_path), "nothing written"
    # As play words it: the option, "-", "is refused", then why.
    play = refused(capsys, "play", "--speed", "0", "--bots", "random", "--save", "-")
    assert play.startswith("sobedesce play: --save - is refused: ")
    assert not os.listdir(tmp_path)


def test_demo_prints_whole_riscos_in_full(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The riscos line used ``:+g``: a risco of a million or more came out as 1e+06."""
    from sobedesce.cli import demo
    from sobedesce.core import Match

    finished = Match("classic", scores=[-5, 1_000_000_000, 999_999_999, 7], players=["Ana", "Bruno", "Carla", "Duarte"])
    assert finished.is_over
    monkeypatch.setattr(demo, "play_random_match", lambda rules, rng: finished)
    assert main(["demo", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        "Riscos: Ana (seat 0) +2000000006, Bruno (seat 1) -1000000000, Carla (seat 2) -999999999, Duarte (seat 3) -7\n"
        in out
    ), out
