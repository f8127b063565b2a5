"""``sobedesce bench server``: decisions a second and their latency at N tables of four
scripted WebSocket players, against a bare WebSocket echo server at the same pace (the floor).

``sobedesce serve`` runs as a subprocess on a loopback port with a fresh store; this process
(or ``--client-processes 2``) plays: at each table one client creates the table (you, open,
open, open), three join it by id, and each sends a legal decision as soon as one is due (or
after ``--think`` seconds); a finished match starts a new table.  Latency is from sending an
``act`` to receiving its ``ack`` (and to the update that shows it to the other players).  Then
the same number of connections ping-pong messages of the same size at the same pace against an
echo app served by uvicorn with the server's settings.  Last, the server is stopped and every
acknowledged decision is looked for in the store.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import queue
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, TypeVar

from .bench import MIN_SECONDS

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from websockets.asyncio.client import ClientConnection

T = TypeVar("T")

TARGET_TABLES = 200
TARGET_DECISIONS_PER_S = 2000.0
TARGET_P99_RATIO = 3.0

SEATS = ["you", "open", "open", "open"]
STARTUP_TIMEOUT = 60.0
DRAIN_TIMEOUT = 15.0


@dataclass(frozen=True)
class Plan:
    """What one client process does; picklable, for ``--client-processes 2``."""

    mode: str
    """``game`` (tables of four players) or ``echo`` (ping-pong against the echo server)."""
    url: str
    tables: tuple[int, ...]
    """The tables this process plays (their numbers in the whole run)."""
    warmup: float
    seconds: float
    rules: str = "classic"
    seed: int = 1
    prefix: str = "b"
    server_pid: int | None = None
    urls: tuple[str, ...] = ()
    """With several server processes: seat ``s`` of table ``n`` connects to ``urls[(n + s) % P]``."""
    server_pids: tuple[int, ...] = ()
    think: float = 0.0
    """Mean seconds a player waits before sending a decision that is due (0: at once)."""
    echo_interval: float = 1.0
    echo_message: str = ""


@dataclass
class Tally:
    """What one client process saw; merged over processes."""

    acked: int = 0
    """Decisions acknowledged over the whole run (warm-up and drain included)."""
    window_acks: int = 0
    latencies: list[float] = field(default_factory=list)
    """Seconds from a decision sent to its ack, for the acks in the measured window."""
    seen: list[float] = field(default_factory=list)
    """Seconds from a decision sent to the update that shows it to each other player at the table."""
    errors: Counter[str] = field(default_factory=Counter)
    matches: int = 0
    table_ids: list[str] = field(default_factory=list)
    act_bytes: int = 0
    acts: int = 0
    received: int = 0
    """Messages received in the measured window."""
    client_cpu: float = 0.0
    """CPU seconds this process used in the measured window."""
    server_cpu: float | None = None
    """CPU seconds the server used in the measured window (read from /proc)."""
    machine_cpu: float | None = None
    """CPU seconds every process of the machine used in the measured window (read from /proc)."""
    undrained: int = 0
    """Decisions still unanswered when the run ended."""

    def merge(self, other: Tally) -> None:
        self.acked += other.acked
        self.window_acks += other.window_acks
        self.latencies.extend(other.latencies)
        self.seen.extend(other.seen)
        self.errors.update(other.errors)
        self.matches += other.matches
        self.table_ids.extend(other.table_ids)
        self.act_bytes += other.act_bytes
        self.acts += other.acts
        self.received += other.received
        self.client_cpu += other.client_cpu
        if other.server_cpu is not None:
            self.server_cpu = max(self.server_cpu or 0.0, other.server_cpu)
        if other.machine_cpu is not None:
            self.machine_cpu = max(self.machine_cpu or 0.0, other.machine_cpu)
        self.undrained += other.undrained


# -- the players ----------------------------------------------------------------------


class _Player:
    __slots__ = ("acted_v", "creator", "pending", "rng", "seen", "sent", "state", "table", "v", "ws")

    def __init__(self, ws: ClientConnection, table: _Table, rng: random.Random, creator: bool) -> None:
        self.ws = ws
        self.table = table
        self.rng = rng
        self.creator = creator
        self.v = 0
        self.state: dict[str, Any] | None = None
        self.acted_v = -1
        """The version this player last decided at (one decision per version)."""
        self.pending: str | None = None
        self.sent = 0.0
        self.seen = 0
        """The last decision at the table this player has seen in an update (``_Table.decision``)."""


class _Table:
    def __init__(self, number: int) -> None:
        self.number = number
        self.players: list[_Player] = []
        self.created: asyncio.Future[str] | None = None
        self.over = asyncio.Event()
        self.matches = 0
        self.decision = 0
        """How many decisions were sent at this table; the last one was sent at ``sent``, at version ``v``."""
        self.sent = 0.0
        self.v = 0


class _Game:
    """N tables of four players, playing until the measured window ends."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.tally = Tally()
        self.stopping = False
        self.window = (math.inf, math.inf)
        self.tables = [_Table(n) for n in plan.tables]
        self.counter = 0

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        limit = asyncio.Semaphore(32)

        async def one(table: _Table, seat: int) -> _Player:
            async with limit:
                urls = self.plan.urls or (self.plan.url,)
                url = urls[(table.number + seat) % len(urls)]
                ws = await connect(url, max_size=2**20, open_timeout=STARTUP_TIMEOUT)
                name = f"{self.plan.prefix}-{table.number}-{seat}"
                await ws.send(json.dumps({"type": "hello", "name": name}))
                welcome = json.loads(await ws.recv())
                if welcome.get("type") != "welcome":
                    raise RuntimeError(f"the server did not welcome {name}: {welcome}")
                rng = random.Random(f"{self.plan.seed}-{table.number}-{seat}")
                return _Player(ws, table, rng, creator=seat == 0)

        made = await asyncio.gather(*(one(t, s) for t in self.tables for s in range(4)))
        for index, table in enumerate(self.tables):
            table.players = made[4 * index : 4 * index + 4]

    async def play(self, start: float) -> None:
        plan = self.plan
        self.window = (start + plan.warmup, start + plan.warmup + plan.seconds)
        loop = asyncio.get_running_loop()
        samples: list[tuple[float, float | None, float | None]] = []

        def sample() -> None:
            pids = plan.server_pids or ((plan.server_pid,) if plan.server_pid is not None else ())
            samples.append((time.process_time(), _cpu_total(pids), _machine_seconds()))

        loop.call_at(self.window[0], sample)
        loop.call_at(self.window[1], sample)
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        readers = [loop.create_task(self.read(p)) for t in self.tables for p in t.players]
        matches = [loop.create_task(self.matches(t)) for t in self.tables]
        await asyncio.sleep(max(0.0, self.window[1] - time.monotonic()))
        self.stopping = True
        deadline = time.monotonic() + DRAIN_TIMEOUT
        while any(p.pending for t in self.tables for p in t.players) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        self.tally.undrained = sum(1 for t in self.tables for p in t.players if p.pending)
        for task in matches:
            task.cancel()
        await asyncio.gather(*(p.ws.close() for t in self.tables for p in t.players), return_exceptions=True)
        await asyncio.gather(*readers, *matches, return_exceptions=True)
        if len(samples) == 2:
            self.tally.client_cpu = samples[1][0] - samples[0][0]
            first, last = samples[0][1], samples[1][1]
            if first is not None and last is not None:
                self.tally.server_cpu = last - first
            busy, done = samples[0][2], samples[1][2]
            if busy is not None and done is not None:
                self.tally.machine_cpu = done - busy

    async def matches(self, table: _Table) -> None:
        """Create a table, have the three others join it, wait for the match's end; again."""
        creator, *others = table.players
        loop = asyncio.get_running_loop()
        while not self.stopping:
            table.created = loop.create_future()
            table.over.clear()
            seed = f"bench-{self.plan.seed}-{table.number}-{table.matches}"
            message = {"type": "create", "rules": self.plan.rules, "seats": SEATS, "seed": seed}
            await creator.ws.send(json.dumps(message))
            table_id = await table.created
            self.tally.table_ids.append(table_id)
            for player in others:
                await player.ws.send(json.dumps({"type": "join", "table": table_id}))
            await table.over.wait()
            table.matches += 1
            self.tally.matches += 1

    async def read(self, player: _Player) -> None:
        tally = self.tally
        w0, w1 = self.window
        try:
            async for raw in player.ws:
                now = time.monotonic()
                if w0 <= now < w1:
                    tally.received += 1
                message = json.loads(raw)
                kind = message["type"]
                if kind == "ack":
                    if message.get("id") == player.pending:
                        player.pending = None
                        tally.acked += 1
                        if w0 <= now < w1:
                            tally.window_acks += 1
                            tally.latencies.append(now - player.sent)
                        await self.decide(player)
                elif kind == "update" or kind == "snapshot":
                    player.v = message["v"]
                    table = player.table
                    if player.seen != table.decision and player.v > table.v:
                        player.seen = table.decision
                        if player.pending is None and w0 <= now < w1:
                            tally.seen.append(now - table.sent)
                    player.state = message.get("state")
                    if kind == "update" and player.creator and any(e["kind"] == "match" for e in message["events"]):
                        player.table.over.set()
                    await self.decide(player)
                elif kind == "joined":
                    player.acted_v, player.state = -1, None
                elif kind == "created":
                    created = player.table.created
                    if created is not None and not created.done():
                        created.set_result(message["table"]["id"])
                elif kind == "error":
                    tally.errors[message.get("code", "?")] += 1
                    if message.get("id") is not None and message.get("id") == player.pending:
                        player.pending = None
                        if message.get("code") != "stale":
                            player.acted_v = -1  # decide again, at the same version
                        await self.decide(player)
        except Exception as error:
            if not self.stopping:
                tally.errors[f"connection: {type(error).__name__}"] += 1
        if not self.stopping:
            self.tally.errors["connection closed"] += 1

    async def decide(self, player: _Player) -> None:
        """Send a legal decision if one is due from ``player`` and not sent yet."""
        state = player.state
        if (
            self.stopping
            or player.pending is not None
            or state is None
            or state["legal"] is None
            or state["to_act"] != state["seat"]
            or player.acted_v >= player.v
        ):
            return
        self.counter += 1
        player.pending = f"d{self.counter}"
        player.acted_v = player.v
        text = json.dumps({"type": "act", "id": player.pending, "v": player.v, "action": choose(state, player.rng)})
        self.tally.act_bytes += len(text)
        self.tally.acts += 1
        if self.plan.think > 0:
            pause = self.plan.think * player.rng.uniform(0.5, 1.5)
            asyncio.get_running_loop().create_task(self.send_later(player, text, pause))
            return
        self.sent(player)
        await player.ws.send(text)

    def sent(self, player: _Player) -> None:
        table = player.table
        player.sent = table.sent = time.monotonic()
        table.decision += 1
        table.v = player.v
        player.seen = table.decision

    async def send_later(self, player: _Player, text: str, pause: float) -> None:
        await asyncio.sleep(pause)
        if self.stopping:
            player.pending = None  # never sent, so never acknowledged
            self.tally.acts -= 1
            return
        self.sent(player)
        with contextlib.suppress(Exception):
            await player.ws.send(text)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action from a seat's ``state``: a random trump, suit or card; at the exchange
    ``min_discard`` cards of the hand (none: keep the hand)."""
    legal = state["legal"]
    phase = state["phase"]
    if phase == "trump":
        pick = rng.choice(legal)
        return {"kind": "turn"} if pick == "turn" else {"kind": "trump", "suit": pick}
    if phase == "exchange":
        return {"kind": "exchange", "discard": rng.sample(state["hand"], legal["min_discard"])}
    return {"kind": "play", "card": rng.choice(legal)}


# -- the echo floor -------------------------------------------------------------------


async def _echo(plan: Plan, ready: Callable[[], float]) -> Tally:
    from websockets.asyncio.client import connect

    tally = Tally()
    limit = asyncio.Semaphore(32)

    async def one() -> ClientConnection:
        async with limit:
            return await connect(plan.url, max_size=2**20, open_timeout=STARTUP_TIMEOUT)

    connections = await asyncio.gather(*(one() for _ in plan.tables for _ in range(4)))
    start = ready()
    w0, w1 = start + plan.warmup, start + plan.warmup + plan.seconds
    rng = random.Random(plan.seed)
    samples: list[float] = []
    loop = asyncio.get_running_loop()
    loop.call_at(w0, lambda: samples.append(time.process_time()))
    loop.call_at(w1, lambda: samples.append(time.process_time()))

    async def ping_pong(ws: ClientConnection, phase: float) -> None:
        due = start + phase
        while due < w1:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            sent = time.monotonic()
            await ws.send(plan.echo_message)
            await ws.recv()
            now = time.monotonic()
            tally.acked += 1
            if w0 <= now < w1:
                tally.window_acks += 1
                tally.received += 1
                tally.latencies.append(now - sent)
            due = max(due + plan.echo_interval, now)

    results = await asyncio.gather(
        *(ping_pong(ws, rng.uniform(0, plan.echo_interval)) for ws in connections), return_exceptions=True
    )
    for result in results:
        if isinstance(result, BaseException):
            tally.errors[f"connection: {type(result).__name__}"] += 1
    await asyncio.gather(*(ws.close() for ws in connections), return_exceptions=True)
    if len(samples) == 2:
        tally.client_cpu = samples[1] - samples[0]
    return tally


# -- client processes -----------------------------------------------------------------


async def _drive(plan: Plan, ready: Callable[[], float]) -> Tally:
    if plan.mode == "echo":
        return await _echo(plan, ready)
    game = _Game(plan)
    await game.connect()
    await game.play(ready())
    return game.tally


def _run_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def _worker(plan: Plan, conn: Connection) -> None:
    """A client process: connect, say ready, take the start time, play, send the tally."""

    def ready() -> float:
        conn.send("ready")
        start: float = conn.recv()
        return start

    try:
        conn.send(_run_loop(_drive(plan, ready)))
    except BaseException:
        conn.send(traceback.format_exc())
    finally:
        conn.close()


def drive(plans: Sequence[Plan]) -> Tally:
    """Run ``plans``, in this process for one, else one process each; their merged tally."""
    if len(plans) == 1:
        return _run_loop(_drive(plans[0], lambda: time.monotonic() + 0.05))
    context = multiprocessing.get_context("spawn")
    pipes: list[Connection] = []
    processes = []
    for plan in plans:
        mine, theirs = context.Pipe()
        process = context.Process(target=_worker, args=(plan, theirs), daemon=True)
        process.start()
        theirs.close()
        pipes.append(mine)
        processes.append(process)
    try:
        for pipe in pipes:
            said = pipe.recv()
            if said != "ready":
                raise RuntimeError(f"a client process failed:\n{said}")
        start = time.monotonic() + 0.1
        for pipe in pipes:
            pipe.send(start)
        total = Tally()
        for pipe in pipes:
            tally = pipe.recv()
            if not isinstance(tally, Tally):
                raise RuntimeError(f"a client process failed:\n{tally}")
            total.merge(tally)
        return total
    finally:
        for process in processes:
            process.join(5)
            if process.is_alive():
                process.kill()


def _split(tables: int, processes: int) -> list[tuple[int, ...]]:
    return [tuple(range(tables))[i::processes] for i in range(processes)]


def _cpu_seconds(pid: int | None) -> float | None:
    """User and system CPU seconds of process ``pid`` so far (Linux), or None."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_total(pids: Sequence[int]) -> float | None:
    """CPU seconds of every process in ``pids`` so far, or None."""
    total = 0.0
    for pid in pids:
        seconds = _cpu_seconds(pid)
        if seconds is None:
            return None
        total += seconds
    return total if pids else None


def _machine_seconds() -> float | None:
    """CPU seconds all the machine's processors have been busy so far (Linux), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


# -- servers --------------------------------------------------------------------------


class _Server:
    """A server subprocess that prints its address (``http://HOST:PORT/``) on its first line."""

    def __init__(self, command: list[str], what: str) -> None:
        self.what = what
        self.errors: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=self.errors, text=True, start_new_session=True
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            first = self.lines.get(timeout=STARTUP_TIMEOUT)
        except queue.Empty:
            first = None
        found = re.search(r"http://([^/\s]+)/", first or "")
        if found is None:
            self.stop()
            raise RuntimeError(f"the {what} did not start: {first or ''}{self.stderr()}".strip())
        self.url = f"ws://{found.group(1)}/ws"
        # The address is printed before the server listens: wait until it does.
        host, _, port = found.group(1).rpartition(":")
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            try:
                socket.create_connection((host.strip("[]"), int(port)), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the {what} does not listen at {self.url}: {self.stderr()}".strip()) from None
                time.sleep(0.05)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def stderr(self) -> str:
        self.errors.seek(0)
        return self.errors.read()[-4000:]

    def stop(self) -> int:
        """SIGTERM, then wait for the server to finish (it stores what it holds); its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def echo_app() -> Any:
    """A FastAPI app with one WebSocket route, ``/ws``, that sends back every text it gets."""
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect

    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                await websocket.send_text(await websocket.receive_text())

    # FastAPI reads the parameter's type to inject the WebSocket: give it the class, not a string.
    echo.__annotations__["websocket"] = WebSocket
    app = FastAPI()
    app.add_api_websocket_route("/ws", echo)
    return app


def serve_echo() -> int:
    """Serve :func:`echo_app` on a free loopback port with ``sobedesce serve``'s uvicorn settings."""
    import uvicorn

    from sobedesce.server.protocol import MAX_MESSAGE_BYTES

    sock = socket.socket(socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(
        echo_app(),
        log_level="warning",
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,  # as `sobedesce serve`
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=5,
    )
    host, port = sock.getsockname()[:2]
    print(f"WebSocket echo at http://{host}:{port}/", flush=True)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


# -- the command ----------------------------------------------------------------------


def _percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank ``q`` quantile of ``values``, in milliseconds."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000


def _raise_file_limit(connections: int) -> int | None:
    """Raise this process's limit of open files for ``connections`` (as far as the hard limit
    allows); the limit then, ``None`` when there is none (or no way to know it)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections * 2 + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


# Files a client process (and the server) opens besides the players' connections.
_FILES_BESIDE = 64


def _stored(store_url: str | None, data: str | None, table_ids: Sequence[str]) -> int:
    """People's decisions stored at ``table_ids``."""
    from sobedesce.server.store import Store

    store = Store(store_url) if store_url else Store.for_data_dir(data or ".")
    try:
        return sum(1 for table in table_ids for _, decision in store.decisions(table) if decision.get("by") == "person")
    finally:
        store.close()


def measure(
    *,
    tables: int,
    seconds: float,
    warmup: float,
    rules: str = "classic",
    seed: int = 1,
    db: str | None = None,
    client_processes: int = 1,
    think: float = 0.0,
    processes: int = 1,
    redis: str | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run the game and the echo floor; the figures as ``sobedesce bench server --json`` prints them.

    With ``redis`` (and ``db`` a PostgreSQL), the servers run as a cluster: one process, then
    ``processes`` of them in the same run (each on a fresh schema), the players of every table
    spread over the processes; ``runs`` holds both and ``speedup`` the ratio of their rates."""
    say = progress or (lambda _: None)
    _raise_file_limit(4 * tables)
    counts = sorted({1, processes}) if redis is not None else [1]
    runs = []
    for count in counts:
        runs.append(_measure_game(tables, seconds, warmup, rules, seed, db, client_processes, think, count, redis, say))
    game = runs[-1][0]

    rate = game.window_acks / seconds
    mean_act = round(game.act_bytes / game.acts) if game.acts else 70
    interval = 4 * tables / rate if rate > 0 else 1.0
    echo_server = _Server([sys.executable, "-m", "sobedesce.cli.bench_server", "echo"], "echo server")
    try:
        say(f"echo at {echo_server.url}: {4 * tables} clients, one {mean_act}-byte message every {interval:.3f} s each")
        empty = json.dumps({"type": "echo", "pad": ""})
        message = json.dumps({"type": "echo", "pad": "x" * max(0, mean_act - len(empty))})
        echo = drive(
            [
                Plan(
                    "echo",
                    echo_server.url,
                    part,
                    warmup,
                    seconds,
                    seed=seed,
                    echo_interval=interval,
                    echo_message=message,
                )
                for part in _split(tables, client_processes)
            ]
        )
    finally:
        echo_server.stop()

    echo_p99 = _percentile(echo.latencies, 0.99)

    def figures(tally: Tally, stored_count: int, count: int) -> dict[str, Any]:
        p99 = _percentile(tally.latencies, 0.99)
        ratio = p99 / echo_p99 if p99 is not None and echo_p99 else None
        others = None
        if tally.machine_cpu is not None and tally.server_cpu is not None:
            others = max(0.0, tally.machine_cpu - tally.server_cpu - tally.client_cpu) / seconds
        return {
            "processes": count,
            "decisions_per_s": round(tally.window_acks / seconds, 1),
            "p50_ms": _round(_percentile(tally.latencies, 0.5)),
            "p99_ms": _round(p99),
            "seen_p50_ms": _round(_percentile(tally.seen, 0.5)),
            "seen_p99_ms": _round(_percentile(tally.seen, 0.99)),
            "p99_ratio": round(ratio, 2) if ratio is not None else None,
            "stored": stored_count,
            "acked": tally.acked,
            "matches": tally.matches,
            "tables_created": len(tally.table_ids),
            "unanswered": tally.undrained,
            "errors": dict(tally.errors),
            "messages_per_s": round(tally.received / seconds, 1),
            "server_cpu": round(tally.server_cpu / seconds, 2) if tally.server_cpu is not None else None,
            "client_cpu": round(tally.client_cpu / seconds, 2),
            "other_cpu": round(others, 2) if others is not None else None,
        }

    each = [figures(tally, stored_count, count) for (tally, stored_count), count in zip(runs, counts, strict=True)]
    last = each[-1]
    first_rate = each[0]["decisions_per_s"]
    result = {
        "tables": tables,
        "clients": 4 * tables,
        "seconds": seconds,
        "warmup": warmup,
        "rules": rules,
        "store": _shown_url(db) if db else "sqlite (temporary --data)",
        "bus": _shown_url(redis) if redis else None,
        "client_processes": client_processes,
        "think": think,
        **last,
        "errors": dict(game.errors + echo.errors),
        "echo_p50_ms": _round(_percentile(echo.latencies, 0.5)),
        "echo_p99_ms": _round(echo_p99),
        "echo_per_s": round(echo.window_acks / seconds, 1),
        "mean_act_bytes": mean_act,
        "cpus": os.cpu_count(),
        "runs": each,
        "speedup": round(last["decisions_per_s"] / first_rate, 2) if len(each) > 1 and first_rate else None,
        "targets": {
            "tables": TARGET_TABLES,
            "decisions_per_s": TARGET_DECISIONS_PER_S,
            "p99_ratio": TARGET_P99_RATIO,
        },
    }
    return result


def _measure_game(
    tables: int,
    seconds: float,
    warmup: float,
    rules: str,
    seed: int,
    db: str | None,
    client_processes: int,
    think: float,
    processes: int,
    redis: str | None,
    say: Callable[[str], None],
) -> tuple[Tally, int]:
    """Play against ``processes`` servers (a cluster when ``redis``); the tally and how many
    acknowledged decisions the store holds."""
    with tempfile.TemporaryDirectory(prefix="sobedesce-bench-") as scratch, _fresh_schema(db, redis) as url:
        data = None if url else os.path.join(scratch, "data")
        store_args = ["--db", url] if url else ["--data", data or ""]
        command = [sys.executable, "-m", "sobedesce", "serve", "--port", "0", "--pace", "0", *store_args]
        command += ["--allow-seed", "--away-after", "3600"]
        if redis is not None:
            command += ["--redis", redis, "--cluster-name", f"bench-{secrets.token_hex(4)}"]
        servers: list[_Server] = []
        try:
            for _ in range(processes):
                servers.append(_Server(command, "server"))
            shown = ", ".join(server.url for server in servers)
            say(f"{processes} server process(es) at {shown}; connecting {4 * tables} clients")
            plans = [
                Plan(
                    "game",
                    servers[0].url,
                    part,
                    warmup,
                    seconds,
                    rules=rules,
                    seed=seed,
                    prefix=f"b{secrets.token_hex(3)}",
                    server_pid=servers[0].process.pid,
                    think=think,
                    urls=tuple(server.url for server in servers),
                    server_pids=tuple(server.process.pid for server in servers),
                )
                for part in _split(tables, client_processes)
            ]
            game = drive(plans)
        finally:
            codes = [server.stop() for server in servers]
        if any(not key.startswith("connection") and key != "stale" for key in game.errors):
            for server in servers:
                if server.stderr().strip():
                    say(f"errors {dict(game.errors)}; a server said:\n{server.stderr()[-1500:]}")
        for server, code in zip(servers, codes, strict=True):
            if code not in (0, -signal.SIGTERM):
                raise RuntimeError(f"a server exited with {code}: {server.stderr()}")
        return game, _stored(url, data, game.table_ids)


@contextlib.contextmanager
def _fresh_schema(db: str | None, redis: str | None) -> Iterator[str | None]:
    """For PostgreSQL, a fresh schema in ``db`` (dropped afterwards), so that runs never share
    tables or players nor leave any behind; another database as given.  A database that cannot
    be used (unreachable, a malformed URL, no driver) raises ``RuntimeError``, said in one line."""
    if db is None or not db.startswith(("postgresql", "postgres")):
        yield db
        return
    try:
        import sqlalchemy as sa
    except ImportError:
        raise RuntimeError(
            "cannot use the database: --db postgresql://... needs SQLAlchemy: pip install 'sobe-e-desce[server]'"
        ) from None

    def unusable(error: Exception) -> RuntimeError:
        reason = getattr(error, "orig", None) or error
        return RuntimeError(f"cannot use the database {_shown_url(db)}: {' '.join(str(reason).split())}")

    schema = f"bench_{secrets.token_hex(6)}"
    try:
        parsed = sa.make_url(db)
        if parsed.drivername in ("postgres", "postgresql"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        admin = sa.create_engine(parsed)
    except (sa.exc.SQLAlchemyError, ValueError, ImportError) as error:
        raise unusable(error) from None
    try:
        try:
            with admin.begin() as connection:
                connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        except sa.exc.SQLAlchemyError as error:
            raise unusable(error) from None
        try:
            yield parsed.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
        finally:
            with admin.begin() as connection:
                connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
    finally:
        admin.dispose()


def _shown_url(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(the --db URL)"


def _db_url_problem(url: str) -> str | None:
    """What makes ``url`` no database URL the server takes (a bad input, said before any server
    starts), else ``None``; one the server takes may still be unreachable, said once tried."""
    try:
        from sqlalchemy.engine import make_url
    except ImportError:
        return None  # said by _fresh_schema, or by the server, which needs SQLAlchemy
    try:
        backend = make_url(url).get_backend_name()
    except Exception as error:  # sqlalchemy's ArgumentError, or a ValueError of a bad port
        return f"not a database URL ({' '.join(str(error).split())})"
    if backend not in ("sqlite", "postgresql", "postgres"):
        return "unsupported: use sqlite:///path/to/file.db or postgresql://..."
    return None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def run(args: argparse.Namespace) -> int:
    """``sobedesce bench server``."""

    def fail(message: str) -> int:
        print(f"sobedesce bench server: {message}", file=sys.stderr)
        return 2

    tables = args.tables if args.tables is not None else (20 if args.quick else TARGET_TABLES)
    seconds = args.seconds if args.seconds is not None else (5.0 if args.quick else 20.0)
    warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 3.0)
    processes = args.processes if args.processes is not None else 1
    client_processes = args.client_processes if args.client_processes is not None else 1
    think = args.think if args.think is not None else 0.0
    if tables <= 0:
        return fail(f"--tables must be positive, not {tables}")
    if not (math.isfinite(seconds) and seconds > 0):
        return fail(f"--seconds must be positive and finite, not {seconds:g}")
    if seconds < MIN_SECONDS:
        return fail(f"--seconds must be at least {MIN_SECONDS:g}, not {seconds:g}")
    if not (math.isfinite(warmup) and warmup >= 0):
        return fail(f"--warmup must be 0 or more and finite, not {warmup:g}")
    if not (math.isfinite(think) and think >= 0):
        return fail(f"--think must be 0 or more and finite, not {think:g}")
    if processes <= 0:
        return fail(f"--processes must be positive, not {processes}")
    if args.db is not None:
        wrong = _db_url_problem(args.db)
        if wrong is not None:
            return fail(f"cannot use the database {_shown_url(args.db)}: {wrong}")
    redis = getattr(args, "redis", None) or os.environ.get("SOBEDESCE_REDIS_URL")
    if processes > 1 and redis is None:
        return fail(
            "--processes > 1 needs Redis between the processes: set SOBEDESCE_REDIS_URL=redis://host:6379/0 "
            "(and --db postgresql://...)"
        )
    if redis is not None and processes > 1 and not (args.db or "").startswith(("postgresql", "postgres")):
        return fail("--processes > 1 needs --db postgresql://...: the processes share one PostgreSQL store")
    if processes > 8:
        return fail(f"--processes is at most 8, not {processes}")
    if processes == 1:
        redis = None
    if client_processes not in (1, 2):
        return fail(f"--client-processes is 1 or 2, not {client_processes}")
    # Checked before the server starts: past the limit, the connections failed half way in an
    # "OSError: Too many open files" traceback (and --tables 100000000 tried 400 million).
    limit = _raise_file_limit(4 * tables)
    if limit is not None and 4 * tables + _FILES_BESIDE > limit:
        return fail(
            f"--tables {tables:,} needs {4 * tables:,} connections, more than the {limit:,} open files"
            " a process may have here (ulimit -n)"
        )
    try:
        import websockets  # noqa: F401
    except ImportError:
        return fail("the clients need websockets: pip install websockets")

    def progress(text: str) -> None:
        if not args.json:
            print(f"  ... {text}", file=sys.stderr, flush=True)

    # A SIGTERM unwinds like Ctrl-C, so the servers this run started are stopped too.
    signal.signal(signal.SIGTERM, _terminate)
    try:
        result = measure(
            tables=tables,
            seconds=seconds,
            warmup=warmup,
            rules=args.rules,
            seed=args.seed,
            db=args.db,
            client_processes=client_processes,
            think=think,
            processes=processes,
            redis=redis,
            progress=progress,
        )
    except RuntimeError as error:
        print(f"sobedesce bench server: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def report(result: dict[str, Any]) -> None:
    """Print ``result`` for people, each figure beside its target."""

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:,.1f} ms"

    def verdict(met: bool) -> str:
        return "met" if met else "NOT met"

    clients = "this process" if result["client_processes"] == 1 else f"{result['client_processes']} processes"
    rate, ratio = result["decisions_per_s"], result["p99_ratio"]
    print(
        f"Server: {result['tables']} tables x 4 WebSocket players ({result['clients']} connections), "
        f"{result['rules']} rules, store {result['store']}"
    )
    pause = "at once" if not result["think"] else f"after {result['think']:g} s on average"
    servers = "1 server process" if result["processes"] == 1 else f"{result['processes']} server processes"
    bus = f" (PostgreSQL + Redis {result['bus']})" if result.get("bus") else ""
    print(
        f"  {servers}{bus}; clients in {clients} (asyncio + websockets), deciding {pause}; "
        f"warm-up {result['warmup']:g} s, measured {result['seconds']:g} s"
    )
    runs = result.get("runs") or []
    if len(runs) > 1:
        print("  processes  decisions/s   p50         p99         stored")
        for run_ in runs:
            print(
                f"  {run_['processes']:>9}  {run_['decisions_per_s']:>11,.0f}   {ms(run_['p50_ms']):>10}  "
                f"{ms(run_['p99_ms']):>10}  {run_['stored']} of {run_['acked']}"
            )
        print(
            f"  {runs[-1]['processes']} processes / 1: {result['speedup']:.2f} x the decisions a second "
            "(each table's players spread over the processes; the lines below are the last run's)"
        )
    print(f"  decisions/s:       {rate:>10,.0f}   target >= {TARGET_DECISIONS_PER_S:,.0f} at {TARGET_TABLES} tables")
    print(f"  latency p50:       {ms(result['p50_ms']):>13}   (act sent -> its ack)")
    print(f"  latency p99:       {ms(result['p99_ms']):>13}")
    print(
        f"  others see it:     {ms(result['seen_p50_ms']):>13} / {ms(result['seen_p99_ms'])}"
        "   (p50 / p99, act sent -> the update at each other player)"
    )
    print(
        f"  echo p50 / p99:    {ms(result['echo_p50_ms']):>13} / {ms(result['echo_p99_ms'])}"
        f"   (bare echo, same connections and pace: {result['echo_per_s']:,.0f} messages/s)"
    )
    shown = "-" if ratio is None else f"{ratio:.2f} x"
    print(f"  p99 / echo p99:    {shown:>13}   target <= {TARGET_P99_RATIO:g} x")
    print(f"  stored:            {result['stored']} of {result['acked']} acknowledged decisions")
    print(
        f"  matches finished:  {result['matches']}; messages received {result['messages_per_s']:,.0f}/s; "
        f"CPU: server {_share(result['server_cpu'])}, clients {_share(result['client_cpu'])}, "
        f"other processes {_share(result['other_cpu'])} of a core ({result['cpus']} cores)"
    )
    if result["other_cpu"] is not None and result["other_cpu"] > 0.25:
        print("  note:              other processes were busy during the run: the figures are lower than alone")
    if not result["think"]:
        print(
            "  note:              players decide at once, so each table always has a decision in flight and "
            "latency ~ tables / decisions per second (--think to pace them)"
        )
    if result["errors"]:
        print(f"  errors:            {result['errors']}")
    if result["unanswered"]:
        print(f"  unanswered:        {result['unanswered']} decisions had no answer when the run ended")
    at_target = result["tables"] >= TARGET_TABLES
    checks = [
        ("decisions/s", rate >= TARGET_DECISIONS_PER_S),
        ("p99 ratio", ratio is not None and ratio <= TARGET_P99_RATIO),
        ("every decision stored", result["stored"] == result["acked"]),
    ]
    summary = ", ".join(f"{name} {verdict(met)}" for name, met in checks)
    where = "" if at_target else f" (at {result['tables']} tables; the targets are for {TARGET_TABLES})"
    print(f"  targets: {summary}{where}")


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _main(argv: Sequence[str]) -> int:
    if list(argv) == ["echo"]:
        return serve_echo()
    print("usage: python -m sobedesce.cli.bench_server echo", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
