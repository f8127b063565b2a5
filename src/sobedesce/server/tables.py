"""The tables of the online server: the lobby, one writer per table, bots, presence, and the
store behind them.

Every decision at a table, a person's or a bot's, goes through :meth:`Tables.act` or the
table's bot loop, both under the table's lock: decisions are applied one at a time, in order,
and each is stored before anyone hears of it.  A table's events are numbered (``v``); each
connection is sent every event, made for it by :mod:`sobedesce.server.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import math
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

from pydantic_core import to_json

from sobedesce.bots import make_bot
from sobedesce.core import Action, Card, IllegalActionError, Match, SeatView, dumps_record, find_rules, seat_view
from sobedesce.table import Event, TableDriver, bot_label

from .protocol import (
    LEVELS,
    action_json,
    event_json,
    public_state_json,
    seat_state_json,
    shown,
    stored_action,
)
from .store import (
    NAME_LENGTH,
    LeaseLost,
    NameTaken,
    Player,
    SeatResult,
    Store,
    StoreError,
    TableRow,
    TooManyTables,
)

__all__ = ["Client", "Room", "Seat", "ServerError", "Settings", "Tables", "check_name", "hash_token"]

T = TypeVar("T")

log = logging.getLogger(__name__)

NAME_MAX = 24


class ServerError(Exception):
    """A request the server refuses; ``code`` for programs, the text for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Settings:
    """How tables behave; every duration in seconds."""

    pace: float = 0.8
    """Pause before each bot decision and deal, so people can follow (0 in tests)."""
    away_after: float = 60.0
    """A person disconnected this long is played for by their seat's bot until they return."""
    stand_in: str = "hard"
    """The level of the bot that plays for a person who is away."""
    keep_events: int = 2000
    """Events a table keeps for clients that reconnect; older gaps get a full snapshot."""
    allow_seed: bool = False
    """Accept a table seed from the creator (reproducible tests and benchmarks only)."""
    tables_per_player: int = 3
    """Tables a player may have open or in play at once (each one's bots cost the server time)."""
    open_for: float = 600.0
    """An open table with nobody seated and connected at it this long is closed."""
    store_retry: float = 1.0
    """While the store fails, a table's bots and deals try again after this long, doubling
    each time up to 30 seconds."""
    say_every: float = 2.0
    """A seat may say one phrase (``say``) this often at most: its table is not flooded."""
    keep_for: float = 120.0
    """A rematch keeps each other person's seat for them this long (``kept_for``): nobody else
    takes it meanwhile, from the lobby or by the link."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Client:
    """One connection: what the tables know of it is how to send it a message, and how to
    drop it (``drop``: close the connection) when it cannot keep up."""

    MAX_QUEUED = 10_000
    """Messages waiting for a connection before it is dropped."""

    def __init__(
        self, send: Callable[[str], Awaitable[None]], drop: Callable[[], Coroutine[Any, Any, None]] | None = None
    ) -> None:
        self._send = send
        self._drop = drop
        self._dropping: asyncio.Task[None] | None = None
        self.player: Player | None = None
        self.room: Room | None = None
        self.seat: int | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=self.MAX_QUEUED)
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self.seen: int | None = None
        """The last event number this connection was sent."""
        self.link: Any = None
        """With several processes: the table this connection is at when another process owns it."""
        self.cid = ""
        """With several processes: this connection's id in its process."""
        self.rejoining = False
        """Put back at its table after the table changed process: no second ``joined``, just
        the events it missed."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a connection that cannot keep up is dropped, never waited for."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(_dumps(message))
        except asyncio.QueueFull:
            self._overflow()

    def send_made(self, kind: str, version: int, text: str) -> None:
        """Queue a message already encoded: ``text``, of type ``kind`` and version ``version``
        (the tables encode what a table's connections share once, not once a connection)."""
        self.send_text(text)

    def send_text(self, text: str) -> None:
        """Queue a message made already (by the process that owns this connection's table)."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self._overflow()

    def _overflow(self) -> None:
        """Too far behind: the connection is closed, not left open and silent (its seat would
        look taken, no bot standing in, while it heard nothing more); the client comes back
        with ``since``, and its seat is played for if it does not."""
        self.closed = True
        # Nothing more is sent to it: what waits is let go, and the pump ends.
        while not self._queue.empty():
            self._queue.get_nowait()
        self._queue.put_nowait(None)
        self._dropped()

    def _dropped(self) -> None:
        """Closed: ``drop`` runs once (the server closes the connection and forgets it at once)."""
        if self._drop is not None and self._dropping is None:
            self._dropping = asyncio.get_running_loop().create_task(self._drop())

    async def _pump(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self._send(text)
            except Exception:
                # The connection is gone: forgotten now, not when its end is heard.
                self.closed = True
                self._dropped()
                return

    async def stop(self) -> None:
        """Send what is queued, then stop."""
        if self._task is None:
            return
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._task, 5)


@dataclass
class Seat:
    kind: Literal["open", "person", "bot"]
    player_id: int | None = None
    name: str | None = None
    level: str | None = None

    def to_row(self) -> dict[str, Any]:
        return {"kind": self.kind, "player_id": self.player_id, "name": self.name, "level": self.level}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        return cls(row["kind"], row.get("player_id"), row.get("name"), row.get("level"))


@dataclass
class Room:
    """A table in the server's memory."""

    id: str
    rules: str
    private: bool
    invite_code: str | None
    seats: list[Seat]
    clock: float | None
    secret: str
    status: str
    created_by: int | None
    driver: TableDriver | None = None
    version: int = 0
    decisions: int = 0
    match_id: int | None = None
    log: deque[tuple[int, Event]] = field(default_factory=deque)
    clients: set[Client] = field(default_factory=set)
    away: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    clock_timer: asyncio.TimerHandle | None = None
    clock_seat: int | None = None
    """The seat the turn clock (``clock_timer``) runs for."""
    clock_version: int | None = None
    """The table's version when that turn's clock started."""
    close_timer: asyncio.TimerHandle | None = None
    """An open table's: it closes when nobody seated comes (``Settings.open_for``)."""
    driving: asyncio.Task[None] | None = None
    epoch: int | None = None
    """With several processes: the epoch of this process's lease on the table (its fencing token)."""
    said: dict[int, float] = field(default_factory=dict)
    """When each seat last said a phrase (by ``Tables.clock``)."""
    rematch: str | None = None
    """The id of the table made for a rematch, once a seated person asked for one after the
    match (stored: a finished table read back leads to the same one)."""
    rematching: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the rematch is made (its own: making a table takes the lobby's lock)."""
    at_rematch: set[int] = field(default_factory=set)
    """A finished table's seats whose person sits at its rematch (``Tables._follow_rematch``):
    gone there, not offline (the ``table`` message's ``at_rematch`` of each seat)."""
    kept: dict[int, tuple[int, str]] = field(default_factory=dict)
    """A rematch's open seats kept for the people who sat there at the match before (seat →
    player id, name), for ``Settings.keep_for`` after it was made; in memory only (a table
    taken over or restored opens them to anyone)."""
    kept_timer: asyncio.TimerHandle | None = None
    """Lets the kept seats go (its ``when()``: the moment they stop being kept)."""
    spectators_timer: asyncio.TimerHandle | None = None
    """The coming broadcast of the spectators' count (see ``Tables._spectators_changed``)."""

    def timer_handles(self) -> list[asyncio.TimerHandle]:
        """Every timer the table runs (to cancel them all when it is let go or the server stops)."""
        handles = [self.clock_timer, self.close_timer, self.kept_timer, self.spectators_timer]
        return [*self.timers.values(), *(handle for handle in handles if handle is not None)]

    @property
    def people(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.kind == "person"]

    def seat_of(self, player_id: int) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat.kind == "person" and seat.player_id == player_id:
                return number
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.clients)

    @property
    def spectators(self) -> int:
        """Connections watching the table: a closed one no longer counts, even before it is
        detached (its connection's end is heard a moment later, or, for one that stopped
        reading, only once its close handshake times out)."""
        return sum(1 for c in self.clients if c.seat is None and not c.closed)

    def _bot_in(self, seat: int) -> float | None:
        """Seconds until the seat's bot plays for its person, who is gone (``--away-after``) or
        has the turn at a table with a clock; ``None`` when no such timer runs."""
        handles = [self.timers.get(seat), self.clock_timer if self.clock_seat == seat else None]
        running = [handle for handle in handles if handle is not None and not handle.cancelled()]
        if not running:
            return None
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:  # (read outside the server's loop: no timer runs there)
            return None
        return max(0.0, round(min(handle.when() for handle in running) - now, 1))

    def public(self, viewer: Client | None = None) -> dict[str, Any]:
        """What anyone may know of the table (and, for a seated person, its invitation code)."""
        seats = []
        for number, seat in enumerate(self.seats):
            seats.append(
                {
                    "seat": number,
                    "kind": seat.kind,
                    "name": seat.name,
                    "level": seat.level if seat.kind == "bot" else None,
                    "connected": seat.kind == "bot" or (seat.kind == "person" and self.connected(number)),
                    "away": number in self.away,
                    "at_rematch": number in self.at_rematch,
                    "bot_in": self._bot_in(number),
                    "kept_for": self.kept[number][1] if number in self.kept and seat.kind == "open" else None,
                }
            )
        info: dict[str, Any] = {
            "id": self.id,
            "rules": self.rules,
            "direction": find_rules(self.rules).direction,
            "private": self.private,
            "status": self.status,
            "seats": seats,
            "clock": self.clock,
            "v": self.version,
            "match_id": self.match_id,
            "spectators": self.spectators,
            # Who made it (a player's id, as `welcome` gives one's own): the page offers its
            # creator to close it before the match begins.
            "created_by": self.created_by,
        }
        if viewer is not None and viewer.seat is not None and self.private:
            info["invite"] = self.invite_code
        return info


class Tables:
    """The lobby and every table: the one place that changes a table."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        # One thread writes, so a table's decisions reach the store in the order applied.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sobedesce-store")
        self._lobby = asyncio.Lock()
        self._closing: set[asyncio.Task[None]] = set()
        self._bots: dict[str, Any] = {}
        self._pending: list[tuple[str, int, dict[str, Any], int, asyncio.Future[None]]] = []
        self._committer: asyncio.Task[None] | None = None
        self.clock: Callable[[], float] = time.monotonic
        """What ``say`` reads its pace by (tests set their own)."""
        self.cluster: Any = None
        """With several processes (:class:`~sobedesce.server.cluster.Cluster`): every write of a
        table is fenced by its lease, and the lobby hears of each table's changes."""

    # -- the store ----------------------------------------------------------------------

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._writer, lambda: function(*args, **kwargs))

    async def _append(self, table_id: str, seq: int, data: dict[str, Any], version: int) -> None:
        """Store one decision, committed with whatever other tables' decisions are waiting
        (a group commit: one transaction for many tables, since each commit costs more than
        its rows)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((table_id, seq, data, version, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.get_running_loop().create_task(self._commit_pending())
        await future

    def _epoch(self, table_id: str) -> int:
        room = self.rooms.get(table_id)
        return -1 if room is None or room.epoch is None else room.epoch

    async def _commit_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                if self.cluster is not None:
                    await self.write(
                        self.store.append_fenced,
                        [(t, [(seq, data)], v, self._epoch(t)) for t, seq, data, v, _ in batch],
                    )
                else:
                    await self.write(self.store.append_many, [(t, [(seq, data)], v) for t, seq, data, v, _ in batch])
            except Exception:
                # One at a time, so that only a decision that cannot be stored fails.
                for table_id, seq, data, version, future in batch:
                    try:
                        if self.cluster is not None:
                            await self.write(
                                self.store.append_fenced, [(table_id, [(seq, data)], version, self._epoch(table_id))]
                            )
                        else:
                            await self.write(self.store.append_decisions, table_id, [(seq, data)], version)
                    except Exception as error:
                        _settle(future, error)
                    else:
                        _settle(future)
            else:
                for *_, future in batch:
                    _settle(future)

    async def read(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.to_thread(function, *args, **kwargs)

    async def restore(self) -> int:
        """Load every open table and match in play from the store; returns how many."""
        rows = await self.read(self.store.tables, ("open", "playing"))
        for row in rows:
            await self.load(row)
        return len(rows)

    async def load(self, row: TableRow, epoch: int | None = None) -> Room:
        """Take a table on from the store (a restart, or another process's lease that expired):
        its decisions replayed, its bots and clocks going again, people not connected marked
        away in time."""
        room = self._room_of(row)
        room.epoch = epoch
        if row.status == "playing":
            decisions = await self.read(self.store.decisions, row.id)
            self._replay(room, decisions)
            self._count_the_absent_away(room)
        self.rooms[room.id] = room
        if room.status == "open":
            self._schedule_close(room)
        if room.status == "playing":
            if room.driver is not None and room.driver.match.is_over:
                # Stopped after storing the last decision, before recording the match.
                await self._finish(room)
            else:
                self._drive(room)
        return room

    def drop(self, room: Room) -> list[Client]:
        """Forget a table this process may no longer change (its lease moved on); the
        connections that were at it."""
        for handle in room.timer_handles():
            handle.cancel()
        room.timers.clear()
        room.clock_timer = None
        if room.driving is not None:
            room.driving.cancel()
        room.status = "moved"
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        clients = list(room.clients)
        for client in clients:
            client.room = client.seat = None
        room.clients.clear()
        return clients

    async def close(self) -> None:
        for room in self.rooms.values():
            for handle in room.timer_handles():
                handle.cancel()
            if room.driving is not None:
                room.driving.cancel()
        tasks = [r.driving for r in self.rooms.values() if r.driving is not None]
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._writer.shutdown(wait=True)

    def _room_of(self, row: TableRow) -> Room:
        return Room(
            id=row.id,
            rules=row.rules,
            private=row.private,
            invite_code=row.invite_code,
            seats=[Seat.from_row(s) for s in row.seats],
            clock=row.settings.get("clock"),
            secret=row.secret,
            status=row.status,
            created_by=row.created_by,
            match_id=row.match_id,
            rematch=row.rematch,
        )

    def _replay(self, room: Room, decisions: Sequence[tuple[int, dict[str, Any]]]) -> None:
        driver = self._new_driver(room)
        for seq, data in decisions:
            if "deal" in data:
                deck = [Card.parse(text) for text in data["deal"]["deck"]]
                events = driver.deal(deck, data["deal"]["dealer"])
            else:
                events = driver.play(data["seat"], stored_action(data["action"]))
            room.decisions = seq
            self._log(room, events)

    def _new_driver(self, room: Room) -> TableDriver:
        names = [seat.name or f"Seat {n}" for n, seat in enumerate(room.seats)]
        bots = {n: self._bot(seat.level or "hard") for n, seat in enumerate(room.seats) if seat.kind == "bot"}
        match = Match(room.rules, players=names)
        room.driver = TableDriver(match, room.people, bots, seed=room.secret)
        return room.driver

    def _bot(self, level: str) -> Any:
        # Bots keep no state between decisions, so one of each level serves every table.
        if level not in self._bots:
            self._bots[level] = make_bot(level)
        return self._bots[level]

    # -- players ----------------------------------------------------------------------

    async def register(self, name: str) -> tuple[Player, str]:
        """A new player called ``name``, with the secret token that identifies them."""
        clean = check_name(name)
        token = plain_secret(32)
        try:
            player = await self.write(self.store.create_player, clean, hash_token(token))
        except NameTaken:
            raise ServerError("name_taken", f"the name {clean!r} is taken: choose another") from None
        return player, token

    async def authenticate(self, token: str) -> Player:
        player = await self.read(self.store.player_by_token_hash, hash_token(token)) if token else None
        if player is None:
            raise ServerError("unauthorized", "unknown player token: register with a name first")
        return player

    # -- the lobby --------------------------------------------------------------------

    def list_tables(self) -> list[dict[str, Any]]:
        """Tables anyone may join or watch: public ones not finished."""
        infos = [(room, room.public()) for room in self.rooms.values() if not room.private]
        return [info for room, info in infos if listed(room.status, room.seats, seats_connected(info), room.kept)]

    async def yours(self, player_id: int) -> list[dict[str, Any]]:
        """The tables a player made that are open or in play, private ones included, each with
        its invitation: the lobby lists them to their creator, who had no way back to a private
        one made for others once the page forgot it, to watch it or close it."""
        rows = await self.read(self.store.tables, ("open", "playing"), player_id)
        infos: list[dict[str, Any]]
        if self.cluster is not None:
            infos = await self.cluster.describe(rows)
        else:
            infos = [self.described(row) for row in rows]
        for row, info in zip(rows, infos, strict=True):
            info["invite"] = row.invite_code
        return infos

    def kept_for(self, player_id: int) -> list[dict[str, Any]]:
        """The open tables of this process where a seat is kept for a player (a rematch asked
        by another), each with its invitation: the lobby's way back to the new table for one
        who went there before it was asked, or before taking the seat."""
        rooms = [
            room
            for room in self.rooms.values()
            if room.status == "open" and any(kept_id == player_id for kept_id, _ in room.kept.values())
        ]
        return [{**room.public(), "invite": room.invite_code} for room in rooms]

    def described(self, row: TableRow) -> dict[str, Any]:
        """A stored table's public facts: its room's if this process holds it, else the row's."""
        room = self.rooms.get(row.id)
        if room is None:
            room = self._room_of(row)
            room.version = row.version
        return room.public()

    async def create(
        self,
        player: Player,
        rules: str,
        seats: Sequence[str],
        *,
        private: bool = False,
        clock: float | None = None,
        seed: str | None = None,
    ) -> Room:
        """A new table; ``seats`` holds ``you`` (once), ``open``, or a bot level per seat."""
        if len(seats) != 4:
            raise ServerError("bad_table", "a table has four seats")
        if list(seats).count("you") > 1:
            raise ServerError("bad_table", "you can take one seat only")
        for spec in seats:
            if spec not in ("you", "open", *LEVELS):
                raise ServerError("bad_table", f"a seat is 'you', 'open' or a bot level {LEVELS}, not {shown(spec)}")
        if seed is not None and not self.settings.allow_seed:
            raise ServerError("bad_table", "this server does not take table seeds")
        table_seats: list[Seat] = []
        bots = 0
        for spec in seats:
            if spec == "you":
                table_seats.append(Seat("person", player.id, player.name))
            elif spec == "open":
                table_seats.append(Seat("open"))
            else:
                bots += 1
                table_seats.append(Seat("bot", None, bot_label(bots, spec), spec))
        people_tables = sum(s.kind != "bot" for s in table_seats) > 1
        room = Room(
            id=secrets.token_hex(4),
            rules=find_rules(rules).name,
            private=private,
            invite_code=invite_code() if private else None,
            seats=table_seats,
            clock=clock if people_tables else None,
            secret=seed if seed is not None else secrets.token_hex(16),
            status="open",
            created_by=player.id,
        )
        row = TableRow(
            id=room.id,
            rules=room.rules,
            private=room.private,
            invite_code=room.invite_code,
            seats=[s.to_row() for s in room.seats],
            settings={"clock": room.clock},
            secret=room.secret,
            status="open",
            version=0,
            created_by=player.id,
            created_at=_now(),
            match_id=None,
        )
        # Counted and stored in one transaction that holds the player's row: concurrent
        # requests of one player (from several connections, or through several processes of
        # a cluster) must not all pass the count before any of their tables is stored.  The
        # lock of this process's lobby alone let each process pass it once more.
        limit = self.settings.tables_per_player
        async with self._lobby:
            try:
                if self.cluster is not None:
                    room.epoch = await self.write(self.cluster.leases.create, row, limit=limit)
                else:
                    await self.write(self.store.create_table, row, limit=limit)
            except TooManyTables as error:
                raise ServerError(
                    "too_many_tables",
                    f"you have {error.count} tables open or in play, the most a player may have: "
                    "finish a match, leave a table before it starts, or close one you made ('close'), first",
                ) from None
            self.rooms[room.id] = room
        if all(seat.kind == "bot" for seat in room.seats):
            await self._start(room)  # four bots: a match to watch, started at once
        else:
            self._schedule_close(room)  # until its creator (or anyone) sits down
        return room

    async def join(
        self,
        client: Client,
        table_id: str | None,
        *,
        seat: int | None = None,
        code: str | None = None,
        since: int | None = None,
    ) -> Room:
        """Sit ``client``'s player at a table, or put them back in the seat they hold there."""
        player = _player(client)
        async with self._lobby:
            room = await self._find(table_id, code, player.id)
            mine = room.seat_of(player.id)
            sat_down = False
            if mine is None:
                if room.private and code != room.invite_code:
                    # Worded as for an id no table has: the answer does not tell that it exists.
                    raise ServerError("no_table", f"no table {shown(table_id)} is open or in play")
                if room.status != "open":
                    if room.private:
                        raise ServerError("table_full", "the match at this private table has begun without you")
                    raise ServerError("table_full", "the match at this table has begun: watch it instead")
                free = [n for n, s in enumerate(room.seats) if s.kind == "open"]
                # A rematch's seats kept for the people of the match before: theirs first, and
                # nobody else's while they are kept.
                kept_for_others = {n for n, (kept_id, _) in room.kept.items() if kept_id != player.id}
                if seat is None:
                    choices = [n for n in free if n in room.kept and n not in kept_for_others]
                    choices = choices or [n for n in free if n not in kept_for_others]
                    if not choices:
                        if free:
                            raise ServerError(
                                "table_full",
                                "the open seats are kept for the players of the match before, "
                                f"for {self._kept_left(room)} s more: try again then",
                            )
                        raise ServerError("table_full", "no seat is open at this table")
                    seat = choices[0]
                elif seat not in free:
                    raise ServerError("seat_taken", f"seat {seat} is not open")
                elif seat in kept_for_others:
                    raise ServerError(
                        "seat_taken",
                        f"seat {seat} is kept for {room.kept[seat][1]}, who sat there at the match before, "
                        f"for {self._kept_left(room)} s more",
                    )
                taken = room.seats[seat]
                room.seats[seat] = Seat("person", player.id, player.name)
                try:
                    await self.write(
                        self.store.update_table, room.id, seats=[s.to_row() for s in room.seats], epoch=room.epoch
                    )
                except BaseException:
                    room.seats[seat] = taken  # not stored: the seat stays open
                    raise
                mine = seat
                sat_down = True
                room.kept.pop(seat, None)
            elif seat is not None and seat != mine:
                raise ServerError("seat_taken", f"you already sit at seat {mine} of this table")
            await self._quit_open_table(client, room)
            if room.status in ("open", "playing"):
                await self._quit_deserted_seats(player.id, room.id)
                if self.cluster is not None:
                    self.cluster.quit_deserted_elsewhere(player.id, room.id)
            self._attach(client, room, mine, since)
            if room.status == "open" and all(s.kind != "open" for s in room.seats):
                await self._start(room)
            else:
                self._broadcast_table(room)
            if sat_down:
                self._follow_rematch(room)
        return room

    async def _find(self, table_id: str | None, code: str | None, player_id: int) -> Room:
        """The table to join: open or in play, or finished for someone who sat at it (a
        reload at the end of a match shows the end again)."""
        room = await self._named("join", table_id, code)
        if room is None:
            raise ServerError("no_table", f"no table {shown(table_id)} is open or in play")
        if room.status not in ("open", "playing") and room.seat_of(player_id) is None:
            # Read back from the store for nothing: not kept in memory (a stranger asking for
            # every finished table's id would otherwise load them all and keep them).
            self._forget_if_done(room)
            raise ServerError("no_table", f"no table {shown(room.id)} is open or in play")
        return room

    async def _named(self, request: str, table_id: str | None, code: str | None) -> Room | None:
        """The table a ``join`` or ``watch`` names, by its id or else by its invitation code:
        in memory, or a finished one read back from the store (``None`` for an id of neither;
        an unknown code is refused here)."""
        if table_id is not None:
            return self.rooms.get(table_id) or await self._finished_room(table_id)
        if code is None:
            raise ServerError("bad_message", f"{request} needs the table's id ('table') or an invitation code ('code')")
        room = next((r for r in self.rooms.values() if r.invite_code == code), None)
        if room is None:
            row = await self.read(self.store.table_by_invite, code)
            room = await self._finished_room(row.id) if row is not None else None
        if room is None:
            raise ServerError("no_table", "no table has that invitation code")
        return room

    async def _finished_room(self, table_id: str) -> Room | None:
        """A finished table read back from the store, to show its end to one who sat there or
        (a public one) to a spectator."""
        row = await self.read(self.store.table, table_id)
        if row is None or row.status != "finished":
            return None
        room = self._room_of(row)
        self._replay(room, await self.read(self.store.decisions, table_id))
        await self._read_at_rematch(room)
        self.rooms[room.id] = room
        return room

    async def _read_at_rematch(self, room: Room) -> None:
        """Which seats of ``room``, a finished table read back from the store, sit at its
        rematch (``at_rematch``), from the rematch in memory or in the store."""
        if room.rematch is None:
            return
        rematch = self.rooms.get(room.rematch)
        if rematch is not None:
            room.at_rematch = _at_rematch(room, rematch.status, rematch.seats)
        else:
            stored = await self.read(self.store.table, room.rematch)
            if stored is not None:
                room.at_rematch = _at_rematch(room, stored.status, [Seat.from_row(s) for s in stored.seats])

    async def watch(
        self, client: Client, table_id: str | None, *, code: str | None = None, since: int | None = None
    ) -> Room:
        """Watch a table: a public one, or a private one with its invitation code (a friend
        who came too late to sit down watches instead), found by its id or by the code."""
        async with self._lobby:  # one load of a finished table, however many ask at once
            # A finished match is read back from the store: its end is shown as to a player who
            # sat there (kept in memory while someone watches it).
            room = await self._named("watch", table_id, code)
            # A private table is watched by its invitation, or by its creator, who knows it.
            creator = client.player is not None and room is not None and room.created_by == client.player.id
            if room is not None and room.private and code != room.invite_code and not creator:
                self._forget_if_done(room)
                room = None
            if room is None:
                raise ServerError("no_table", f"no table {shown(table_id)} to watch")
            await self._quit_open_table(client, room)
            self._attach(client, room, None, since)
            # The table's facts to the spectator now (an update, unlike a snapshot, has none);
            # to the others, their count of spectators in a moment.
            client.send({"type": "table", "table": room.public(client)})
            self._spectators_changed(room)
        return room

    async def leave(self, client: Client) -> None:
        """Leave the table: before the match, the seat opens again; during it, the seat's
        bot plays for the person until they come back, unless another connection of theirs
        (another tab) still sits there: the seat is away only once none does."""
        room, seat = client.room, client.seat
        if room is None:
            raise ServerError("not_seated", "you are not at a table")
        self.detach(client)
        if seat is None:
            return
        async with self._lobby:
            if room.status == "open":
                await self._open_seat(room, seat)
            elif room.status == "playing" and not room.connected(seat):
                timer = room.timers.pop(seat, None)  # (detach armed it: away now, not in a minute)
                if timer is not None:
                    timer.cancel()
                self._set_away(room, seat)
        self._broadcast_table(room)

    async def close_table(self, client: Client) -> None:
        """Close the table the connection is at (seated or watching), before its match begins:
        only its creator may.  Everyone at it is told ``left`` with ``reason: "closed"``, and
        it no longer counts toward its creator's tables.  A table made with no seat for its
        creator could otherwise only wait out its ten minutes."""
        room = client.room
        if room is None or client.player is None:
            raise ServerError("not_seated", "you are not at a table: watch or join the table you want to close")
        if room.created_by != client.player.id:
            raise ServerError("not_creator", "only the player who made this table can close it")
        async with self._lobby:
            if room.status != "open":
                raise ServerError("started", "this table's match has begun: it closes when the match ends")
            await self._abandon(room, reason="closed")

    async def _open_seat(self, room: Room, seat: int) -> None:
        """Before the match: a person's seat opens again; a table left with no person closes.

        The person's other connections at the seat (another tab) leave it too, told ``left``:
        the seat is no longer theirs, and whoever takes it next must be the only one sent its
        hand and able to decide for it.
        """
        taken, room.seats[seat] = room.seats[seat], Seat("open")
        try:
            await self.write(self.store.update_table, room.id, seats=[s.to_row() for s in room.seats], epoch=room.epoch)
        except BaseException:
            room.seats[seat] = taken  # not stored: still theirs
            raise
        self._follow_rematch(room)
        for other in [c for c in room.clients if c.seat == seat]:
            room.clients.discard(other)
            other.room = other.seat = None
            other.send({"type": "left"})
        if not room.people:
            await self._abandon(room)
        else:
            self._schedule_close(room)

    async def _abandon(self, room: Room, reason: str | None = None) -> None:
        room.status = "abandoned"
        if room.close_timer is not None:
            room.close_timer.cancel()
            room.close_timer = None
        await self.write(self.store.update_table, room.id, status="abandoned", epoch=room.epoch)
        self.rooms.pop(room.id, None)
        self._follow_rematch(room)
        left: dict[str, Any] = {"type": "left"} if reason is None else {"type": "left", "reason": reason}
        for client in list(room.clients):
            client.room = client.seat = None
            client.send(left)
        room.clients.clear()
        if self.cluster is not None:
            await self.cluster.finished(room)

    async def _quit_open_table(self, client: Client, going_to: Room) -> None:
        """A connection going to another table gives up its seat at a table that has not
        started, unless another connection of the same person still sits there (under the
        lobby's lock)."""
        room, seat = client.room, client.seat
        if room is None or room is going_to or seat is None or room.status != "open":
            return
        self.detach(client)
        if not room.connected(seat):
            await self._open_seat(room, seat)
            self._broadcast_table(room)

    async def quit_deserted(self, player_id: int, going_to: str) -> None:
        """:meth:`_quit_deserted_seats` for a person who sat down at ``going_to`` through
        another process of a cluster."""
        async with self._lobby:
            await self._quit_deserted_seats(player_id, going_to)

    async def _quit_deserted_seats(self, player_id: int, going_to: str) -> None:
        """A person sitting down at table ``going_to`` gives up their seats at the other tables
        of this process that have not started and where no connection of theirs is (a tab
        closed, or the page reloaded, before they went elsewhere): the match there would
        otherwise start, once its open seats were taken, with them away and their bot playing a
        match they do not know of (under the lobby's lock).  With several processes, the
        others are asked to do the same (``Cluster.quit_deserted_elsewhere``)."""
        for room in list(self.rooms.values()):
            if room.id == going_to or room.status != "open":
                continue
            seat = room.seat_of(player_id)
            if seat is not None and not room.connected(seat):
                try:
                    await self._open_seat(room, seat)
                except (StoreError, LeaseLost):
                    # The seat stays theirs (it closes with the table); the table they go to matters.
                    log.warning("could not give up seat %s of table %s", seat, room.id, exc_info=True)
                    continue
                if room.status == "open":
                    self._broadcast_table(room)

    def _schedule_close(self, room: Room) -> None:
        """An open table with nobody seated and connected closes after ``open_for`` seconds."""
        if room.close_timer is not None or room.status != "open":
            return
        if any(c.seat is not None and not c.closed for c in room.clients):
            return
        loop = asyncio.get_running_loop()
        room.close_timer = loop.call_later(self.settings.open_for, self._close_expired, room)

    def _close_expired(self, room: Room) -> None:
        room.close_timer = None
        if room.status == "open" and not any(c.seat is not None and not c.closed for c in room.clients):
            task = asyncio.get_running_loop().create_task(self._close_unattended(room))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    async def _close_unattended(self, room: Room) -> None:
        async with self._lobby:
            if room.status == "open" and not any(c.seat is not None and not c.closed for c in room.clients):
                try:
                    await self._abandon(room)
                except (StoreError, LeaseLost):
                    log.warning("could not close the unattended table %s", room.id, exc_info=True)

    def _attach(self, client: Client, room: Room, seat: int | None, since: int | None) -> None:
        if client.room is not None and (client.room is not room or client.seat != seat):
            # Leaving another table, or this table's seat for another place at it: the seat
            # left behind is marked away in time if no other connection holds it.
            self.detach(client)
        client.room, client.seat = room, seat
        room.clients.add(client)
        if seat is not None and room.close_timer is not None:
            room.close_timer.cancel()
            room.close_timer = None
        if seat is not None:
            timer = room.timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            if seat in room.away:
                room.away.discard(seat)
        if client.rejoining:
            client.rejoining = False
        else:
            client.send({"type": "joined", "table": room.id, "seat": seat})
        self._sync(client, room, since, always=True)
        if seat is not None and room.status == "playing":
            self._arm_clock(room)

    def detach(self, client: Client) -> None:
        """Forget a connection (closed, or gone to another table)."""
        room, seat = client.room, client.seat
        client.room = client.seat = None
        if room is None:
            return
        room.clients.discard(client)
        if seat is not None and room.status == "playing" and not room.connected(seat):
            self._schedule_away(room, seat)
        if seat is not None and room.status == "open":
            self._schedule_close(room)
        if seat is None:
            self._spectators_changed(room)
        else:
            self._broadcast_table(room)
        self._forget_if_done(room)

    def _forget_if_done(self, room: Room) -> None:
        """A finished table stays in memory while someone looks at it; the store keeps it."""
        if room.status == "finished" and not room.clients:
            self.rooms.pop(room.id, None)

    # -- presence ---------------------------------------------------------------------

    def _count_the_absent_away(self, room: Room) -> None:
        """Every person of a match in play not connected now (a table taken on after a restart,
        a match starting) is played for by a bot once ``away_after`` has passed, as one who
        drops during the match."""
        for seat in room.people:
            if not room.connected(seat):
                self._schedule_away(room, seat)

    def _schedule_away(self, room: Room, seat: int) -> None:
        if seat in room.timers or seat in room.away:
            return
        loop = asyncio.get_running_loop()
        room.timers[seat] = loop.call_later(self.settings.away_after, self._away_expired, room, seat)

    def _away_expired(self, room: Room, seat: int) -> None:
        room.timers.pop(seat, None)
        if not room.connected(seat) and room.status == "playing":
            self._set_away(room, seat)
            self._broadcast_table(room)

    def _set_away(self, room: Room, seat: int) -> None:
        room.away.add(seat)
        self._drive(room)

    def _arm_clock(self, room: Room) -> None:
        """At a table with a clock, the person to act has ``clock`` seconds before their bot,
        counted from the moment the turn came to them: coming back to the table or sending a
        stale decision during the turn does not start it again."""
        seat = room.driver.to_act if room.driver is not None else None
        timed = (
            room.clock is not None
            and room.status == "playing"
            and seat is not None
            and seat in room.people
            and seat not in room.away
        )
        if timed and room.clock_timer is not None and (room.clock_seat, room.clock_version) == (seat, room.version):
            return
        if room.clock_timer is not None:
            room.clock_timer.cancel()
            room.clock_timer = None
        if not timed or room.clock is None or seat is None:
            return
        version = room.version
        loop = asyncio.get_running_loop()
        room.clock_timer = loop.call_later(room.clock, self._clock_expired, room, seat, version)
        room.clock_seat, room.clock_version = seat, version
        self._broadcast_table(room)  # its seat's bot_in: the page counts the time down

    def _clock_expired(self, room: Room, seat: int, version: int) -> None:
        room.clock_timer = None
        if room.version == version and room.driver is not None and room.driver.to_act == seat:
            self._set_away(room, seat)
            self._broadcast_table(room)

    # -- playing ----------------------------------------------------------------------

    async def _start(self, room: Room) -> None:
        room.status = "playing"
        if room.close_timer is not None:
            room.close_timer.cancel()
            room.close_timer = None
        self._new_driver(room)
        await self.write(
            self.store.update_table,
            room.id,
            status="playing",
            seats=[s.to_row() for s in room.seats],
            epoch=room.epoch,
        )
        # A person not connected as it starts (gone since taking the seat, or a rematch's
        # asker not there yet) is counted away from now, as one who drops during the match:
        # else the match waited at their first decision for good.
        self._count_the_absent_away(room)
        self._broadcast_table(room)
        self._drive(room)

    async def act(self, client: Client, request_id: str, version: int, action: Action) -> int:
        """A person's decision; returns the version once it is stored."""
        room, seat = client.room, client.seat
        if room is None or seat is None:
            raise ServerError("not_seated", "sit at a table first")
        async with room.lock:
            driver = room.driver
            if room.status != "playing" or driver is None:
                raise ServerError(
                    "not_started", "the match has not started" if room.status == "open" else "the match is over"
                )
            if version > room.version:
                # Not a decision that has passed: a version the table has never shown (each is
                # stored before it is shown), so the message is wrong, not late.
                raise ServerError(
                    "bad_message", f"that decision was for version {version}; the table is only at {room.version}"
                )
            if seat in room.away:
                # Any decision shows the person is back, even one a stand-in overtook: their
                # next turns are theirs again.
                room.away.discard(seat)
                self._broadcast_table(room)
            if version != room.version:
                # Up to date from what this connection was sent (never the same event twice),
                # with an update even when it has every event already.
                self._sync(client, room, client.seen, always=True)
                self._arm_clock(room)
                raise ServerError("stale", f"that decision was for version {version}; the table is at {room.version}")
            if driver.to_act != seat:
                raise ServerError("not_your_turn", "it is not your turn")
            try:
                await self._apply(room, seat, action, "person")
            except IllegalActionError as error:
                raise ServerError("illegal", error.reason) from None
            client.send({"type": "ack", "id": request_id, "v": room.version})
            self._flush(room)
        self._drive(room)
        return room.version

    async def hint(self, client: Client) -> tuple[int, list[Any]]:
        room, seat = client.room, client.seat
        if room is None or seat is None:
            raise ServerError("not_seated", "sit at a table first")
        async with room.lock:
            driver = room.driver
            if driver is None:
                raise ServerError(
                    "not_started", "the match has not started" if room.status == "open" else "the match is over"
                )
            if driver.match.is_over:
                raise ServerError("not_started", "the match is over")
            if driver.to_act != seat:
                raise ServerError("not_your_turn", "a hint is for your own turn")
            # Worked out once a turn (by the driver): the strong bot thinks for up to seconds,
            # in a thread, holding the table; asked again at the same turn (any connection of
            # the seat), the same answer at once.
            if driver.hint_ready(seat):
                return room.version, driver.hint(seat)
            return room.version, await asyncio.to_thread(driver.hint, seat)

    def say(self, client: Client, phrase: str) -> None:
        """A seated person's phrase, to everyone at the table (seats and spectators) at once.
        Not an event of the match: not stored, no version (a decision sent meanwhile is not
        made stale), and not sent again to a connection that comes back."""
        room, seat = client.room, client.seat
        if room is None or seat is None:
            raise ServerError("not_seated", "sit at a table to say something there")
        now = self.clock()
        last = room.said.get(seat)
        if last is not None and now - last < self.settings.say_every:
            raise ServerError("too_soon", f"one phrase every {self.settings.say_every:g} seconds at most")
        room.said[seat] = now
        message = {"type": "said", "table": room.id, "seat": seat, "name": room.seats[seat].name, "phrase": phrase}
        for other in list(room.clients):
            other.send(message)

    async def rematch(self, client: Client) -> None:
        """The same table again once its match is over: the same rules, privacy, clock and bots
        in the same seats, the person who asks in their seat and the other people's seats open.
        Everyone seated at the old table is told (``rematch``, with the invitation of a private
        one) and joins it as any table; asked again, by anyone, it is the same new table."""
        room, seat, player = client.room, client.seat, client.player
        if room is None or seat is None or player is None:
            raise ServerError("not_seated", "sit at a table to ask for a rematch there")
        if room.status != "finished":
            raise ServerError("not_over", "a rematch is for a table whose match is over")
        async with room.rematching:
            known = await self._rematch_of(room)
            told = [client]
            if known is None:
                seats = [
                    "you" if number == seat else ("open" if entry.kind == "person" else str(entry.level))
                    for number, entry in enumerate(room.seats)
                ]
                new = await self.create(player, room.rules, seats, private=room.private, clock=room.clock)
                self._keep(new, room, asker=seat)
                # Named in the store once, in place of one that can no longer be joined: another
                # process of a cluster may have named one first, and then that one it is.
                named = await self.write(self.store.set_rematch, room.id, new.id, instead_of=room.rematch)
                room.rematch = named
                self._follow_rematch(self.rooms.get(named) or new)
                if named == new.id:
                    known, told = (new.id, new.invite_code), list(room.clients)
                else:
                    async with self._lobby:
                        await self._abandon(new)
                    known = await self._rematch_of(room)
                    if known is None:
                        raise ServerError("unavailable", "a rematch was being made at the same time: ask again")
            next_id, invite = known
        for other in told:
            if other.seat is None and room.private:
                continue  # (a private table's spectators are not told its rematch's invitation)
            other.send(
                {
                    "type": "rematch",
                    "table": room.id,
                    "next": next_id,
                    "invite": invite if other.seat is not None else None,
                    "seat": seat,
                    "name": player.name,
                }
            )

    def _keep(self, new: Room, old: Room, asker: int) -> None:
        """Keep the rematch's open seats for the people who sat there (``Settings.keep_for``):
        anyone with the link, or from the lobby, could take a friend's seat before they came."""
        new.kept = {
            number: (entry.player_id, entry.name or "")
            for number, entry in enumerate(old.seats)
            if number != asker and entry.kind == "person" and entry.player_id is not None
        }
        if new.kept:
            new.kept_timer = asyncio.get_running_loop().call_later(self.settings.keep_for, self._unkeep, new)

    def _unkeep(self, room: Room) -> None:
        room.kept_timer = None
        if room.kept:
            room.kept.clear()
            if room.status == "open" and self.rooms.get(room.id) is room:
                self._broadcast_table(room)

    @staticmethod
    def _kept_left(room: Room) -> int:
        """Whole seconds until the kept seats go (asked only while some are kept)."""
        assert room.kept_timer is not None
        return max(1, math.ceil(room.kept_timer.when() - asyncio.get_running_loop().time()))

    async def _rematch_of(self, room: Room) -> tuple[str, str | None] | None:
        """The rematch already made of a finished table, with its invitation code, while it can
        still be joined (a rematch nobody came to closes; one played to its end is over)."""
        if room.rematch is None:
            row = await self.read(self.store.table, room.id)
            room.rematch = row.rematch if row is not None else None
        if room.rematch is None:
            return None
        held = self.rooms.get(room.rematch)
        if held is not None:
            status, invite = held.status, held.invite_code
        else:
            stored = await self.read(self.store.table, room.rematch)
            if stored is None:
                return None
            status, invite = stored.status, stored.invite_code
        return (room.rematch, invite) if status in ("open", "playing") else None

    def _follow_rematch(self, rematch: Room) -> None:
        """The seats of ``rematch`` changed (a person sat down or left, it was made or closed):
        the finished tables it is the rematch of, in memory, tell their connections which of
        their people sit there now (``at_rematch``)."""
        for room in [r for r in self.rooms.values() if r.rematch == rematch.id and r.status == "finished"]:
            seats = _at_rematch(room, rematch.status, rematch.seats)
            if seats != room.at_rematch:
                room.at_rematch = seats
                self._broadcast_table(room)

    def _drive(self, room: Room) -> None:
        """Make sure the table's bot loop runs when a deal or a bot's decision is due."""
        if room.driving is None or room.driving.done():
            room.driving = asyncio.get_running_loop().create_task(self._run_bots(room))

    def _automatic(self, room: Room) -> int | Literal["deal"] | None:
        driver = room.driver
        if driver is None or room.status != "playing":
            return None
        status = driver.status
        if status == "deal":
            return "deal"
        seat = driver.to_act
        if seat is None:
            return None
        if seat in driver.bots or seat in room.away:
            return seat
        return None

    async def _run_bots(self, room: Room) -> None:
        failures = 0
        while True:
            try:
                if not await self._bots_step(room):
                    return
            except StoreError as error:
                if room.status != "playing" or self.rooms.get(room.id) is not room:
                    return  # the table was let go (another process holds it now)
                # The store cannot be reached: nothing was stored, and the table waits for it.
                # The loop used to end here, and the table stood still for good, the store back
                # or not: it was nobody's turn but a bot's, and only a person's decision drove
                # the bots again.
                failures += 1
                wait = min(self.settings.store_retry * 2 ** min(failures - 1, 10), 30.0)
                # One line a try (the database away is no bug: a traceback each time hid the rest).
                log.warning("table %s: the store failed (%s); trying again in %.1f s", room.id, error, wait)
                await asyncio.sleep(wait)
            else:
                failures = 0

    async def _bots_step(self, room: Room) -> bool:
        """Take the one decision (or deal) due from the table itself, or record a match whose
        recording failed; ``False`` when nothing is due."""
        driver = room.driver
        if room.status == "playing" and driver is not None and driver.match.is_over:
            # The last decision is stored, the match not recorded: its store failed.
            async with room.lock:
                if room.status == "playing":
                    await self._finish(room)
                    self._broadcast_table(room)
            return False
        due = self._automatic(room)
        if due is None:
            self._arm_clock(room)
            return False
        if self.settings.pace > 0 and room.clients:
            # The pause is for people following the table; with nobody connected (every
            # person away, no spectator) the bots play the match out at once.
            await asyncio.sleep(self.settings.pace)
        async with room.lock:
            if self._automatic(room) != due:
                return True
            driver = room.driver
            assert driver is not None
            if due == "deal":
                await self._deal(room)
            else:
                stand_in = None if due in driver.bots else self._bot(self.settings.stand_in)
                bot = driver.bots.get(due, stand_in)
                if getattr(bot, "name", "") in ("random", "basic", "beginner"):
                    action = driver.bot_action(stand_in)
                else:
                    action = await asyncio.to_thread(driver.bot_action, stand_in)
                    if self._automatic(room) != due:
                        # The person came back while their stand-in was thinking: the
                        # decision is theirs again.
                        return True
                await self._apply(room, due, action, "bot" if due in driver.bots else "stand_in")
            self._flush(room)
        return True

    async def _deal(self, room: Room) -> None:
        driver = room.driver
        assert driver is not None
        before = driver.match.copy()
        events = driver.deal()
        current = driver.match.rounds[-1]
        assert current.deck is not None
        data = {"deal": {"dealer": current.dealer, "deck": [str(c) for c in current.deck]}}
        await self._store(room, before, data, events)

    async def _apply(self, room: Room, seat: int, action: Action, by: str) -> None:
        driver = room.driver
        assert driver is not None
        before = driver.match.copy()
        events = driver.play(seat, action)
        await self._store(room, before, {"seat": seat, "action": action_json(action), "by": by}, events)

    async def _store(self, room: Room, before: Match, data: dict[str, Any], events: list[Event]) -> None:
        """Store the decision, then show it and number its events; if the store fails, undo it.

        While the store writes, the table shows the match as it was (``before``): a connection
        that joins or watches meanwhile is told only what is stored, at the version it is
        stored under, never a decision that could still be undone.
        """
        driver = room.driver
        assert driver is not None
        version = room.version + len(events)
        after, driver.match = driver.match, before
        try:
            await self._append(room.id, room.decisions + 1, data, version)
        except LeaseLost:
            # Another process holds the table now: this one lets it go, its clients follow.
            if self.cluster is not None:
                self.cluster.lost(room)
            raise ServerError("unavailable", "the table moved to another server process: try again") from None
        driver.match = after
        room.decisions += 1
        self._log(room, events)
        if driver.match.is_over:
            try:
                await self._finish(room)
            except StoreError as error:
                # The decision is stored and shown; the match is recorded once the store is
                # back, by the table's loop (as after a restart).
                log.warning("table %s: recording the match failed (%s); trying again", room.id, error)
                self._drive(room)

    def _log(self, room: Room, events: Sequence[Event]) -> None:
        for event in events:
            room.version += 1
            room.log.append((room.version, event))
        while len(room.log) > self.settings.keep_events:
            room.log.popleft()

    async def _finish(self, room: Room) -> None:
        driver = room.driver
        assert driver is not None
        match = driver.match
        riscos = match.riscos() or [0.0] * 4
        player_ids = []
        for seat in room.seats:
            if seat.kind == "person" and seat.player_id is not None:
                player_ids.append(seat.player_id)
            else:
                bot = await self.write(self.store.bot_player, seat.level or "hard")
                player_ids.append(bot.id)
        results = [
            SeatResult(seat=s, player_id=player_ids[s], score=match.scores[s], riscos=riscos[s], won=s in match.winners)
            for s in range(4)
        ]
        room.match_id = await self.write(
            self.store.finish_match,
            room.id,
            room.rules,
            dumps_record(match),
            len(match.rounds),
            any(s.kind == "bot" for s in room.seats),
            results,
        )
        room.status = "finished"
        for handle in room.timers.values():
            handle.cancel()
        room.timers.clear()
        if self.cluster is not None:
            await self.cluster.finished(room)
        self._forget_if_done(room)

    # -- telling the clients ----------------------------------------------------------

    def _flush(self, room: Room) -> None:
        """Send every client the events it has not had, and its state."""
        texts = _Texts(room)  # what the connections of this version share, encoded once
        for client in list(room.clients):
            self._sync(client, room, client.seen, texts=texts)
        if room.status == "finished":
            self._broadcast_table(room)

    def _sync(
        self,
        client: Client,
        room: Room,
        since: int | None,
        *,
        always: bool = False,
        texts: _Texts | None = None,
    ) -> None:
        """Bring ``client`` up to date from event ``since``: the events it missed, or a full
        snapshot when those are no longer kept (or ``since`` is unknown).  An update with no
        events is sent only when ``always`` (an answer to the client, not a broadcast).
        ``texts`` keeps what was encoded already for this version of the table, shared by
        its connections."""
        first_kept = room.log[0][0] if room.log else room.version + 1
        if since is not None and since > room.version:
            since = None
        if since is not None and (since >= first_kept - 1 or since == room.version):
            # The log holds consecutive versions: start at the first one after ``since``.
            start = max(0, since + 1 - first_kept)
            shared = texts or _Texts(room)
            events = [shared.event(v, e, client.seat) for v, e in itertools.islice(room.log, start, None)]
            if events or always:
                # The text of {"type": "update", "v": …, "events": […], "state": …} as _dumps
                # makes it, composed from the texts the connections share.
                state = shared.state(client.seat)
                text = f'{{"type":"update","v":{room.version},"events":[{",".join(events)}],"state":{state}}}'
                client.send_made("update", room.version, text)
        else:
            client.send(
                {
                    "type": "snapshot",
                    "v": room.version,
                    "table": room.public(client),
                    "state": _state(room, client.seat),
                }
            )
        client.seen = room.version

    def _spectators_changed(self, room: Room) -> None:
        """Tell the table its count of spectators, at most once every ``SPECTATORS_EVERY``
        seconds: told at each coming and going, K connections that watched and left in turn
        sent K² messages, and a hundred of them stalled the server."""
        if room.spectators_timer is None:
            loop = asyncio.get_running_loop()
            room.spectators_timer = loop.call_later(SPECTATORS_EVERY, self._spectators_due, room)

    def _spectators_due(self, room: Room) -> None:
        room.spectators_timer = None
        if room.clients and self.rooms.get(room.id) is room:
            self._broadcast_table(room)

    def _broadcast_table(self, room: Room) -> None:
        for client in list(room.clients):
            client.send({"type": "table", "table": room.public(client)})
        if self.cluster is not None:
            self.cluster.table_changed(room)

    # -- reading ----------------------------------------------------------------------

    async def table_info(self, table_id: str) -> dict[str, Any]:
        """A public table's public facts, from memory or, once it has left it, the store."""
        room = self.rooms.get(table_id)
        if room is None:
            row = await self.read(self.store.table, table_id)
            if row is not None:
                room = self._room_of(row)
                room.version = row.version
                if row.status == "finished":
                    await self._read_at_rematch(room)
        if room is None or room.private:
            raise ServerError("no_table", f"no table {shown(table_id)}")
        return room.public()

    def in_play(self) -> int:
        return sum(1 for r in self.rooms.values() if r.status == "playing")

    def in_memory(self) -> int:
        """Tables held in memory: open, in play, or finished and looked at."""
        return len(self.rooms)


def plain_secret(nbytes: int) -> str:
    """``nbytes`` random bytes in base64url that neither start nor end with "-" or "_" (a few
    bits less): `sobedesce bot --code -x…` (or `--token -x…`) was read as an option, and a link
    ending in "_" loses it in some chat programs."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if secret[0].isalnum() and secret[-1].isalnum():
            return secret


def invite_code() -> str:
    """A private table's invitation: 12 characters of :func:`plain_secret` (72 bits, less a few)."""
    return plain_secret(9)


SPECTATORS_EVERY = 1.0
"""Seconds between two messages that tell a table its spectators' count."""


def _settle(future: asyncio.Future[None], error: Exception | None = None) -> None:
    """Tell a decision's writer how its commit went, unless it no longer waits: a waiter
    cancelled meanwhile (a table dropped as its lease moved, a closing server) has its future
    cancelled, and setting that raised, so that every later table of the commit waited for
    good, holding its lock."""
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _at_rematch(room: Room, status: str, seats: Sequence[Seat]) -> set[int]:
    """The seats of the finished table ``room`` whose person sits at its rematch, a table of
    ``status`` and ``seats`` (none once that table closed unplayed)."""
    if status == "abandoned":
        return set()
    there = {seat.player_id for seat in seats if seat.kind == "person"}
    return {number for number in room.people if room.seats[number].player_id in there}


def _dumps(message: Any) -> str:
    """A message's compact JSON text, by pydantic-core's encoder (installed with pydantic, the
    protocol's edge): about three times as fast as ``json.dumps`` on a state, the same text but
    for characters outside ASCII, which it writes as they are (UTF-8) instead of escaping them."""
    return to_json(message).decode()


def _state_parts(driver: TableDriver, seat: int | None) -> tuple[SeatView, dict[str, Any]]:
    """The view that ``seat`` (``None``: a spectator, from seat 0's view) is told of, and its
    own part of the state (:func:`seat_state_json`)."""
    if seat is None:
        view = seat_view(driver.match, 0)
        return view, seat_state_json(view, spectator=True)
    view = seat_view(driver.match, seat)
    return view, seat_state_json(view, must_play=driver.must_play_reason(seat))


def _state(room: Room, seat: int | None) -> dict[str, Any] | None:
    """What ``seat`` (``None``: a spectator) may know of the table's match now: ``state_json``
    of its view."""
    if room.driver is None:
        return None
    view, own = _state_parts(room.driver, seat)
    return public_state_json(view) | own


class _Texts:
    """The JSON texts of one version of a table, made once and shared by its connections: the
    public part of the state once, each seat's own part once a seat, each event once for the
    seat whose exchange it shows and once for everyone else.  They are the texts ``_dumps``
    makes of :func:`_state` and of :func:`event_json` with the event's number."""

    __slots__ = ("_events", "_public", "_room", "_states")

    def __init__(self, room: Room) -> None:
        self._room = room
        self._public: str | None = None
        self._states: dict[int | None, str] = {}
        self._events: dict[tuple[int, bool], str] = {}

    def state(self, seat: int | None) -> str:
        text = self._states.get(seat)
        if text is None:
            text = self._states[seat] = self._state(seat)
        return text

    def _state(self, seat: int | None) -> str:
        if self._room.driver is None:
            return "null"
        view, own = _state_parts(self._room.driver, seat)
        if self._public is None:
            self._public = _dumps(public_state_json(view))
        # Two JSON objects with no key in common, joined: {…public…,…own…}.
        return self._public[:-1] + "," + _dumps(own)[1:]

    def event(self, version: int, event: Event, receiver: int | None) -> str:
        # ``event_json`` differs by receiver only for the seat whose exchange it shows.
        own = event.kind == "exchange" and receiver is not None and receiver == event.seat and not event.sit_out
        text = self._events.get((version, own))
        if text is None:
            text = self._events[(version, own)] = _dumps(event_json(event, receiver) | {"v": version})
        return text


def _player(client: Client) -> Player:
    if client.player is None:
        raise ServerError("unauthorized", "say hello first, with your token or a name")
    return client.player


def check_name(name: str) -> str:
    """A display name as the server keeps it, or :class:`ServerError` saying what is wrong."""
    # Canonically equivalent spellings (an "é" typed as one character or as "e" and an accent)
    # are one name: kept composed (NFC), so that they cannot be registered as two players.
    # A variation selector only picks how the character before it is drawn (an emoji's
    # colour, "❤️" as a phone types it): left out, so that it makes no other name.
    clean = unicodedata.normalize("NFC", " ".join(name.translate(_VARIATION_SELECTORS).split()))
    if not clean:
        raise ServerError("bad_name", "a name may not be empty")
    if len(clean) > NAME_MAX:
        raise ServerError("bad_name", f"a name has at most {NAME_MAX} characters, not {len(clean)}")
    if any(unicodedata.category(ch)[0] == "C" or _invisible(ch) for ch in clean):
        # Cc, and Cf (zero-width spaces and joiners, direction marks), Co, Cn: none shows as
        # itself; nor do the other characters Unicode says to ignore when drawn (the grapheme
        # joiner, the Hangul fillers) and a blank Braille cell, which made "Ana" and "Ana"
        # with one of them two players, and a person pass for "Bot".
        # "control characters" is kept in the words: the web page matches them.
        raise ServerError("bad_name", "a name may not hold control characters or invisible ones")
    if len(clean.casefold()) > NAME_LENGTH:
        # The store compares names without case: ß counts as "ss", İ as "i̇".
        raise ServerError("bad_name", f"a name has at most {NAME_MAX} characters, and ß, İ and the like count as two")
    plain = unicodedata.normalize("NFKC", clean)
    if plain != clean:
        # Letters drawn wide, bold, in a frame or as a ligature (U+FF21 for "A", Fraktur) are
        # the plain ones dressed up: registered, "Ana" written wide stood apart from "Ana" and
        # passed for her on the leaderboard.  Names already kept are left as they are.
        raise ServerError("bad_name", f"a name is written in plain characters: this one reads as {shown(plain)}")
    if _looks_like_a_bot(clean):
        raise ServerError("bad_name", "names starting with 'Bot' are kept for the bots")
    mixed = _scripts(clean)
    if mixed is not None:
        # "Ana" with a Cyrillic A (U+0410) is another name than "Ana", drawn the same: a
        # name's letters come from one alphabet (Japanese and Korean writing mix theirs with
        # Han and Latin).
        raise ServerError("bad_name", f"a name is written in one alphabet: this one mixes {mixed}")
    if clean in (".", ".."):
        # An address /api/players/../history is rewritten by every client before it is sent.
        raise ServerError("bad_name", "a name may not be '.' or '..'")
    return clean


# Unicode's Default_Ignorable_Code_Point characters that are not of category C (those are
# refused as such) nor variation selectors (left out), and the blank Braille cell.
_INVISIBLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180D),  # Mongolian free variation selectors
    (0x2800, 0x2800),  # Braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
)
_VARIATION_SELECTORS = dict.fromkeys([*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])


def _invisible(ch: str) -> bool:
    point = ord(ch)
    return any(low <= point <= high for low, high in _INVISIBLE)


# The scripts a name may mix (UTS #39's "highly restrictive" level): Latin with Han and the
# Japanese kana, with Han and Bopomofo, or with Han and Hangul.
_MIXES = (
    frozenset({"LATIN", "CJK", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "CJK", "BOPOMOFO"}),
    frozenset({"LATIN", "CJK", "HANGUL"}),
)


def _scripts(name: str) -> str | None:
    """``None`` when the letters of ``name`` are of one script or of a mix people write;
    else the scripts it mixes, as words ("Latin and Cyrillic letters")."""
    scripts = set()
    for ch in name:
        if unicodedata.category(ch) in ("Lu", "Ll", "Lt", "Lo"):
            # The first word of a letter's name is its script's ("CYRILLIC CAPITAL LETTER A").
            scripts.add(unicodedata.name(ch, "UNKNOWN").split()[0])
    if len(scripts) <= 1 or any(scripts <= mix for mix in _MIXES):
        return None
    words = sorted(script.title() for script in scripts)
    return f"{', '.join(words[:-1])} and {words[-1]} letters"


# Letters drawn like b, o and t (Cyrillic, Greek, Cherokee, Latin small capitals, digits), so
# that no person passes for a bot.
_BOT_LOOKALIKES = str.maketrans(
    {
        "\u0299": "b",  # Latin letter small capital b
        "\u13f4": "b",  # Cherokee letter yv
        "\u13fc": "b",  # Cherokee small letter yv
        "\u1d0f": "o",  # Latin letter small capital o
        "\u1d1b": "t",  # Latin letter small capital t
        "\u0432": "b",  # Cyrillic ve
        "\u044c": "b",  # Cyrillic soft sign
        "\u03b2": "b",  # Greek beta
        "\u043e": "o",  # Cyrillic o
        "\u03bf": "o",  # Greek omicron
        "\u0585": "o",  # Armenian oh
        "0": "o",
        "\u0442": "t",  # Cyrillic te
        "\u03c4": "t",  # Greek tau
    }
)
_BOT_WORD = re.compile(r"bot(?![^\W\d_])")


def _looks_like_a_bot(name: str) -> bool:
    """Whether ``name`` starts with the word Bot, however it is written (other scripts'
    letters drawn alike, full-width or accented letters, a zero for the o)."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    return _BOT_WORD.match(plain.casefold().translate(_BOT_LOOKALIKES)) is not None


def listed(
    status: str, seats: Sequence[Seat], connected: Sequence[bool] | None = None, kept: Collection[int] = ()
) -> bool:
    """Whether the lobby lists a table: in play, or open with a seat anyone may take and, when
    ``connected`` (by seat) is known, not deserted: an open table whose seated people have all
    gone is left out (still joinable by its link), since whoever took a seat there would start a
    match against their stand-in bots.  It closes ten minutes after they went."""
    if status == "playing":
        return True
    # A seat kept for someone (a rematch's) is not one anyone may take.
    if status != "open" or not any(seat.kind == "open" and n not in kept for n, seat in enumerate(seats)):
        return False
    if connected is None:
        return True
    people = [present for seat, present in zip(seats, connected, strict=True) if seat.kind == "person"]
    return not people or any(people)


def seats_connected(info: dict[str, Any]) -> list[bool]:
    """Who is connected, by seat, in a table's public description (a bot always is)."""
    return [bool(seat.get("connected")) for seat in info.get("seats", [])]


def _now() -> datetime:
    return datetime.now(UTC)
