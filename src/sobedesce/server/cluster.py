"""Several ``sobedesce serve`` processes over one PostgreSQL store, with Redis between them.

**One owner per table.**  A process applies a table's decisions only while it holds the
table's lease (:mod:`sobedesce.server.lease`); its :class:`~sobedesce.server.tables.Tables`
is the table's one writer, exactly as with a single process, and every write is fenced by
the lease's epoch.  A process creating a table takes its lease; a table whose lease expired
(its process died or stalled) is taken over by the first process that needs it, for a
client's request or in the periodic sweep, and rebuilt from the store like a restart.

**Connections anywhere.**  A connection held by process P at a table owned by process O is
represented at O by a :class:`RemoteClient`: O seats it, counts it as connected, and makes
every message for it (``state_json``/``event_json`` for its seat) as for its own
connections; the message travels over the bus to P, which only passes it on.  P forwards
that connection's ``join``, ``watch``, ``act``, ``hint`` and ``leave`` to O and tells O when
the connection closes.  When O dies, P finds a new owner (or becomes it) and sends the
connection's ``join`` again with the last event number it was sent, then any decision still
unanswered: the table's numbered events and idempotent decisions make that exact.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from dataclasses import asdict, dataclass
from typing import Any

from .bus import Bus, BusError, error_text
from .lease import Leases
from .protocol import (
    Act,
    Close,
    Hint,
    Join,
    Leave,
    ProtocolError,
    Rematch,
    Say,
    Watch,
    action_from_json,
    error_json,
    hint_json,
    parse_message,
    shown,
)
from .store import Player, StoreError, TableRow
from .tables import Client, Room, Seat, ServerError, Tables, listed, seats_connected

__all__ = ["Cluster", "Link", "RemoteClient"]

log = logging.getLogger("sobedesce.server.cluster")

_SENT_WITH_V = ("update", "snapshot")
_ANSWERS = ("ack", "error", "hint")


@dataclass
class Link:
    """At the process holding a connection: the table it is at, owned by another process."""

    table: str
    owner: str
    request: dict[str, Any]
    """The ``join`` or ``watch`` that brought the connection to the table."""
    attached: bool = False
    seat: int | None = None
    seen: int | None = None
    """The last event number the connection was sent."""
    pending: dict[str, Any] | None = None
    """The last ``act`` forwarded and not answered yet."""
    relocating: bool = False
    rejoining: bool = False
    """Sent back to its table: the ``joined`` that answers is not passed on (the client never left)."""

    def rejoin(self) -> dict[str, Any]:
        """The request that puts the connection back where it was, from the event it last had."""
        if not self.attached:
            return dict(self.request)
        request: dict[str, Any] = {"type": "watch" if self.seat is None else "join", "table": self.table}
        if self.seat is None and self.request.get("code") is not None:
            request["code"] = self.request["code"]  # a private table's spectator
        if self.seen is not None:
            request["since"] = self.seen
        return request


class RemoteClient(Client):
    """At a table's owner: a connection another process holds.  What the tables send it
    goes over the bus to that process, made for this connection's seat like any other."""

    def __init__(self, cluster: Cluster, node: str, conn: str) -> None:
        super().__init__(_never)
        self.cluster = cluster
        self.node = node
        self.conn = conn
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None

    def start(self) -> None:
        pass

    def send(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        answers = message["id"] if kind in _ANSWERS and "id" in message else None
        self._envelope(json.dumps(message, separators=(",", ":")), kind, message.get("v"), answers)

    def send_made(self, kind: str, version: int, text: str) -> None:
        self._envelope(text, kind, version, None)

    def _envelope(self, text: str, kind: Any, version: Any, answers: Any) -> None:
        if self.closed:
            return
        envelope: dict[str, Any] = {"k": "msg", "o": self.cluster.node, "c": self.conn, "m": text}
        if kind in _SENT_WITH_V:
            envelope["v"] = version
        elif answers is not None:
            envelope["a"] = answers
        self.cluster.bus.send(self.node, envelope)

    async def stop(self) -> None:
        self.closed = True


async def _never(text: str) -> None:  # pragma: no cover - a RemoteClient never pumps
    raise RuntimeError("a remote connection is sent to over the bus")


class Cluster:
    """This process's part in a cluster: leases, the bus, and the routing of connections."""

    def __init__(self, tables: Tables, bus: Bus, leases: Leases) -> None:
        self.tables = tables
        self.bus = bus
        self.leases = leases
        self.node = leases.owner
        self.period = leases.seconds / 3
        self.conns: dict[str, Client] = {}
        self.remotes: dict[tuple[str, str], RemoteClient] = {}
        self._ids = itertools.count(1)
        self._claim = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        tables.cluster = self

    # -- lifecycle ----------------------------------------------------------------------

    async def start(self) -> None:
        self.bus.on_back = self.rejoin_all
        await self.bus.start(self.on_bus)
        await self.sweep()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        # Stopping cleanly: the tables are free for another process at once.
        with contextlib.suppress(Exception):
            await self.tables.write(self.leases.release_all)
        for room in list(self.tables.rooms.values()):
            self.bus.table_gone(room.id)
        await self.bus.close()

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- hooks of the tables --------------------------------------------------------------

    def table_changed(self, room: Room) -> None:
        if room.status in ("open", "playing"):
            self.bus.table_changed(room.id, room.public(), ttl=self.leases.seconds * 3)

    async def finished(self, room: Room) -> None:
        """A table that will not change again (finished, abandoned): its lease goes."""
        self.bus.table_gone(room.id)
        if room.epoch is not None:
            epoch, room.epoch = room.epoch, None
            with contextlib.suppress(Exception):
                await self.tables.write(self.leases.release, room.id, epoch)

    # -- the lobby --------------------------------------------------------------------------

    async def list_tables(self) -> list[dict[str, Any]]:
        """Public tables open or in play, whichever process holds them: the store says which
        exist, their owners what is live (who is connected, spectators)."""
        rows = [r for r in await self.tables.read(self.tables.store.tables, ("open", "playing")) if not r.private]
        live = await self.bus.tables([r.id for r in rows])
        pairs = [(row, live.get(row.id)) for row in rows]
        return [self._listing(row, word) for row, word in pairs if self._listed(row, word)]

    @staticmethod
    def _listed(row: TableRow, live: dict[str, Any] | None) -> bool:
        """Listed by the store's facts or by its owner's.  The last seat of a table is stored
        before its start: between the two writes the store holds an open table with no open
        seat, which by the store alone was left out of the lobby (a table just filled missing
        from the list it was in a moment before and after), while its owner's last word still
        has the seat open, or already the match in play."""
        if live is None:
            return listed(row.status, [Seat.from_row(s) for s in row.seats])
        seats = [Seat.from_row(s) for s in live.get("seats", [])]
        kept = {n for n, s in enumerate(live.get("seats", [])) if s.get("kept_for")}
        if live.get("status") == "open" and not listed("open", seats, seats_connected(live), kept):
            return False  # its people have all gone, or its open seats are kept (tables.listed)
        return listed(row.status, [Seat.from_row(s) for s in row.seats], kept=kept) or listed(
            str(live.get("status")), seats, kept=kept
        )

    async def table_info(self, table_id: str) -> dict[str, Any]:
        room = self.tables.rooms.get(table_id)
        if room is not None and not room.private:
            return room.public()
        row = await self.tables.read(self.tables.store.table, table_id)
        if row is None or row.private:
            raise ServerError("no_table", f"no table {shown(table_id)}")
        info = (await self.bus.tables([table_id])).get(table_id) if row.status in ("open", "playing") else None
        return self._listing(row, info)

    async def describe(self, rows: list[TableRow]) -> list[dict[str, Any]]:
        """The public facts of stored tables, whichever process holds them (``Tables.yours``)."""
        live = await self.bus.tables([r.id for r in rows if r.id not in self.tables.rooms])
        return [
            self.tables.described(row) if row.id in self.tables.rooms else self._listing(row, live.get(row.id))
            for row in rows
        ]

    def _listing(self, row: TableRow, live: dict[str, Any] | None) -> dict[str, Any]:
        """A table's public facts: its owner's live ones (from the bus) when it has an owner,
        else the stored row's; the status and version always the store's, or newer."""
        if live is None:
            room = self.tables._room_of(row)
            room.version = row.version
            live = room.public()
        live["status"] = row.status
        live["v"] = max(int(live.get("v") or 0), row.version)
        return live

    # -- where a table is -------------------------------------------------------------------

    async def locate(self, table_id: str, *, wait: bool = True) -> str | None:
        """The process that owns ``table_id``; ``None`` when it is this one (taken over now if
        its lease had expired) or when no process needs to (no such table, or finished)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.leases.seconds * 3 + 10
        refused = False
        while True:
            if table_id in self.tables.rooms:
                return None
            row = await self.tables.read(self.tables.store.table, table_id)
            if row is None or row.status not in ("open", "playing"):
                return None
            lease = await self.tables.read(self.leases.lease, table_id)
            if lease is not None and lease.live and lease.owner != self.node:
                if (await self.bus.alive([lease.owner])).get(lease.owner):
                    return lease.owner
                # Its process is gone: the lease is taken over once it expires.
                if not wait or loop.time() > deadline:
                    raise ServerError("unavailable", "the table's server is being replaced: join again in a moment")
                await asyncio.sleep(min(max(lease.seconds_left, 0.02), 1.0))
                continue
            if refused:
                # The last acquire was refused and nobody holds the lease since: its stalled
                # owner still holds the table's row, until PostgreSQL ends that session.
                await asyncio.sleep(min(self.period, 0.5))
                refused = False
                continue
            async with self._claim:
                if table_id in self.tables.rooms:
                    return None
                if lease is not None and lease.live and lease.owner == self.node:
                    epoch: int | None = lease.epoch
                else:
                    epoch = await self.tables.write(self.leases.acquire, table_id)
                if epoch is not None:
                    await self._take(table_id, epoch)
                    return None
            if not wait or loop.time() > deadline:
                raise ServerError("unavailable", "the table's server is being replaced: join again in a moment")
            refused = True  # taken by another process meanwhile (the next look finds it), or busy

    async def _take(self, table_id: str, epoch: int) -> None:
        """Hold a table from the store, with its lease's ``epoch``."""
        row = await self.tables.read(self.tables.store.table, table_id)
        if row is None or row.status not in ("open", "playing"):
            await self.tables.write(self.leases.release, table_id, epoch)
            return
        room = await self.tables.load(row, epoch)
        log.info("took over table %s (epoch %d, v=%d)", table_id, epoch, room.version)
        self.table_changed(room)

    def quit_deserted_elsewhere(self, player_id: int, going_to: str) -> None:
        """A person sat down at ``going_to``: the processes holding the other tables, not
        started, where they have a seat are asked to give it up if no connection of theirs is
        there (``Tables.quit_deserted``), as this process did with its own.  In the background:
        the table they sit down at does not wait for it."""
        self._spawn(self._quit_deserted_elsewhere(player_id, going_to))

    async def _quit_deserted_elsewhere(self, player_id: int, going_to: str) -> None:
        try:
            rows = await self.tables.read(self.tables.store.tables, ["open"])
        except Exception:
            log.warning("could not look for the seats of player %s elsewhere", player_id, exc_info=True)
            return
        taken_here = False
        for row in rows:
            if row.id == going_to or row.id in self.tables.rooms:
                continue
            if not any(seat.get("player_id") == player_id for seat in row.seats):
                continue
            try:
                owner = await self.locate(row.id, wait=False)
            except Exception:
                # Its process is gone, or the store is: the seat stays theirs, its table left
                # out of the lobby while nobody seated there is connected, and closing by itself.
                log.warning("could not ask for seat of player %s at table %s", player_id, row.id, exc_info=True)
                continue
            if owner is not None:
                self.bus.send(owner, {"k": "quit", "player": player_id, "going": going_to})
            else:
                taken_here = True  # its lease had expired: this process holds it now (or it has ended)
        if taken_here:
            await self.tables.quit_deserted(player_id, going_to)

    # -- a connection held here -----------------------------------------------------------

    def connected(self, client: Client) -> None:
        client.cid = f"{next(self._ids)}"
        self.conns[client.cid] = client

    async def disconnected(self, client: Client) -> None:
        await self.unlink(client)
        self.conns.pop(client.cid, None)

    async def unlink(self, client: Client) -> None:
        """The connection leaves the table another process holds (it goes elsewhere, or closed)."""
        link: Link | None = client.link
        if link is None:
            return
        client.link = None
        self.bus.send(link.owner, self._command(client, {"type": "detach"}))

    def _command(self, client: Client, message: dict[str, Any]) -> dict[str, Any]:
        player = asdict(client.player) if client.player is not None else None
        return {"k": "cmd", "from": self.node, "c": client.cid, "player": player, "msg": message}

    async def handle(self, client: Client, message: Any) -> bool:
        """Route a client's message: ``True`` when another process takes it (forwarded), ``False``
        when this process's tables do."""
        if client.player is None and not isinstance(message, (Watch, Leave)):
            return False  # the tables answer that a hello comes first (watching needs none)
        if isinstance(message, (Join, Watch)):
            table_id = message.table
            if table_id is None:
                code = getattr(message, "code", None)
                row = await self.tables.read(self.tables.store.table_by_invite, code) if code else None
                if row is None:
                    await self.unlink(client)
                    return False
                table_id = row.id
            owner = await self.locate(table_id)
            if owner is None:
                await self.unlink(client)
                return False
            if client.room is not None:
                self.tables.detach(client)
            if client.link is not None and (client.link.owner != owner or client.link.table != table_id):
                await self.unlink(client)
            request = message.model_dump(exclude_none=True)
            request["table"] = table_id
            client.link = Link(table_id, owner, request)
            await self._forward(client, request)
            return True
        link: Link | None = client.link
        if link is None:
            return False
        if isinstance(message, Act):
            request = message.model_dump(exclude_none=True)
            link.pending = request
            if link.relocating or link.owner == self.node:
                # The table is moving to its new owner (this process lost it): the relocation
                # sends this decision there once the connection is back at the table.
                return True
        elif isinstance(message, (Hint, Leave, Close, Say, Rematch)):
            request = message.model_dump(exclude_none=True)
        else:
            return False
        await self._forward(client, request)
        return True

    async def _forward(self, client: Client, request: dict[str, Any]) -> None:
        link: Link | None = client.link
        assert link is not None
        try:
            listening = await self.bus.send_now(link.owner, self._command(client, request))
        except BusError:
            raise ServerError("unavailable", "the table's server process cannot be reached now: try again") from None
        if not listening:
            # The owner is gone: find the table's new owner, then send again what is due.
            self._spawn(self.relocate(client))

    async def relocate(self, client: Client) -> None:
        """Bring a connection back to its table after its owner changed: the table's events
        from the last one it was sent, then its unanswered decision."""
        link: Link | None = client.link
        if link is None or link.relocating or client.closed:
            return
        link.relocating = True
        try:
            try:
                owner = await self.locate(link.table)
                if owner != link.owner:
                    # Let go of it there, should that process still be running.
                    self.bus.send(link.owner, self._command(client, {"type": "detach"}))
            except ServerError as error:
                client.link = None
                client.send(error_json(error.code, error.message))
                return
            request = link.rejoin()
            quiet = link.attached
            if owner is not None:
                link.owner = owner
                link.rejoining = quiet
                sent = link.pending
                commands = [request] + ([sent] if sent is not None else [])
                for command in commands:
                    if not await self.bus.send_now(owner, self._command(client, command)):
                        raise ServerError("unavailable", "the table's server went away")
                late = link.pending
                if late is not None and late is not sent:
                    # A decision that arrived while the connection was rejoining.
                    await self.bus.send_now(owner, self._command(client, late))
                return
            # This process holds the table now: the connection is at it as any local one.
            client.link = None
            client.rejoining = quiet
            await self._local(client, request)
            client.rejoining = False
            if link.pending is not None:
                await self._local(client, link.pending)
        except ServerError:
            self._spawn(self._relocate_later(client))
        finally:
            link.relocating = False

    async def _relocate_later(self, client: Client) -> None:
        await asyncio.sleep(self.period)
        await self.relocate(client)

    async def _local(self, client: Client, request: dict[str, Any]) -> None:
        """Run a request on this process's tables, answering errors as the app does."""
        try:
            await self.run(client, parse_message(json.dumps(request)))
        except (ServerError, ProtocolError) as error:
            client.send(error_json(error.code, error.message, request.get("id")))

    async def run(self, client: Client, message: Any) -> None:
        """A table request on this process's tables (the owner's side)."""
        tables = self.tables
        if isinstance(message, Join):
            await tables.join(client, message.table, seat=message.seat, code=message.code, since=message.since)
        elif isinstance(message, Watch):
            await tables.watch(client, message.table, code=message.code, since=message.since)
        elif isinstance(message, Act):
            await tables.act(client, message.id, message.v, action_from_json(message.action))
        elif isinstance(message, Hint):
            version, options = await tables.hint(client)
            client.send(hint_json(message.id, version, options))
        elif isinstance(message, Leave):
            await tables.leave(client)
            client.send({"type": "left"})
        elif isinstance(message, Close):
            await tables.close_table(client)
        elif isinstance(message, Say):
            tables.say(client, message.phrase)
        elif isinstance(message, Rematch):
            await tables.rematch(client)

    # -- the bus --------------------------------------------------------------------------

    def on_bus(self, data: dict[str, Any]) -> None:
        kind = data.get("k")
        if kind == "msg":
            self._deliver(data)
        elif kind == "cmd":
            self._enqueue(data)
        elif kind == "ctl":
            self._control(data)
        elif kind == "quit":
            self._spawn(self.tables.quit_deserted(int(data["player"]), str(data["going"])))

    def _deliver(self, data: dict[str, Any]) -> None:
        client = self.conns.get(data["c"])
        if client is None:
            return
        link: Link | None = client.link
        if link is None or data["o"] != link.owner:
            # From a process that held the table before (the new owner resends what is due),
            # or for a connection that has left it.
            return
        if "v" in data:
            link.seen = data["v"]
        answered = data.get("a")
        if answered is not None and link.pending is not None and link.pending.get("id") == answered:
            link.pending = None
        if link.rejoining and data["m"].startswith('{"type":"joined"'):
            link.rejoining = False
            return
        client.send_text(data["m"])

    def _control(self, data: dict[str, Any]) -> None:
        client = self.conns.get(data["c"])
        if client is None:
            return
        link: Link | None = client.link
        if link is None or link.owner != data["o"]:
            return
        what = data["ctl"]
        if what == "attached":
            link.attached, link.seat, link.table = True, data["seat"], data["table"]
        elif what == "free":
            client.link = None
        elif what == "moved":
            self._spawn(self.relocate(client))

    def _send_control(self, remote: RemoteClient, what: str, **fields: Any) -> None:
        self.bus.send(remote.node, {"k": "ctl", "o": self.node, "c": remote.conn, "ctl": what, **fields})

    def _enqueue(self, data: dict[str, Any]) -> None:
        key = (data["from"], data["c"])
        remote = self.remotes.get(key)
        if remote is None:
            if data["msg"].get("type") == "detach":
                return
            remote = self.remotes[key] = RemoteClient(self, data["from"], data["c"])
        remote.inbox.put_nowait(data)
        if remote.worker is None or remote.worker.done():
            remote.worker = asyncio.get_running_loop().create_task(self._serve_remote(remote))

    async def _serve_remote(self, remote: RemoteClient) -> None:
        """A remote connection's requests, one at a time and in order, as for a local one."""
        while not remote.inbox.empty():
            data = remote.inbox.get_nowait()
            if data.get("player") is not None:
                remote.player = Player(**data["player"])
            request = data["msg"]
            if request.get("type") == "detach":
                self.tables.detach(remote)
                remote.closed = True
                continue
            remote.closed = False
            kind = request.get("type")
            if kind in ("join", "watch") and request.get("table") not in self.tables.rooms:
                # The table moved on between the sender's look-up and now.
                await self._moved_or_run(remote, request)
                continue
            await self._run_remote(remote, request)
        if remote.room is None or remote.closed:
            if self.remotes.get((remote.node, remote.conn)) is remote:
                del self.remotes[(remote.node, remote.conn)]
            if not remote.closed:
                self._send_control(remote, "free")

    async def _moved_or_run(self, remote: RemoteClient, request: dict[str, Any]) -> None:
        try:
            owner = await self.locate(str(request.get("table")), wait=False)
        except ServerError:
            owner = "?"
        if owner is None:
            await self._run_remote(remote, request)
        else:
            self._send_control(remote, "moved")

    async def _run_remote(self, remote: RemoteClient, request: dict[str, Any]) -> None:
        before = remote.room
        try:
            await self.run(remote, parse_message(json.dumps(request)))
        except (ServerError, ProtocolError) as error:
            remote.send(error_json(error.code, error.message, request.get("id")))
        except Exception:
            log.exception("a forwarded request failed")
            remote.send(error_json("internal", "the server could not take that message", request.get("id")))
        if remote.room is not None and (remote.room is not before or request.get("type") in ("join", "watch")):
            self._send_control(remote, "attached", table=remote.room.id, seat=remote.seat)

    # -- the sweep ----------------------------------------------------------------------------

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # PostgreSQL or Redis away is expected: said in a line each time (the redis
                # client's own errors included); anything else is a bug, with its traceback.
                if isinstance(error, (StoreError, BusError, OSError)) or type(error).__module__.startswith("redis"):
                    log.warning("the sweep failed (%s); trying again in %.1f s", error_text(error), self.period)
                else:
                    log.exception("the sweep failed")

    async def sweep(self) -> None:
        """Renew this process's leases (and let go of tables whose lease was lost), take over
        tables nobody holds, re-route connections whose table's process is gone, and forget
        connections of processes that are gone."""
        # The leases first: they depend on PostgreSQL only, so a Redis outage loses no table.
        # Only the tables held before the renewal was asked for: one taken meanwhile (created,
        # or taken over, on the same writer thread) has a fresh lease the renewal did not see.
        before = [(room, room.epoch) for room in self.tables.rooms.values() if room.epoch is not None]
        held = await self.tables.write(self.leases.renew)
        for room, epoch in before:
            if (
                room.epoch == epoch
                and room.status in ("open", "playing")
                and self.tables.rooms.get(room.id) is room
                and held.get(room.id) != epoch
            ):
                self.lost(room)
        await self.bus.heartbeat()
        for table_id in await self.tables.read(self.leases.orphans, 20):
            if table_id not in self.tables.rooms:
                with contextlib.suppress(ServerError):
                    await self.locate(table_id, wait=False)
        linked = [c for c in self.conns.values() if c.link is not None and not c.link.relocating]
        owners = sorted({c.link.owner for c in linked})
        alive = await self.bus.alive(owners)
        # A process that stalls keeps its subscription but not its leases.
        leases = await self.tables.read(self.leases.leases, sorted({c.link.table for c in linked}))
        for client in linked:
            link: Link = client.link
            lease = leases.get(link.table)
            if not alive.get(link.owner, False):
                moved = True  # its process is gone
            elif lease is None or lease.owner == "":
                moved = lease is None  # released: the match is over, its owner still shows the end
            else:
                moved = lease.owner != link.owner or not lease.live  # taken over, or its owner stalled
            if moved:
                self._spawn(self.relocate(client))
        nodes = sorted({r.node for r in self.remotes.values()})
        alive = await self.bus.alive(nodes)
        for key, remote in list(self.remotes.items()):
            if not alive.get(remote.node, False):
                self.tables.detach(remote)
                remote.closed = True
                self.remotes.pop(key, None)

    def rejoin_all(self) -> None:
        """Every connection at another process's table joins it again, from the last event it
        was sent: this process's inbox was unsubscribed (its Redis away), so what the owners
        published to it meanwhile is lost, and they forgot its connections when they saw it
        was not listening (``Bus.alive``)."""
        for client in list(self.conns.values()):
            if client.link is not None and not client.closed:
                self._spawn(self.relocate(client))

    def lost(self, room: Room) -> None:
        """This process may no longer change ``room``: its connections go to the new owner."""
        log.warning("lost the lease of table %s", room.id)
        seats = [(client, client.seat) for client in room.clients]
        self.tables.drop(room)
        for client, seat in seats:
            if isinstance(client, RemoteClient):
                self._send_control(client, "moved")
                continue
            request: dict[str, Any] = {"type": "watch" if seat is None else "join", "table": room.id}
            if seat is None and room.private:
                request["code"] = room.invite_code  # a spectator let in by the invitation
            link = Link(room.id, self.node, request, attached=True, seat=seat, seen=client.seen)
            client.link = link
            self._spawn(self.relocate(client))
