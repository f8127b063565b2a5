"""Several ``sobedesce serve --db postgresql://… --redis redis://…`` processes, and players that
survive the death of the process they are connected to.

:class:`Cluster` starts processes on loopback ports over a fresh PostgreSQL schema and a Redis
key prefix of their own (so that tests never see each other's data), and stops them and
cleans up after the test.  :class:`Player` plays one seat with a decision that depends only
on the table's seed, the seat and the version (so two runs of a seed make the same match),
and when its connection drops it connects to another live process and comes back with
``join`` and ``since``.  Nothing sleeps: every wait is for a message or a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_client import TIMEOUT, GameClient, Message, ServerProcess, choose_action, postgres_schema

POSTGRES_URL = os.environ.get("SOBEDESCE_TEST_DATABASE_URL")
REDIS_URL = os.environ.get("SOBEDESCE_TEST_REDIS_URL")


def skip_reason() -> str | None:
    """Why the cluster tests cannot run here, naming the variable to set; ``None`` if they can."""
    missing = []
    if not POSTGRES_URL:
        missing.append("SOBEDESCE_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test")
    if not REDIS_URL:
        missing.append("SOBEDESCE_TEST_REDIS_URL=redis://127.0.0.1:6379/0")
    if missing:
        return "the cluster tests need a real PostgreSQL and a real Redis: set " + " and ".join(missing)
    try:
        import redis
    except ImportError:
        return "the cluster tests need redis-py: pip install 'redis>=5'"
    try:
        client = redis.Redis.from_url(REDIS_URL or "", socket_connect_timeout=5)
        client.ping()
        client.close()
    except Exception as error:
        return f"SOBEDESCE_TEST_REDIS_URL={REDIS_URL} does not answer: {error}"
    return None


LEASE_SECONDS = 2.0
"""Leases in the tests: short, so a killed process's tables are taken over in seconds."""


class Cluster:
    """``count`` server processes sharing one fresh PostgreSQL schema and one Redis prefix."""

    def __init__(self, root: Path, db: str, redis_url: str, *, lease_seconds: float = LEASE_SECONDS) -> None:
        self.root = root
        self.db = db
        self.redis_url = redis_url
        self.prefix = f"test-{uuid.uuid4().hex[:12]}"
        self.lease_seconds = lease_seconds
        self.servers: list[ServerProcess] = []

    def start(
        self, count: int, *, extra: list[str] | None = None, redis_url: str | None = None, **options: Any
    ) -> list[ServerProcess]:
        """``count`` processes more; ``extra``: options of ``sobedesce serve`` beyond the cluster's;
        ``redis_url``: the same Redis by another way (a :class:`Cuttable` in front of it)."""
        started = []
        more = list(extra or [])
        for _ in range(count):
            workdir = self.root / f"server{len(self.servers)}"
            workdir.mkdir()
            extra = ["--redis", redis_url or self.redis_url, "--lease-seconds", str(self.lease_seconds)]
            extra += ["--cluster-name", self.prefix, *more]
            server = ServerProcess(workdir, db=self.db, extra=extra, **options)
            self.servers.append(server)
            started.append(server.start())
        return started

    def alive(self) -> list[ServerProcess]:
        return [s for s in self.servers if s.proc is not None and s.proc.poll() is None]

    def stop_all(self) -> None:
        for server in self.servers:
            server.stop()
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            keys = list(client.scan_iter(match=f"{self.prefix}:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


@contextlib.contextmanager
def cluster(root: Path) -> Iterator[Cluster]:
    """A :class:`Cluster` over a fresh schema, stopped and cleaned up afterwards."""
    assert POSTGRES_URL is not None and REDIS_URL is not None
    with postgres_schema(POSTGRES_URL, prefix="test_cluster") as url:
        group = Cluster(root, url, REDIS_URL)
        try:
            yield group
        finally:
            group.stop_all()


class Cuttable:
    """A TCP forwarder on a free loopback port to ``host:port`` (a Redis), whose connections a
    test cuts and lets through again: a process behind it loses its Redis while the others keep
    theirs, as on a network that fails between two machines."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.passing = True
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, redis_url: str) -> str:
        """``redis_url`` with its host and port this forwarder's."""
        parts = urlsplit(redis_url)
        return urlunsplit(parts._replace(netloc=f"127.0.0.1:{self.port}"))

    def _accept(self) -> None:
        while True:
            try:
                inside, _ = self.listener.accept()
            except OSError:
                return  # closed
            if not self.passing:
                inside.close()  # refused while cut: the client's reconnections fail
                continue
            try:
                outside = socket.create_connection(self.target, timeout=10)
            except OSError:
                inside.close()
                continue
            outside.settimeout(None)
            with self.lock:
                self.sockets += [inside, outside]
            for source, sink in ((inside, outside), (outside, inside)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Drop every connection through it, and refuse new ones until :meth:`restore`."""
        self.passing = False
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for end in sockets:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def restore(self) -> None:
        self.passing = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def seeded_choice(seed: str, seat: int) -> Callable[[Message, Any], Message]:
    """A decision that depends only on the seed, the seat and the version: the same in every run."""

    def choose(state: Message, version: Any) -> Message:
        return choose_action(state, random.Random(f"{seed}/{seat}/{version}"))

    return choose


@dataclass
class Player:
    """One seat's person: plays until the match ends, coming back through another process
    whenever the connection drops (the process it was connected to was killed)."""

    client: GameClient
    servers: Callable[[], list[ServerProcess]]
    choose: Callable[[Message, Any], Message]
    reconnects: int = 0
    tolerated: list[Message] = field(default_factory=list)

    async def play(self) -> None:
        client = self.client
        acted_at: int | None = None
        while client.match_event is None:
            try:
                if client.my_turn and acted_at != client.v:
                    assert client.state is not None
                    acted_at = client.v
                    await client.act(self.choose(client.state, client.v))
                message = await client.next()
            except ConnectionClosed:
                await self.come_back()
                acted_at = None
                continue
            if message["type"] == "error":
                # A decision re-sent across a takeover that the old owner had taken already.
                if message["code"] in ("stale", "unavailable"):
                    self.tolerated.append(message)
                    acted_at = None  # decide again if the decision is still due
                    continue
                raise AssertionError(f"{client.label}: refused: {message} (state {client.state})")

    async def come_back(self) -> None:
        """Connect to a live process and join the table again from the last event seen."""
        client = self.client
        self.reconnects += 1
        servers = [s for s in self.servers() if s.proc is not None and s.proc.poll() is None]
        server = servers[self.reconnects % len(servers)]
        client.ws = await asyncio.wait_for(connect(server.ws_url, max_size=None, open_timeout=TIMEOUT), TIMEOUT)
        welcome = await client.hello(token=client.token)
        assert welcome["type"] == "welcome", welcome
        await client.join(client.table, since=client.v)


async def person(server: ServerProcess, label: str, observers: list[Any]) -> GameClient:
    client = await GameClient.open(server, label)
    client.observers.extend(observers)
    welcome = await client.hello(name=f"{label[:6]}{uuid.uuid4().hex[:8]}")
    assert welcome["type"] == "welcome", welcome
    return client


def record_moves(record: str) -> Any:
    """A record without its players' names: the deal and every decision, in order."""
    data = json.loads(record)
    data.pop("players", None)
    return data


class BusTap:
    """Every message that crosses the cluster's Redis (each process's inbox), as a test sees it
    from outside: to check that the bus carries nothing a receiving connection may not see."""

    def __init__(self, group: Cluster) -> None:
        import redis

        self.group = group
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self._client: Any = redis.Redis.from_url(group.redis_url, decode_responses=True)
        self._pubsub: Any = self._client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        self._pubsub.psubscribe(f"{group.prefix}:n:*")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            message = self._pubsub.get_message(timeout=0.2)
            if message is not None and message["type"] == "pmessage":
                node = str(message["channel"]).rsplit(":", 1)[-1]
                self.messages.append((node, json.loads(message["data"])))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(TIMEOUT)
        self._pubsub.close()
        self._client.close()

    def check(self, clients: list[GameClient], secrets: tuple[str, ...], watch: Any) -> int:
        """Each message made for a connection on the bus is one that connection received (and
        its leak check passed) or, read by nobody because the test closed the connection
        first, passes the same leak check as that connection's own; nothing on the bus names
        a secret or a deck.  How many connection messages were checked."""
        groups: dict[tuple[str, str], list[Message]] = {}
        for node, envelope in self.messages:
            text = json.dumps(envelope)
            for secret in secrets:
                assert secret not in text, f"the bus carried the secret {secret!r}: {text[:300]}"
            assert '"deck"' not in text and '"secret"' not in text, f"the bus carried a deck: {text[:300]}"
            if envelope.get("k") == "msg":
                groups.setdefault((node, envelope["c"]), []).append(json.loads(envelope["m"]))
        checked = 0
        for key, sent in groups.items():
            wanted = [m for m in sent if m["type"] not in ("joined", "table")]
            # Two runs of one seed make equal messages: the receiver is the client that got most of them.
            receivers = [c for c in clients if wanted and wanted[0] in c.log]
            assert receivers, f"the bus carried messages for connection {key} that no client received: {wanted[:2]}"
            receiver = max(receivers, key=lambda c: sum(m in c.log for m in wanted))
            unread = [m for m in wanted if m not in receiver.log]
            for message in unread:
                watch(receiver, message)
            checked += len(sent)
        return checked


def expected_record(seed: str, rules: str = "classic") -> str:
    """The record of the match four :func:`seeded_choice` players make at a table of ``seed``,
    played by the engine alone (the server's table driver, with its deals from the seed): what
    any undisturbed run of the seed must record, whatever processes serve it."""
    from sobedesce.core import Match, dumps_record, seat_view
    from sobedesce.server.protocol import action_from_json, parse_message, state_json
    from sobedesce.table import TableDriver

    driver = TableDriver(Match(rules, players=["a", "b", "c", "d"]), (0, 1, 2, 3), {}, seed=seed)
    choices = [seeded_choice(seed, seat) for seat in range(4)]
    version = 0
    while driver.status != "over":
        if driver.status == "deal":
            version += len(driver.deal())
            continue
        seat = driver.to_act
        assert seat is not None
        state = state_json(seat_view(driver.match, seat), must_play=driver.must_play_reason(seat))
        act = {"type": "act", "id": "x", "v": version, "action": choices[seat](state, version)}
        version += len(driver.play(seat, action_from_json(parse_message(json.dumps(act)).action)))
    return dumps_record(driver.match)
