"""``sobedesce serve`` end to end: a real server in a subprocess, real WebSocket clients.

Every test starts its own server on a free loopback port (``tests/server_client.py``) with
``--pace 0``, so bots move at once; scripted people pick their decisions from ``state.legal``.
Nothing sleeps: each step waits for the message that shows it happened.  The whole-match
and SIGKILL tests also run against PostgreSQL when ``SOBEDESCE_TEST_DATABASE_URL`` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import unicodedata
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server_client import (
    POSTGRES_SKIP,
    POSTGRES_URL,
    EngineReplay,
    GameClient,
    LeakWatch,
    Message,
    ServerProcess,
    answer_to,
    at_version,
    card_strings,
    choose_action,
    current_trick,
    mid_trick,
    postgres_schema,
    unique_name,
)
from sobedesce.core import read_record

pytestmark = pytest.mark.slow

MakeServer = Callable[..., ServerProcess]


# -- fixtures ------------------------------------------------------------------------------


class _Servers:
    def __init__(self, root: Path, db: str | None = None) -> None:
        self.root, self.db = root, db
        self.started: list[ServerProcess] = []

    def __call__(self, **options: Any) -> ServerProcess:
        workdir = self.root / f"server{len(self.started)}"
        workdir.mkdir()
        server = ServerProcess(workdir, db=self.db, **options)
        self.started.append(server)
        return server.start()

    def stop_all(self) -> None:
        for server in self.started:
            server.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[MakeServer]:
    """Start servers on SQLite stores in ``tmp_path``; they are stopped after the test."""
    servers = _Servers(tmp_path)
    yield servers
    servers.stop_all()


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES_URL, reason=POSTGRES_SKIP))]
)
def db(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """``None`` for SQLite in the data folder, or the URL of a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield None
        return
    assert POSTGRES_URL is not None
    with postgres_schema(POSTGRES_URL) as url:
        yield url


@pytest.fixture
def db_server(db: str | None, tmp_path: Path) -> Iterator[MakeServer]:
    """Start servers on the ``db`` store; stopped before the store is dropped."""
    servers = _Servers(tmp_path, db)
    yield servers
    servers.stop_all()


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


async def finished_table(client: GameClient) -> Message:
    """The ``table`` message that tells the match is over (with its ``match_id``)."""
    await client.reach(lambda c: c.table_info is not None and c.table_info["status"] == "finished", "the end")
    table = client.table_info
    assert table is not None
    assert isinstance(table["match_id"], int)
    return table


async def stop_playing(client: GameClient, playing: asyncio.Task[None]) -> None:
    """End a background ``play`` by closing its connection (cancelling a task blocked in
    ``wait_for`` may be lost on Python 3.11 when a message arrives at the same moment)."""
    await client.close()
    with contextlib.suppress(ConnectionClosed):
        await playing


def check_record(server: ServerProcess, match_id: int, clients: list[GameClient]) -> EngineReplay:
    """The match's record, replayed by ``read_record`` to the scores the clients were told,
    and decision by decision against every event and state each client received."""
    with server.http() as http:
        response = http.get(f"/api/matches/{match_id}/record")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    record = response.text
    match = read_record(record)
    assert match.is_over
    replay = EngineReplay.of(record)
    assert replay.match.scores == match.scores
    for client in clients:
        assert client.match_event is not None, f"{client.label} never heard the match end"
        assert client.match_event["scores"] == list(match.scores)
        assert client.match_event["winners"] == list(match.winners)
        assert client.match_event["v"] == replay.version
        assert replay.check_client(client) > 0
    return replay


# -- whole matches ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_a_person_plays_a_whole_match_against_three_bots(rules: str, db_server: MakeServer) -> None:
    server = db_server()

    async def scenario() -> tuple[GameClient, Message]:
        person = await GameClient.person(server, "ana")
        joined = await person.quick(rules, "easy")
        assert joined["seat"] == 0
        assert person.table_info is not None and person.table_info["rules"] == rules
        assert [s["kind"] for s in person.table_info["seats"]] == ["person", "bot", "bot", "bot"]
        await person.play(random.Random(f"bots-{rules}"))
        table = await finished_table(person)
        await person.close()
        return person, table

    person, table = run(scenario())
    assert person.player is not None
    name = person.player["name"]
    replay = check_record(server, table["match_id"], [person])
    assert replay.match.players is not None and replay.match.players[0] == name
    assert replay.match.rules.name == rules
    with server.http() as http:
        summary = http.get(f"/api/matches/{table['match_id']}").json()
        bots_board = http.get("/api/leaderboard", params={"among": "bots"}).json()
        people_board = http.get("/api/leaderboard", params={"among": "people"}).json()
        history = http.get(f"/api/players/{name.upper()}/history").json()
    assert summary["players"][0] == name
    mine = [row for row in bots_board if row["player"] == name]
    assert len(mine) == 1 and mine[0]["played"] == 1
    assert mine[0]["won"] == (0 in replay.match.winners)
    assert not [row for row in people_board if row["player"] == name], "a match with bots counted among people"
    assert len(history) == 1
    entry = history[0]
    assert entry["match"] == table["match_id"] and entry["seat"] == 0 and entry["with_bots"] is True
    assert entry["score"] == replay.match.scores[0] and entry["scores"] == list(replay.match.scores)
    assert entry["rules"] == rules


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_four_people_and_a_spectator_play_a_whole_match_and_learn_no_hidden_card(
    rules: str, make_server: MakeServer
) -> None:
    server = make_server()
    seed = f"seed-{uuid.uuid4().hex}"
    watch = LeakWatch(secrets=(seed,))

    async def connect(label: str) -> GameClient:
        client = await GameClient.open(server, label)
        watch.attach(client)
        welcome = await client.hello(name=unique_name(label))
        assert welcome["type"] == "welcome"
        return client

    async def scenario() -> tuple[list[GameClient], GameClient, Message]:
        host = await connect("host")
        table = await host.create(["you", "open", "open", "open"], rules, seed=seed)
        table_id = table["id"]
        assert table["status"] == "open" and table["rules"] == rules
        assert "secret" not in table and "seed" not in table
        assert host.seat == 0 and host.state is None, "no state before the match starts"
        spectator = await connect("spectator")
        await spectator.watch(table_id)
        assert spectator.state is None
        await spectator.send({"type": "list"})
        listed = await spectator.until_type("tables")
        assert any(t["id"] == table_id and t["status"] == "open" for t in listed["tables"])

        second = await connect("second")
        await second.join(table_id, seat=2)
        assert second.seat == 2
        third = await connect("third")
        # Before the match: leaving opens the seat again, and joining takes it back.
        await third.join(table_id)
        assert third.seat == 1
        await third.send({"type": "leave"})
        await third.until_type("left")
        await host.reach(
            lambda c: c.table_info is not None and c.table_info["seats"][1]["kind"] == "open", "seat 1 open again"
        )
        await third.join(table_id)
        assert third.seat == 1
        assert host.state is None and spectator.state is None, "the match started before every seat was taken"

        fourth = await connect("fourth")
        await fourth.send({"type": "join", "table": table_id, "seat": 2})
        taken = await fourth.until_type("error")
        assert taken["code"] == "seat_taken" and "seat 2" in taken["message"]
        await fourth.join(table_id)
        assert fourth.seat == 3
        late = await connect("late")
        await late.send({"type": "join", "table": table_id})
        refused = await late.until_type("error")
        assert refused["code"] == "table_full"

        people = [host, third, second, fourth]
        assert [p.seat for p in people] == [0, 1, 2, 3]
        await spectator.reach(lambda c: c.table_info is not None and c.table_info["status"] == "playing", "start")
        assert spectator.table_info is not None
        assert [s["kind"] for s in spectator.table_info["seats"]] == ["person"] * 4
        await asyncio.gather(
            *(p.play(random.Random(f"{rules}-{p.seat}")) for p in people),
            spectator.until(lambda m: spectator.match_event is not None, what="the match event"),
        )
        tables = await asyncio.gather(*(finished_table(c) for c in [*people, spectator]))
        assert len({t["match_id"] for t in tables}) == 1
        for client in [*people, spectator, late]:
            await client.close()
        return people, spectator, tables[0]

    people, spectator, table = run(scenario())
    assert watch.problems == [], "\n".join(watch.problems[:5])
    assert watch.checked_all([*people, spectator]) > 0
    check_record(server, table["match_id"], [*people, spectator])
    check_spectator_saw_no_hand(spectator)
    names = [p.player["name"] for p in people if p.player is not None]
    with server.http() as http:
        board = {row["player"]: row for row in http.get("/api/leaderboard", params={"among": "people"}).json()}
        history = http.get(f"/api/players/{names[2]}/history").json()
    for name in names:
        assert board[name]["played"] == 1
    assert history[0]["seat"] == 2 and history[0]["with_bots"] is False
    assert history[0]["players"] == names


@pytest.mark.parametrize("rules", ["classic", "table"])
def test_a_person_and_a_spectator_at_a_bot_table_learn_no_hidden_card(rules: str, make_server: MakeServer) -> None:
    server = make_server()
    watch = LeakWatch()

    async def scenario() -> tuple[GameClient, GameClient, Message]:
        person = await GameClient.open(server, "person")
        watch.attach(person)
        await person.hello(name=unique_name("Ana"))
        table = await person.create(["open", "easy", "easy", "easy"], rules)
        spectator = await GameClient.open(server, "spectator")
        watch.attach(spectator)
        await spectator.hello(name=unique_name("Eve"))
        await spectator.watch(table["id"])
        await person.join(table["id"])
        assert person.seat == 0
        await asyncio.gather(
            person.play(random.Random(f"leak-{rules}")),
            spectator.until(lambda m: spectator.match_event is not None, what="the match event"),
        )
        finished = await finished_table(person)
        await person.close()
        await spectator.close()
        return person, spectator, finished

    person, spectator, table = run(scenario())
    assert watch.problems == [], "\n".join(watch.problems[:5])
    replay = check_record(server, table["match_id"], [person, spectator])
    # The spectator watched from before the first deal: it got every event of the match.
    assert sorted(spectator.events) == list(range(1, replay.version + 1))
    check_spectator_saw_no_hand(spectator)
    # Every bot's exchange was told as a count only, to the person too.
    exchanges = [e for e in person.events.values() if e["kind"] == "exchange" and e["seat"] != 0]
    assert exchanges and all("discard" not in e and "drawn" not in e for e in exchanges)


def check_spectator_saw_no_hand(spectator: GameClient) -> None:
    states = 0
    for message in spectator.log:
        keys = set(_keys(message))
        assert not keys & {"hand", "legal", "my_discards", "discard", "drawn"}, f"the spectator got {message}"
        states += message.get("state") is not None
    assert states > 10


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


# -- coming back ----------------------------------------------------------------------------


async def _person_at_a_quick_match(server: ServerProcess, label: str) -> tuple[GameClient, str]:
    """A new person at a quick match (classic rules, easy bots), and the table's id."""
    person = await GameClient.person(server, label)
    await person.quick("classic", "easy")
    assert person.table is not None
    return person, person.table


def test_a_seat_says_when_its_bot_will_play_for_a_person_gone_or_out_of_time(make_server: MakeServer) -> None:
    """The page said "offline", then "away: a bot plays", with nothing in between to say when;
    and at a table with a clock nothing said how long the person to act had.  Each seat's
    ``bot_in`` says it: the seconds until its bot plays, else null."""
    server = make_server(away_after=300)

    def bot_in(client: GameClient, seat: int) -> Any:
        assert client.table_info is not None
        return client.table_info["seats"][seat]["bot_in"]

    async def scenario() -> None:
        # Gone: from the drop, --away-after (300 s) counts down; back, nothing runs.
        person, table = await _person_at_a_quick_match(server, "gone")
        watcher = await GameClient.person(server, "eve")
        await watcher.watch(table)
        assert bot_in(watcher, 0) is None
        await person.close()
        await watcher.reach(lambda c: bot_in(c, 0) is not None, "the away timer")
        assert 0 < bot_in(watcher, 0) <= 300 and [bot_in(watcher, s) for s in (1, 2, 3)] == [None] * 3
        back = await GameClient.person(server, "back", token=person.token)
        await back.join(table)
        await watcher.reach(lambda c: bot_in(c, 0) is None, "the timer stopped")
        await back.close()
        await watcher.close()

        # A clock of 200 s: the person to act has it, counted down from their turn.
        host = await GameClient.person(server, "host")
        clocked = (await host.create(["you", "open", "easy", "easy"], clock=200))["id"]
        guest = await GameClient.person(server, "guest")
        await guest.join(clocked)

        def person_to_act(c: GameClient) -> bool:
            return c.state is not None and c.state.get("to_act") in (0, 1) and bot_in(c, c.state["to_act"]) is not None

        await host.reach(person_to_act, "a person's turn with the clock running")
        assert host.state is not None
        seat = host.state["to_act"]
        assert 0 < bot_in(host, seat) <= 200 and bot_in(host, 1 - seat) is None
        await host.close()
        await guest.close()

    run(scenario())


def test_reconnecting_mid_trick_resumes_from_the_last_event(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("resume")
        first, table = await _person_at_a_quick_match(server, "ana")
        await first.play(rng, stop=mid_trick)
        v0, state0 = first.v, first.state
        assert v0 is not None and state0 is not None and v0 >= 6
        await first.close()

        # Back with the same token on a new connection: nothing happened (the bots wait).
        again = await GameClient.person(server, "ana2", token=first.token)
        assert again.player == first.player
        await again.join(table, since=v0)
        sync = again.last_sync
        assert sync["type"] == "update" and sync["v"] == v0 and sync["events"] == []
        assert sync["state"] == state0
        # Missed events come again, exactly those after ``since``, as they were.
        await again.join(table, since=v0 - 3)
        sync = again.last_sync
        assert sync["type"] == "update" and sync["v"] == v0
        assert [e["v"] for e in sync["events"]] == [v0 - 2, v0 - 1, v0]
        assert sync["events"] == [first.events[v] for v in (v0 - 2, v0 - 1, v0)]
        assert sync["state"] == state0
        # No ``since``, or one the table never reached: a snapshot.
        await again.join(table)
        assert again.last_sync["type"] == "snapshot" and again.last_sync["v"] == v0
        assert again.last_sync["state"] == state0
        await again.join(table, since=v0 + 100)
        assert again.last_sync["type"] == "snapshot" and again.last_sync["v"] == v0
        # A spectator coming back gets the public copies.
        spectator = await GameClient.person(server, "eve")
        await spectator.watch(table, since=v0 - 2)
        assert spectator.last_sync["type"] == "update"
        assert [e["v"] for e in spectator.last_sync["events"]] == [v0 - 1, v0]
        assert "hand" not in spectator.last_sync["state"]
        # The decision is still the person's, and it is taken.
        ack = await again.decide(choose_action(state0, rng))
        assert ack["v"] > v0
        assert again.v is not None and again.v >= ack["v"]
        assert again.events[v0 + 1]["seat"] == 0 and again.events[v0 + 1]["kind"] == "play"

    run(scenario())


def test_a_since_older_than_the_kept_events_gets_a_snapshot(make_server: MakeServer) -> None:
    # keep_events is not a command-line option: the same app, launched with Settings(keep_events=5).
    server = make_server(settings={"pace": 0, "keep_events": 5})

    async def scenario() -> None:
        person = await GameClient.person(server, "ana")
        await person.quick("classic", "easy")
        await person.play(random.Random("old"), stop=lambda c: c.my_turn and (c.v or 0) >= 12)
        v = person.v
        assert v is not None
        await person.join(person.table, since=v - 5)  # the oldest kept event is v - 4
        assert person.last_sync["type"] == "update"
        assert [e["v"] for e in person.last_sync["events"]] == list(range(v - 4, v + 1))
        await person.join(person.table, since=v - 6)
        assert person.last_sync["type"] == "snapshot" and person.last_sync["v"] == v
        await person.join(person.table, since=1)
        assert person.last_sync["type"] == "snapshot" and person.last_sync["v"] == v
        assert person.state is not None and person.last_sync["state"]["hand"] == person.state["hand"]

    run(scenario())


def test_a_person_gone_before_the_match_started_is_stood_in_for_once_it_starts(make_server: MakeServer) -> None:
    """Ana made a table and closed her tab; Bruno took its open seat later, the match started
    and stood still for good at Ana's first decision: her seat was never marked away, since
    only a drop during the match (or a restart) counted the time (found on the page)."""
    server = make_server(away_after=0.5)

    async def scenario() -> None:
        ana = await GameClient.person(server, "ana")
        table = (await ana.create(["you", "open", "easy", "easy"]))["id"]
        await ana.close()
        bruno = await GameClient.person(server, "bruno")
        await bruno.join(table, seat=1)
        away = await bruno.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="seat 0 marked away"
        )
        assert away["table"]["status"] == "playing" and away["table"]["seats"][0]["connected"] is False
        # The match goes on past Ana's decisions, taken by her stand-in.
        await bruno.play(random.Random("gone"), stop=lambda c: any(e.get("seat") == 0 for e in c.events.values()))
        await bruno.close()

    run(scenario())


def test_a_bot_stands_in_after_a_drop_and_the_person_takes_the_seat_back(make_server: MakeServer) -> None:
    # Paced: while the seat is away, its stand-in and the other bots play on, and at no pace they
    # finished the match between a `leave` and the `join` after it on a busy machine, so that
    # no seat could be marked away any more.  At 0.25 s a bot decision, what is left of a match
    # takes half a minute or more.
    server = make_server(away_after=0.5, pace=0.25)

    async def scenario() -> None:
        rng = random.Random("away")
        person, table = await _person_at_a_quick_match(server, "ana")
        watcher = await GameClient.person(server, "eve")
        await watcher.watch(table)
        await person.play(rng, stop=lambda c: c.my_turn)
        v0 = person.v
        assert v0 is not None
        await person.close()

        away = await watcher.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="seat 0 marked away"
        )
        assert away["table"]["seats"][0]["connected"] is False
        assert watcher.v == v0, "someone decided for the seat before it was marked away"
        await watcher.until(
            lambda m: m["type"] == "update" and any(e["v"] == v0 + 1 for e in m["events"]),
            what="the stand-in's decision",
        )
        stand_in = watcher.events[v0 + 1]
        assert stand_in["seat"] == 0 and stand_in["kind"] in ("trump", "exchange", "play"), stand_in

        back = await GameClient.person(server, "ana2", token=person.token)
        await back.join(table, since=v0)
        assert back.last_sync["type"] == "update"
        assert back.events[v0 + 1]["seat"] == 0  # the person hears what was done for them
        present = await watcher.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["connected"], what="seat 0 back"
        )
        assert present["table"]["seats"][0]["away"] is False
        # The person's decisions are theirs again.  A stand-in's decision that was being
        # stored as they came back may overtake their first one (stale, with an update);
        # after it, the seat's decisions are the person's.
        for attempt in range(2):
            await back.reach(lambda c: c.my_turn, "the person's next turn")
            before = back.v
            assert before is not None and back.state is not None
            request_id = await back.act(choose_action(back.state, rng))
            answer = await back.until(answer_to(request_id), what="the answer")
            if answer["type"] == "ack":
                break
            assert answer["code"] == "stale" and attempt == 0, answer
            await back.reach(at_version(before + 1), "the decision that overtook")
        assert before is not None
        await back.reach(at_version(answer["v"]), "the update")
        assert back.events[before + 1]["seat"] == 0, "the person's decision was not the one taken"
        assert back.v is not None and back.v >= answer["v"]

        # Leaving during the match hands the seat to the stand-in at once ...
        await back.send({"type": "leave"})
        await back.until_type("left")
        await watcher.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="away on leave")
        # ... joining takes it back ...
        await back.join(table)
        await watcher.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"], what="back")
        # ... and turning spectator on one's only connection leaves the seat too.
        await back.watch(table)
        await watcher.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="away on watch")

    run(scenario())


def test_a_decision_is_shown_only_once_it_is_stored(make_server: MakeServer) -> None:
    # The store holds the round's first decision (the chooser's trump) until the test lets it go.
    server = make_server(settings={"pace": 0}, gate=2)

    async def scenario() -> None:
        person = await GameClient.person(server, "ana")
        watcher = await GameClient.person(server, "eve")  # registered now: the store is one writer
        await person.quick("classic", "easy")
        playing = asyncio.create_task(person.play(random.Random("gate"), stop=lambda c: False))
        gate = await asyncio.to_thread(server.read_line)
        assert gate.startswith("GATE decision 2 "), gate
        # Someone who comes to the table meanwhile is told the stored match: the deal, and
        # no trump yet, at the version it is stored under.
        await watcher.watch(person.table or "")
        sync = watcher.last_sync
        assert sync["v"] == 1, sync
        assert sync["state"]["phase"] == "trump" and sync["state"]["trump"] is None, sync["state"]
        assert sync["state"]["hand_sizes"] == [3, 3, 3, 3]
        server.release()
        await watcher.reach(at_version(2), "the stored decision")
        assert watcher.events[2]["kind"] == "trump"
        assert watcher.state is not None and watcher.state["phase"] in ("exchange", "play", "deal")
        await stop_playing(person, playing)

    run(scenario())


def test_a_match_over_when_the_server_died_is_recorded_when_it_starts_again(make_server: MakeServer) -> None:
    # The last decision is stored; the server dies while recording the finished match.
    server = make_server(settings={"pace": 0}, gate="finish")

    async def scenario() -> GameClient:
        person = await GameClient.person(server, "ana")
        await person.quick("table", "easy")
        playing = asyncio.create_task(person.play(random.Random("finish"), stop=lambda c: False))
        gate = await asyncio.to_thread(server.read_line)
        assert gate == "GATE finish"
        await stop_playing(person, playing)
        return person

    person = run(scenario())
    assert person.match_event is None, "the end was told before the match was recorded"
    server.kill()
    server.settings = None  # the same data folder, served by `sobedesce serve`
    server.start()
    assert person.player is not None
    with server.http() as http:
        table = http.get(f"/api/tables/{person.table}").json()
        assert table["status"] == "finished" and isinstance(table["match_id"], int), table
        record = http.get(f"/api/matches/{table['match_id']}/record")
        history = http.get(f"/api/players/{person.player['name']}/history").json()
    assert record.status_code == 200
    replay = EngineReplay.of(record.text)
    assert replay.match.is_over
    assert replay.check_client(person) > 0
    assert [entry["match"] for entry in history] == [table["match_id"]]


async def at_mid_trick(server: ServerProcess, rules: str, rng: random.Random) -> GameClient:
    """A person at a quick match against easy bots, played by ``rng`` to the middle of a trick."""
    person = await GameClient.person(server, "ana")
    await person.quick(rules, "easy")
    await person.play(rng, stop=mid_trick)
    return person


def test_a_killed_server_resumes_the_match_where_it_was(db_server: MakeServer) -> None:
    server = db_server()
    rng = random.Random("kill")
    person = run(at_mid_trick(server, "classic", rng))
    v0, state0 = person.v, person.state
    assert v0 is not None and state0 is not None
    server.kill()
    server.start()

    async def after() -> tuple[GameClient, Message]:
        back = await GameClient.person(server, "ana2", token=person.token)
        await back.join(person.table)
        snapshot = back.last_sync
        assert snapshot["type"] == "snapshot" and snapshot["v"] == v0
        state = snapshot["state"]
        for key in ("hand", "scores", "tricks", "phase", "legal", "to_act", "round", "trump", "my_discards"):
            assert state[key] == state0[key], key
        assert state == state0
        assert snapshot["table"]["status"] == "playing"
        # The events were rebuilt from the store: the same numbers, the same contents.
        await back.join(person.table, since=v0 - 4)
        assert back.last_sync["events"] == [person.events[v] for v in range(v0 - 3, v0 + 1)]
        ack = await back.decide(choose_action(state, rng))
        assert ack["v"] > v0
        await back.play(rng)
        return back, await finished_table(back)

    back, table = run(after())
    replay = check_record(server, table["match_id"], [back])
    # What the first connection was told before the kill agrees with the finished record too.
    assert replay.check_client(person) > 0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_server_says_so_and_resumes_the_match(make_server: MakeServer, sig: int) -> None:
    """Ctrl-C, or a service manager's SIGTERM: a clean stop (exit 0, the last line says what is
    stored), and the match goes on where it was.  SIGTERM used to end the process by the
    signal itself (exit 143) before that line, since uvicorn raises it again once it has
    shut down."""
    server = make_server()
    person = run(at_mid_trick(server, "table", random.Random("stop")))
    assert person.v is not None and person.state is not None
    server.stop(sig)
    assert server.proc is not None and server.proc.returncode == 0, server.stderr_text()
    assert server.last_output.strip().splitlines()[-1] == "Stopped; every decision is stored."
    server.start()

    async def after() -> None:
        back = await GameClient.person(server, "ana2", token=person.token)
        await back.join(person.table)
        assert back.last_sync["type"] == "snapshot" and back.last_sync["v"] == person.v
        assert back.last_sync["state"] == person.state

    run(after())


# -- bad input -------------------------------------------------------------------------------


async def refused(
    client: GameClient, message: Message | str, code: str, *, naming: str | tuple[str, ...] = ()
) -> Message:
    """Send ``message``: the answer is an error ``code`` whose text names the problem, and no
    ack or update came before it."""
    start = len(client.log)
    await client.send(message)
    error = await client.until_type("error")
    assert error["code"] == code, f"{message!r}: {error}"
    for word in (naming,) if isinstance(naming, str) else naming:
        assert word in error["message"], f"{message!r}: {error['message']!r} does not name {word!r}"
    # A stale decision gets an update first: with no events, the connection being up to date.
    between = [
        m
        for m in client.log[start:-1]
        if m["type"] in ("ack", "snapshot") or (m["type"] == "update" and (m["events"] or m["v"] != client.v))
    ]
    assert between == [], f"{message!r} changed something: {between}"
    return error


async def still_there(clients: list[GameClient], v: int) -> None:
    """Every connection is open, answers a ping, and its table is still at ``v``."""
    for client in clients:
        start = len(client.log)
        await client.send({"type": "ping"})
        await client.until_type("pong")
        changed = [m for m in client.log[start:] if m["type"] in ("update", "snapshot", "ack")]
        assert changed == [], f"{client.label}: {changed}"
        assert client.v == v


def test_bad_decisions_and_messages_are_refused_and_change_nothing(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = (await host.create(["you", "open", "open", "open"], "classic", seed="bad-input"))["id"]
        guests = [await GameClient.person(server, f"guest{n}") for n in (1, 2, 3)]
        for guest in guests:
            await guest.join(table)
        seats = [host, *guests]
        watcher = await GameClient.person(server, "watcher")
        await watcher.watch(table)
        for client in [*seats, watcher]:
            await client.reach(lambda c: c.state is not None and c.state["phase"] == "trump", "the deal")
        v = host.v
        assert v is not None and all(c.v == v for c in seats)
        actor = seats[host.state["to_act"]] if host.state else host
        other = seats[((actor.seat or 0) + 1) % 4]

        # Not due from you: another seat's turn, a spectator, a hint out of turn.
        await refused(other, {"type": "act", "id": "o1", "v": v, "action": {"kind": "turn"}}, "not_your_turn")
        error = await refused(other, {"type": "hint", "id": "h1"}, "not_your_turn")
        assert error["id"] == "h1"
        await refused(watcher, {"type": "act", "id": "w1", "v": v, "action": {"kind": "turn"}}, "not_seated")
        # Malformed messages.
        await refused(actor, "{not json", "bad_json", naming="not JSON")
        await refused(actor, "[1, 2]", "bad_message", naming="object")
        await refused(actor, {"id": "x"}, "bad_message", naming="'type'")
        await refused(actor, {"type": "dance"}, "unknown_type", naming="'dance'")
        error = await refused(actor, {"type": "act", "id": "m1"}, "bad_message", naming=("v:", "action:"))
        assert error["id"] == "m1"
        await refused(
            actor, {"type": "act", "id": "m2", "v": "three", "action": {"kind": "turn"}}, "bad_message", naming="v:"
        )
        await refused(
            actor, {"type": "act", "id": "m3", "v": v, "action": {"kind": "fly"}}, "bad_message", naming="action"
        )
        await refused(actor, {"type": "ping", "extra": 1}, "bad_message", naming="extra")
        await refused(actor, {"type": "join", "table": 7}, "bad_message", naming="table")
        await refused(actor, {"type": "create", "seats": ["you"]}, "bad_message", naming="seats")
        # A clock of NaN seconds is no number, not one past the limit.
        nan_clock = '{"type": "create", "seats": ["you", "open", "easy", "easy"], "clock": NaN}'
        await refused(actor, nan_clock, "bad_message", naming="finite")
        # A wrong type is refused, not converted: "1" is no seat, "yes" is not true.
        await refused(actor, {"type": "join", "table": table, "seat": "1"}, "bad_message", naming="seat")
        await refused(actor, {"type": "join", "table": table, "seat": True}, "bad_message", naming="seat")
        await refused(
            actor,
            {"type": "create", "seats": ["you", "open", "easy", "easy"], "private": "yes"},
            "bad_message",
            naming="private",
        )
        await refused(actor, {"type": "join"}, "bad_message", naming=("table", "code"))
        deep = '{"type": "ping", "x": ' + "[" * 20000 + "]" * 20000 + "}"
        await refused(actor, deep, "bad_json", naming="nested")
        # Saying hello as somebody else from a seat would hand them the seat.
        await refused(actor, {"type": "hello", "name": unique_name("Other")}, "seated", naming="leave")
        someone_else = other.token
        await refused(actor, {"type": "hello", "token": someone_else}, "seated", naming="another player")
        error = await refused(
            actor,
            {"type": "act", "id": "c1", "v": v, "action": {"kind": "play", "card": "1X"}},
            "bad_card",
            naming="1X",
        )
        assert error["id"] == "c1"
        # Against the rules now: the engine's reason.
        await refused(
            actor, {"type": "act", "id": "r1", "v": v, "action": {"kind": "sit_out"}}, "illegal", naming="choose trump"
        )
        # Stale: an old version.
        await refused(
            actor, {"type": "act", "id": "s1", "v": v - 1, "action": {"kind": "turn"}}, "stale", naming=str(v)
        )
        # A version the table has not reached is no decision that has passed: refused as a bad
        # message, with no update first; one beyond what a browser's JSON holds (2**53 - 1) is
        # refused as such, without echoing its digits.
        for n, (ahead, naming) in enumerate(
            ((v + 5, f"the table is only at {v}"), (10**400, "less than or equal to 9007199254740991"))
        ):
            start = len(actor.log)
            act = {"type": "act", "id": f"s{n + 2}", "v": ahead, "action": {"kind": "turn"}}
            error = await refused(actor, act, "bad_message", naming=naming)
            assert error["id"] == act["id"] and [m for m in actor.log[start:] if m["type"] == "update"] == []
            assert "0" * 20 not in error["message"]
        await still_there([*seats, watcher], v)

        # A decision taken, then sent again: refused as stale, applied once.
        ack = await actor.decide({"kind": "trump", "suit": "S"})
        for client in [*seats, watcher]:
            await client.reach(at_version(ack["v"]), "the trump update")
        error = await refused(
            actor, {"type": "act", "id": ack["id"], "v": v, "action": {"kind": "trump", "suit": "S"}}, "stale"
        )
        assert error["id"] == ack["id"]
        await still_there([*seats, watcher], ack["v"])
        await watcher.send({"type": "list"})
        listed = await watcher.until_type("tables")
        assert [t["v"] for t in listed["tables"] if t["id"] == table] == [ack["v"]]
        assert [e["kind"] for e in watcher.events.values()].count("trump") == 1

        # The exchange: the chooser must play (classic), cards not held, too many cards.
        chooser = actor
        assert chooser.my_turn and chooser.state is not None and chooser.state["phase"] == "exchange"
        v = chooser.v
        assert v is not None
        await refused(
            chooser, {"type": "act", "id": "x1", "v": v, "action": {"kind": "sit_out"}}, "illegal", naming="must play"
        )
        foreign = next(c for c in ("AS", "7S", "KS", "JS", "QS", "6S") if c not in chooser.state["hand"])
        await refused(
            chooser,
            {"type": "act", "id": "x2", "v": v, "action": {"kind": "exchange", "discard": [foreign]}},
            "illegal",
            naming=f"does not hold {foreign}",
        )
        await refused(
            chooser,
            {"type": "act", "id": "x3", "v": v, "action": {"kind": "exchange", "discard": ["2S"] * 6}},
            "bad_message",
            naming="discard",
        )
        await still_there([*seats, watcher], v)

        # Play on until someone to act could fail to follow suit: "must follow suit".
        by_seat = {c.seat: c for c in seats}
        rng = random.Random("bad")
        for _ in range(400):
            state = host.state
            assert state is not None and state["phase"] != "match_over"
            mover = by_seat[state["to_act"]] if state["to_act"] is not None else None
            if mover is not None and mover.state is not None and mover.my_turn:
                trick = current_trick(mover.state)
                if trick and trick["cards"]:
                    lead = trick["cards"][0][1]
                    hand = mover.state["hand"]
                    off = [c for c in hand if c[1] != lead]
                    if off and any(c[1] == lead for c in hand):
                        v = mover.v
                        assert v is not None
                        error = await refused(
                            mover,
                            {"type": "act", "id": "f1", "v": v, "action": {"kind": "play", "card": off[0]}},
                            "illegal",
                        )
                        assert error["message"] == f"must follow suit {lead}" and error["id"] == "f1"
                        gone = next(c for c in trick["cards"])
                        await refused(
                            mover,
                            {"type": "act", "id": "f2", "v": v, "action": {"kind": "play", "card": gone}},
                            "illegal",
                            naming=f"does not hold {gone}",
                        )
                        await still_there([*seats, watcher], v)
                        break
            assert mover is not None, f"no one to act in {state}"
            ack = await mover.decide(choose_action(mover.state or {}, rng))
            for client in [*seats, watcher]:
                await client.reach(at_version(ack["v"]), "the update")
        else:
            raise AssertionError("no one was ever able to fail to follow suit")

    run(scenario())


def test_a_message_over_64_kib_closes_the_connection_with_1009(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        client = await GameClient.person(server, "big")
        # Just under the limit: an ordinary bad message, and the connection stays.
        text = json.dumps({"type": "ping", "pad": "x" * (64 * 1024 - 40)})
        assert len(text.encode()) <= 64 * 1024
        await refused(client, text, "bad_message", naming="pad")
        await client.send({"type": "ping"})
        await client.until_type("pong")
        # Over it: closed with 1009.
        await client.send(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
        assert await client.closed_code() == 1009
        # The limit is in bytes: 40,000 two-byte characters are over it too.
        other = await GameClient.person(server, "wide")
        await other.send(json.dumps({"type": "ping", "pad": "é" * 40_000}, ensure_ascii=False))
        assert await other.closed_code() == 1009

    run(scenario())


def test_a_flood_is_rate_limited_and_the_connection_and_match_survive(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("flood")
        person = await GameClient.person(server, "ana")
        await person.quick("classic", "easy")
        await person.play(rng, stop=lambda c: c.my_turn)
        v = person.v
        start = len(person.log)
        for _ in range(300):
            await person.send({"type": "ping"})
        error = await person.until(lambda m: m["type"] == "error", what="rate_limited")
        assert error["code"] == "rate_limited" and "too many messages" in error["message"]
        # The dropped messages get no answer of their own, and the error says so.
        assert "id" not in error and "dropped unanswered" in error["message"]
        pongs = sum(m["type"] == "pong" for m in person.log[start:])
        # A burst of 40 passes (more if the server, busy, reads the flood slower than 10 a second).
        assert 30 <= pongs < 300, f"{pongs} pongs before the limit"
        # Still connected: poll with pings until one is answered again.
        for _ in range(100):
            await person.send({"type": "ping"})
            if await person.maybe(lambda m: m["type"] == "pong", 0.5) is not None:
                break
        else:
            raise AssertionError("the connection never answered again after the flood")
        assert sum(m["type"] == "pong" for m in person.log[start:]) < 300, "no message was dropped"
        # The match goes on: the person's decision (sent again until answered) is taken.
        assert person.v == v and person.state is not None
        action = choose_action(person.state, rng)
        request_id = person.new_id()
        for _ in range(100):
            await person.act(action, v=v, request_id=request_id)
            answer = await person.maybe(lambda m: m.get("id") == request_id, 0.5)
            if answer is not None:
                break
        else:
            raise AssertionError("the decision was never answered")
        assert answer["type"] == "ack", answer
        await person.until(lambda m: m["type"] == "update" and m["v"] >= answer["v"], what="the update")

    run(scenario())


def test_one_with_no_name_may_watch_but_not_sit_or_decide(make_server: MakeServer) -> None:
    """A watch link sent to a friend asked them for a name first: ``watch`` (and ``leave``, to
    stop watching) are answered before ``hello`` now, as ``list`` was.  What such a connection
    sees is a spectator's, a private table needs its invitation, and everything that seats or
    decides still wants a name."""
    server = make_server(settings={"pace": 0})

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = await host.create(["you", "open", "easy", "easy"])
        private = await host.create(["open", "open", "easy", "easy"], private=True)
        anon = await GameClient.open(server, "anon")
        await anon.watch(table["id"])
        assert anon.seat is None and anon.last_sync["table"]["id"] == table["id"]
        await refused(anon, {"type": "join", "table": table["id"]}, "unauthorized", naming="hello")
        await refused(anon, {"type": "close"}, "unauthorized", naming="hello")
        await refused(anon, {"type": "say", "phrase": "hello"}, "unauthorized", naming="hello")
        # The spectator is counted, and the match it watches is a spectator's to see.
        await host.until(lambda m: m["type"] == "table" and m["table"]["spectators"] == 1, what="one spectator")
        guest = await GameClient.person(server, "guest")
        await guest.join(table["id"])
        await anon.until(lambda m: m.get("state") is not None, what="the match begun")
        assert "hand" not in anon.state and "legal" not in anon.state, anon.state
        await anon.send({"type": "act", "id": "x", "v": anon.v, "action": {"kind": "turn"}})
        assert (await anon.until_type("error"))["code"] == "unauthorized"
        await anon.send({"type": "leave"})
        await anon.until_type("left")
        # A private table: its invitation, not its id.
        await refused(anon, {"type": "watch", "table": private["id"]}, "no_table")
        await anon.watch(None, code=private["invite"])
        assert anon.last_sync["table"]["id"] == private["id"] and "invite" not in anon.last_sync["table"]
        await anon.send({"type": "leave"})
        await anon.until_type("left")
        # Then a name, on the same connection: it plays as anyone else.
        welcome = await anon.hello(name=f"late{uuid.uuid4().hex[:6]}")
        assert welcome["type"] == "welcome", welcome
        await anon.send({"type": "quick", "level": "easy"})
        assert (await anon.until_type("joined", "error"))["type"] == "joined"
        for client in (host, guest, anon):
            await client.close()

    run(scenario())


def test_tokens_are_required_and_foreign_origins_refused(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        anon = await GameClient.open(server, "anon")
        for message in (
            {"type": "quick"},
            {"type": "create", "seats": ["you", "easy", "easy", "easy"]},
            {"type": "join", "table": "abcd"},
            {"type": "act", "id": "a", "v": 0, "action": {"kind": "turn"}},
        ):
            await refused(anon, message, "unauthorized", naming="hello")
        await refused(anon, {"type": "hello", "token": "not-a-token"}, "unauthorized", naming="token")
        await refused(anon, {"type": "quick"}, "unauthorized")
        await refused(anon, {"type": "hello"}, "bad_message", naming="token")
        await anon.send({"type": "list"})  # the lobby is public
        await anon.until_type("tables")

        registered = await GameClient.person(server, "ana")
        token = registered.token
        assert token and registered.player is not None
        # The token in the upgrade's Authorization header.
        header = await GameClient.open(server, "header", headers={"Authorization": f"Bearer {token}"})
        welcome = await header.until_type("welcome")
        assert welcome["player"] == registered.player and "token" not in welcome
        wrong = await GameClient.open(server, "wrong", headers={"Authorization": "Bearer nope"})
        error = await wrong.until_type("error")
        assert error["code"] == "unauthorized"
        await refused(wrong, {"type": "quick"}, "unauthorized")
        # The token in hello.
        again = await GameClient.person(server, "ana2", token=token)
        assert again.player == registered.player

        # Another site's page may not connect; the server's own page may.
        with pytest.raises(InvalidStatus) as refusal:
            await GameClient.open(server, "evil", origin="http://evil.example")
        assert refusal.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as refusal:
            await GameClient.open(server, "null", origin="null")
        assert refusal.value.response.status_code == 403
        own = await GameClient.open(server, "own", origin=server.base)
        await own.send({"type": "ping"})
        await own.until_type("pong")

    run(scenario())
    with server.http() as http:
        assert http.get("/api/me").status_code == 401
        assert http.get("/api/me", headers={"Authorization": "Bearer nope"}).status_code == 401
        assert http.post("/api/tables", json={"seats": ["you", "easy", "easy", "easy"]}).status_code == 401


def test_names_empty_too_long_reserved_or_taken_are_refused(make_server: MakeServer) -> None:
    server = make_server()
    name = unique_name("Ana")

    async def scenario() -> None:
        first = await GameClient.person(server, "first", name=name)
        assert first.player is not None and first.player["name"] == name
        client = await GameClient.open(server, "second")
        await refused(client, {"type": "hello", "name": ""}, "bad_name", naming="empty")
        await refused(client, {"type": "hello", "name": "   "}, "bad_name", naming="empty")
        await refused(client, {"type": "hello", "name": "x" * 25}, "bad_name", naming="24")
        # An emoji family joined by zero-width joiners, a zero-width space: invisible, refused as such.
        # And the characters drawn as nothing that are not "control" ones (the grapheme joiner,
        # the Hangul fillers, a blank Braille cell), which made a second "Ana", or a "Bot".
        for invisible in (
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "Ana\u200bMaria",
            "Bell\x07",
            f"{name}\u034f",
            f"{name}\u115f",
            f"{name}\u3164",
            f"{name}\u2800",
            "\u034fBot 1 (hard)",
            "B\u034fot 1 (hard)",
        ):
            await refused(client, {"type": "hello", "name": invisible}, "bad_name", naming="invisible")
        # A variation selector only chooses how a character is drawn: left out, it is the name.
        await refused(client, {"type": "hello", "name": f"{name}\ufe0f"}, "name_taken", naming=name)
        await refused(client, {"type": "hello", "name": "Bot 1 (easy)"}, "bad_name", naming="Bot")
        # Written with a Cyrillic o, a zero, a small capital o, or on its own, it is still the
        # bots' word.
        for lookalike in ("B\u043et 1 (easy)", "B0t 2 (hard)", "B\u1d0ft 1 (hard)", "\u13f4ot 1 (hard)", "bot"):
            await refused(client, {"type": "hello", "name": lookalike}, "bad_name", naming="Bot")
        # Letters of two alphabets drawn alike: a Cyrillic A (U+0410) in "Ana", a Cherokee letter as a B.
        for mixed, scripts in (
            (f"\u0410{name[1:]}", "Cyrillic and Latin"),
            ("\u13f4runo", "Cherokee and Latin"),
        ):
            await refused(client, {"type": "hello", "name": mixed}, "bad_name", naming=("one alphabet", scripts))
        # 24 letters, but the store compares "ss" for each ß: refused, not a server error.
        await refused(client, {"type": "hello", "name": "\u00df" * 24}, "bad_name", naming="count as two")
        # The plain letters dressed up (wide, in Fraktur, a ligature) passed for another name:
        # refused, saying the plain one.
        for dressed, plain in (
            ("\uff37\uff49\uff44\uff45", "Wide"),
            ("\U0001d504\U0001d52b\U0001d51e", "Ana"),
            ("\ufb01lipa", "filipa"),
        ):
            await refused(
                client, {"type": "hello", "name": dressed}, "bad_name", naming=("plain characters", repr(plain))
            )
        await refused(client, {"type": "hello", "name": name}, "name_taken", naming=name)
        await refused(client, {"type": "hello", "name": name.upper()}, "name_taken")
        await refused(client, {"type": "hello", "name": f"  {name.lower()} "}, "name_taken")
        await refused(client, {"type": "quick"}, "unauthorized")  # none of those registered
        welcome = await client.hello(name="x" * 24)
        assert welcome["type"] == "welcome" and welcome["player"]["name"] == "x" * 24 and welcome["token"]
        other = await GameClient.open(server, "third")
        botelho = await other.hello(name=unique_name("Botelho"))  # only the word "Bot" is kept
        assert botelho["type"] == "welcome", botelho
        # Writing that mixes its own scripts with Han, and Latin, is one person's name; an
        # emoji typed as a phone does keeps its heart.
        for written, kept in (
            ("山田 やまだ", "山田 やまだ"),
            ("김민수 Kim", "김민수 Kim"),
            ("Ολγα", "Ολγα"),
            ("Zoë \u2764\ufe0f", "Zoë \u2764"),
        ):
            another = await GameClient.open(server, "another")
            welcome = await another.hello(name=f"{written} {random.randrange(10**4)}")
            assert welcome["type"] == "welcome" and welcome["player"]["name"].startswith(kept), welcome
            await another.close()

    run(scenario())
    with server.http() as http:
        assert http.post("/api/players", json={"name": ""}).status_code == 400
        taken = http.post("/api/players", json={"name": name.swapcase()})
        assert taken.status_code == 409 and taken.json()["code"] == "name_taken"


def test_a_name_typed_with_a_separate_accent_is_the_same_name(make_server: MakeServer) -> None:
    """ "Zoé" typed as one letter (NFC) or as "e" and a combining accent (NFD) is one name: the
    second spelling is taken, and looking the player up by either finds them (both used to be
    registered, as two players shown alike)."""
    server = make_server()
    composed = unique_name("Zoé")
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    with server.http() as http:
        first = http.post("/api/players", json={"name": composed})
        assert first.status_code == 201, first.text
        again = http.post("/api/players", json={"name": decomposed})
        assert again.status_code == 409 and again.json()["code"] == "name_taken", again.text
        # Registered decomposed, a name is kept composed.
        other = unicodedata.normalize("NFD", unique_name("José"))
        kept = http.post("/api/players", json={"name": other}).json()["player"]["name"]
        assert kept == unicodedata.normalize("NFC", other)
        assert http.get(f"/api/players/{decomposed}/history").status_code == 200
        assert http.get(f"/api/players/{other}/history").status_code == 200


# -- hints, clocks, tables of bots, the end of a match ---------------------------------------


def test_a_hint_gives_the_strong_bots_options_for_the_seat_and_exchanges_say_why_one_must_play(
    make_server: MakeServer,
) -> None:
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("hint")
        person = await GameClient.person(server, "ana")
        await person.quick("classic", "easy")
        reasons: list[str | None] = []

        def exchange_turn(client: GameClient) -> bool:
            state = client.state
            if client.my_turn and state is not None and state["phase"] == "exchange":
                legal = state["legal"]
                reasons.append(legal["must_play"])
                # Sitting out is refused exactly when the server says why.
                assert (legal["must_play"] is None) == legal["may_sit_out"], legal
                return bool(state["chooser"] == state["seat"])
            return False

        # The chooser must play in classic: play until this seat chooses trump and exchanges.
        await person.play(rng, stop=exchange_turn)
        assert person.state is not None
        if person.state["trump"] == "H":
            assert reasons[-1] == "must play: Hearts are trumps"  # the first reason that applies
        elif person.state["sat_out_streaks"][person.state["seat"]] < 2:
            assert reasons[-1] == "must play: the chooser must play"
        await person.send({"type": "hint", "id": "h1"})
        hint = await person.until(lambda m: m.get("id") == "h1", what="the hint")
        assert hint["type"] == "hint" and hint["v"] == person.v, hint
        options = hint["options"]
        assert options and all(o["action"]["kind"] == "exchange" for o in options), options
        assert all(isinstance(o["expected_delta"], float | int) for o in options)
        # Ranked by the strong bot's own figure, given as a field, not in the note's words.
        rankings = [o["ranking"] for o in options]
        assert all(isinstance(r, float | int) for r in rankings) and rankings == sorted(rankings), options
        assert not any("against the others" in o["note"] for o in options), options
        # And in a player's words: the tricks the seat would end with, the risk of none, of
        # which the expected change is made (to the figures' rounding).
        assert person.state is not None
        mult = 2 if person.state["trump"] == "C" else 1
        for option in options:
            assert isinstance(option["tricks"], float | int) and isinstance(option["no_trick"], float | int), option
            made = 5 * mult * option["no_trick"] - mult * option["tricks"]
            assert abs(made - option["expected_delta"]) <= 0.2, option
        hand = set(person.state["hand"])
        assert all(set(o["action"]["discard"]) <= hand for o in options)
        # The best option is a decision the table takes.
        await person.decide(options[0]["action"])

    run(scenario())


def test_a_clock_hands_a_slow_persons_turn_to_their_bot(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("clock")
        ana = await GameClient.person(server, "ana")
        table = await ana.create(["you", "open", "easy", "easy"], clock=0.5)
        assert table["clock"] == 0.5
        bruno = await GameClient.person(server, "bruno")
        await bruno.join(table["id"])
        playing = asyncio.create_task(bruno.play(rng))
        # Ana never answers: when her turn comes, the clock gives it to her stand-in.
        await ana.until(lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="seat 0 away")
        v = ana.v
        assert v is not None
        await ana.reach(lambda c: any(e.get("seat") == 0 for n, e in c.events.items() if n > v), "a stand-in move")
        # A decision of hers, even one her stand-in overtakes, takes the seat back.
        await ana.act({"kind": "sit_out"}, v=v)
        await ana.until(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["away"], what="seat 0 back")
        await stop_playing(bruno, playing)

    run(scenario())


def test_a_turns_clock_is_not_started_again_by_a_stale_decision_nor_by_coming_back(tmp_path: Path) -> None:
    """A person could hold the others hostage: each stale ``act`` and each ``join`` during
    their turn started the clock again, so their bot never came.  The clock of a turn now runs
    from the moment the turn came to them (the same timer, untouched), and a new turn gets a
    new one."""
    from sobedesce.bots import make_bot
    from sobedesce.core.actions import SitOut
    from sobedesce.server.app import ServerError
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Client, Settings, Tables

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'store.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        queues: list[asyncio.Queue[dict[str, Any]]] = [asyncio.Queue(), asyncio.Queue()]

        def sender(queue: asyncio.Queue[dict[str, Any]]) -> Callable[[str], Awaitable[None]]:
            async def send(text: str) -> None:
                queue.put_nowait(json.loads(text))

            return send

        people = [Client(sender(queue)) for queue in queues]
        for person in people:
            person.start()
        try:
            for person, name in zip(people, ("Host", "Guest"), strict=True):
                person.player, _ = await tables.register(name)
            assert people[0].player is not None
            room = await tables.create(people[0].player, "classic", ["you", "open", "easy", "easy"], clock=600)
            await tables.join(people[0], room.id)
            await tables.join(people[1], room.id)
            # Wait for a person's turn (the bots play at once; each update says whose turn it is).
            while room.driver is None or room.driver.to_act not in (0, 1):
                await _next_of(queues[0], "update")
            seat = room.driver.to_act
            person, version = people[seat], room.version
            clock = room.clock_timer
            assert clock is not None and room.clock_seat == seat and not clock.cancelled()
            with pytest.raises(ServerError) as stale:
                await tables.act(person, "old", version - 1, SitOut())
            assert stale.value.code == "stale"
            await tables.join(person, room.id, since=version)
            await tables.join(people[1 - seat], room.id, since=version)
            assert room.version == version and room.clock_timer is clock and not clock.cancelled()
            # A decision ends the turn, and its clock with it.
            await tables.act(person, "now", version, room.driver.bot_action(stand_in=make_bot("basic")))
            assert room.version > version and room.driving is not None
            await room.driving  # the bots' loop, up to the next person's turn (or the end)
            assert clock.cancelled() and room.clock_timer is not clock
        finally:
            for person in people:
                await person.stop()
            await tables.close()
            store.close()

    run(scenario())


def test_four_bots_play_at_once_for_spectators(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        eve = await GameClient.person(server, "eve")
        table = await eve.create(["easy", "easy", "easy", "easy"])
        assert table["status"] == "playing"
        await eve.watch(table["id"])
        finished = await finished_table(eve)
        assert eve.match_event is not None and eve.match_event["winners"]
        assert finished["seats"][0]["kind"] == "bot"
        assert "hand" not in (eve.state or {})

    run(scenario())


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_person_who_comes_back_after_the_end_sees_how_the_match_ended(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        ana = await GameClient.person(server, "ana")
        await ana.quick("table", "easy")
        table = ana.table
        carla = await GameClient.person(server, "carla")
        made = await carla.create(["you", "easy", "easy", "easy"], "table", private=True)
        private, invite = made["id"], made["invite"]
        await asyncio.gather(ana.play(random.Random("end")), carla.play(random.Random("private end")))
        finished = await finished_table(ana)
        hidden = await finished_table(carla)
        await ana.close()
        await carla.close()
        async with server.ahttp() as http:
            # The easy bot sat at three seats of each match: each is in its history once (a
            # private table's is not shown to others: below).
            history = (await http.get("/api/players/Bot (easy)/history")).json()
            assert [e["match"] for e in history] == [finished["match_id"]]
            assert [e["seat"] for e in history] == [1] and all(len(e["players"]) == 4 for e in history)
            # A private table's match is its players' and its invitation's: its record shows
            # every hand, and it says who played with whom.  To anyone else it is not there,
            # in the same words as a match that is not.
            hid = hidden["match_id"]
            assert hid not in [m["match"] for m in (await http.get("/api/matches")).json()]
            assert finished["match_id"] in [m["match"] for m in (await http.get("/api/matches")).json()]
            for path in (f"/api/matches/{hid}", f"/api/matches/{hid}/record"):
                nowhere = (await http.get(path.replace(str(hid), "999999"))).json()["detail"]
                refusal = await http.get(path)
                assert refusal.status_code == 404 and refusal.json()["code"] == "no_match", refusal.text
                assert refusal.json()["detail"] == nowhere.replace("999999", str(hid))
                assert (await http.get(path, headers=bearer(ana.token))).status_code == 404
                assert (await http.get(path, params={"code": invite[:-1]})).status_code == 404
                assert (await http.get(path, headers=bearer(carla.token))).status_code == 200
                assert (await http.get(path, params={"code": invite})).status_code == 200
            assert carla.player is not None
            hers = f"/api/players/{carla.player['name']}/history"
            assert (await http.get(hers)).json() == []
            assert (await http.get(hers, headers=bearer(ana.token))).json() == []
            assert [e["match"] for e in (await http.get(hers, headers=bearer(carla.token))).json()] == [hid]
            assert (await http.get(hers, headers=bearer("not a token"))).status_code == 401
        again = await GameClient.person(server, "ana again", token=ana.token)
        await again.join(table)
        assert again.last_sync["type"] == "snapshot"
        assert again.last_sync["state"]["phase"] == "match_over"
        assert again.last_sync["table"]["match_id"] == finished["match_id"]
        await refused(again, {"type": "hint", "id": "late"}, "not_started", naming="over")
        # Somebody else may not sit at a finished table, and asking does not load it into
        # memory to stay there (once ana's last connection has gone, nothing holds it).
        await again.close()
        async with server.ahttp() as http:
            for _ in range(200):
                if (await http.get("/api/health")).json()["tables_in_memory"] == 0:
                    break
                await asyncio.sleep(0.05)  # polling a condition; no timing is assumed
            assert (await http.get("/api/health")).json()["tables_in_memory"] == 0
            bruno = await GameClient.person(server, "bruno")
            await refused(bruno, {"type": "join", "table": table}, "no_table")
            assert (await http.get("/api/health")).json()["tables_in_memory"] == 0
            # Anybody may watch a public table's end, read back from the store for them; a
            # private one stays hidden (and is not kept in memory for asking).
            await refused(bruno, {"type": "watch", "table": private}, "no_table")
            assert (await http.get("/api/health")).json()["tables_in_memory"] == 0
            await bruno.watch(table)
            assert bruno.last_sync["type"] == "snapshot" and bruno.last_sync["state"]["phase"] == "match_over"
            assert bruno.last_sync["table"]["match_id"] == finished["match_id"]
            assert "hand" not in bruno.last_sync["state"]
            assert (await http.get("/api/health")).json()["tables_in_memory"] == 1

    run(scenario())


def test_a_private_tables_id_without_its_invitation_is_answered_as_an_id_no_table_has(
    make_server: MakeServer,
) -> None:
    """``join`` told a private table from a made-up id ("no table 'X'" against "no table 'X'
    is open or in play"): the answers are now the same words, over the WebSocket and HTTP."""
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        private = (await host.create(["you", "open", "easy", "easy"], private=True))["id"]
        stranger = await GameClient.person(server, "stranger")
        for kind in ("join", "watch"):
            there = await refused(stranger, {"type": kind, "table": private}, "no_table")
            made_up = await refused(stranger, {"type": kind, "table": "feedf00d"}, "no_table")
            assert there["message"] == made_up["message"].replace("feedf00d", private), (there, made_up)
        async with server.ahttp() as http:
            there_http = (await http.get(f"/api/tables/{private}")).json()
            made_up_http = (await http.get("/api/tables/feedf00d")).json()
            assert there_http == {**made_up_http, "detail": made_up_http["detail"].replace("feedf00d", private)}
        for client in (host, stranger):
            await client.close()

    run(scenario())


def test_a_friend_too_late_for_a_private_table_watches_with_its_invitation(make_server: MakeServer) -> None:
    """The invitation that would have seated a friend lets them watch once the match has
    begun without them, and at its end; without it (or with another code) the table stays
    hidden.  They see what any spectator sees: no hand, and no invitation."""
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = await host.create(["you", "open", "easy", "hard"], "table", private=True)
        code = table["invite"]
        guest = await GameClient.person(server, "guest")
        await guest.join(None, code=code)
        late = await GameClient.person(server, "late")
        await refused(late, {"type": "join", "code": code}, "table_full", naming="begun without you")
        await refused(late, {"type": "watch", "table": table["id"]}, "no_table")
        # Another code (its last letter changed: "x" unless it is "x" already, 1 in 64 codes,
        # when this was the code itself and the test failed by chance).
        other = code[:-1] + ("y" if code.endswith("x") else "x")
        await refused(late, {"type": "watch", "table": table["id"], "code": other}, "no_table")
        await refused(late, {"type": "watch"}, "bad_message", naming="invitation code")
        await refused(late, {"type": "watch", "code": "nonsense"}, "no_table", naming="invitation code")
        joined = await late.watch(None, code=code)  # the link names no table, only the code
        assert joined["table"] == table["id"] and joined["seat"] is None
        await late.watch(table["id"], code=code)  # with both, as a page coming back asks
        await late.reach(lambda c: c.table_info is not None, "the table")
        assert late.table_info is not None and late.table_info["private"] and "invite" not in late.table_info
        assert late.last_sync["state"] is not None and "hand" not in late.last_sync["state"]
        await asyncio.gather(host.play(random.Random(3)), guest.play(random.Random(4)))
        end = await finished_table(late)
        assert end["private"] is True and "invite" not in end
        assert late.state is not None and late.state["phase"] == "match_over" and "hand" not in late.state
        await late.close()
        # At its end, read back from the store for a spectator: again only with the code.
        again = await GameClient.person(server, "late again", token=late.token)
        await refused(again, {"type": "watch", "table": table["id"]}, "no_table")
        await again.watch(None, code=code)
        assert again.table == table["id"]
        # One who sat there comes back by the invitation as by the table's id: the end shown
        # (it was "no table has that invitation code"); anyone else is refused as before.
        back = await GameClient.person(server, "guest back", token=guest.token)
        await back.join(None, code=code)
        assert back.seat == 1 and back.last_sync["state"]["phase"] == "match_over"
        await refused(again, {"type": "join", "code": code}, "no_table")
        assert again.last_sync["state"]["phase"] == "match_over" and "hand" not in again.last_sync["state"]
        for client in (host, guest, again, back):
            await client.close()

    run(scenario())


def test_open_tables_close_when_nobody_sits_and_a_player_has_at_most_three(make_server: MakeServer) -> None:
    server = make_server(settings={"pace": 0, "open_for": 0.2})

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        watcher = await GameClient.person(server, "watcher")
        # Going to another table gives up a seat at one that has not started; left with no
        # person, it closes (its spectators are told).
        first = (await host.create(["you", "open", "easy", "easy"]))["id"]
        await watcher.watch(first)
        await host.quick("classic", "easy")
        await watcher.until_type("left")
        with server.http() as http:
            info = http.get(f"/api/tables/{first}").json()
        assert info["status"] == "abandoned", info
        await host.send({"type": "leave"})
        await host.until_type("left")
        # A table its creator does not sit at: nobody seated and connected, it closes after
        # open_for seconds (0.2 here); the spectator hears of it.
        waiting = (await host.create(["open", "open", "easy", "easy"]))["id"]
        await watcher.watch(waiting)
        await watcher.until_type("left")
        with server.http() as http:
            assert all(t["id"] != waiting for t in http.get("/api/tables").json())
        # At most three tables open or in play a player: three connections of one player, each
        # seated (so none closes), and a fourth table refused.
        first_seat = await GameClient.person(server, "patient")
        seated = [first_seat] + [
            await GameClient.person(server, f"patient {n}", token=first_seat.token) for n in (2, 3, 4)
        ]
        for connection in seated[:3]:
            await connection.create(["you", "open", "easy", "easy"])
        rest = seated[3]
        await refused(rest, {"type": "quick"}, "too_many_tables", naming="3 tables")

    run(scenario())


def test_a_creator_closes_a_table_before_its_match_and_it_no_longer_counts(make_server: MakeServer) -> None:
    """A table made with no seat for its creator (for friends) counted toward their three
    tables until it closed by itself, ten minutes on, and nothing could close it sooner.  Its
    creator closes it now (watching it, or seated), before its match: everyone at it is told
    ``left`` with the reason, the store has it abandoned, and a fourth table may be made."""
    server = make_server(settings={"pace": 0})

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        friend = await GameClient.person(server, "friend")
        made = [await host.create(["open", "open", "easy", "easy"], private=True) for _ in range(3)]
        await refused(host, {"type": "create", "seats": ["open", "open", "open", "easy"]}, "too_many_tables")
        # Its creator's way back to each, private ones too: `yours` in the list (nobody else's).
        await friend.create(["open", "easy", "easy", "easy"])
        await host.send({"type": "list"})
        yours = (await host.until_type("tables"))["yours"]
        assert [(t["id"], t["invite"], t["created_by"]) for t in yours] == [
            (m["id"], m["invite"], host.player["id"]) for m in made
        ], yours
        # Not at the table: nothing to close.  Not its creator: refused.  Nothing changes.
        await refused(host, {"type": "close"}, "not_seated", naming="watch or join")
        first = made[0]["id"]
        await friend.join(first, code=made[0]["invite"])
        await refused(friend, {"type": "close"}, "not_creator", naming="made this table")
        assert friend.seat == 0
        # Its creator watches it, sees it is theirs, and closes it.
        await host.watch(first)
        assert host.last_sync["table"]["created_by"] == host.player["id"], host.last_sync["table"]
        await host.send({"type": "close"})
        assert (await host.until_type("left")).get("reason") == "closed"
        assert (await friend.until_type("left")).get("reason") == "closed"
        await refused(friend, {"type": "join", "code": made[0]["invite"]}, "no_table")
        await refused(host, {"type": "close"}, "not_seated")
        await host.send({"type": "list"})
        assert [t["id"] for t in (await host.until_type("tables"))["yours"]] == [m["id"] for m in made[1:]]
        # No longer one of the three: a new table is made.
        fourth = await host.create(["you", "easy", "easy", "easy"])
        assert fourth["status"] in ("open", "playing"), fourth
        # Once its match has begun, a table is not closed (a quick table starts at once).  The
        # bots play until the host is to act; from then on nothing moves but by the host.
        await host.reach(lambda c: c.my_turn, "the host to act")
        await refused(host, {"type": "close"}, "started", naming="begun")
        for client in (host, friend):
            await client.close()

    run(scenario())


def test_an_open_table_whose_people_have_gone_is_not_listed_until_one_comes_back(make_server: MakeServer) -> None:
    """A person made a table and closed the tab: the lobby listed it as joinable for ten
    minutes, and whoever took its seat started a match against the gone person's bot.  It is
    left out of the list now (its link still works), and listed again once someone is back; a
    table with no person seated (made for others) is listed as before."""
    server = make_server()

    async def listed_ids(client: GameClient) -> set[str]:
        await client.send({"type": "list"})
        return {t["id"] for t in (await client.until_type("tables"))["tables"]}

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = (await host.create(["you", "open", "open", "easy"]))["id"]
        for_others = (await host.create(["open", "open", "easy", "easy"]))["id"]
        eve = await GameClient.person(server, "eve")
        await eve.watch(table)
        assert {table, for_others} <= await listed_ids(eve)
        with server.http() as http:
            assert table in {t["id"] for t in http.get("/api/tables").json()}
        await host.close()
        seated = lambda c: c.table_info is not None and c.table_info["seats"][0]["connected"]  # noqa: E731
        await eve.reach(lambda c: not seated(c), "the host gone")
        ids = await listed_ids(eve)
        assert table not in ids and for_others in ids
        with server.http() as http:
            assert table not in {t["id"] for t in http.get("/api/tables").json()}
        back = await GameClient.person(server, "host again", token=host.token)
        await back.join(table)
        await eve.reach(seated, "the host back")
        assert table in await listed_ids(eve)

    run(scenario())


def test_a_person_who_sits_elsewhere_gives_up_a_seat_at_an_open_table_they_had_left(make_server: MakeServer) -> None:
    """A person made a table, reloaded the page (a new connection, at no table) and started a
    quick match: their seat at the first table stayed theirs, and once someone took its open
    seat that match started with them away and their bot playing, a match they knew nothing of.
    Sitting down elsewhere now gives such a seat up; a seat another tab of theirs still holds,
    or one at a match in play, stays."""
    server = make_server()

    async def scenario() -> None:
        eva = await GameClient.person(server, "eva")
        left_behind = (await eva.create(["you", "open", "easy", "easy"]))["id"]
        held = await GameClient.person(server, "eva tab", token=eva.token)
        kept = (await held.create(["you", "open", "easy", "easy"]))["id"]
        eve = await GameClient.person(server, "eve")
        await eve.watch(left_behind)
        await eva.close()  # the tab of the first table: reloaded
        await eve.reach(lambda c: c.table_info is not None and not c.table_info["seats"][0]["connected"], "eva gone")
        reloaded = await GameClient.person(server, "eva reloaded", token=eva.token)
        await reloaded.quick()
        # The table she left is abandoned (nobody else sat there); its watcher is told.
        await eve.until_type("left")
        with server.http() as http:
            assert http.get(f"/api/tables/{left_behind}").json()["status"] == "abandoned"
            seats = http.get(f"/api/tables/{kept}").json()["seats"]
        assert seats[0]["kind"] == "person" and seats[0]["connected"], "the seat another tab holds stays"

    run(scenario())


def test_leaving_an_open_table_takes_every_connection_of_the_person_off_the_seat(make_server: MakeServer) -> None:
    """A person at a table that has not started, in two tabs, leaves in one: the seat opens
    and the other tab leaves it too, so whoever sits there next is the only one sent its hand
    and able to decide for it."""
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = (await host.create(["you", "open", "open", "easy"], seed="two-tabs"))["id"]
        tab = await GameClient.person(server, "bruno")
        other_tab = await GameClient.person(server, "bruno 2", token=tab.token)
        assert (await tab.join(table))["seat"] == 1
        assert (await other_tab.join(table))["seat"] == 1
        # Seated, before the match starts: neither a hint nor a decision is due yet.
        error = await refused(tab, {"type": "hint", "id": "h0"}, "not_started", naming="has not started")
        assert error["id"] == "h0"
        await refused(tab, {"type": "act", "id": "a0", "v": 0, "action": {"kind": "turn"}}, "not_started")
        await tab.send({"type": "leave"})
        await tab.until_type("left")
        await other_tab.until_type("left")
        carla = await GameClient.person(server, "carla")
        assert (await carla.join(table, seat=1))["seat"] == 1
        dora = await GameClient.person(server, "dora")
        await dora.join(table)
        await carla.reach(lambda c: c.state is not None and c.state["hand"] != [], "the deal")
        # The other tab hears nothing of the match (it watches nothing) and decides nothing.
        await other_tab.send({"type": "ping"})
        await other_tab.until_type("pong")
        seen = [m for m in other_tab.log if m["type"] in ("update", "snapshot") and m["state"] is not None]
        assert seen == [], seen
        await refused(other_tab, {"type": "hint", "id": "h"}, "not_seated")
        await refused(other_tab, {"type": "act", "id": "a", "v": carla.v, "action": {"kind": "turn"}}, "not_seated")

    run(scenario())


def test_leaving_a_match_in_one_tab_leaves_the_seat_to_the_other_tab(make_server: MakeServer) -> None:
    """A person at a match in two tabs leaves in one: the other still sits at the seat, so it
    is not away and no stand-in decides for it; leaving in the last one makes it away at once."""
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("two tabs")
        tab, table = await _person_at_a_quick_match(server, "ana")
        other_tab = await GameClient.person(server, "ana 2", token=tab.token)
        assert (await other_tab.join(table))["seat"] == 0
        watcher = await GameClient.person(server, "eve")
        await watcher.watch(table)
        await tab.send({"type": "leave"})
        await tab.until_type("left")
        # What the leave had the server send the other tab is queued before this pong.
        await other_tab.send({"type": "ping"})
        await other_tab.until_type("pong")
        assert other_tab.table_info is not None
        seat = other_tab.table_info["seats"][0]
        assert (seat["connected"], seat["away"]) == (True, False), seat
        # The seat's decisions are the other tab's: each is taken, none overtaken by a stand-in.
        for _ in range(3):
            await other_tab.reach(lambda c: c.my_turn, "the seat's turn")
            assert other_tab.state is not None
            await other_tab.decide(choose_action(other_tab.state, rng))
        assert not any(m["type"] == "table" and m["table"]["seats"][0]["away"] for m in watcher.log)
        await other_tab.send({"type": "leave"})
        await other_tab.until_type("left")
        await watcher.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["away"], what="away, both tabs gone"
        )

    run(scenario())


def test_a_player_asking_for_many_tables_at_once_gets_three(make_server: MakeServer) -> None:
    """Six connections of one player ask for a table at the same moment: three are created,
    three refused with ``too_many_tables`` (each used to pass the count before any was stored)."""
    server = make_server()

    async def scenario() -> None:
        first = await GameClient.person(server, "many")
        connections = [first] + [await GameClient.person(server, f"many {n}", token=first.token) for n in range(5)]
        for connection in connections:
            await connection.send({"type": "create", "seats": ["you", "open", "easy", "easy"]})
        answers = [(await c.until_type("created", "error")) for c in connections]
        created = [a for a in answers if a["type"] == "created"]
        assert len(created) == 3, answers
        assert sorted(a.get("code", "") for a in answers if a["type"] == "error") == ["too_many_tables"] * 3, answers

    run(scenario())


# -- HTTP ----------------------------------------------------------------------------------


def test_the_http_api(make_server: MakeServer) -> None:
    server = make_server()
    with server.http() as http:
        paths = set(http.get("/openapi.json").json()["paths"])
        for path in (
            "/api/players",
            "/api/me",
            "/api/tables",
            "/api/quick",
            "/api/tables/{table_id}",
            "/api/leaderboard",
            "/api/players/{name}/history",
            "/api/matches",
            "/api/matches/{match_id}",
            "/api/matches/{match_id}/record",
            "/api/health",
        ):
            assert path in paths, path
        # Its refusals are described, each with its body's shape: a client generated from it
        # knew only the 200s (and 422, 429).
        spec = http.get("/openapi.json").json()
        assert set(spec["components"]["schemas"]["Refusal"]["required"]) == {"detail", "code"}
        for method, path, statuses in (
            ("post", "/api/players", {"400", "409", "413", "415", "429", "503"}),
            ("get", "/api/me", {"401", "503"}),
            ("post", "/api/tables", {"400", "401", "413", "415", "429", "503"}),
            ("post", "/api/quick", {"400", "401", "413", "415", "429", "503"}),
            ("get", "/api/tables/{table_id}", {"404", "503"}),
            ("get", "/api/players/{name}/history", {"404", "503"}),
            ("get", "/api/matches/{match_id}", {"404", "503"}),
            ("get", "/api/matches/{match_id}/record", {"404", "503"}),
        ):
            responses = spec["paths"][path][method]["responses"]
            assert statuses <= set(responses), (method, path, sorted(responses))
            for status in statuses:
                schema = responses[status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Refusal"}, (method, path, status, schema)
        health = http.get("/api/health")
        assert health.status_code == 200 and health.json()["status"] == "ok" and health.json()["store"] == "ok"

        registered = http.post("/api/players", json={"name": unique_name("Ana")})
        assert registered.status_code == 201
        token, player = registered.json()["token"], registered.json()["player"]
        auth = {"Authorization": f"Bearer {token}"}
        assert http.get("/api/me", headers=auth).json() == player
        created = http.post(
            "/api/tables", json={"rules": "table", "seats": ["you", "easy", "easy", "easy"]}, headers=auth
        )
        assert created.status_code == 201, created.text
        table = created.json()
        assert table["status"] == "open" and table["rules"] == "table" and table["seats"][0]["name"] == player["name"]
        # Its only free seat is its creator's: the lobby does not list it (nobody else may sit).
        assert all(t["id"] != table["id"] for t in http.get("/api/tables").json())
        assert http.get(f"/api/tables/{table['id']}").json()["id"] == table["id"]
        assert http.get("/api/tables/nosuch").status_code == 404
        bad = http.post("/api/tables", json={"seats": ["you", "you", "easy", "easy"]}, headers=auth)
        assert bad.status_code == 400 and bad.json()["code"] == "bad_table"
        assert http.post("/api/tables", json={"seats": ["you"]}, headers=auth).status_code == 422
        quick = http.post("/api/quick", json={"level": "easy"}, headers=auth)
        assert quick.status_code == 201 and quick.json()["seats"][1]["level"] == "easy"
        inviting = http.post("/api/tables", json={"seats": ["you", "open", "easy", "easy"]}, headers=auth)
        assert inviting.status_code == 201
        # Listed once its creator sits there (join, below): until then nobody seated is at it.
        assert all(t["id"] != inviting.json()["id"] for t in http.get("/api/tables").json())
        # Three tables open or in play: a fourth waits until one is done.
        fourth = http.post("/api/quick", json={}, headers=auth)
        assert fourth.status_code == 400 and fourth.json()["code"] == "too_many_tables", fourth.text
        # As over the WebSocket: a wrong type, an unknown field or a seed is refused, not ignored.
        for body in ({"seats": ["you", "open", "easy", "easy"], "private": "yes"}, {"level": "easy", "x": 1}):
            assert (
                http.post("/api/tables" if "seats" in body else "/api/quick", json=body, headers=auth).status_code
                == 422
            )
        # The seed is taken (this test server allows seeds), as over the WebSocket: here it
        # meets the limit, which proves it was read rather than dropped as an unknown field.
        seeded = http.post("/api/tables", json={"seats": ["you", "easy", "easy", "easy"], "seed": "s"}, headers=auth)
        assert seeded.json()["code"] == "too_many_tables", seeded.text
        assert http.post("/api/players", json={"name": "ß" * 24}).json()["code"] == "bad_name"
        assert http.get("/api/matches/99999999999999999999").status_code == 404
        assert http.get("/api/matches/9223372036854775808/record").status_code == 404
        assert http.get("/api/leaderboard", params={"among": "martians"}).status_code == 422
        assert http.get("/api/players/nobody-at-all/history").status_code == 404
        bruno = http.post("/api/players", json={"name": unique_name("Bruno")}).json()["token"]
        waiting = http.post(
            "/api/tables", json={"seats": ["you", "open", "easy", "easy"]}, headers={"Authorization": f"Bearer {bruno}"}
        ).json()["id"]

    async def sit() -> None:
        client = await GameClient.person(server, "bruno", token=bruno)
        await client.join(waiting)
        async with server.ahttp() as http:
            assert any(t["id"] == waiting for t in (await http.get("/api/tables")).json())
        await client.close()

    run(sit())

    async def scenario() -> Message:
        person = await GameClient.person(server, "ana", token=token)
        await person.join(table["id"])
        await person.play(random.Random("http"), stop=mid_trick)
        async with server.ahttp() as http:
            playing = (await http.get(f"/api/tables/{table['id']}")).json()
            assert playing["status"] == "playing" and playing["match_id"] is None
            assert list(card_strings(playing)) == [], playing
            # Nothing of a match in play is served: no finished match exists yet.
            for match_id in (0, 1, 2):
                assert (await http.get(f"/api/matches/{match_id}/record")).status_code == 404
                assert (await http.get(f"/api/matches/{match_id}")).status_code == 404
            assert (await http.get("/api/health")).json()["tables_in_play"] == 1
        await person.play(random.Random("http2"))
        return await finished_table(person)

    finished = run(scenario())
    with server.http() as http:
        record = http.get(f"/api/matches/{finished['match_id']}/record")
        assert record.status_code == 200 and read_record(record.text).is_over
        assert "attachment" in record.headers["content-disposition"]
        assert http.get(f"/api/matches/{finished['match_id']}").json()["players"][0] == player["name"]
        assert http.get(f"/api/tables/{table['id']}").json()["status"] == "finished"
        assert all(t["id"] != table["id"] for t in http.get("/api/tables").json())


def test_a_club_page_reads_the_matches_a_weeks_ranking_and_pages_of_history(make_server: MakeServer) -> None:
    """What a club's page needs from the API: the list of matches (with what each was), the
    ranking of matches since a date, a player's history page by page, a name with a "/" in
    it, and reading all this from another site's page (CORS for simple GETs)."""
    server = make_server(settings={"pace": 0})
    name = f"Ana/{uuid.uuid4().hex[:6]}"

    async def three_matches() -> None:
        first = await GameClient.person(server, "ana", name=name)
        await first.close()
        for n in range(3):  # a connection a match (a client keeps one table's events)
            person = await GameClient.person(server, f"ana {n}", token=first.token)
            await person.quick("classic", "easy")
            await person.play(random.Random(n))
            await finished_table(person)
            await person.close()

    run(three_matches())
    with server.http() as http:
        listed = http.get("/api/matches").json()
        assert [m["match"] for m in listed] == [3, 2, 1], listed
        for entry in listed:
            assert entry["rules"] == "classic" and entry["with_bots"] is True and entry["rounds"] >= 1
            assert sum(entry["riscos"]) == 0 and entry["players"][0] == name and len(entry["scores"]) == 4
            assert entry["winners"] and all(entry["scores"][w] <= 0 for w in entry["winners"])
        assert [m["match"] for m in http.get("/api/matches", params={"before": 3, "limit": 1}).json()] == [2]
        # A name with a "/": its history is found (it was "no such path").
        quoted = name.replace("/", "%2F")
        history = http.get(f"/api/players/{quoted}/history", params={"limit": 2})
        assert history.status_code == 200 and [h["match"] for h in history.json()] == [3, 2], history.text
        after = http.get(f"/api/players/{quoted}/history", params={"before": 2}).json()
        assert [h["match"] for h in after] == [1]
        # Since a moment: the matches finished then or later (a week's ranking).
        board = http.get("/api/leaderboard", params={"among": "bots", "since": "2000-01-01"}).json()
        assert [row["played"] for row in board if row["player"] == name] == [3]
        assert http.get("/api/leaderboard", params={"among": "bots", "since": "2999-01-01T00:00:00Z"}).json() == []
        assert http.get("/api/leaderboard", params={"since": "last week"}).status_code == 422
        # Dates UTC cannot write (a 500 with a plain-text body before): refused as any bad value.
        for edge in ("9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+14:00"):
            answer = http.get("/api/leaderboard", params={"since": edge})
            assert answer.status_code == 422, (edge, answer.text)
            assert answer.json()["detail"][0]["loc"] == ["query", "since"], answer.json()
        # Another site's page may read what anyone may (no credentials; no token sent).
        cross = http.get("/api/matches", headers={"Origin": "https://club.example"})
        assert cross.headers.get("access-control-allow-origin") == "*"
        preflight = http.options(
            "/api/me",
            headers={
                "Origin": "https://club.example",
                "Access-Control-Request-Method": "GET",
                "Access-Control-Request-Headers": "authorization",
            },
        )
        assert preflight.status_code == 400, preflight.text  # a token is never sent from another site
        # Nor may another site's page register a name, read its token, or make anything: a
        # browser sends a body with no type (or text/plain) there without asking first.  The
        # page's own origin and a script with none are served.
        for origin in ("https://club.example", "http://evil.example:8000"):
            cross_post = http.post(
                "/api/players", content=json.dumps({"name": unique_name("Xsite")}), headers={"Origin": origin}
            )
            assert cross_post.status_code == 403 and cross_post.json()["code"] == "foreign_origin", cross_post.text
            assert "access-control-allow-origin" not in cross_post.headers
            assert http.post("/api/quick", headers={"Origin": origin}).status_code == 403
        own = http.post("/api/players", json={"name": unique_name("Own")}, headers={"Origin": f"http://{server.host}"})
        assert own.status_code == 201, own.text
        for odd in (".", ".."):
            refusal = http.post("/api/players", json={"name": odd})
            assert refusal.status_code == 400 and refusal.json()["code"] == "bad_name", refusal.text


def test_an_http_body_over_64_kib_is_refused_unread(make_server: MakeServer) -> None:
    """As a WebSocket message over 64 KiB closes the connection, a larger HTTP body is a 413,
    whether its length is announced or it comes in chunks: never read whole, parsed and
    echoed back in a 422 (a 10 MB name came back as a 10 MB answer)."""
    server = make_server()
    big = b'{"name": "' + b"y" * 200_000 + b'"}'

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192]

    with server.http() as http:
        headers = {"content-type": "application/json"}
        for content in (big, chunks()):
            answer = http.post("/api/players", content=content, headers=headers)
            assert answer.status_code == 413, answer.text[:200]
            assert "65536 bytes" in answer.json()["detail"]
            assert len(answer.content) < 200
        # A body within the limit, announced or chunked, is read as before.
        for name in (unique_name("Len"), unique_name("Chunk")):
            body = json.dumps({"name": name}).encode()
            content = body if name.startswith("Len") else iter([body[:5], body[5:]])
            assert http.post("/api/players", content=content, headers=headers).status_code == 201


def test_a_quick_table_over_http_may_leave_the_body_out(make_server: MakeServer) -> None:
    """Every field of ``POST /api/quick`` has a default: a request without a body gets a
    classic table with hard bots, not a 422 "body: Field required"."""
    server = make_server()
    with server.http() as http:
        token = http.post("/api/players", json={"name": unique_name("Q")}).json()["token"]
        answer = http.post("/api/quick", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 201, answer.text
        table = answer.json()
        assert table["rules"] == "classic" and [s["level"] for s in table["seats"][1:]] == ["hard"] * 3
        # A body is still checked as before.
        bad = http.post("/api/quick", json={"level": "oracle"}, headers={"Authorization": f"Bearer {token}"})
        assert bad.status_code == 422


def test_a_connection_too_far_behind_is_closed_not_left_silent() -> None:
    """A connection whose messages pile up past ``Client.MAX_QUEUED`` (a client that reads
    too slowly) is closed, so that the server forgets it (its seat goes away in time and a bot
    stands in) and the client comes back with ``since``; it used to stay open and silent, its
    seat counted as taken and never played for."""
    from sobedesce.server.tables import Client

    async def scenario() -> None:
        stuck = asyncio.Event()
        dropped = asyncio.Event()

        async def send(text: str) -> None:
            await stuck.wait()  # the client reads nothing

        async def drop() -> None:
            dropped.set()

        client = Client(send, drop)
        client.start()
        for n in range(Client.MAX_QUEUED + 2):
            client.send({"type": "pong", "n": n})
        await asyncio.wait_for(dropped.wait(), 10)
        assert client.closed
        stuck.set()
        await client.stop()

    run(scenario())


def test_the_texts_shared_by_a_tables_connections_are_each_connections_own_message() -> None:
    """The server encodes the public part of a state and each event once for all the
    connections of a table (tables._Texts); what each connection gets must be, to the byte,
    the JSON of the state and events made for its own seat."""
    from sobedesce.core import Match
    from sobedesce.server.protocol import event_json
    from sobedesce.server.tables import Room, _dumps, _state, _Texts
    from sobedesce.table import TableDriver

    for rules in ("classic", "table"):
        driver = TableDriver(Match(rules), {0, 1, 2, 3}, {}, seed=4)
        room = Room("t", rules, False, None, [], None, "s", "playing", None, driver=driver)
        rng = random.Random(rules)
        checked = 0
        while driver.status != "over" and checked < 400:
            events = driver.deal() if driver.status == "deal" else None
            if events is None:
                seat = driver.to_act
                assert seat is not None
                events = driver.play(seat, rng.choice(list(driver.match.legal_actions())))
            first = room.version + 1
            for event in events:
                room.version += 1
                room.log.append((room.version, event))
            texts = _Texts(room)
            for receiver in (None, 0, 1, 2, 3):
                assert texts.state(receiver) == _dumps(_state(room, receiver))
                for version, event in list(room.log)[first - room.log[0][0] :]:
                    own = event_json(event, receiver) | {"v": version}
                    assert texts.event(version, event, receiver) == _dumps(own)
                checked += 1
        assert checked >= 400 or driver.status == "over"


# -- bad input at the edges: HTTP bodies, request ids -----------------------------------------


def test_an_http_body_nested_too_deeply_is_refused_as_over_the_websocket(make_server: MakeServer) -> None:
    """A JSON body nested 10,000 deep got FastAPI's generic 400 "There was an error parsing
    the body", where the WebSocket answers "JSON nested too deeply": the same code and text
    now, in the lobby's error shape (as any body that is not JSON), and the server goes on."""
    server = make_server()
    deep = "[" * 10_000 + "]" * 10_000

    async def over_the_websocket() -> Message:
        client = await GameClient.person(server, "deep")
        return await refused(client, deep, "bad_json", naming="nested too deeply")

    said = run(over_the_websocket())
    with server.http() as http:
        token = http.post("/api/players", json={"name": unique_name("Deep")}).json()["token"]
        auth = {"Authorization": f"Bearer {token}", "content-type": "application/json"}
        for path, body in (
            ("/api/players", deep),
            ("/api/players", '{"name": ' + deep + "}"),
            ("/api/tables", '{"seats": ' + deep + "}"),
            ("/api/quick", deep),
            # Past the limit (100), though far short of what Python's parser still reads.
            ("/api/players", '{"name": ' + "[" * 100 + "]" * 100 + "}"),
        ):
            answer = http.post(path, content=body, headers=auth)
            assert answer.status_code == 400, (path, answer.status_code, answer.text[:200])
            assert answer.json() == {"detail": said["message"], "code": "bad_json"}, answer.text[:200]
        # Nested as deep as allowed: read, and refused for what it holds (a 422 naming it).
        answer = http.post("/api/players", content='{"name": ' + "[" * 99 + "]" * 99 + "}", headers=auth)
        assert answer.status_code == 422 and answer.json()["detail"][0]["loc"] == ["body", "name"], answer.text[:200]
        # A body that is no JSON says why, as the WebSocket does.
        # UTF-8 only (RFC 8259): UTF-16 was read as json.loads reads bytes, and a UTF-8 BOM
        # too, which a WebSocket text frame is refused for.
        utf16 = '{"name": "Dezasseis"}'.encode("utf-16")
        bom = b'\xef\xbb\xbf{"name": "Bom"}'
        for body, words in (
            (b'{"name": "\xe9"}', "not UTF-8"),
            (b"{not json", "not JSON"),
            (utf16, "not UTF-8"),
            (bom, "BOM"),
        ):
            answer = http.post("/api/players", content=body, headers=auth)
            assert answer.status_code == 400, answer.text[:200]
            assert answer.json()["code"] == "bad_json" and words in answer.json()["detail"], answer.text[:200]
        # The server goes on.
        assert http.get("/api/health").json()["status"] == "ok"
        assert http.post("/api/players", json={"name": unique_name("After")}).status_code == 201
        assert http.post("/api/quick", headers=auth).status_code == 201


def test_http_refusals_of_the_framework_and_of_bodies_carry_a_code(make_server: MakeServer) -> None:
    """An unknown path or a wrong method answered FastAPI's bare ``{"detail": "Not Found"}``;
    an empty body a 422 "body: Field required", and a JSON body sent as text/plain a puzzling
    422. Each is a refusal with a ``code`` now, as protocol.md says of every one but a 422."""
    server = make_server()
    with server.http() as http:
        for method, path, status, code in (
            ("GET", "/api/nosuch", 404, "not_found"),
            ("GET", "/static/nosuch.js", 404, "not_found"),
            ("PUT", "/api/players", 405, "method_not_allowed"),
            ("DELETE", "/api/me", 405, "method_not_allowed"),
        ):
            answer = http.request(method, path)
            assert answer.status_code == status and answer.json()["code"] == code, (method, path, answer.text)
        assert http.request("PUT", "/api/players").headers["allow"] == "POST"
        # An empty body where one is needed is no JSON, with a Content-Type or without.
        for headers in ({}, {"content-type": "application/json"}):
            answer = http.post("/api/players", content=b"", headers=headers)
            assert answer.status_code == 400 and answer.json()["code"] == "bad_json", answer.text
            assert "empty" in answer.json()["detail"]
        # A body is JSON and says so: text/plain or a form is refused, the type named.
        for kind in ("text/plain", "application/x-www-form-urlencoded"):
            answer = http.post("/api/players", content=b'{"name": "Typed"}', headers={"content-type": kind})
            assert answer.status_code == 415 and answer.json()["code"] == "bad_content_type", answer.text
            assert "application/json" in answer.json()["detail"]
        # A JSON body with no type is read as JSON (protocol.md: "or none"); it was a 422.
        answer = http.post("/api/players", content=json.dumps({"name": unique_name("Untyped")}).encode())
        assert answer.status_code == 201 and "token" in answer.json(), answer.text
        # No token is refused as such whatever the body: it was a 422 for a body missing a field.
        for path, body in (("/api/tables", {"rules": "classic"}), ("/api/tables", {}), ("/api/quick", {"level": 7})):
            answer = http.post(path, json=body)
            assert answer.status_code == 401 and answer.json()["code"] == "unauthorized", (path, answer.text)
        # The others are as they were.
        token = http.post("/api/players", json={"name": unique_name("Coded")}).json()["token"]
        assert http.post("/api/quick", headers={"Authorization": f"Bearer {token}"}).status_code == 201
        assert http.get("/api/tables/nosuch").json()["code"] == "no_table"
        assert http.post("/api/players", json={"nom": "x"}).status_code == 422


def test_keys_no_table_or_player_can_have_are_not_found_on_every_store(db_server: MakeServer) -> None:
    """A NUL in a table id, an invitation code or a name, and a match id past 2**31 - 1, were a
    500 over HTTP and ``internal`` over the WebSocket on PostgreSQL (its text and integer
    columns refuse them); SQLite said "not found".  Both say it now, without echoing a long key."""
    server = db_server()
    with server.http() as http:
        for path, code in (
            ("/api/tables/a%00", "no_table"),
            ("/api/players/a%00b/history", "no_player"),
            ("/api/matches/2147483648", "no_match"),
            ("/api/matches/2147483648/record", "no_match"),
            ("/api/matches/99999999999999999999999", "no_match"),
            (f"/api/tables/{'t' * 5000}", "no_table"),
            (f"/api/players/{'n' * 5000}/history", "no_player"),
        ):
            answer = http.get(path)
            assert answer.status_code == 404 and answer.json()["code"] == code, (path, answer.text)
            assert len(answer.json()["detail"]) < 100, answer.text

    async def scenario() -> None:
        client = await GameClient.open(server, "nul")
        await client.hello(name=unique_name("Nul"))
        for message in (
            {"type": "join", "table": "ab\x00"},
            {"type": "watch", "table": "ab\x00"},
            {"type": "join", "code": "ab\x00"},
        ):
            await refused(client, message, "no_table")
        await client.send({"type": "ping"})  # and the connection goes on
        await client.until_type("pong")

    run(scenario())


def test_http_values_json_cannot_write_back_are_a_422_not_a_500(make_server: MakeServer) -> None:
    """FastAPI's 422 echoes the value it refused: a clock of NaN, Infinity or 1e309 (read as
    infinity) or a name with a lone surrogate ("\\ud800") could not be written in JSON, and the
    answer was a 500 "Internal Server Error".  Now a 422 naming the field, the value as text."""
    server = make_server()
    with server.http() as http:
        token = http.post("/api/players", json={"name": unique_name("Inf")}).json()["token"]
        auth = {"Authorization": f"Bearer {token}", "content-type": "application/json"}
        seats = '["you", "open", "easy", "easy"]'
        for clock, shown in (("NaN", "nan"), ("Infinity", "inf"), ("-Infinity", "-inf"), ("1e309", "inf")):
            answer = http.post("/api/tables", content=f'{{"seats": {seats}, "clock": {clock}}}', headers=auth)
            assert answer.status_code == 422, (clock, answer.status_code, answer.text[:200])
            [problem] = answer.json()["detail"]
            assert problem["loc"] == ["body", "clock"] and "finite" in problem["msg"], problem
            assert problem["input"] == shown, problem
        answer = http.post("/api/players", content='{"name": "\\ud800"}', headers=auth)
        assert answer.status_code == 422, answer.text[:200]
        [problem] = answer.json()["detail"]
        assert problem["loc"] == ["body", "name"] and problem["input"] == "\\ud800", problem
        answer = http.post("/api/players", content='{"name": "Ana", "x\\udfff": 1}', headers=auth)
        assert answer.status_code == 422, answer.text[:200]
        assert "x\\udfff" in [p["input"] for p in answer.json()["detail"]], answer.text[:200]  # the key
        # The server goes on.
        assert http.get("/api/health").json()["status"] == "ok"
        made = http.post("/api/tables", content=f'{{"seats": {seats}, "clock": 30}}', headers=auth)
        assert made.status_code == 201 and made.json()["clock"] == 30, made.text[:200]


def test_a_request_id_the_server_cannot_write_back_is_refused_and_the_connection_stays(
    make_server: MakeServer,
) -> None:
    """The error answering a message echoes its ``id``: one holding a lone surrogate
    ("\\ud800") could not be encoded, and the connection failed (closed with no close frame)
    instead of the message, a seated person's included.  Now a ``bad_message`` without the
    id, and the match goes on."""
    server = make_server()

    async def scenario() -> None:
        rng = random.Random("surrogate")
        person = await GameClient.person(server, "ana")
        await person.quick("classic", "easy")
        await person.play(rng, stop=lambda c: c.my_turn)
        v = person.v
        assert v is not None and person.state is not None
        act = '{"type": "act", "id": "\\ud800", "v": ' + str(v) + ', "action": {"kind": "turn"}}'
        for text in (act, '{"type": "hint", "id": "\\udfff"}', '{"type": "ping", "id": "\\ud800"}'):
            error = await refused(person, text, "bad_message", naming="id")
            assert "id" not in error, error
        await still_there([person], v)
        ack = await person.decide(choose_action(person.state, rng))
        assert ack["v"] > v

    run(scenario())


# -- spectators and the tables of a player, inside the server --------------------------------


class _Socket:
    """The WebSocket that ``app._serve`` reads and writes, held by the test: a message said
    to it is received by the server; from ``break_()`` on, every write fails (the peer is
    gone) while the read goes on waiting (its end not heard yet)."""

    def __init__(self, token: str) -> None:
        self.headers = {"authorization": f"Bearer {token}"}
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.broken = False
        self.failed = asyncio.Event()

    def say(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def hang_up(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        if self.broken:
            self.failed.set()
            raise ConnectionResetError("the peer is gone")
        self.outbox.put_nowait(json.loads(text))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        pass


async def _ignore(text: str) -> None:
    pass


async def _next_of(queue: asyncio.Queue[dict[str, Any]], kind: str, test: Callable[[Message], bool] = bool) -> Message:
    """The next message of type ``kind`` (and passing ``test``) put in ``queue``."""
    while True:
        message = await asyncio.wait_for(queue.get(), 30)
        if message["type"] == kind and test(message):
            return message


def test_a_closed_spectator_stops_counting_at_once(tmp_path: Path) -> None:
    """A spectator whose connection is gone (a write to it failed) counted among the table's
    spectators, in what the others were told and in ``GET /api/tables/{id}``, until its end
    was heard and it was detached (for a peer that stopped answering, until the close timed
    out).  Now it stops counting at once, and the others are told."""
    from sobedesce.server.app import _serve
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Client, Settings, Tables

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'store.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def to_host(text: str) -> None:
            heard.put_nowait(json.loads(text))

        host = Client(to_host)
        host.start()
        serving: asyncio.Task[None] | None = None
        try:
            host.player, _ = await tables.register("Host")
            _, token = await tables.register("Watcher")
            room = await tables.create(host.player, "classic", ["you", "open", "easy", "easy"])
            await tables.join(host, room.id)
            socket = _Socket(token)
            serving = asyncio.create_task(_serve(socket, tables, None))  # type: ignore[arg-type]
            await _next_of(socket.outbox, "welcome")
            socket.say({"type": "watch", "table": room.id})
            await _next_of(socket.outbox, "joined")
            # The last message of the watch, written: nothing more waits to be sent to it.
            await _next_of(socket.outbox, "table", lambda m: m["table"]["spectators"] == 1)
            await _next_of(heard, "table", lambda m: m["table"]["spectators"] == 1)

            # Closed, not detached yet (its end not heard yet): it does not count.
            lingering = Client(_ignore)
            await tables.watch(lingering, room.id)
            assert (await tables.table_info(room.id))["spectators"] == 2
            lingering.closed = True
            info = await tables.table_info(room.id)
            assert info["spectators"] == 1 and room.public()["spectators"] == 1, info
            tables.detach(lingering)
            await _next_of(heard, "table", lambda m: m["table"]["spectators"] == 1)

            # The watcher's peer is gone; its end is not heard yet.  Another spectator comes:
            # the table message written to the watcher fails.
            socket.broken = True
            other = Client(_ignore)
            other.start()
            other.player = host.player
            await tables.watch(other, room.id)
            await asyncio.wait_for(socket.failed.wait(), 30)
            info = await tables.table_info(room.id)
            assert info["spectators"] == 1, info
            # ... and the host is told (the count is sent at most once a second: at once, the
            # watcher's failed write still counted it).
            await _next_of(heard, "table", lambda m: m["table"]["spectators"] == 1)
            assert all(c.seat is not None or c is other for c in room.clients)
        finally:
            if serving is not None:
                socket.hang_up()
                await asyncio.wait_for(serving, 30)
            await host.stop()
            await tables.close()
            store.close()

    run(scenario())


def test_an_invitation_code_neither_starts_nor_ends_with_a_sign() -> None:
    """A code starting with "-" was read by `sobedesce bot --code` as an option (one in 32)."""
    from sobedesce.server.tables import invite_code

    codes = [invite_code() for _ in range(2000)]
    assert all(len(code) == 12 and code[0].isalnum() and code[-1].isalnum() for code in codes)
    assert len(set(codes)) == len(codes)
    assert any("-" in code or "_" in code for code in codes)  # still base64url inside


def test_a_players_token_neither_starts_nor_ends_with_a_sign(make_server: MakeServer) -> None:
    """A token starting with "-" was read by `sobedesce bot --token` as an option (one in 64:
    a fresh clone's suite met it)."""
    from sobedesce.server.tables import plain_secret

    tokens = [plain_secret(32) for _ in range(2000)]
    assert all(len(token) == 43 and token[0].isalnum() and token[-1].isalnum() for token in tokens)
    assert len(set(tokens)) == len(tokens)

    async def registered() -> None:
        person = await GameClient.person(make_server(), "ana")
        assert person.token is not None and person.token[0].isalnum() and person.token[-1].isalnum()
        await person.close()

    run(registered())


def test_spectators_coming_and_going_are_told_once_a_second_not_each_time(tmp_path: Path) -> None:
    """K connections that watched a table and left it in turn made the server tell everyone at
    it the spectators' count each time: K² messages, and a hundred such connections stalled the
    server for twenty seconds.  The count is told at most once a second, as it is then."""
    from sobedesce.server.store import Store
    from sobedesce.server.tables import SPECTATORS_EVERY, Client, Settings, Tables

    assert SPECTATORS_EVERY <= 1.0

    class Recording(Client):
        """A connection that notes each message as the table hands it over."""

        def __init__(self) -> None:
            super().__init__(_ignore)
            self.told: list[dict[str, Any]] = []
            self.counted = asyncio.Event()

        def send(self, message: dict[str, Any]) -> None:
            self.told.append(message)
            if message["type"] == "table" and message["table"]["spectators"] == 1:
                self.counted.set()
            super().send(message)

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'store.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        host = Recording()
        host.start()
        watchers = [Client(_ignore) for _ in range(20)]
        try:
            host.player, _ = await tables.register("Host")
            room = await tables.create(host.player, "classic", ["you", "open", "easy", "easy"])
            await tables.join(host, room.id)
            before = len(host.told)
            for watcher in watchers:
                watcher.start()
            for _ in range(5):
                for watcher in watchers:
                    await tables.watch(watcher, room.id)
                for watcher in watchers[1:]:
                    await tables.leave(watcher)
            assert room.public()["spectators"] == 1
            # 195 comings and goings, and not one message yet: the count is told once, as it is.
            assert [m for m in host.told[before:] if m["type"] == "table"] == []
            await asyncio.wait_for(host.counted.wait(), 30)
            assert [m["table"]["spectators"] for m in host.told[before:] if m["type"] == "table"] == [1]
        finally:
            for client in (host, *watchers):
                await client.stop()
            await tables.close()
            store.close()

    run(scenario())


class _RacingStore:
    """Mixed into a Store: its table creations wait for each other at ``barrier`` before
    writing, so that every process has counted the player's tables (where the server used to
    count them) before any stores its new one."""

    barrier: Any = None

    def create_table(self, row: Any, **options: Any) -> Any:
        if self.barrier is not None:
            self.barrier.wait(60)
        return super().create_table(row, **options)  # type: ignore[misc]


@pytest.mark.parametrize("leases", [False, True], ids=["one-process-each", "cluster-leases"])
@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not POSTGRES_URL, reason=POSTGRES_SKIP))]
)
def test_two_processes_cannot_give_a_player_a_fourth_table(backend: str, leases: bool, tmp_path: Path) -> None:
    """The three tables a player may have were counted under one process's lock: two processes
    sharing the database (a cluster) could each pass the count at once, and the player had
    four.  Here both have counted before either stores (a barrier): one table is refused."""
    import threading
    from types import SimpleNamespace

    from sobedesce.server.lease import Leases
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Settings, Tables

    if leases and backend == "sqlite":
        pytest.skip("leases are for several processes, which share a PostgreSQL store")

    class RacingStore(_RacingStore, Store):
        pass

    async def scenario(url: str) -> None:
        stores = [RacingStore(url) for _ in range(2)]
        stores[0].migrate()
        processes = [Tables(store, Settings(pace=0)) for store in stores]
        if leases:
            for n, process in enumerate(processes):
                process.cluster = SimpleNamespace(
                    leases=Leases(process.store, f"process-{n}", 30), table_changed=lambda room: None
                )
        seats = ["you", "open", "easy", "easy"]
        try:
            player, _ = await processes[0].register("Racer")
            for _ in range(2):
                await processes[0].create(player, "classic", seats)
            barrier = threading.Barrier(2)
            for store in stores:
                store.barrier = barrier
            outcomes = await asyncio.gather(
                *(process.create(player, "classic", seats) for process in processes), return_exceptions=True
            )
            refused = [o for o in outcomes if isinstance(o, Exception)]
            assert len(refused) == 1, outcomes
            assert getattr(refused[0], "code", None) == "too_many_tables", outcomes
            assert "3 tables" in str(refused[0]), refused[0]
            for store in stores:
                store.barrier = None
            assert len(stores[1].tables(("open", "playing"), created_by=player.id)) == 3
        finally:
            for process in processes:
                await process.close()
            for store in stores:
                store.close()

    if backend == "sqlite":
        run(scenario(f"sqlite:///{tmp_path / 'store.db'}"))
    else:
        assert POSTGRES_URL is not None
        with postgres_schema(POSTGRES_URL) as url:
            run(scenario(url))


# -- limits per client address ---------------------------------------------------------------


class _Clock:
    """The limits' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _limited_app(tmp_path: Path, clock: _Clock, **limits: Any) -> Any:
    """The app with ``limits``, behind uvicorn's proxy-headers middleware trusting any peer (as
    ``sobedesce serve --forwarded-allow-ips '*'`` would): a request's ``X-Forwarded-For`` is
    its client address."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from sobedesce.server.app import Limits, create_app
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Settings

    store = Store(f"sqlite:///{tmp_path / 'limited.db'}")
    app = create_app(store, Settings(pace=0), limits=Limits(exempt=(), **limits), clock=clock)
    return ProxyHeadersMiddleware(app, trusted_hosts="*")  # type: ignore[arg-type]


# Starlette's TestClient over httpx (deprecated by Starlette for its own fork, not installed).
_TESTCLIENT = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")


def _from(address: str, token: str | None = None) -> dict[str, str]:
    """Headers of a request from ``address`` (a new dict each time: the test client adds to it)."""
    headers = {"X-Forwarded-For": address}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return headers


@_TESTCLIENT
def test_registrations_are_limited_per_address_over_http_and_the_websocket(tmp_path: Path) -> None:
    """400 registrations in a row from one client were all taken, each a stored player.  Now an
    address may register ``registrations`` players a period, over HTTP and the WebSocket
    together: past it a 429 (or a ``rate_limited`` error) says how many per how long, with
    ``Retry-After``; another address is not affected, and the budget comes back with time."""
    from starlette.testclient import TestClient

    from sobedesce.server.app import Limit

    clock = _Clock()
    app = _limited_app(tmp_path, clock, registrations=Limit(3, 60), tables=None)
    flooder, other = _from("203.0.113.7"), _from("198.51.100.2")
    with TestClient(app) as http:
        answers = [http.post("/api/players", json={"name": f"Flood {n}"}, headers=flooder) for n in range(400)]
        assert [a.status_code for a in answers[:3]] == [201] * 3, answers[0].text
        assert {a.status_code for a in answers[3:]} == {429}
        refused = answers[3]
        message = "too many new players from your address: at most 3 a minute; try again in 20 seconds"
        assert refused.json() == {"detail": message, "code": "rate_limited"}
        assert refused.headers["Retry-After"] == "20"
        # Nothing was stored for the refused ones.
        assert http.get("/api/players/Flood 2/history").status_code == 200
        assert http.get("/api/players/Flood 3/history").status_code == 404
        # Another address registers; reading is not limited.
        assert http.post("/api/players", json={"name": "Other"}, headers=other).status_code == 201
        for _ in range(50):
            assert http.get("/api/tables", headers=flooder).status_code == 200
        # Over the WebSocket, the same address's budget: refused, and the connection stays.
        with http.websocket_connect("/ws", headers=_from("203.0.113.7")) as ws:
            ws.send_json({"type": "hello", "name": "Flood ws"})
            error = ws.receive_json()
            assert error == {"type": "error", "code": "rate_limited", "message": message, "retry_after": 20}, error
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            # Time passes: one registration a 20 seconds comes back.
            clock.now += 19
            ws.send_json({"type": "hello", "name": "Flood ws"})
            error = ws.receive_json()
            assert error["code"] == "rate_limited" and error["retry_after"] == 1, error
            clock.now += 1
            ws.send_json({"type": "hello", "name": "Flood ws"})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["player"]["name"] == "Flood ws", welcome
        again = http.post("/api/players", json={"name": "Flood again"}, headers=flooder)
        assert again.status_code == 429 and again.headers["Retry-After"] == "20", again.text
        clock.now += 60  # a full minute: three again
        for n in range(3):
            assert http.post("/api/players", json={"name": f"Back {n}"}, headers=flooder).status_code == 201
        assert http.post("/api/players", json={"name": "Back 3"}, headers=flooder).status_code == 429
        # Registrations over the WebSocket count against the HTTP budget too.
        with http.websocket_connect("/ws", headers=_from("192.0.2.44")) as ws:
            for n in range(2):
                ws.send_json({"type": "hello", "name": f"Third ws {n}"})
                assert ws.receive_json()["type"] == "welcome"
        assert http.post("/api/players", json={"name": "Third 2"}, headers=_from("192.0.2.44")).status_code == 201
        assert http.post("/api/players", json={"name": "Third 3"}, headers=_from("192.0.2.44")).status_code == 429
        # An IPv6 client counts by its /64: its other addresses are the same client.
        v6 = [http.post("/api/players", json={"name": f"Six {n}"}, headers=_from(f"2001:db8::{n}")) for n in range(4)]
        assert [a.status_code for a in v6] == [201, 201, 201, 429]
        elsewhere = http.post("/api/players", json={"name": "Six b"}, headers=_from("2001:db8:0:1::1"))
        assert elsewhere.status_code == 201


@_TESTCLIENT
def test_new_tables_are_limited_per_address_but_never_a_match_in_progress(tmp_path: Path) -> None:
    """Table creations (``POST /api/tables``, ``POST /api/quick``, ``create``, ``quick``) share
    one budget per address; what a match in progress needs (joining again, deciding, hints,
    watching, a second connection of the same player) is never refused for it."""
    from starlette.testclient import TestClient

    from sobedesce.server.app import Limit

    clock = _Clock()
    app = _limited_app(tmp_path, clock, registrations=Limit(1, 3600), tables=Limit(2, 600))
    here = "203.0.113.9"
    rng = random.Random("limits")
    with TestClient(app) as http:
        with http.websocket_connect("/ws", headers=_from(here)) as ws:
            ws.send_json({"type": "hello", "name": "Ana"})
            token = ws.receive_json()["token"]
            ws.send_json({"type": "quick", "level": "easy"})  # the first table
            joined = ws.receive_json()
            assert joined["type"] == "joined", joined
            table_id = joined["table"]
            made = http.post("/api/quick", headers=_from(here, token))  # the second
            assert made.status_code == 201, made.text
            # The address has no table and no registration left.
            message = "too many new tables from your address: at most 2 every 10 minutes; try again in 5 minutes"
            for path, body in (("/api/quick", None), ("/api/tables", {"seats": ["you", "easy", "easy", "easy"]})):
                answer = http.post(path, json=body, headers=_from(here, token))
                assert answer.status_code == 429, answer.text
                assert answer.json() == {"detail": message, "code": "rate_limited"}
                assert answer.headers["Retry-After"] == "300"
            assert http.post("/api/players", json={"name": "Bea"}, headers=_from(here)).status_code == 429
            # Another address's player creates tables.
            assert http.post("/api/players", json={"name": "Caio"}, headers=_from("198.51.100.3")).status_code == 201

            # The match goes on: every decision is taken, a hint given, a second connection of
            # the same player comes back to the seat, a spectator watches.
            with (
                http.websocket_connect("/ws", headers=_from(here, token)) as again,
                http.websocket_connect("/ws", headers=_from(here, token)) as watcher,
            ):
                assert again.receive_json()["type"] == "welcome"
                assert watcher.receive_json()["type"] == "welcome"
                watcher.send_json({"type": "watch", "table": table_id})
                assert watcher.receive_json() == {"type": "joined", "table": table_id, "seat": None}
                again.send_json({"type": "create", "seats": ["you", "open", "easy", "easy"]})
                error = again.receive_json()
                assert error["code"] == "rate_limited" and error["message"] == message, error
                again.send_json({"type": "join", "table": table_id, "since": 0})
                assert again.receive_json() == {"type": "joined", "table": table_id, "seat": 0}
                decisions = hints = 0
                asked = False
                state: dict[str, Any] | None = None
                v = 0
                over = False
                while not over:
                    message_in = again.receive_json()
                    kind = message_in["type"]
                    assert kind != "error", message_in
                    if kind in ("update", "snapshot"):
                        v, state = message_in["v"], message_in["state"]
                        over = any(e["kind"] == "match" for e in message_in.get("events", ()))
                    hints += kind == "hint"
                    if state is not None and state["to_act"] == 0 and state.get("legal") is not None and not over:
                        if not asked:
                            asked = True
                            again.send_json({"type": "hint", "id": "h"})
                            continue  # decided once the hint is in
                        again.send_json({"type": "act", "id": f"a{v}", "v": v, "action": choose_action(state, rng)})
                        decisions += 1
                        state = None
                assert decisions > 0 and hints == 1
                # A rematch is a new table: counted too (before a cluster would forward it).
                again.send_json({"type": "rematch"})
                answer_in = again.receive_json()
                while answer_in["type"] not in ("error", "rematch"):
                    answer_in = again.receive_json()
                assert answer_in["code"] == "rate_limited" and answer_in["message"] == message, answer_in
            # Still limited after all that: nothing of the match was counted.
            assert http.post("/api/quick", headers=_from(here, token)).status_code == 429
        clock.now += 300  # one table back
        assert http.post("/api/quick", headers=_from(here, token)).status_code == 201


def test_serve_limits_the_address_its_proxy_names_and_not_this_machine(make_server: MakeServer) -> None:
    """``sobedesce serve --limit-registrations 2/h --limit-tables 1/h``: a client behind a proxy
    on this machine (``X-Forwarded-For``, believed from loopback by default) is limited by its
    own address, over HTTP and the WebSocket; this machine's own scripts are not; a proxy not
    trusted (``--forwarded-allow-ips``) names nobody.  Limits of an hour: nothing comes back
    within the test, however slowly it runs."""
    server = make_server(extra=["--limit-registrations", "2/h", "--limit-tables", "1/h"])
    proxied = {"X-Forwarded-For": "203.0.113.5"}

    async def scenario() -> None:
        with server.http() as http:
            for n in range(4):  # this machine: not limited
                assert http.post("/api/players", json={"name": unique_name(f"Local{n}")}).status_code == 201
            token = http.post("/api/players", json={"name": unique_name("Far")}, headers=proxied).json()["token"]
            client = await GameClient.open(server, "far", headers=proxied)
            welcome = await client.hello(name=unique_name("Far"))
            assert welcome["type"] == "welcome", welcome
            error = await client.hello(name=unique_name("Far"))
            assert error["code"] == "rate_limited", error
            assert error["message"].startswith("too many new players from your address: at most 2 an hour"), error
            assert 0 < error["retry_after"] <= 1800, error
            answer = http.post("/api/players", json={"name": unique_name("Far")}, headers=proxied)
            assert answer.status_code == 429 and answer.json()["code"] == "rate_limited", answer.text
            assert 0 < int(answer.headers["Retry-After"]) <= 1800
            await client.quick("classic", "easy")  # the address's one table
            auth = {**proxied, "Authorization": f"Bearer {token}"}
            answer = http.post("/api/quick", headers=auth)
            assert answer.status_code == 429, answer.text
            assert "at most 1 an hour" in answer.json()["detail"]
            # The match in progress goes on.
            await client.play(random.Random("proxied"), stop=lambda c: c.my_turn)
            assert client.state is not None
            await client.decide(choose_action(client.state, random.Random("proxied")))
            await client.close()
            assert http.post("/api/quick", headers={"Authorization": f"Bearer {token}"}).status_code == 201

    run(scenario())
    untrusting = make_server(extra=["--limit-registrations", "1/h", "--forwarded-allow-ips", "192.0.2.1"])
    with untrusting.http() as http:
        for n in range(3):  # the header is not believed: this machine, not limited
            answer = http.post("/api/players", json={"name": unique_name(f"Spoof{n}")}, headers=proxied)
            assert answer.status_code == 201, answer.text
    everyone = make_server(extra=["--limit-registrations", "1/h", "--limit-exempt", "none"])
    with everyone.http() as http:
        assert http.post("/api/players", json={"name": unique_name("Once")}).status_code == 201
        assert http.post("/api/players", json={"name": unique_name("Twice")}).status_code == 429


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--limit-registrations", "30/fortnight"], "--limit-registrations: a limit's period is in s, min, h or d"),
        (["--limit-tables", "many"], "--limit-tables: a limit is COUNT/PERIOD"),
        (["--limit-tables", "0/h"], "--limit-tables: a limit counts 1 request or more"),
        (["--limit-tables", "5/0s"], "--limit-tables: a limit's period is a positive number"),
        (["--limit-exempt", "10.0.0.300"], "--limit-exempt: not an address or network"),
    ],
)
def test_serve_refuses_limits_it_cannot_read(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    from sobedesce.cli.main import main

    # With a store that cannot open: were the limit let through, serve would stop there.
    assert main(["serve", *args, "--db", "bogus://x"]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1, err


# -- the store failing under a table ---------------------------------------------------------


class _FlakyStore:
    """Mixed into a Store: the writes named in ``fail`` (a decision's number, or ``"finish"``)
    fail once each, as when the database cannot be reached for a moment."""

    fail: set[int | str]

    def _flake(self, what: int | str) -> None:
        from sobedesce.server.store import StoreError

        if what in getattr(self, "fail", ()):
            self.fail.discard(what)
            raise StoreError("the database failed: connection refused (a test)")

    def append_many(self, batch: Any) -> Any:
        for _, decisions, _ in batch:
            for seq, _ in decisions:
                self._flake(seq)
        return super().append_many(batch)  # type: ignore[misc]

    def append_decisions(self, table_id: str, decisions: Any, version: int) -> Any:
        for seq, _ in decisions:
            self._flake(seq)
        return super().append_decisions(table_id, decisions, version)  # type: ignore[misc]

    def finish_match(self, *args: Any, **kwargs: Any) -> Any:
        self._flake("finish")
        return super().finish_match(*args, **kwargs)  # type: ignore[misc]


def test_a_table_moves_on_once_its_store_is_back(tmp_path: Path) -> None:
    """A store failure while the table's own loop took a decision (a deal, a bot's move, the
    match's record) ended that loop: the table stood still for good, the database back or not,
    since only a person's decision started the bots again, and it was a bot's turn (found by
    cutting a served server's PostgreSQL connection for a few seconds mid-match).  Now the
    table tries again until the store takes it, and the match ends, recorded, with every
    decision stored once."""
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Settings, Tables

    class FlakyStore(_FlakyStore, Store):
        pass

    async def scenario() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'flaky.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0, store_retry=0))
        try:
            player, _ = await tables.register("Watcher")
            # The first deal, a bot's decision mid-match and the record each fail once.
            store.fail = {1, 7, "finish"}
            room = await tables.create(player, "classic", ["easy", "easy", "easy", "easy"])
            while room.driving is not None and not room.driving.done():
                await room.driving  # the table's loop: it ends once nothing is due
            assert store.fail == set(), store.fail  # every failure happened
            assert room.status == "finished", (room.status, room.version)
            assert room.match_id is not None
            record = store.match_record(room.match_id)
            assert record is not None and read_record(record).is_over
            decisions = store.decisions(room.id)
            assert [seq for seq, _ in decisions] == list(range(1, len(decisions) + 1))
            assert len(decisions) == room.decisions
        finally:
            await tables.close()
            store.close()

    run(scenario())


def test_a_cancelled_write_does_not_strand_the_other_tables_of_its_group_commit(tmp_path: Path) -> None:
    """Decisions of several tables are committed together.  When one table's wait was cancelled
    (a table dropped as its lease moved to another process, or a closing server), marking its
    future done raised, and every later table of the same commit waited for good, holding its
    lock: a table of a live process stood still."""
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Settings, Tables

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'group.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        try:
            player, _ = await tables.register("Grouped")
            rooms = [await tables.create(player, "classic", ["you", "easy", "easy", "easy"]) for _ in range(3)]
            waits = [asyncio.ensure_future(tables._append(room.id, 1, {"seat": 0, "by": "test"}, 1)) for room in rooms]
            await asyncio.sleep(0)  # each has joined the group; the commit has not run yet
            assert len(tables._pending) == 3
            waits[0].cancel()
            done, _ = await asyncio.wait(waits[1:], timeout=60)
            assert len(done) == 2, "a table of the group commit was left waiting"
            assert all(wait.exception() is None for wait in done)
            assert [len(store.decisions(room.id)) for room in rooms] == [1, 1, 1]
        finally:
            await tables.close()
            store.close()

    run(scenario())


def test_a_persons_last_decision_is_acknowledged_when_recording_the_match_fails(tmp_path: Path) -> None:
    """The last decision of a match is stored, then the match recorded.  When the record's
    write failed, the person who had made that decision was answered with an error (though
    it was stored), the others never heard of it, and the match stayed unrecorded, the table
    in play, until a restart.  Now the decision is acknowledged and shown, and the match is
    recorded once the store takes it."""
    from sobedesce.core import Match
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Client, Settings, Tables

    class FlakyStore(_FlakyStore, Store):
        pass

    async def settled(room: Any) -> None:
        while room.driving is not None and not room.driving.done():
            await asyncio.wait([room.driving])

    async def scenario() -> None:
        store = FlakyStore(f"sqlite:///{tmp_path / 'flaky.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0, store_retry=0, allow_seed=True))
        heard: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            heard.append(json.loads(text))

        try:
            player, _ = await tables.register("Last")
            # Deals are seeded: find one whose last decision is the person's.
            for attempt in range(60):
                heard.clear()
                client = Client(send)
                client.start()
                client.player = player
                room = await tables.create(player, "classic", ["you", "easy", "easy", "easy"], seed=f"last-{attempt}")
                await tables.join(client, room.id)
                rng = random.Random(attempt)
                store.fail = {"finish"}
                request = ""
                while True:
                    await settled(room)
                    driver = room.driver
                    assert driver is not None
                    match: Match = driver.match
                    if match.is_over:
                        break
                    assert driver.to_act == 0, (driver.to_act, room.status)
                    request = f"a{room.version}"
                    await tables.act(client, request, room.version, rng.choice(list(match.legal_actions())))
                await settled(room)
                assert store.fail == set()
                assert room.status == "finished" and room.match_id is not None, room.status
                assert store.match_record(room.match_id) is not None
                await client.stop()  # everything queued for it is sent
                if store.decisions(room.id)[-1][1].get("by") == "person":
                    break
            else:
                raise AssertionError("no seed made the person's decision the last of the match")
            assert [m for m in heard if m["type"] == "error"] == []
            answers = [m for m in heard if m["type"] == "ack"]
            assert answers[-1]["id"] == request, answers[-1]
            ended = [m for m in heard if m["type"] == "update" and any(e["kind"] == "match" for e in m["events"])]
            assert ended and ended[-1]["v"] == room.version, ended[-1:]
            finished = [m for m in heard if m["type"] == "table" and m["table"]["status"] == "finished"]
            assert finished and finished[-1]["table"]["match_id"] == room.match_id
        finally:
            await tables.close()
            store.close()

    run(scenario())


@_TESTCLIENT
def test_a_store_that_cannot_be_reached_is_a_503_and_an_unavailable_error_not_a_500_or_a_drop(
    tmp_path: Path,
) -> None:
    """With the database unreachable (a served server's PostgreSQL connection cut), every HTTP
    endpoint that reads or writes answered 500 with a plain-text "Internal Server Error"; a
    WebSocket that sent its token in the upgrade's Authorization header was dropped without a
    close frame; a message was answered ``internal`` (a bug, says the protocol); and a ``join``
    whose write failed left the seat taken in memory, though not in the store.  Now a 503 in
    the API's shape with ``Retry-After``, an ``unavailable`` error, the connection open, and
    the seat still open."""
    from starlette.testclient import TestClient

    from sobedesce.server.app import STORE_DOWN, create_app
    from sobedesce.server.store import Store, StoreError
    from sobedesce.server.tables import Settings

    class DownStore(Store):
        down = False

        def _transaction(self, *, write: bool = False) -> Any:
            if self.down:
                raise StoreError("cannot reach the database sqlite:///x: connection refused (a test)")
            return super()._transaction(write=write)

    store = DownStore(f"sqlite:///{tmp_path / 'down.db'}")
    app = create_app(store, Settings(pace=0))
    unavailable = {"detail": STORE_DOWN, "code": "unavailable"}
    with TestClient(app, raise_server_exceptions=False) as http:
        host = http.post("/api/players", json={"name": "Host"}).json()["token"]
        guest = http.post("/api/players", json={"name": "Guest"}).json()["token"]
        made = http.post("/api/tables", json={"seats": ["you", "open", "easy", "easy"]}, headers=_auth(host))
        table = made.json()["id"]
        store.down = True
        for method, path, options in (
            ("POST", "/api/players", {"json": {"name": "Late"}}),
            ("GET", "/api/me", {"headers": _auth(host)}),
            ("POST", "/api/quick", {"headers": _auth(host)}),
            ("GET", "/api/leaderboard", {}),
            ("GET", "/api/players/Host/history", {}),
            ("GET", "/api/matches/1", {}),
        ):
            answer = http.request(method, path, **options)
            assert answer.status_code == 503, (path, answer.status_code, answer.text)
            assert answer.json() == unavailable and answer.headers["Retry-After"] == "5", (path, answer.text)
        health = http.get("/api/health")
        # The store's reason (it names the database's host) goes to the log, not to the public.
        assert health.status_code == 503 and health.json() == {"status": "error", "store": "unavailable"}
        with http.websocket_connect("/ws", headers=_auth(guest)) as ws:
            assert ws.receive_json() == {"type": "error", "code": "unavailable", "message": STORE_DOWN}
            ws.send_json({"type": "hello", "name": "Late"})
            assert ws.receive_json() == {"type": "error", "code": "unavailable", "message": STORE_DOWN}
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            store.down = False
            ws.send_json({"type": "hello", "token": guest})
            assert ws.receive_json()["type"] == "welcome"
            store.down = True
            ws.send_json({"type": "join", "table": table})
            assert ws.receive_json() == {"type": "error", "code": "unavailable", "message": STORE_DOWN}
            store.down = False
            seats = http.get(f"/api/tables/{table}").json()["seats"]
            assert [s["kind"] for s in seats] == ["person", "open", "bot", "bot"], seats
            ws.send_json({"type": "join", "table": table})
            assert ws.receive_json() == {"type": "joined", "table": table, "seat": 1}
        assert http.post("/api/players", json={"name": "Late"}).status_code == 201


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@_TESTCLIENT
def test_every_refusal_of_the_api_names_its_code(tmp_path: Path) -> None:
    """The lobby's refusals had a ``code`` (as the WebSocket's errors), but not a missing or
    unknown token (401: the WebSocket's ``unauthorized``), an unknown player or match (404),
    or a body too large (413): a client could not tell them apart but by their text.  Now
    every refusal is ``{"detail", "code"}``, and a 401 says how to authenticate."""
    from starlette.testclient import TestClient

    from sobedesce.server.app import create_app
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Settings

    app = create_app(Store(f"sqlite:///{tmp_path / 'codes.db'}"), Settings(pace=0))
    with TestClient(app) as http:
        token = http.post("/api/players", json={"name": "Ana"}).json()["token"]
        seats = {"seats": ["you", "open", "easy", "easy"]}
        for method, path, options, status, code in (
            ("GET", "/api/me", {}, 401, "unauthorized"),
            ("GET", "/api/me", {"headers": _auth("nope")}, 401, "unauthorized"),
            ("POST", "/api/tables", {"json": seats}, 401, "unauthorized"),
            ("POST", "/api/quick", {"headers": {"Authorization": "Basic abc"}}, 401, "unauthorized"),
            ("GET", "/api/players/nobody/history", {}, 404, "no_player"),
            ("GET", "/api/matches/5", {}, 404, "no_match"),
            ("GET", "/api/matches/5/record", {}, 404, "no_match"),
            ("GET", "/api/tables/nope", {}, 404, "no_table"),
            ("POST", "/api/players", {"json": {"name": "ana"}}, 409, "name_taken"),
            ("POST", "/api/players", {"json": {"name": "Bot 1"}}, 400, "bad_name"),
            ("POST", "/api/players", {"content": b"{" + b" " * 70_000 + b"}"}, 413, "too_large"),
        ):
            answer = http.request(method, path, **options)
            assert answer.status_code == status, (path, answer.status_code, answer.text[:200])
            body = answer.json()
            assert set(body) == {"detail", "code"} and body["code"] == code, (path, body)
            assert isinstance(body["detail"], str) and body["detail"], (path, body)
            if status == 401:
                assert answer.headers["WWW-Authenticate"] == "Bearer", path
        assert http.get("/api/me", headers=_auth(token)).json()["name"] == "Ana"


def test_a_hint_is_worked_out_once_a_turn(tmp_path: Path) -> None:
    """A hint has the strong bot think for up to seconds, in a thread, holding the table: a
    seat asking again and again at its turn (ten messages a second pass the connection's
    limit, and every connection of the player has its own) kept a core busy for nothing,
    the answer being the same.  Now it is worked out once a turn and given again."""
    from sobedesce.bots import make_bot
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Client, Settings, Tables
    from sobedesce.table import driver as driver_module

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'hints.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        clients = [Client(_ignore) for _ in range(2)]
        try:
            player, _ = await tables.register("Curious")
            room = await tables.create(player, "classic", ["you", "easy", "easy", "easy"])
            for client in clients:
                client.player = player
                await tables.join(client, room.id)
            rng = random.Random("hints")
            driver = room.driver
            assert driver is not None
            worked = 0
            make = driver_module.make_bot

            def counted(name: str, **settings: Any) -> Any:  # a hint's bot, made to work one out
                nonlocal worked
                worked += 1
                return make(name, **settings)

            driver_module.make_bot = counted
            for turn in range(1, 4):
                while driver.to_act != 0:
                    assert room.driving is not None and not room.driving.done(), driver.status
                    await asyncio.wait([room.driving])
                answers = [await tables.hint(clients[n % 2]) for n in range(5)]
                assert worked == turn, (turn, worked)
                assert all(answer == answers[0] for answer in answers)
                assert answers[0][0] == room.version
                await tables.act(clients[0], f"a{turn}", room.version, rng.choice(list(driver.match.legal_actions())))
        finally:
            driver_module.make_bot = make_bot
            await tables.close()
            store.close()

    run(scenario())


def test_limits_read_their_settings_and_forget_addresses_that_are_full_again() -> None:
    from sobedesce.server.limits import AddressLimits, Limit, Limits, RateLimited, address_key

    assert Limit.parse("30/h") == Limit(30, 3600) and Limit.parse("10/15min") == Limit(10, 900)
    assert Limit.parse("20/600") == Limit(20, 600) and Limit.parse("off") is None
    assert [Limit(*a).text() for a in ((30, 3600), (20, 600), (5, 1), (100, 86400), (7, 90))] == [
        "30 an hour",
        "20 every 10 minutes",
        "5 a second",
        "100 a day",
        "7 every 90 seconds",
    ]
    for bad in ("30", "x/h", "3/fortnight", "0/h", "5/0"):
        with pytest.raises(ValueError):
            Limit.parse(bad)
    assert address_key("2001:db8::1")[0] == address_key("2001:db8::ffff")[0] == "2001:db8::/64"
    assert address_key("::ffff:192.0.2.1")[0] == "192.0.2.1" and address_key(None)[0] == "unknown"

    clock = _Clock()
    limits = AddressLimits(Limits(registrations=Limit(2, 10), tables=None, exempt=("10.0.0.0/8",)), clock)
    for _ in range(50):
        limits.take("tables", "192.0.2.1")  # off: never counted
        limits.take("registrations", "10.1.2.3")  # exempt
    buckets = limits._kinds["registrations"]
    for n in range(buckets.prune_at + 1):
        limits.take("registrations", f"198.51.{n // 256}.{n % 256}")
    with pytest.raises(RateLimited):
        limits.take("registrations", "198.51.0.0")
        limits.take("registrations", "198.51.0.0")
    clock.now += 10  # every bucket is full again: forgotten once the count passes the mark
    added = buckets.prune_at - len(buckets.buckets) + 1
    for n in range(added):
        limits.take("registrations", f"203.0.{n // 256}.{n % 256}")
    assert len(buckets.buckets) == added and not any(key.startswith("198.51.") for key in buckets.buckets)


def test_limits_count_every_address_that_is_not_an_ip_address_in_one_budget() -> None:
    from sobedesce.server.limits import AddressLimits, Limit, Limits, RateLimited, address_key

    # A trusted proxy passes on whatever the client wrote in X-Forwarded-For: a new name each
    # time must not be a new budget, nor pass for an exempt address.
    limits = AddressLimits(Limits(registrations=Limit(2, 3600), tables=None, exempt=("127.0.0.0/8",)), _Clock())
    limits.take("registrations", "junk1")
    limits.take("registrations", "junk2")
    for host in ("junk3", "127.0.0.1junk", "", None, "[junk]:80"):
        with pytest.raises(RateLimited):
            limits.take("registrations", host)
    assert address_key("junk1") == address_key("testclient") == ("unknown", None)
    # A port is not part of the address; an IPv6 zone neither.
    assert address_key("192.0.2.1:5678") == address_key("192.0.2.1")
    assert address_key("[2001:db8::1]:80")[0] == address_key("2001:db8::2")[0] == "2001:db8::/64"
    assert address_key("fe80::1%eth0")[0] == "fe80::/64"
    limits.take("registrations", "127.0.0.1:5678")  # exempt, port or not


# -- phrases at the table ------------------------------------------------------------------------


def test_a_seated_person_says_a_phrase_to_the_whole_table_and_the_match_is_not_disturbed(
    make_server: MakeServer,
) -> None:
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = await host.create(["you", "open", "easy", "easy"])
        guest = await GameClient.person(server, "guest")
        await guest.join(table["id"])
        watcher = await GameClient.person(server, "watcher")
        await watcher.watch(table["id"])
        # A person's turn: the match waits for it, so nothing moves the version meanwhile.
        people = {host.seat, guest.seat}
        await host.reach(lambda c: c.state is not None and c.state["to_act"] in people, "a person's turn")
        assert host.state is not None
        player = host if host.state["to_act"] == host.seat else guest
        await player.reach(lambda c: c.my_turn, "its turn")
        version = player.v

        # Twice at once (sent together, so that no round trip comes between them): the second
        # is refused, and nobody hears it.
        await guest.send({"type": "say", "phrase": "good_luck"})
        await guest.send({"type": "say", "phrase": "good_luck"})
        heard = [await c.until_type("said") for c in (host, guest, watcher)]
        assert (
            heard[0]
            == heard[1]
            == heard[2]
            == {
                "type": "said",
                "table": table["id"],
                "seat": guest.seat,
                "name": guest.player["name"] if guest.player else None,
                "phrase": "good_luck",
            }
        )
        soon = await guest.until_type("error", "said")
        assert soon["code"] == "too_soon" and "one phrase every 2 seconds" in soon["message"]
        # Only phrases; a spectator says nothing.
        await host.send({"type": "say", "phrase": "you are bad"})
        bad = await host.until_type("error", "said")
        assert bad["code"] == "bad_message" and "'well_played'" in bad["message"], bad
        await watcher.send({"type": "say", "phrase": "hello"})
        mute = await watcher.until_type("error", "said")
        assert mute["code"] == "not_seated"
        # Not an event of the match: no version, so the decision due is not stale.
        for client in (host, guest, watcher):
            await client.send({"type": "ping"})
            await client.until_type("pong")
            assert [m["phrase"] for m in client.log if m["type"] == "said"] == ["good_luck"], client.label
        assert player.v == version and player.state is not None
        answer = await player.decide(choose_action(player.state, random.Random(1)))
        assert answer["v"] == version + 1
        for client in (host, guest, watcher):
            await client.close()

    run(scenario())


def test_a_seat_may_say_a_phrase_every_two_seconds_by_the_tables_clock(tmp_path: Path) -> None:
    from sobedesce.server.app import ServerError
    from sobedesce.server.store import Store
    from sobedesce.server.tables import Client, Settings, Tables

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'store.db'}")
        store.migrate()
        tables = Tables(store, Settings(pace=0))
        now = [100.0]
        tables.clock = lambda: now[0]
        heard: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def to_host(text: str) -> None:
            heard.put_nowait(json.loads(text))

        host = Client(to_host)
        host.start()
        try:
            host.player, _ = await tables.register("Host")
            room = await tables.create(host.player, "classic", ["you", "easy", "easy", "easy"])
            await tables.join(host, room.id)
            tables.say(host, "hello")
            assert (await _next_of(heard, "said"))["phrase"] == "hello"
            now[0] += 1.99
            with pytest.raises(ServerError, match="one phrase every 2 seconds"):
                tables.say(host, "oops")
            now[0] += 0.01
            tables.say(host, "thanks")
            assert (await _next_of(heard, "said"))["phrase"] == "thanks"
        finally:
            await host.stop()
            await tables.close()
            store.close()

    run(scenario())


# -- a rematch -------------------------------------------------------------------------------------


def test_after_the_match_a_rematch_seats_its_people_again_at_the_same_table(make_server: MakeServer) -> None:
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = await host.create(["you", "open", "easy", "hard"], "table", private=True)
        guest = await GameClient.person(server, "guest")
        await guest.join(None, code=table["invite"])
        stranger = await GameClient.person(server, "stranger")
        await stranger.send({"type": "rematch"})
        assert (await stranger.until_type("error"))["code"] == "not_seated"
        await host.send({"type": "rematch"})
        early = await host.until_type("error")
        assert early["code"] == "not_over" and "match is over" in early["message"]

        await asyncio.gather(host.play(random.Random(1)), guest.play(random.Random(2)))
        old = await finished_table(host)
        await guest.send({"type": "rematch"})
        told = [await client.until_type("rematch") for client in (host, guest)]
        assert told[0] == told[1]
        offer = told[0]
        assert offer["table"] == table["id"] and offer["next"] != table["id"]
        assert (offer["seat"], offer["name"]) == (guest.seat, guest.player["name"] if guest.player else None)
        assert isinstance(offer["invite"], str), "a private table's rematch is private, its invitation told"
        # Asked again, by anyone: the same table, told to whoever asks.
        await host.send({"type": "rematch"})
        assert (await host.until_type("rematch"))["next"] == offer["next"]

        # The one who asked sits there already; the others take their seats back.
        await guest.join(offer["next"], code=offer["invite"])
        assert guest.seat == 1
        await host.join(offer["next"], seat=0, code=offer["invite"])
        await host.reach(lambda c: c.table_info is not None and c.table_info["status"] == "playing", "the start")
        new = host.table_info
        assert new is not None and new["id"] == offer["next"] and new["private"] is True
        assert new["rules"] == old["rules"] == "table"
        assert [(s["kind"], s["level"]) for s in new["seats"]] == [(s["kind"], s["level"]) for s in old["seats"]]
        assert [s["name"] for s in new["seats"][:2]] == [s["name"] for s in old["seats"][:2]]
        for client in (host, guest, stranger):
            await client.close()

    run(scenario())


def test_a_rematch_keeps_each_persons_seat_for_them_a_while(make_server: MakeServer) -> None:
    """A rematch's other seats were open to anyone: a stranger from the lobby, or with the
    link, could take a friend's seat before the friend came back.  Each is kept for its person
    (``kept_for``) for ``keep_for`` seconds: not listed, refused to others by name, taken by
    its person without naming it; after that, open to anyone."""

    async def rematch_made(server: ServerProcess) -> tuple[GameClient, GameClient, GameClient, str]:
        host = await GameClient.person(server, "host")
        table = await host.create(["you", "open", "easy", "easy"])
        guest = await GameClient.person(server, "guest")
        await guest.join(table["id"])
        await asyncio.gather(host.play(random.Random(3)), guest.play(random.Random(4)))
        await finished_table(guest)
        await guest.send({"type": "rematch"})
        offer = await guest.until_type("rematch")
        await guest.join(offer["next"])
        stranger = await GameClient.person(server, "stranger")
        return host, guest, stranger, offer["next"]

    async def kept() -> None:
        host, guest, stranger, new = await rematch_made(make_server(settings={"pace": 0}))
        assert guest.table_info is not None
        host_name = host.player["name"] if host.player else None
        assert [s["kept_for"] for s in guest.table_info["seats"]] == [host_name, None, None, None]
        await stranger.send({"type": "list"})
        assert new not in {t["id"] for t in (await stranger.until_type("tables"))["tables"]}
        await refused(stranger, {"type": "join", "table": new}, "table_full", naming=("kept", "match before", "s more"))
        await refused(stranger, {"type": "join", "table": new, "seat": 0}, "seat_taken", naming=("kept for", host_name))
        # The lobby's way back to it for the person it is kept for (gone from the finished
        # table, they had none), and for nobody else.
        await stranger.send({"type": "list"})
        assert (await stranger.until_type("tables"))["kept"] == []
        await host.send({"type": "list"})
        listing = await host.until_type("tables")
        assert [(t["id"], t["invite"]) for t in listing["kept"]] == [(new, None)], listing["kept"]
        await host.join(new)  # no seat named: the one kept for them
        assert host.seat == 0
        await host.reach(lambda c: c.table_info is not None and c.table_info["status"] == "playing", "the start")
        assert host.table_info is not None and all(s["kept_for"] is None for s in host.table_info["seats"])
        for client in (host, guest, stranger):
            await client.close()

    async def let_go() -> None:
        host, guest, stranger, new = await rematch_made(make_server(settings={"pace": 0, "keep_for": 0.3}))
        await guest.until(
            lambda m: m["type"] == "table" and m["table"]["seats"][0]["kept_for"] is None, what="the seat let go"
        )
        await stranger.join(new)
        assert stranger.seat == 0
        for client in (host, guest, stranger):
            await client.close()

    run(kept())
    run(let_go())


def test_the_finished_table_tells_who_has_gone_to_the_rematch(make_server: MakeServer) -> None:
    """Everyone still at a finished table learns which of its people sit at the rematch: the
    one who asked, and each one who took a seat there since (gone there, not offline); one who
    leaves the new table before it starts is there no longer.  Nothing else is told."""
    server = make_server()

    async def scenario() -> None:
        host = await GameClient.person(server, "host")
        table = (await host.create(["you", "open", "open", "easy"]))["id"]
        guest, third = await GameClient.person(server, "guest"), await GameClient.person(server, "third")
        await guest.join(table)
        await third.join(table)
        watcher = await GameClient.person(server, "eve")
        await watcher.watch(table)
        await asyncio.gather(*(c.play(random.Random(n)) for n, c in enumerate((host, guest, third))))
        await finished_table(watcher)

        def gone(*seats: int) -> Callable[[Message], bool]:
            want = [n in seats for n in range(4)]
            return lambda m: (
                m["type"] == "table"
                and m["table"]["id"] == table
                and [s.get("at_rematch") for s in m["table"]["seats"]] == want
            )

        await guest.send({"type": "rematch"})
        offer = await guest.until_type("rematch")
        await watcher.until(gone(1), what="the one who asked, at the rematch")
        # The third person accepts: their one connection goes to the new table.
        await third.join(offer["next"])
        told = await watcher.until(gone(1, 2), what="the one who accepted, at the rematch")
        seats = told["table"]["seats"]
        assert (seats[2]["connected"], seats[2]["away"]) == (False, False), seats[2]
        # The host, still at the old table, is told the same (sent before this pong).
        await host.send({"type": "ping"})
        await host.until_type("pong")
        assert gone(1, 2)({"type": "table", "table": host.table_info})
        # Only public facts: each seat's usual fields, no card, no invitation.
        fields = {"seat", "kind", "name", "level", "connected", "away", "at_rematch", "bot_in", "kept_for"}
        assert all(set(seat) == fields for seat in seats), seats
        assert "invite" not in told["table"] and not list(card_strings(told))
        # Leaving the new table before it starts: no longer there.
        await third.send({"type": "leave"})
        await third.until_type("left")
        await watcher.until(gone(1), what="the one who left the rematch, no longer there")
        for client in (host, guest, third, watcher):
            await client.close()

    run(scenario())


def test_a_rematch_is_remembered_when_the_finished_table_is_read_back_after_a_restart(make_server: MakeServer) -> None:
    """Asked for again after a restart (or once nobody looked at the finished table, which then
    leaves memory), a rematch is the one made before, not a second table."""
    server = make_server(settings={"pace": 0})

    async def first() -> tuple[GameClient, str]:
        person = await GameClient.person(server, "ana")
        await person.quick("table", "easy")
        await person.play(random.Random("rematch"))
        await finished_table(person)
        await person.send({"type": "rematch"})
        offer = await person.until_type("rematch")
        await person.close()
        return person, offer["next"]

    person, rematch = run(first())
    server.kill()
    server.start()
    # Over HTTP too, the finished table read back from the store: it said false everywhere.
    with server.http() as http:
        seats = http.get(f"/api/tables/{person.table}").json()["seats"]
        assert [seat["at_rematch"] for seat in seats] == [True, False, False, False]

    async def after() -> None:
        back = await GameClient.person(server, "ana again", token=person.token)
        await back.join(person.table)
        assert back.table_info is not None and back.table_info["status"] == "finished"
        # Read back, the finished table still knows its person has a seat at the rematch.
        assert back.table_info["seats"][0]["at_rematch"] is True
        await back.send({"type": "rematch"})
        assert (await back.until_type("rematch"))["next"] == rematch
        await back.close()

    run(after())
    server.stop()
    from sobedesce.server.store import Store

    store = Store.for_data_dir(str(server.data))
    try:
        assert [row.id for row in store.tables(["open", "abandoned"])] == [rematch], "a second table was made"
    finally:
        store.close()


def test_a_rematch_nobody_came_to_is_made_again(make_server: MakeServer) -> None:
    server = make_server(settings={"pace": 0, "open_for": 0.2})

    async def scenario() -> None:
        person = await GameClient.person(server, "ana")
        await person.quick("classic", "easy")
        await person.play(random.Random("closed"))
        await finished_table(person)
        await person.send({"type": "rematch"})
        closed = (await person.until_type("rematch"))["next"]
        # Nobody sits at it: it closes after open_for seconds (asked until it has, however
        # long the machine takes: no time is assumed).
        async with server.ahttp() as http:
            for _ in range(600):
                if (await http.get(f"/api/tables/{closed}")).json()["status"] == "abandoned":
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the unattended rematch did not close")
        await person.send({"type": "rematch"})
        again = (await person.until_type("rematch"))["next"]
        assert again != closed
        await person.send({"type": "rematch"})
        assert (await person.until_type("rematch"))["next"] == again
        await person.close()

    run(scenario())
