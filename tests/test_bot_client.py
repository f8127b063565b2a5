"""``sobedesce bot``: a bot in a process of its own, seated at a real server's table over the
WebSocket protocol (the server as tests/test_server.py starts it, tests/server_client.py).

Nothing sleeps: each test waits for the client process to exit, or for a message, with a
generous deadline.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server_client import TIMEOUT, GameClient, ServerProcess, unique_name

pytestmark = pytest.mark.slow

MATCH_TIMEOUT = 4 * TIMEOUT
"""Seconds a whole match of the client may take (a busy machine)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A ``sobedesce serve --pace 0`` on a free port, stopped after the test."""
    with ServerProcess(tmp_path) as started:
        yield started


def bot_command(url: str, *args: str) -> list[str]:
    return [sys.executable, "-m", "sobedesce", "bot", url, *args]


def start_bot(url: str, *args: str) -> subprocess.Popen[str]:
    """The client started, its output kept to be read when it ends."""
    return subprocess.Popen(bot_command(url, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_bot(url: str, *args: str, timeout: float = MATCH_TIMEOUT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(bot_command(url, *args), capture_output=True, text=True, timeout=timeout)


def match_line(stdout: str) -> str:
    lines = [line for line in stdout.splitlines() if line.startswith("match over: ")]
    assert len(lines) == 1, stdout
    return lines[0]


def test_a_quick_match_is_played_to_the_end_and_recorded(server: ServerProcess) -> None:
    name = unique_name("Bq")
    done = run_bot(server.base, "--quick", "easy", "--rules", "table", "--bot", "basic", "--name", name, "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    token = re.search(rf"registered {name}; its token .*: (\S+)$", out, re.M)
    assert token is not None, out
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert rounds, out
    # The rule set and the seats are said once, before the first round.
    said = [line for line in out.splitlines() if line.startswith("table rules; seats: ")]
    assert len(said) == 1 and f"0 {name} (this bot), 1 Bot 1 (easy)" in said[0], out
    assert out.index(said[0]) < out.index(rounds[0])
    assert all(line.count("(") >= 4 for line in rounds)
    last = match_line(out)
    assert f"{name} (this bot)" in last and "riscos" in last
    with server.http() as http:
        history = http.get(f"/api/players/{name}/history")
        assert history.status_code == 200, history.text
        (entry,) = history.json()
        assert entry["rules"] == "table"
        assert f"{name} (this bot) {entry['score']}" in last
        summary = http.get(f"/api/matches/{entry['match']}").json()
    # A line a round, each with the scores the server recorded.
    assert summary["players"][entry["seat"]] == name
    assert len(rounds) == len(summary["summary"]["rounds"])
    for line, recorded in zip(rounds, summary["summary"]["rounds"], strict=True):
        for seat, player in enumerate(summary["players"]):
            shown = f"{player} (this bot)" if seat == entry["seat"] else player
            assert f"{shown} {recorded['scores'][seat]} (" in line, (line, recorded)
    assert f"/api/matches/{entry['match']}/record" in out

    # The token printed plays again, as the same player.
    again = run_bot(server.base, "--quick", "easy", "--bot", "random", "--token", token.group(1))
    assert again.returncode == 0, again.stderr
    assert f"playing as {name}" in again.stdout
    with server.http() as http:
        assert len(http.get(f"/api/players/{name}/history").json()) == 2


def test_a_bots_record_link_of_a_private_table_carries_its_invitation(server: ServerProcess) -> None:
    """A private table's record is given only with its invitation (or a player's token): the
    link the client printed led to a 404."""
    with server.http() as http:
        host = http.post("/api/players", json={"name": unique_name("Host")}).json()["token"]
        made = http.post(
            "/api/tables",
            json={"seats": ["open", "easy", "easy", "easy"], "private": True},
            headers={"Authorization": f"Bearer {host}"},
        ).json()
    done = run_bot(server.base, "--code", made["invite"], "--bot", "basic", "--name", unique_name("Bp"))
    assert done.returncode == 0, done.stderr
    link = re.search(r"^record: (\S+)$", done.stdout, re.M)
    assert link is not None and link.group(1).endswith(f"/record?code={made['invite']}"), done.stdout
    with server.http() as http:
        assert http.get(link.group(1)).status_code == 200
        assert http.get(link.group(1).split("?")[0]).status_code == 404


def test_a_bot_takes_the_open_seat_of_a_persons_table(server: ServerProcess) -> None:
    name = unique_name("Bt")

    async def scenario() -> tuple[subprocess.Popen[str], GameClient]:
        person = await GameClient.person(server, "ana")
        table = await person.create(["you", "open", "easy", "easy"], rules="classic")
        client = start_bot(server.base, "--table", table["id"], "--bot", "basic", "--name", name)
        # The match starts once the bot has taken its seat; the person plays it to the end.
        await person.play(random.Random(11))
        return client, person

    client, person = asyncio.run(scenario())
    out, err = client.communicate(timeout=MATCH_TIMEOUT)
    assert client.returncode == 0, err
    assert person.match_event is not None and person.table_info is not None
    seats = person.table_info["seats"]
    assert seats[1]["name"] == name and seats[1]["kind"] == "person"
    # Both saw the same end: the same scores, winners and riscos, seat by seat.
    names = [seat["name"] + (" (this bot)" if seat["seat"] == 1 else "") for seat in seats]
    event = person.match_event
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, event["scores"], strict=True))
    winners = ", ".join(names[seat] for seat in event["winners"])
    line = match_line(out)
    assert f"won by {winners}; scores {scores}; riscos" in line, (line, event)
    assert f"seated at table {person.table}, seat 1" in out


def free_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def refused(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_an_unreachable_server_is_said_in_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    line = refused(run_bot(url, "--quick", "easy", "--bot", "basic", "--name", "Nobody", timeout=TIMEOUT))
    assert line.startswith(f"sobedesce bot: cannot reach the server at {url}")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "nonesuch"], "sobedesce bot: unknown bot 'nonesuch'"),
        (["--bot", "strong:samples=3"], "bot 'strong' has no setting 'samples'"),
        (["--bot", "basic", "--rules", "table"], "--rules works only with --quick"),
    ],
)
def test_bad_options_are_refused_before_connecting(args: list[str], message: str) -> None:
    # Nothing listens at the address: the options are refused before any connection.
    url = f"http://127.0.0.1:{free_port()}"
    assert message in refused(run_bot(url, "--table", "abcd", "--name", "Nobody", *args, timeout=TIMEOUT))


def test_a_bad_url_is_refused() -> None:
    assert "bad server URL 'localhost'" in refused(
        run_bot("localhost", "--quick", "easy", "--bot", "basic", "--name", "N")
    )


def test_the_servers_refusals_are_said_in_one_line(server: ServerProcess) -> None:
    name = unique_name("Bc")
    line = refused(run_bot(server.base, "--code", "nonsense", "--bot", "basic", "--name", name))
    assert line.startswith("sobedesce bot: cannot sit at the table: no table has that invitation code (no_table)")
    # The name was registered before the seat was asked for: said, with how to use it.
    assert re.search(rf"; the name {name} is registered now: try again with --token \S+$", line), line
    line = refused(run_bot(server.base, "--table", "nosuch", "--bot", "basic", "--name", unique_name("Bn")))
    assert "cannot sit at the table: no table 'nosuch' is open or in play (no_table)" in line
    line = refused(run_bot(server.base, "--quick", "easy", "--bot", "basic", "--token", "not-a-token"))
    assert "the server refused the token: unknown player token" in line
    line = refused(run_bot(server.base, "--quick", "easy", "--bot", "basic", "--name", "Bot 7"))
    assert "the server refused the name 'Bot 7'" in line and "(bad_name)" in line


def test_an_address_with_no_game_server_is_said_so(server: ServerProcess) -> None:
    # A path after the address: the server answers, but no game's WebSocket is there (it was
    # "cannot reach the server ... HTTP 403", which reads as a foreign Origin).
    line = refused(run_bot(server.base + "/foo", "--quick", "easy", "--bot", "basic", "--name", unique_name("Bp")))
    assert line.startswith(
        f"sobedesce bot: no sobedesce server answers at {server.base.replace('http', 'ws', 1)}/foo/ws (HTTP 4"
    )
    assert line.endswith("give the server's address, like http://127.0.0.1:8000"), line


BROKEN_BOTS = """
from sobedesce.core import Play


class IllegalBot:
    name = "illegal"

    def act(self, view, rng):
        held = [c for c in view.hand if Play.of(c) not in view.legal_actions]
        if held and view.legal_actions and isinstance(view.legal_actions[0], Play):
            return Play.of(held[0])
        return view.legal_actions[0]

    def explain(self, view, rng):
        return []


class TextBot(IllegalBot):
    def act(self, view, rng):
        return "7H"
"""


def test_a_bot_that_breaks_the_rules_is_said_to_as_the_arena_says_it(server: ServerProcess, tmp_path: Path) -> None:
    # It was "chose an illegal action ...: Play(card=Card('JH'))": no reason, a repr.
    (tmp_path / "brokenbots.py").write_text(BROKEN_BOTS)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def broken(bot: str) -> str:
        done = subprocess.run(
            bot_command(server.base, "--quick", "easy", "--bot", bot, "--name", unique_name("Bb")),
            capture_output=True,
            text=True,
            timeout=MATCH_TIMEOUT,
            env=env,
        )
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        return lines[0]

    line = broken("brokenbots:TextBot")
    assert line == "sobedesce bot: bot brokenbots:TextBot broke the rules: returned '7H', which is not an action"
    # The engine's reason, as the server gives it (must follow suit, must trump, ...).
    line = broken("brokenbots:IllegalBot")
    assert re.fullmatch(
        r"sobedesce bot: bot brokenbots:IllegalBot broke the rules: [2-7AKJQ][SHDC] is illegal: \S.+", line
    ), line


def test_a_bot_comes_back_after_the_server_restarts(tmp_path: Path) -> None:
    """The server stopped and started again mid-match (same address, same store): the client
    connects again and takes its seat back from the last event it saw, says so, and plays the
    match to its end with the person who came back too.  (Tried by hand before; the server of
    the other tests starts on a new port each time, so this one is given a port of its own.)"""
    name = unique_name("Br")
    port = free_port()
    with ServerProcess(tmp_path, extra=["--port", str(port)]) as server:

        async def first() -> tuple[subprocess.Popen[str], GameClient, str]:
            person = await GameClient.person(server, "ana")
            table = await person.create(["you", "open", "easy", "easy"], rules="table")
            client = start_bot(server.base, "--table", table["id"], "--bot", "basic", "--name", name)
            # Some way into the match: the bot has decided already.
            await person.play(random.Random(21), stop=lambda c: (c.v or 0) >= 40)
            await person.close()
            return client, person, table["id"]

        client, person, table = asyncio.run(first())
        before = server.base
        server.stop()
        server.start()
        assert server.base == before

        async def after() -> GameClient:
            back = await GameClient.person(server, "ana back", token=person.token)
            await back.join(table, since=person.v)
            await back.play(random.Random(22))
            return back

        back = asyncio.run(after())
        out, err = client.communicate(timeout=MATCH_TIMEOUT)
    assert client.returncode == 0, err
    assert "Traceback" not in err
    assert "the server is restarting; connecting again" in err, err
    assert back.match_event is not None
    assert match_line(out).startswith("match over: "), out
