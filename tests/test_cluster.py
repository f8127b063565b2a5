"""Several ``sobedesce serve`` processes over one PostgreSQL and one Redis, end to end.

Real processes on loopback ports (``tests/cluster_client.py``), real WebSocket clients, a real
PostgreSQL and a real Redis: the tests run when ``SOBEDESCE_TEST_DATABASE_URL`` and
``SOBEDESCE_TEST_REDIS_URL`` name them (``.ci/run`` sets both) and skip, saying which is
missing, otherwise.  Each test has its own schema and its own Redis prefix.  Nothing sleeps:
every wait is for a message, a process or a row.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa

from cluster_client import (
    POSTGRES_URL,
    BusTap,
    Cluster,
    Cuttable,
    Player,
    cluster,
    expected_record,
    person,
    record_moves,
    seeded_choice,
    skip_reason,
)
from server_client import (
    EngineReplay,
    GameClient,
    LeakWatch,
    Message,
    ServerProcess,
    answer_to,
    at_version,
    choose_action,
    mid_trick,
    postgres_schema,
)
from sobedesce.core import read_record

SKIP = skip_reason()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(SKIP is not None, reason=SKIP or "")]


@pytest.fixture
def group(tmp_path: Path) -> Iterator[Cluster]:
    with cluster(tmp_path) as made:
        yield made


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def record_of(server: ServerProcess, match_id: int, by: GameClient | None = None) -> str:
    """A finished match's record (a private table's as one of its players, ``by``, reads it)."""
    headers = {"Authorization": f"Bearer {by.token}"} if by is not None else {}
    with server.http() as http:
        response = http.get(f"/api/matches/{match_id}/record", headers=headers)
    assert response.status_code == 200, response.text
    return response.text


async def match_id_of(client: GameClient) -> int:
    await client.reach(
        lambda c: c.table_info is not None and c.table_info["status"] == "finished", "the finished table"
    )
    assert client.table_info is not None
    return int(client.table_info["match_id"])


def check_everything_seen(record: str, clients: list[GameClient]) -> None:
    """Every event and state each connection got agrees with the engine's replay of the record."""
    replay = EngineReplay.of(record)
    for client in clients:
        assert client.match_event is not None, f"{client.label} never heard the match end"
        assert client.match_event["v"] == replay.version
        assert replay.check_client(client) > 0


def check_spectators(clients: list[GameClient]) -> None:
    for client in clients:
        for message in client.log:
            state = message.get("state") if message["type"] in ("snapshot", "update") else None
            if state is not None:
                assert "hand" not in state and "legal" not in state and state["seat"] is None, message
            for event in message.get("events", []):
                assert "discard" not in event and "drawn" not in event, event


# -- a whole match over two processes -------------------------------------------------------


def test_four_clients_on_two_processes_play_a_whole_match_and_see_one_lobby(group: Cluster) -> None:
    a, b = group.start(2)
    seed = f"seed-{uuid.uuid4().hex}"
    watch = LeakWatch(secrets=(seed,))
    tap = BusTap(group)

    async def scenario() -> tuple[list[GameClient], GameClient, int, list[Any]]:
        host = await person(a, "host", [watch])
        table = await host.create(["you", "open", "open", "open"], seed=seed)
        table_id = table["id"]
        spectator = await person(b, "spectator", [watch])
        await spectator.watch(table_id)
        # One lobby: both processes list the table, with the same seats.
        lobbies = []
        for server in (a, b):
            async with server.ahttp() as http:
                lobbies.append([t for t in (await http.get("/api/tables")).json() if t["id"] == table_id])
        assert lobbies[0] and lobbies[1]
        assert lobbies[0][0]["seats"] == lobbies[1][0]["seats"]
        # Seats 1 and 3 sit through process B, seat 2 through A: the owner is A.
        others = []
        for label, server in (("second", b), ("third", a), ("fourth", b)):
            client = await person(server, label, [watch])
            await client.join(table_id)
            others.append(client)
        # Requests through a process that does not own the table are answered by the owner.
        await others[0].send({"type": "hint", "id": "early"})
        early = await others[0].until(lambda m: m.get("id") == "early")
        # (the options if the deal made this seat the chooser already, else a refusal)
        assert early["type"] == "hint" or early["code"] == "not_your_turn", early
        # A phrase said through B reaches the table's people on A and B alike, from its owner.
        await others[0].send({"type": "say", "phrase": "good_luck"})
        for client in (host, others[0], others[1], spectator):
            said = await client.until_type("said")
            assert (said["table"], said["seat"], said["phrase"]) == (table_id, 1, "good_luck"), client.label
        await spectator.send({"type": "list"})
        listed = await spectator.until_type("tables")
        mine = next(t for t in listed["tables"] if t["id"] == table_id)
        assert mine["spectators"] == 1
        people = [host, *others]
        assert [p.seat for p in people] == [0, 1, 2, 3]
        # The owner sees the seats of the other process as connected.
        await host.reach(
            lambda c: c.table_info is not None and all(s["connected"] for s in c.table_info["seats"]),
            "every seat connected",
        )
        players = [Player(p, group.alive, seeded_choice(seed, p.seat or 0)) for p in people]
        await asyncio.gather(
            *(p.play() for p in players),
            spectator.until(lambda m: spectator.match_event is not None, what="the match event"),
        )
        # A bad decision through a forwarding process is refused like a local one.
        await others[0].send({"type": "act", "id": "late", "v": others[0].v, "action": {"kind": "turn"}})
        refused = await others[0].until(lambda m: m.get("id") == "late")
        assert refused["type"] == "error" and refused["code"] == "not_started"
        match_id = await match_id_of(spectator)
        # A rematch asked through B is made by the table's owner and told to everyone at it.
        await others[0].send({"type": "rematch"})
        for client in [*people, spectator]:
            offer = await client.until_type("rematch")
            assert (offer["table"], offer["seat"], offer["invite"]) == (table_id, 1, None), client.label
        await others[0].join(offer["next"])
        assert others[0].seat == 1
        for client in [*people, spectator]:
            await client.close()
        return people, spectator, match_id, [p.tolerated for p in players]

    people, spectator, match_id, tolerated = run(scenario())
    tap.stop()
    assert tap.check([*people, spectator], (seed,), watch) > 200, (
        "the connections of process B were served over the bus"
    )
    assert tolerated == [[], [], [], []], "no decision was refused in an undisturbed match"
    assert watch.problems == [], "\n".join(watch.problems[:5])
    assert watch.checked_all([*people, spectator]) > 0
    record = record_of(b, match_id)
    check_everything_seen(record, [*people, spectator])
    check_spectators([spectator])
    # The leaderboard and the histories are the same from either process.
    names = [p.player["name"] for p in people if p.player is not None]
    boards = []
    for server in (a, b):
        with server.http() as http:
            boards.append(http.get("/api/leaderboard", params={"among": "people"}).json())
            assert http.get(f"/api/players/{names[1]}/history").json()[0]["players"] == names
    assert boards[0] == boards[1]
    assert {row["player"] for row in boards[0]} == set(names)


# -- the owner killed mid-trick -----------------------------------------------------------------


killed_at: list[tuple[str, int, int]] = []
"""The table, the version the spectator had seen and the lease's epoch when the owner was killed."""


def test_a_rematch_asked_through_another_process_counts_against_the_address_limit(group: Cluster) -> None:
    """A rematch is a new table: the address's limit on new tables counts it on the process the
    connection is on, before that process forwards it to the table's owner (it used to pass
    uncounted when forwarded).  Each process keeps its own count of an address."""
    a, b = group.start(2, extra=["--limit-tables", "1/h", "--limit-registrations", "100/h"])
    proxied = {"X-Forwarded-For": "203.0.113.8"}

    async def scenario() -> None:
        host = await GameClient.open(a, "host", headers=proxied)
        assert (await host.hello(name=f"host{uuid.uuid4().hex[:8]}"))["type"] == "welcome"
        table = await host.create(["you", "open", "easy", "easy"])  # the address's one table
        guest = await GameClient.open(b, "guest", headers=proxied)
        assert (await guest.hello(name=f"guest{uuid.uuid4().hex[:8]}"))["type"] == "welcome"
        await guest.create(["you", "open", "easy", "easy"])  # the address's one table on B
        await guest.join(table["id"])  # through B (its own table, not started, closes): A owns this one
        await asyncio.gather(host.play(random.Random(1)), guest.play(random.Random(2)))
        await guest.send({"type": "rematch"})
        refused = await guest.until_type("error")
        assert refused["code"] == "rate_limited", refused
        assert refused["message"].startswith("too many new tables from your address: at most 1 an hour"), refused
        for client in (host, guest):
            await client.close()

    run(scenario())


def test_a_creator_closes_through_another_process_a_table_it_made(group: Cluster) -> None:
    """``close`` is forwarded to the table's owner as ``leave`` is: a creator connected to B,
    watching the table A holds, closes it, and a player seated there through A and a spectator
    with no name through B are told."""
    a, b = group.start(2)

    async def scenario() -> None:
        host = await GameClient.person(a, "host")
        table = await host.create(["open", "open", "easy", "easy"])  # A holds it
        guest = await GameClient.person(a, "guest")
        await guest.join(table["id"])
        away = await GameClient.person(b, "host on B", token=host.token)
        await away.watch(table["id"])
        # One with no name watches through B too (no hello: watching needs none).
        anon = await GameClient.open(b, "anon on B")
        await anon.watch(table["id"])
        assert anon.last_sync["table"]["id"] == table["id"] and anon.last_sync["table"]["spectators"] == 2
        await anon.send({"type": "close"})
        assert (await anon.until_type("error"))["code"] == "unauthorized"
        await away.send({"type": "close"})
        assert (await away.until_type("left")).get("reason") == "closed"
        assert (await guest.until_type("left")).get("reason") == "closed"
        assert (await anon.until_type("left")).get("reason") == "closed"
        # The table is gone for everyone, and the creator on B is at no table.
        await guest.send({"type": "join", "table": table["id"]})
        assert (await guest.until_type("error"))["code"] == "no_table"
        await away.send({"type": "close"})
        assert (await away.until_type("error"))["code"] == "not_seated"
        for client in (host, guest, away, anon):
            await client.close()

    run(scenario())


def test_a_connection_at_another_process_table_catches_up_after_its_redis_was_away(
    group: Cluster,
) -> None:
    """A guest connected to B sits at a table A holds.  B's Redis cut for a while: A sees B not
    listening and forgets its connections, and sent the guest nothing more once B's Redis was
    back, while its bot was to play the seat of a person still connected.  Now B has its
    connections join again once its inbox is subscribed again, from the last event each was
    sent: the guest is sent what it missed, decides, and plays on to the end with every event
    in order.  Twice, the second time at a trick."""
    assert group.redis_url is not None
    parts = urlsplit(group.redis_url)
    door = Cuttable(parts.hostname or "127.0.0.1", parts.port or 6379)
    try:
        (a,) = group.start(1)
        (b,) = group.start(1, redis_url=door.url(group.redis_url))
        run(_out_of_sight_and_back(a, b, door))
    finally:
        door.close()


async def _out_of_sight_and_back(a: ServerProcess, b: ServerProcess, door: Cuttable) -> None:
    rng = random.Random("out of sight")
    host = await person(a, "host", [])
    table = await host.create(["you", "open", "easy", "easy"])
    guest = await person(b, "guest", [])
    await guest.join(table["id"])  # through B: A holds the table

    def guest_to_act(client: GameClient) -> bool:
        return client.state is not None and client.state.get("to_act") == 1 and client.state.get("legal") is None

    def forgotten(message: Message) -> bool:
        return message["type"] == "table" and not message["table"]["seats"][1]["connected"]

    for turn in ("first", "second"):
        if turn == "second":  # at a trick
            await asyncio.gather(
                host.play(rng, stop=lambda c: guest_to_act(c) and c.state is not None and c.state["phase"] == "play"),
                guest.play(rng, stop=lambda c: c.my_turn and c.state is not None and c.state["phase"] == "play"),
            )
        await asyncio.gather(host.play(rng, stop=guest_to_act), guest.reach(lambda c: c.my_turn, "the guest's turn"))
        heard = len(guest.log)
        door.cut()
        try:
            await host.until(forgotten, what=f"A forgetting the guest, B's Redis cut ({turn} time)")
        finally:
            door.restore()
        # Back: the guest is sent what it missed (nothing new here: an update of its version).
        await guest.until(lambda m: m["type"] in ("snapshot", "update"), what=f"the guest caught up ({turn} time)")
        assert len(guest.log) > heard
        await host.until(lambda m: m["type"] == "table" and m["table"]["seats"][1]["connected"], what="the guest back")
        assert guest.my_turn and guest.state is not None
        request = await guest.act(choose_action(guest.state, rng))
        answer = await guest.until(answer_to(request), what="the guest's decision answered")
        assert answer["type"] == "ack", answer
        await guest.reach(at_version(answer["v"]), "the update after the ack")
    await asyncio.gather(host.play(rng), guest.play(rng))
    assert guest.match_event is not None and host.match_event is not None
    for client in (host, guest):
        await client.close()


def test_a_table_that_is_starting_stays_in_the_lobby(group: Cluster) -> None:
    """A table's last seat is stored before its start: between the two writes the store holds
    an open table with no open seat, and the lobby of a process, which reads the store, left it
    out (the whole-match test above found its table missing from the list, now and then, under
    load).  The store is put in that state here, as the last join leaves it, while the host
    stays connected (a table whose people have all gone is left out of the lobby)."""
    a, b = group.start(2)

    async def scenario() -> None:
        host = await person(a, "host", [])
        table_id = str((await host.create(["you", "open", "easy", "easy"]))["id"])
        engine = sa.create_engine(group.db)
        try:
            with engine.begin() as db:
                seats = json.loads(
                    db.execute(sa.text("SELECT seats FROM tables WHERE id = :id"), {"id": table_id}).scalar_one()
                )
                assert [seat["kind"] for seat in seats] == ["person", "open", "bot", "bot"], seats
                seats[1] = {**seats[0], "name": "late"}
                db.execute(
                    sa.text("UPDATE tables SET seats = :s WHERE id = :id"), {"s": json.dumps(seats), "id": table_id}
                )
        finally:
            engine.dispose()
        for server in (a, b):
            async with server.ahttp() as http:
                listed = [t for t in (await http.get("/api/tables")).json() if t["id"] == table_id]
            assert len(listed) == 1 and listed[0]["status"] == "open", (server.base, listed)
        await host.close()

    run(scenario())


def test_sitting_down_through_one_process_gives_up_a_deserted_seat_another_holds(group: Cluster) -> None:
    """Eva makes a table on process A and closes the tab; back through process B she sits down
    at a new table.  Her seat at the first, held by A, where no connection of hers is, is given
    up (A is asked over the bus), so no match starts there with her away and her bot playing;
    with nobody left, that table closes.  (Only A's own tables were given up before: the first
    stayed hers, out of the lobby, for ten minutes.)"""
    a, b = group.start(2)

    def table_row(table_id: str) -> tuple[str, list[dict[str, Any]]]:
        engine = sa.create_engine(group.db)
        try:
            with engine.connect() as db:
                row = db.execute(sa.text("SELECT status, seats FROM tables WHERE id = :id"), {"id": table_id}).one()
        finally:
            engine.dispose()
        return str(row.status), json.loads(row.seats)

    async def scenario() -> None:
        eva = await person(a, "eva", [])
        first = str((await eva.create(["you", "open", "easy", "easy"]))["id"])
        assert lease_of(group, first) is not None and lease_of(group, first)[0] == node_of(a)
        status, seats = table_row(first)
        assert status == "open" and seats[0]["kind"] == "person", (status, seats)
        await eva.close()
        back = await GameClient.person(b, "eva back", token=eva.token)
        second = str((await back.create(["you", "open", "easy", "easy"]))["id"])
        assert back.table == second and back.seat == 0

        def given_up() -> tuple[str, list[dict[str, Any]]] | None:
            # The seat is given up, then the table left with nobody closes: two writes, the
            # second awaited (read between them, the table was still open, and the test failed).
            row = table_row(first)
            return row if row[0] != "open" else None

        status, seats = await until(given_up, "giving up of the seat at the first table, and its closing")
        assert status == "abandoned" and seats[0]["kind"] == "open", (status, seats)
        assert table_row(second)[0] == "open"
        await back.close()

    run(scenario())


def node_of(server: ServerProcess) -> str:
    with server.http() as http:
        return str(http.get("/api/health").json()["process"])


def lease_of(group: Cluster, table_id: str) -> tuple[str, int] | None:
    engine = sa.create_engine(sa.make_url(group.db))
    try:
        with engine.connect() as connection:
            row = connection.execute(
                sa.text("SELECT owner, epoch FROM table_leases WHERE table_id = :t"), {"t": table_id}
            ).first()
    finally:
        engine.dispose()
    return None if row is None else (str(row.owner), int(row.epoch))


async def play_seed(
    group: Cluster,
    seed: str,
    homes: list[ServerProcess],
    watcher: ServerProcess,
    watch: LeakWatch,
    kill: bool,
    meanwhile: Any = None,
    private: bool = False,
) -> tuple[int, list[GameClient], list[Player]]:
    """A match of four people at ``homes`` (seat by seat), the first the table's owner, and a
    spectator at ``watcher``; with ``kill``, the owner is SIGKILLed mid-trick.  With
    ``private``, the people and the spectator come by the table's invitation."""
    if True:
        host = await person(homes[0], f"host{int(kill)}", [watch])
        table = await host.create(["you", "open", "open", "open"], seed=seed, private=private)
        invited = {"code": table["invite"]} if private else {}
        people = [host]
        for seat in (1, 2, 3):
            client = await person(homes[seat], f"seat{seat}k{int(kill)}", [watch])
            await client.join(table["id"], **invited)
            people.append(client)
        spectator = await person(watcher, f"spect{int(kill)}", [watch])
        await spectator.watch(table["id"], **invited)
        players = [Player(p, group.alive, seeded_choice(seed, seat)) for seat, p in enumerate(people)]
        tasks = [asyncio.ensure_future(p.play()) for p in players]
        if kill:
            # Mid-trick, some way into the match: a card is down and the next is due.
            await spectator.reach(
                lambda c: (c.v or 0) > 40 and any(mid_trick_for(c, p) for p in people), "a trick in progress"
            )
            owner = lease_of(group, table["id"])
            assert owner is not None and owner[0] == node_of(homes[0]), "the table's creator owns it"
            homes[0].kill()
            killed_at.append((table["id"], spectator.v or 0, owner[1]))
        if meanwhile is not None:
            await meanwhile(table["id"], spectator, people)
        await asyncio.gather(*tasks)
        await spectator.reach(lambda c: c.match_event is not None, "the match event")
        match_id = await match_id_of(spectator)
        for client in [*people, spectator]:
            await client.close()
        return match_id, [*people, spectator], players


def mid_trick_for(spectator: GameClient, player: GameClient) -> bool:
    state = spectator.state
    if state is None or state["phase"] != "play" or not state["tricks"]:
        return False
    trick = state["tricks"][-1]
    return trick["winner"] is None and len(trick["cards"]) > 0 and player.v == spectator.v and mid_trick(player)


def test_the_owner_killed_mid_trick_and_the_survivors_finish_the_same_match(group: Cluster) -> None:
    a, b, c = group.start(3)
    seed = f"seed-{uuid.uuid4().hex}"
    watch = LeakWatch(secrets=(seed,))

    async def scenario() -> tuple[int, list[GameClient], int, list[GameClient], list[Player], GameClient]:
        # Undisturbed: the owner is A, seats spread over A, B, C.
        # Private: its spectator, let in by the invitation, is let in again where it moves.
        calm_id, calm_clients, _ = await play_seed(group, seed, [a, b, c, a], c, watch, kill=False, private=True)
        # A bot table owned by A too, watched from B: its bots carry on after A dies.
        bots = await _bot_table(a, b, watch)
        killed_id, clients, players = await play_seed(group, seed, [a, b, c, a], c, watch, kill=True, private=True)
        await _bot_table_finishes(*bots)
        return calm_id, calm_clients, killed_id, clients, players, bots[0]

    survivors = {node_of(b), node_of(c)}
    killed_at.clear()
    tap = BusTap(group)
    calm_id, calm_clients, killed_id, clients, players, viewer = run(scenario())
    tap.stop()
    assert tap.check([*calm_clients, *clients, viewer], (seed,), watch) > 200
    calm = record_of(b, calm_id, by=calm_clients[0])
    assert record_moves(calm) == record_moves(expected_record(seed)), "an undisturbed run is the engine's match"
    assert a.proc is not None and a.proc.returncode == -9
    [(table_id, version, epoch)] = killed_at
    assert 40 < version < len(clients[-1].events), "killed mid-match"
    after = lease_of(group, table_id)
    # Taken over by a survivor (the next epoch), and released by it when the match ended.
    assert after is not None and after[1] > epoch and after[0] in {"", *survivors}, after
    record = record_of(c, killed_id, by=clients[0])
    assert record_moves(record) == record_moves(calm), "the match went another way after the kill"
    assert sum(p.reconnects for p in players) >= 2, "the owner's clients came back through the survivors"
    assert read_record(record).scores == read_record(calm).scores
    check_everything_seen(record, clients)
    check_everything_seen(calm, calm_clients)
    check_spectators([clients[-1], calm_clients[-1]])
    assert watch.problems == [], "\n".join(watch.problems[:5])
    assert watch.checked_all([*calm_clients, *clients, viewer]) > 0


def test_an_owner_that_stalls_past_its_lease_is_fenced_out_and_the_match_goes_on(group: Cluster) -> None:
    """SIGSTOP the owner mid-trick: the other process takes the table over when the lease
    expires; SIGCONT: the stalled process finds its lease gone, writes nothing more (its
    writes are fenced), and its own clients go on through the new owner.  The match is the
    undisturbed one of the same seed."""
    a, b = group.start(2)
    seed = f"seed-{uuid.uuid4().hex}"
    watch = LeakWatch(secrets=(seed,))
    stopped: list[tuple[str, int]] = []

    async def stall(table_id: str, spectator: GameClient, people: list[GameClient]) -> None:
        await spectator.reach(
            lambda c: (c.v or 0) > 30 and any(mid_trick_for(c, p) for p in people), "a trick in progress"
        )
        before = lease_of(group, table_id)
        assert before is not None and before[0] == node_of(a)
        assert a.proc is not None
        a.proc.send_signal(signal.SIGSTOP)
        try:
            await until(lambda: (lease_of(group, table_id) or before)[1] > before[1], "the takeover")
        finally:
            a.proc.send_signal(signal.SIGCONT)
        stopped.append((table_id, before[1]))

    async def scenario() -> tuple[str, list[GameClient]]:
        stalled_id, clients, _ = await play_seed(group, seed, [a, b, b, a], b, watch, kill=False, meanwhile=stall)
        return record_of(a, stalled_id), clients

    record, clients = run(scenario())
    # The undisturbed match of this seed, played by the engine alone.
    assert record_moves(record) == record_moves(expected_record(seed))
    [(table_id, epoch)] = stopped
    after = lease_of(group, table_id)
    assert after is not None and after[1] > epoch
    check_everything_seen(record, clients)
    assert watch.problems == [], "\n".join(watch.problems[:5])
    assert after[0] in ("", node_of(b)), after
    assert f"lost the lease of table {table_id}" in a.stderr_text(), "the stalled process let the table go"


async def _bot_table(owner: ServerProcess, other: ServerProcess, watch: LeakWatch) -> tuple[GameClient, str]:
    host = await person(owner, "bothost", [watch])
    table = await host.create(["easy", "easy", "easy", "easy"])
    await host.close()
    viewer = await person(other, "botview", [watch])
    await viewer.watch(table["id"])
    return viewer, table["id"]


async def _bot_table_finishes(viewer: GameClient, table_id: str) -> None:
    await viewer.reach(lambda c: c.match_event is not None, "the bot table's end")
    await viewer.close()


# -- the lease ----------------------------------------------------------------------------------


def test_a_lease_is_never_held_by_two_processes_at_once() -> None:
    """Threads, each a process with its own leases, race to acquire, renew and take over short
    leases on a few tables.  A holder counts itself the owner from the moment ``acquire``
    returns until the lease's length after it *sent* the request (or its last successful
    renewal): an independent log of those holdings, on this process's one clock, must never
    show two for one table at once.  Every fenced write made while a holder believes it owns
    the table succeeds, epochs only grow, and a stale epoch's write is refused."""
    from sobedesce.server.lease import Leases
    from sobedesce.server.store import LeaseLost, Store, TableRow

    assert POSTGRES_URL is not None
    with postgres_schema(POSTGRES_URL, prefix="test_lease") as url:
        store = Store(url)
        store.migrate()
        tables = [f"t{n}" for n in range(3)]
        for table_id in tables:
            store.create_table(_row(table_id, TableRow))
        holdings: list[tuple[str, str, int, float, float]] = []
        lock = threading.Lock()
        seqs = iter(range(1, 1_000_000))
        stop = time.monotonic() + 5.0
        errors: list[BaseException] = []
        writes = [0]

        def worker(number: int) -> None:
            rng = random.Random(number)
            seconds = 0.05 + rng.random() * 0.2
            leases = Leases(store, f"w{number}", seconds=seconds)
            held: dict[str, tuple[int, float, float]] = {}  # table -> epoch, start, believed deadline

            def end(table_id: str, at: float) -> None:
                epoch, start, deadline = held.pop(table_id)
                with lock:
                    holdings.append((table_id, f"w{number}", epoch, start, min(at, deadline)))

            try:
                while time.monotonic() < stop:
                    table_id = rng.choice(tables)
                    now = time.monotonic()
                    if table_id in held:
                        epoch, start, deadline = held[table_id]
                        if now >= deadline:
                            end(table_id, now)
                            continue
                        roll = rng.random()
                        if roll < 0.4:
                            sent = time.monotonic()
                            if leases.renew_one(table_id, epoch):
                                held[table_id] = (epoch, start, sent + seconds)
                            else:
                                end(table_id, time.monotonic())
                        elif roll < 0.8:
                            with lock:
                                seq = next(seqs)
                            try:
                                store.append_fenced([(table_id, [(seq, {"w": number})], seq, epoch)])
                                writes[0] += 1
                            except LeaseLost:
                                # Refused: fine only if the holder's belief had run out.
                                assert time.monotonic() >= deadline, (
                                    f"w{number}'s write at epoch {epoch} was refused while it held {table_id}"
                                )
                        else:
                            end(table_id, time.monotonic())
                        continue
                    sent = time.monotonic()
                    got = leases.acquire(table_id)
                    if got is not None:
                        held[table_id] = (got, time.monotonic(), sent + seconds)
                for table_id in list(held):
                    end(table_id, time.monotonic())
            except BaseException as error:  # reported by the test
                errors.append(error)

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == [], errors
        assert len(holdings) > 30 and writes[0] > 30, (
            f"too little contention: {len(holdings)} holdings, {writes[0]} writes"
        )
        for table_id in tables:
            mine = sorted((h for h in holdings if h[0] == table_id), key=lambda h: h[3])
            for before, after in itertools.pairwise(mine):
                assert after[3] >= before[4], f"{before} and {after} overlap"
                assert after[2] > before[2], f"epochs went back: {before} then {after}"
            with store._transaction() as connection:
                stored = connection.execute(
                    sa.text(
                        "SELECT l.epoch, t.lease_epoch FROM table_leases AS l JOIN tables AS t ON t.id = l.table_id"
                        " WHERE l.table_id = :t"
                    ),
                    {"t": table_id},
                ).one()
            assert stored.epoch == stored.lease_epoch == max(h[2] for h in mine), "the table's fence follows its lease"
        # A stale holder cannot write: the fence refuses an old epoch.
        stale = min(h[2] for h in holdings if h[0] == tables[0])
        with pytest.raises(LeaseLost):
            store.append_fenced([(tables[0], [(next(seqs), {"stale": True})], 1, stale)])
        store.close()


def test_a_takeover_does_not_wait_on_an_owner_stalled_in_the_middle_of_a_write() -> None:
    """The owner stops between the statements of a fenced write, holding the table's row: the
    process taking over neither blocks on that lock (its writer would stall with it) nor takes
    the lease while the write could still commit.  PostgreSQL ends the stalled session after
    ``IDLE_TRANSACTION_SECONDS``; the takeover then succeeds, and the stalled write is lost."""
    from sobedesce.server.lease import Leases
    from sobedesce.server.store import LeaseLost, Store, TableRow

    assert POSTGRES_URL is not None
    with postgres_schema(POSTGRES_URL, prefix="test_stall") as url:
        owner_store, other_store = Store(url), Store(url)
        owner_store.migrate()
        owner_store.create_table(_row("t", TableRow))
        owner = Leases(owner_store, "owner", seconds=0.05)
        other = Leases(other_store, "other", seconds=2.0)
        epoch = owner.acquire("t")
        assert epoch is not None
        stalled = owner_store._engine.connect()
        try:
            transaction = stalled.begin()
            # The first statement of append_fenced: the row stays locked until the transaction
            # ends.  PostgreSQL's clock for the stalled session starts now.
            written = stalled.execute(
                sa.text("UPDATE tables SET version = version + 1 WHERE id = 't' AND lease_epoch = :e RETURNING id"),
                {"e": epoch},
            ).all()
            assert written == [("t",)]
            run(until(lambda: (lease := owner.lease("t")) is not None and not lease.live, "expiry of the lease"))
            # The row is still locked: the takeover gives up at once instead of waiting.
            assert other.acquire("t") is None, "the takeover waited for the stalled session to end"
            lease = other.lease("t")
            assert lease is not None and (lease.owner, lease.epoch) == ("owner", epoch), (
                "a takeover that gave up changed nothing"
            )
            # Once PostgreSQL has ended the stalled session, the lease is taken, with the next epoch.
            taken = run(until(lambda: other.acquire("t"), "takeover"))
            assert taken == epoch + 1
            with pytest.raises(sa.exc.DBAPIError):
                transaction.commit()
        finally:
            stalled.close()
        row = other_store.table("t")
        assert row is not None and row.version == 0, "the stalled write was rolled back"
        with pytest.raises(LeaseLost):
            owner_store.append_fenced([("t", [(1, {"late": True})], 1, epoch)])
        other_store.append_fenced([("t", [(1, {"new": True})], 1, taken)])
        owner_store.close()
        other_store.close()


async def until(condition: Any, what: str, timeout: float = 60.0) -> Any:
    """Poll a condition on the database until it holds: its value."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (result := condition()):
        assert loop.time() < deadline, f"no {what} within {timeout:g} s"
        await asyncio.sleep(0.05)
    return result


def _row(table_id: str, cls: Any) -> Any:
    from datetime import UTC, datetime

    return cls(
        id=table_id,
        rules="classic",
        private=False,
        invite_code=None,
        seats=[{"kind": "bot", "level": "easy"}] * 4,
        settings={},
        secret="s",
        status="playing",
        version=0,
        created_by=None,
        created_at=datetime.now(UTC),
        match_id=None,
    )


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--redis", "redis://127.0.0.1:6379/0"], "--redis needs --db postgresql://"),
        (["--db", "postgresql://x@127.0.0.1:1/x", "--redis", "http://nope"], "--redis takes a URL"),
        (
            ["--db", "postgresql://x@127.0.0.1:1/x", "--redis", "redis://127.0.0.1:6379/0", "--lease-seconds", "0"],
            "--lease-seconds",
        ),
        (
            ["--db", "postgresql://x@127.0.0.1:1/x", "--redis", "redis://127.0.0.1:6379/0", "--cluster-name", "a b"],
            "--cluster-name",
        ),
    ],
)
def test_bad_cluster_options_are_refused_with_a_reason(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sobedesce.cli.main import main

    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "0", *args]) == 2
    assert message in capsys.readouterr().err


def test_an_unreachable_redis_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sobedesce.cli.main import main

    assert POSTGRES_URL is not None
    monkeypatch.chdir(tmp_path)
    with postgres_schema(POSTGRES_URL, prefix="test_cluster") as url:
        assert main(["serve", "--port", "0", "--db", url, "--redis", "redis://127.0.0.1:1/0"]) == 2
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in capsys.readouterr().err
