"""A real ``sobedesce serve`` in a subprocess, and real WebSocket clients to play at it.

:class:`ServerProcess` starts the server on a free loopback port (``--port 0``), reads the
address from its first line of output, and stops or SIGKILLs it; :class:`GameClient` is an
asyncio WebSocket client (the ``websockets`` library) that says hello, sends messages and
waits for the next message satisfying a condition, checking on the way that every update's
events are numbered consecutively.  :class:`EngineReplay` replays a finished match's record
with the engine, decision by decision, so that what each connection was told at version ``v``
can be compared with what the engine says was true then; :class:`LeakWatch` checks that no
message names a card its receiver may not know.

Nothing here sleeps: every wait is for a message (or a process's output), with a generous
deadline, since the suite runs on a busy machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from sobedesce.core import (
    Action,
    Card,
    CardParseError,
    Exchange,
    Match,
    NameTrump,
    Play,
    SeatView,
    SitOut,
    Suit,
    TurnUp,
    seat_view,
)

TIMEOUT = 60.0
"""Seconds any single wait may take before the test fails (a busy 2-core machine)."""

POSTGRES_URL = os.environ.get("SOBEDESCE_TEST_DATABASE_URL")
POSTGRES_SKIP = (
    "PostgreSQL is not configured: set SOBEDESCE_TEST_DATABASE_URL=postgresql+psycopg://user@host:5432/db "
    "to run the server against PostgreSQL"
)

Message = dict[str, Any]

# A launcher for a server with settings the command line does not offer (``keep_events``):
# the same app and the same uvicorn configuration as ``sobedesce serve``, in a subprocess.
# With a ``gate``, its store stops at one write (the decision numbered ``gate``, or the
# match's record for ``"finish"``): it prints ``GATE`` and waits for a line on its stdin,
# so a test can act while a decision is being stored, or kill the server just then.
_CUSTOM_LAUNCHER = r"""
import json, socket, sys
import uvicorn
from sobedesce.server.app import create_app
from sobedesce.server.protocol import MAX_MESSAGE_BYTES
from sobedesce.server.store import Store
from sobedesce.server.tables import Settings

data_dir, options = sys.argv[1], json.loads(sys.argv[2])
gate = options.get("gate")


class GatedStore(Store):
    def _wait(self, what):
        print(f"GATE {what}", flush=True)
        sys.stdin.readline()

    def append_decisions(self, table_id, decisions, version):
        if any(seq == gate for seq, _ in decisions):
            self._wait(f"decision {gate} v={version}")
        return super().append_decisions(table_id, decisions, version)

    def append_many(self, batch):
        for table_id, decisions, version in batch:
            if any(seq == gate for seq, _ in decisions):
                self._wait(f"decision {gate} v={version}")
        return super().append_many(batch)

    def finish_match(self, *args, **kwargs):
        if gate == "finish":
            self._wait("finish")
        return super().finish_match(*args, **kwargs)


store = GatedStore.for_data_dir(data_dir)
store.migrate()
app = create_app(store, Settings(**options["settings"]))
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen(2048)
config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE_BYTES)
print(f"Sobe e Desce is served at http://127.0.0.1:{sock.getsockname()[1]}/ (store: {store.url})", flush=True)
uvicorn.Server(config).run(sockets=[sock])
"""


# -- the server ------------------------------------------------------------------------


class ServerProcess:
    """``python -m sobedesce serve --port 0 ...`` on a loopback port, stopped when done.

    ``data`` is the folder of the SQLite store, ``db`` a database URL instead; starting again
    after :meth:`kill` or :meth:`stop` reuses the same store (on a new port).
    """

    def __init__(
        self,
        workdir: Path,
        *,
        db: str | None = None,
        pace: float = 0.0,
        away_after: float = 60.0,
        allow_seed: bool = True,
        settings: dict[str, Any] | None = None,
        gate: int | str | None = None,
        extra: list[str] | None = None,
    ) -> None:
        self.workdir = workdir
        self.extra = list(extra or [])
        self.data = workdir / "data"
        self.db = db
        self.pace = pace
        self.away_after = away_after
        self.allow_seed = allow_seed
        self.settings = settings
        self.gate = gate
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.first_line = ""
        self.last_output = ""
        self.starts = 0

    @property
    def ws_url(self) -> str:
        return self.base.replace("http://", "ws://", 1) + "/ws"

    @property
    def host(self) -> str:
        return self.base.removeprefix("http://")

    def command(self) -> list[str]:
        if self.settings is not None:
            options = {"settings": self.settings, "gate": self.gate}
            return [sys.executable, "-c", _CUSTOM_LAUNCHER, str(self.data), json.dumps(options)]
        args = [sys.executable, "-m", "sobedesce", "serve", "--port", "0", "--pace", str(self.pace)]
        args += ["--away-after", str(self.away_after)]
        args += ["--db", self.db] if self.db else ["--data", str(self.data)]
        if self.allow_seed:
            args.append("--allow-seed")
        return args + self.extra

    def start(self) -> ServerProcess:
        assert self.proc is None or self.proc.poll() is not None, "the server is running already"
        self.starts += 1
        stderr = open(self.workdir / f"server-{self.starts}.stderr", "w")  # noqa: SIM115 (kept for the process)
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            self.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=self.workdir,
            env=env,
        )
        stderr.close()
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        line = self.proc.stdout.readline() if ready else ""
        found = re.search(r"served at (http://[^/\s]+)/", line)
        if found is None:
            self.kill()
            raise AssertionError(f"the server did not start: {line!r}\n{self.stderr_text()}")
        self.first_line = line.strip()
        self.base = found.group(1)
        return self

    def read_line(self, timeout: float = TIMEOUT) -> str:
        """The server's next line of output (the gated launcher's ``GATE ...``)."""
        assert self.proc is not None and self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise AssertionError(f"the server wrote nothing within {timeout:g} s\n{self.stderr_text()}")
        return self.proc.stdout.readline().strip()

    def release(self) -> None:
        """Let the gated store go on."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def stderr_text(self) -> str:
        path = self.workdir / f"server-{self.starts}.stderr"
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self._reap()

    def stop(self, sig: int = signal.SIGINT) -> None:
        """Stop as Ctrl-C does (or a service manager, with SIGTERM); SIGKILL if it does not stop
        within the timeout.  What it wrote after its first line is kept in ``last_output``."""
        if self.proc is not None and self.proc.poll() is None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # a gated store waiting for a line goes on
            self.proc.send_signal(sig)
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            if self.proc.stdout is not None and not self.proc.stdout.closed:
                self.last_output = self.proc.stdout.read()
        self._reap()

    def _reap(self) -> None:
        if self.proc is None:
            return
        self.proc.wait(TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None and not stream.closed:
                with contextlib.suppress(OSError):
                    stream.close()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # HTTP, for the synchronous parts of a test and for coroutines alike.

    def http(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=TIMEOUT)

    def ahttp(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.base, timeout=TIMEOUT)


@contextlib.contextmanager
def postgres_schema(url: str, prefix: str = "test_server") -> Iterator[str]:
    """A fresh, empty PostgreSQL schema and a URL whose connections all work in it; dropped
    afterwards (the same isolation as tests/test_store.py)."""
    parsed = sa.make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(parsed)
    with admin.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        scoped = parsed.update_query_dict({"options": f"-csearch_path={schema}"})
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


# -- a client ---------------------------------------------------------------------------


class NoMessage(AssertionError):
    """No message came in time."""


def unique_name(prefix: str = "P") -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


class GameClient:
    """One WebSocket connection to the server, as a script would hold it.

    Every message received is kept in :attr:`log`; ``snapshot`` and ``update`` messages move
    :attr:`v` and :attr:`state`, and each update's events must carry consecutive numbers
    following the connection's previous ``v`` (or ``since`` + 1 right after a ``join`` with
    ``since``), else the read fails.
    """

    def __init__(self, ws: ClientConnection, label: str) -> None:
        self.ws = ws
        self.label = label
        self.log: list[Message] = []
        self.token: str | None = None
        self.player: Message | None = None
        self.table: str | None = None
        self.seat: int | None = None
        self.table_info: Message | None = None
        self.v: int | None = None
        self.state: Message | None = None
        self.events: dict[int, Message] = {}
        self.match_event: Message | None = None
        self.observers: list[Callable[[GameClient, Message], None]] = []
        self.last_sync: Message = {}
        """The ``snapshot`` or ``update`` that answered the last ``join`` or ``watch``."""
        self._since: int | None = None
        self._ids = 0

    @classmethod
    async def open(
        cls,
        server: ServerProcess,
        label: str = "client",
        *,
        headers: dict[str, str] | None = None,
        origin: str | None = None,
    ) -> GameClient:
        ws = await asyncio.wait_for(
            connect(
                server.ws_url,
                additional_headers=headers,
                origin=Origin(origin) if origin is not None else None,
                max_size=None,
                open_timeout=TIMEOUT,
            ),
            TIMEOUT,
        )
        return cls(ws, label)

    @classmethod
    async def person(
        cls, server: ServerProcess, label: str = "player", *, token: str | None = None, name: str | None = None
    ) -> GameClient:
        """A connection that has said hello: with ``token``, else registering ``name`` (or a new name)."""
        client = await cls.open(server, label)
        welcome = await client.hello(token=token, name=None if token else (name or unique_name(label[:4])))
        assert welcome["type"] == "welcome", f"{label}: hello refused: {welcome}"
        return client

    async def close(self) -> None:
        await self.ws.close()

    # sending

    async def send(self, message: Message | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def new_id(self) -> str:
        self._ids += 1
        return f"{self.label}-{self._ids}"

    # receiving

    async def next(self, timeout: float = TIMEOUT) -> Message:
        """The next message; :class:`NoMessage` after ``timeout`` seconds without one."""
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except TimeoutError:
            raise NoMessage(f"{self.label}: no message within {timeout:g} s; the last ones: {self.log[-4:]}") from None
        message = json.loads(raw)
        assert isinstance(message, dict), f"{self.label}: a message that is not an object: {raw!r}"
        self.log.append(message)
        self._track(message)
        for observer in self.observers:
            observer(self, message)
        return message

    async def until(
        self, predicate: Callable[[Message], bool], timeout: float = TIMEOUT, what: str = "awaited message"
    ) -> Message:
        """The next message satisfying ``predicate`` (the others are kept in the log only)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise NoMessage
                message = await self.next(remaining)
            except NoMessage:
                raise NoMessage(
                    f"{self.label}: no {what} within {timeout:g} s; the last ones: {self.log[-4:]}"
                ) from None
            if predicate(message):
                return message

    async def maybe(self, predicate: Callable[[Message], bool], timeout: float) -> Message | None:
        """The next message satisfying ``predicate`` within ``timeout`` seconds, else ``None``
        (for polling: a request is sent again when no answer comes)."""
        try:
            return await self.until(predicate, timeout)
        except NoMessage:
            return None

    async def reach(self, condition: Callable[[GameClient], bool], what: str = "awaited state") -> None:
        """Return once ``condition(self)`` holds, reading messages until it does."""
        if not condition(self):
            await self.until(lambda m: condition(self), what=what)

    async def until_type(self, *types: str, timeout: float = TIMEOUT) -> Message:
        return await self.until(lambda m: m["type"] in types, timeout, f"message of type {'/'.join(types)}")

    async def closed_code(self, timeout: float = TIMEOUT) -> int | None:
        """Read until the server closes the connection; its close code."""
        try:
            while True:
                await self.next(timeout)
        except ConnectionClosed:
            return self.ws.close_code

    def _track(self, message: Message) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.player = message["player"]
            self.token = message.get("token", self.token)
        elif kind == "joined":
            self.table, self.seat, self.v = message["table"], message["seat"], None
        elif kind == "table":
            self.table_info = message["table"]
        elif kind == "snapshot":
            self.v, self.state, self._since = message["v"], message["state"], None
            self.table_info = message["table"]
        elif kind == "update":
            numbers = [event["v"] for event in message["events"]]
            if self.v is not None:
                first = self.v + 1
            elif self._since is not None:
                first = self._since + 1
            else:
                raise AssertionError(f"{self.label}: an update before any snapshot: {message}")
            assert numbers == list(range(first, message["v"] + 1)), (
                f"{self.label}: events {numbers} do not follow v={first - 1} up to v={message['v']}"
            )
            for event in message["events"]:
                # Coming back with ``since`` sends events again: the same, event for event.
                earlier = self.events.setdefault(event["v"], event)
                assert earlier == event, f"{self.label}: event {event['v']} was {earlier}, now {event}"
                if event["kind"] == "match":
                    self.match_event = event
            self.v, self.state, self._since = message["v"], message["state"], None

    # the lobby

    async def hello(self, *, token: str | None = None, name: str | None = None) -> Message:
        message: Message = {"type": "hello"}
        if token is not None:
            message["token"] = token
        if name is not None:
            message["name"] = name
        await self.send(message)
        return await self.until_type("welcome", "error")

    async def quick(self, rules: str = "classic", level: str = "easy") -> Message:
        await self.send({"type": "quick", "rules": rules, "level": level})
        joined = await self.until_type("joined", "error")
        assert joined["type"] == "joined", f"{self.label}: quick refused: {joined}"
        await self.until_type("snapshot")
        return joined

    async def create(self, seats: list[str], rules: str = "classic", **options: Any) -> Message:
        """A new table (``created``'s table); if ``you`` is among the seats, sits and waits for the snapshot."""
        await self.send({"type": "create", "rules": rules, "seats": seats, **options})
        created = await self.until_type("created", "error")
        assert created["type"] == "created", f"{self.label}: create refused: {created}"
        if "you" in seats:
            await self.until_type("joined")
            await self.until_type("snapshot", "update")
        return dict(created["table"])

    async def join(self, table: str | None, *, since: int | None = None, **options: Any) -> Message:
        """Sit at (or come back to) ``table``: the ``joined`` message, then the snapshot or update has arrived."""
        message: Message = {"type": "join", **options}
        if table is not None:
            message["table"] = table
        if since is not None:
            message["since"] = since
        self._since = since
        await self.send(message)
        joined = await self.until_type("joined", "error")
        assert joined["type"] == "joined", f"{self.label}: join refused: {joined}"
        self.last_sync = await self.until_type("snapshot", "update")
        return joined

    async def watch(self, table: str | None, *, since: int | None = None, **options: Any) -> Message:
        message: Message = {"type": "watch", **options}
        if table is not None:
            message["table"] = table
        if since is not None:
            message["since"] = since
        self._since = since
        await self.send(message)
        joined = await self.until_type("joined", "error")
        assert joined["type"] == "joined" and joined["seat"] is None, f"{self.label}: watch refused: {joined}"
        self.last_sync = await self.until_type("snapshot", "update")
        return joined

    # playing

    @property
    def my_turn(self) -> bool:
        state = self.state
        return (
            state is not None
            and state.get("seat") is not None
            and state["to_act"] == state["seat"]
            and state.get("legal") is not None
        )

    async def act(self, action: Message, *, v: int | None = None, request_id: str | None = None) -> str:
        """Send a decision for version ``v`` (by default the latest seen); its id."""
        request_id = request_id or self.new_id()
        await self.send({"type": "act", "id": request_id, "v": self.v if v is None else v, "action": action})
        return request_id

    async def decide(self, action: Message) -> Message:
        """Send a decision, wait for its ``ack`` (an error fails the test) and the update after it."""
        request_id = await self.act(action)
        answer = await self.until(
            lambda m: m["type"] == "error" or (m["type"] == "ack" and m["id"] == request_id), what=f"ack of {action}"
        )
        assert answer["type"] == "ack", f"{self.label}: {action} at v={self.v} refused: {answer}"
        await self.reach(lambda c: (c.v or 0) >= answer["v"], "the update after the ack")
        return answer

    async def play(
        self,
        rng: random.Random,
        *,
        stop: Callable[[GameClient], bool] | None = None,
        chooser: Callable[[Message, random.Random], Message] | None = None,
    ) -> None:
        """Take this seat's decisions, each picked from ``state.legal``, until ``stop`` holds
        (by default: until the match event has arrived)."""
        stop = stop or (lambda client: client.match_event is not None)
        chooser = chooser or choose_action
        acted_at: int | None = None
        while not stop(self):
            if self.my_turn and acted_at != self.v:
                assert self.state is not None
                acted_at = self.v
                await self.act(chooser(self.state, rng))
            message = await self.next()
            if message["type"] == "error":
                raise AssertionError(f"{self.label}: a decision was refused: {message} (state {self.state})")


def choose_action(state: Message, rng: random.Random) -> Message:
    """A legal decision picked at random from ``state.legal`` (sitting out now and then, and
    exchanging any allowed number of cards, so every kind of event occurs)."""
    legal = state["legal"]
    phase = state["phase"]
    if phase == "trump":
        choice = rng.choice(legal)
        return {"kind": "turn"} if choice == "turn" else {"kind": "trump", "suit": choice}
    if phase == "exchange":
        if legal["may_sit_out"] and rng.random() < 0.3:
            return {"kind": "sit_out"}
        count = rng.randint(legal["min_discard"], legal["max_discard"])
        return {"kind": "exchange", "discard": rng.sample(state["hand"], count)}
    assert phase == "play", f"no decision in phase {phase}"
    return {"kind": "play", "card": rng.choice(legal)}


def answer_to(request_id: str) -> Callable[[Message], bool]:
    """A condition on messages: the answer (``ack`` or ``error``) to the request ``request_id``."""
    return lambda message: message.get("id") == request_id and message["type"] in ("ack", "error")


def at_version(v: int) -> Callable[[GameClient], bool]:
    """A condition on a client: it has been told the table up to version ``v``."""
    return lambda client: client.v is not None and client.v >= v


def current_trick(state: Message | None) -> Message | None:
    """The trick being played in ``state`` (its cards may be none yet), else ``None``."""
    if state is None or state["phase"] != "play" or not state["tricks"]:
        return None
    last = state["tricks"][-1]
    return last if last["winner"] is None else None


def mid_trick(client: GameClient) -> bool:
    """The client's seat is to play to a trick others have started."""
    trick = current_trick(client.state)
    return client.my_turn and trick is not None and len(trick["cards"]) > 0


# -- the engine's account of a match ------------------------------------------------------


@dataclass
class EngineReplay:
    """A finished match's record replayed decision by decision.

    ``events[v - 1]`` is what event ``v`` must say (the public facts, plus an exchange's
    cards under ``private``), and ``views[v]`` every seat's view once the decision whose
    events end at ``v`` is applied (``v = 0``: before the first deal): the numbering follows
    from the rules alone (one event a decision, one a completed trick, one a scored round,
    one a finished match).
    """

    match: Match
    events: list[Message] = field(default_factory=list)
    views: dict[int, list[SeatView]] = field(default_factory=dict)

    @classmethod
    def of(cls, record_text: str) -> EngineReplay:
        data = json.loads(record_text)
        assert "scores" not in data and "sat_out_before" not in data, "a server's match starts at the start scores"
        replay = cls(Match(data.get("rules", "classic"), players=data.get("players")))
        replay._snap()
        for number, round_data in enumerate(data["rounds"], start=1):
            match = replay.match
            current = match.deal([Card.parse(text) for text in round_data["deck"]], dealer=round_data["dealer"])
            replay.events.append(
                {"kind": "deal", "round": number, "dealer": current.dealer, "chooser": current.chooser}
            )
            replay._snap()
            trump = round_data["trump"]
            replay._step(TurnUp() if trump == "turn" else NameTrump(Suit.parse(trump)), number)
            for exchange in round_data["exchanges"]:
                if exchange.get("sit_out"):
                    replay._step(SitOut(), number)
                else:
                    replay._step(Exchange(tuple(Card.parse(text) for text in exchange["discard"])), number)
            for trick in round_data["tricks"]:
                for text in trick:
                    replay._step(Play(Card.parse(text)), number)
        return replay

    @property
    def version(self) -> int:
        return len(self.events)

    def _snap(self) -> None:
        self.views[self.version] = [seat_view(self.match, seat) for seat in range(4)]

    def _step(self, action: Action, number: int) -> None:
        match = self.match
        seat = match.current_seat
        assert seat is not None
        before = seat_view(match, seat)
        done_before = sum(t.winner is not None for t in before.tricks)
        match.apply(action)
        after = seat_view(match, seat)
        start = len(self.events)
        if isinstance(action, (TurnUp, NameTrump)):
            turned = str(after.turned_card) if isinstance(action, TurnUp) else None
            assert after.trump is not None
            self.events.append({"kind": "trump", "seat": seat, "suit": after.trump.letter, "turned": turned})
        elif isinstance(action, SitOut):
            self.events.append({"kind": "exchange", "seat": seat, "sit_out": True, "count": None})
        elif isinstance(action, Exchange):
            kept = set(before.hand) - set(action.discard)
            drawn = sorted(str(card) for card in after.hand if card not in kept)
            self.events.append(
                {
                    "kind": "exchange",
                    "seat": seat,
                    "sit_out": False,
                    "count": len(action.discard),
                    "private": {"discard": sorted(str(c) for c in action.discard), "drawn": drawn},
                }
            )
        elif isinstance(action, Play):
            self.events.append({"kind": "play", "seat": seat, "card": str(action.card)})
        for index, trick in enumerate(after.tricks):
            if trick.winner is not None and index >= done_before:
                self.events.append(
                    {
                        "kind": "trick",
                        "number": index + 1,
                        "winner": trick.winner,
                        "cards": [str(c) for c in trick.cards],
                        "seats": list(trick.seats),
                    }
                )
        current = match.rounds[-1]
        if current.is_over:
            self.events.append({"kind": "round", "scores": list(match.scores), "deltas": list(current.deltas or ())})
        if match.is_over:
            self.events.append({"kind": "match", "scores": list(match.scores), "winners": list(match.winners)})
        for event in self.events[start:]:
            event["round"] = number
        self._snap()

    # checks

    def check_client(self, client: GameClient) -> int:
        """Every event and state ``client`` received agrees with the engine; how many states were checked."""
        seat = client.seat
        for v, event in sorted(client.events.items()):
            assert 1 <= v <= len(self.events), f"{client.label}: event {v} beyond the match's {len(self.events)}"
            expected = self.events[v - 1]
            for key, value in expected.items():
                if key == "private":
                    continue
                assert event.get(key) == value, (
                    f"{client.label}: event {v} {event} differs from the engine's {expected}"
                )
            private = expected.get("private")
            if private is not None and seat == event["seat"]:
                got = {"discard": sorted(event.get("discard", [])), "drawn": sorted(event.get("drawn", []))}
                assert got == private, f"{client.label}: own exchange {event} differs from the engine's {private}"
            else:
                assert "discard" not in event and "drawn" not in event, f"{client.label} got {event}"
        checked = 0
        for message in client.log:
            if message["type"] not in ("snapshot", "update") or message["state"] is None:
                continue
            assert message["v"] in self.views, f"{client.label}: a state at v={message['v']}, between decisions"
            check_state(message["state"], self.views[message["v"]], seat, f"{client.label} at v={message['v']}")
            checked += 1
        return checked


def check_state(state: Message, views: list[SeatView], seat: int | None, where: str) -> None:
    """``state`` (as sent to ``seat``, or a spectator) agrees with the engine's views."""
    public = views[0]
    assert state["seat"] == seat, where
    assert state["phase"] == public.phase.name.lower(), f"{where}: phase {state['phase']} != {public.phase}"
    assert state["to_act"] == public.to_act, f"{where}: to_act"
    assert state["scores"] == list(public.scores), f"{where}: scores {state['scores']} != {public.scores}"
    assert state["hand_sizes"] == list(public.hand_sizes), f"{where}: hand sizes"
    assert [t["cards"] for t in state["tricks"]] == [[str(c) for c in t.cards] for t in public.tricks], where
    assert state["turned"] == (str(public.turned_card) if public.turned_card is not None else None), where
    if seat is None:
        for private in ("hand", "my_discards", "legal"):
            assert private not in state, f"{where}: a spectator got {private!r}: {state}"
        return
    view = views[seat]
    assert state["hand"] == [str(c) for c in sorted(view.hand, key=_order)], (
        f"{where}: hand {state['hand']} != the engine's {[str(c) for c in view.hand]}"
    )
    assert sorted(state["my_discards"]) == sorted(str(c) for c in view.my_discards), f"{where}: my_discards"
    if not view.is_my_turn:
        assert state["legal"] is None, f"{where}: legal actions out of turn: {state['legal']}"
    elif view.phase.name == "PLAY":
        legal = sorted(str(a.card) for a in view.legal_actions if isinstance(a, Play))
        assert sorted(state["legal"]) == legal, f"{where}: legal {state['legal']} != the engine's {legal}"
    else:
        assert state["legal"] is not None, f"{where}: no legal actions on the seat's turn"


def _order(card: Card) -> tuple[int, int]:
    """The order of ``sorted_cards``: suit S H D C, then rank high to low."""
    text = str(card)
    return "SHDC".index(text[1]), "A7KJQ65432".index(text[0])


# -- what a receiver may know ---------------------------------------------------------------


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a message (keys too) that reads as one of the 40 cards."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from card_strings(key)
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)
    elif isinstance(value, str) and len(value) == 2:
        try:
            Card.parse(value)
        except CardParseError:
            return
        yield value


def all_strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from all_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from all_strings(item)
    elif isinstance(value, str):
        yield value


class LeakWatch:
    """Checks each message a connection receives, as it arrives, against what its receiver may
    know at that moment: its own hands, discards and draws, every card played, the turned-up
    card.  The set is built from the messages alone (the engine checks what they claim)."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        self.known: dict[str, set[str]] = {}
        self.secrets = secrets
        self.problems: list[str] = []
        self.messages = 0
        # Per connection (by identity; the connection is kept, so that its id is never reused
        # by another's), the messages checked.
        self._by_client: dict[int, tuple[GameClient, int]] = {}

    def attach(self, client: GameClient) -> None:
        client.observers.append(self)

    def checked_all(self, clients: list[GameClient]) -> int:
        """Assert that every message each of ``clients`` received was checked (a connection the
        watch was not attached to, or a message it missed, fails); returns how many there were.
        A count to reach would depend on how long the match ran, which its random deal decides."""
        for client in clients:
            checked = self._by_client.get(id(client), (client, 0))[1]
            assert checked == len(client.log) > 0, (
                f"{client.label}: {checked} of its {len(client.log)} messages checked"
            )
        return sum(len(client.log) for client in clients)

    def __call__(self, client: GameClient, message: Message) -> None:
        self.messages += 1
        self._by_client[id(client)] = (client, self._by_client.get(id(client), (client, 0))[1] + 1)
        known = self.known.setdefault(client.label, set())
        seat = client.seat
        revealed: set[str] = set()
        if message["type"] in ("snapshot", "update") and message["state"] is not None:
            state = message["state"]
            if seat is not None:
                revealed |= set(state.get("hand", [])) | set(state.get("my_discards", []))
            if state.get("turned"):
                revealed.add(state["turned"])
            for trick in state["tricks"]:
                revealed |= set(trick["cards"])
        for event in message.get("events", []) if message["type"] == "update" else []:
            if event["kind"] == "play":
                revealed.add(event["card"])
            elif event["kind"] == "trick":
                revealed |= set(event["cards"])
            elif event["kind"] == "trump" and event.get("turned"):
                revealed.add(event["turned"])
            elif event["kind"] == "exchange" and seat is not None and event["seat"] == seat:
                revealed |= set(event.get("discard", [])) | set(event.get("drawn", []))
        allowed = known | revealed
        for card in card_strings(message):
            if card.upper() not in allowed:
                self.problems.append(f"{client.label} (seat {seat}) was told {card} in {message}")
        for text in all_strings(message):
            for secret in self.secrets:
                if secret in text:
                    self.problems.append(f"{client.label} was told the secret {secret!r} in {message}")
            if text in ("deck", "secret", "seed", "stock_cards"):
                self.problems.append(f"{client.label} got a field {text!r} in {message}")
        known |= revealed
