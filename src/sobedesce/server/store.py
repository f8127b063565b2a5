"""The store of the online table: players, open tables and their decisions, finished matches and ratings.

One SQLAlchemy engine on SQLite (a file) or PostgreSQL. Every method opens its own connection and
transaction, so one store serves the writer thread and the reader threads at once. JSON travels as
text, which both databases keep alike; datetimes come back aware, in UTC.
"""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.script.revision import RevisionError
from alembic.util.exc import CommandError
from sqlalchemy import exc
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool

from .ranking import new_rating, ordinal, rate_match

__all__ = [
    "HistoryEntry",
    "LeaseLost",
    "NameTaken",
    "Player",
    "SeatResult",
    "Standing",
    "Store",
    "StoreError",
    "TableRow",
    "TooManyTables",
    "metadata",
]

T = TypeVar("T")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
STATUSES = ("open", "playing", "finished", "abandoned")
NAME_LENGTH = 32
# casefold() never yields an upper-case letter, so no person's name_key can equal a bot's.
BOT_KEY_PREFIX = "BOT:"
INT_MAX = 2**31 - 1
"""The largest id an integer column holds (PostgreSQL's ``integer``)."""
# A bot's name, case folded: its level's player, ``bot (hard)``, or a seat's, ``bot 2 (hard)``.
_BOT_NAME = re.compile(r"bot(?: [0-9]+)? \((.+)\)")
# Any fixed number: the PostgreSQL advisory lock that lets one process at a time migrate.
_MIGRATION_LOCK = 0x50BE_DE5C
# Marks a connection that will write: SQLite then takes the write lock at BEGIN (see _sqlite_engine).
_WRITE = "sobedesce_write"


class StoreError(RuntimeError):
    """The database cannot do what was asked: unreachable, misconfigured, or the data conflicts."""


class LeaseLost(StoreError):
    """A write for a table whose lease this process no longer holds (another process took it over)."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        shown = ", ".join(repr(t) for t in table_ids)
        super().__init__(f"this process no longer holds the lease of table {shown}: another process took it over")
        self.table_ids = list(table_ids)


class NameTaken(StoreError):
    """Another player has this name, ignoring case."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is taken")
        self.name = name


class TooManyTables(StoreError):
    """The table's creator has as many tables open or in play as a player may."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(f"the player has {count} tables open or in play, and may have {limit}")
        self.count = count
        self.limit = limit


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    kind: str
    mu: float
    sigma: float


@dataclass(frozen=True)
class TableRow:
    id: str
    rules: str
    private: bool
    invite_code: str | None
    seats: list[dict[str, Any]]
    settings: dict[str, Any]
    secret: str
    status: str
    version: int
    created_by: int | None
    created_at: datetime
    match_id: int | None
    rematch: str | None = None
    """The table made when someone asked for a rematch once this one's match was over."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player_id: int
    score: int
    riscos: float
    won: bool


@dataclass(frozen=True)
class FinishedMatch:
    record: str
    private: bool
    """Whether its table was private: its record is then its players' and its invitation's."""
    invite: str | None


@dataclass(frozen=True)
class Standing:
    player: str
    rating: float
    mu: float
    sigma: float
    riscos: float
    played: int
    won: int


@dataclass(frozen=True)
class HistoryEntry:
    match_id: int
    table_id: str
    rules: str
    finished_at: datetime
    seat: int
    score: int
    riscos: float
    won: bool
    with_bots: bool
    players: list[str]
    scores: list[int]


@dataclass(frozen=True)
class MatchEntry:
    """A finished match as the list of matches shows it (``Store.matches``)."""

    match_id: int
    table_id: str
    rules: str
    finished_at: datetime
    rounds: int
    with_bots: bool
    players: list[str]
    scores: list[int]
    riscos: list[float]
    winners: list[int]


class _UTCDateTime(sa.TypeDecorator[datetime]):
    """A timestamp written in UTC and read back aware, in UTC: SQLite keeps no zone, PostgreSQL its own.

    A naive datetime is taken to be in UTC already, both ways.
    """

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: sa.Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# The schema as the queries see it; migrations/versions creates it (a test keeps the two alike).
metadata = sa.MetaData()

t_players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("name_key", sa.String(32), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("created_at", _UTCDateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
)

t_tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("rules", sa.String(16), nullable=False),
    sa.Column("private", sa.Boolean, nullable=False),
    sa.Column("invite_code", sa.String(32), nullable=True),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_by", sa.Integer, sa.ForeignKey("players.id", name="fk_tables_created_by"), nullable=True),
    sa.Column("created_at", _UTCDateTime(timezone=True), nullable=False),
    sa.Column("updated_at", _UTCDateTime(timezone=True), nullable=False),
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("lease_epoch", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("rematch", sa.String(16), nullable=True),
    sa.UniqueConstraint("invite_code", name="uq_tables_invite_code"),
    sa.Index("ix_tables_status", "status"),
)

t_decisions = sa.Table(
    "decisions",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id", name="fk_decisions_table_id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seq", name="pk_decisions"),
)

t_table_leases = sa.Table(
    "table_leases",
    metadata,
    sa.Column("table_id", sa.String(16), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("epoch", sa.BigInteger, nullable=False),
    sa.Column("expires_at", _UTCDateTime(timezone=True), nullable=False),
    sa.Index("ix_table_leases_owner", "owner"),
)

t_matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(16), nullable=False),
    sa.Column("rules", sa.String(16), nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("with_bots", sa.Boolean, nullable=False),
    sa.Column("finished_at", _UTCDateTime(timezone=True), nullable=False),
)

t_match_seats = sa.Table(
    "match_seats",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", name="fk_match_seats_match_id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="fk_match_seats_player_id"), nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("riscos", sa.Float, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
    sa.PrimaryKeyConstraint("match_id", "seat", name="pk_match_seats"),
    sa.Index("ix_match_seats_player_id", "player_id"),
)


def _now() -> datetime:
    return datetime.now(UTC)


_MATCH_TABLE = t_tables.c.id == t_matches.c.table_id
"""A match's table (no foreign key: a match whose table row is gone still reads)."""


def _public_table() -> sa.ColumnElement[bool]:
    """A match's table is public (a match whose table row is gone counts as public)."""
    return sa.or_(t_tables.c.private.is_(None), sa.not_(t_tables.c.private))


def _seats_of(connection: Connection, match_ids: list[int]) -> dict[int, list[Any]]:
    """The seats of these matches in seat order, by match: each with the player's ``name``, and
    ``score``, ``riscos`` and ``won``."""
    seats = connection.execute(
        sa.select(
            t_match_seats.c.match_id,
            t_match_seats.c.score,
            t_match_seats.c.riscos,
            t_match_seats.c.won,
            t_players.c.name,
        )
        .select_from(t_match_seats.join(t_players))
        .where(t_match_seats.c.match_id.in_(sorted(set(match_ids))))
        .order_by(t_match_seats.c.match_id, t_match_seats.c.seat)
    ).all()
    by_match: dict[int, list[Any]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    return by_match


def _whole(value: float) -> float:
    """A stored float as the core gives riscos: an ``int`` when whole."""
    number = float(value)
    return int(number) if number.is_integer() else number


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "unknown error")


def _psycopg_installed() -> bool:
    return importlib.util.find_spec("psycopg") is not None


def _redact(text: str) -> str:
    """Drop the password from anything shaped like ``scheme://user:password@host``."""
    return re.sub(r"(://[^/:@\s]*):[^@\s]*@", r"\1@", text)


def _name_key(name: str) -> str:
    key = name.casefold()
    if not 1 <= len(name) <= NAME_LENGTH or len(key) > NAME_LENGTH:
        raise ValueError(f"a name has 1 to {NAME_LENGTH} characters: {name!r}")
    return key


def _inserted_id(result: sa.CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    if key is None:
        raise StoreError("the database did not return the new row's id")
    return int(key[0])


def _storable(key: str | int) -> bool:
    """Whether a key could be in the store at all: PostgreSQL refuses a text holding NUL and an
    integer column's value beyond 2**31 - 1 with an error (SQLite just finds nothing), so a
    lookup by such a key, which no stored row has, is answered "none" before it is sent."""
    if isinstance(key, str):
        return "\x00" not in key
    return 0 < key <= INT_MAX


def _player(row: sa.Row[Any]) -> Player:
    return Player(id=row.id, name=row.name, kind=row.kind, mu=row.mu, sigma=row.sigma)


def _table_row(row: sa.Row[Any]) -> TableRow:
    return TableRow(
        id=row.id,
        rules=row.rules,
        private=bool(row.private),
        invite_code=row.invite_code,
        seats=json.loads(row.seats),
        settings=json.loads(row.settings),
        secret=row.secret,
        status=row.status,
        version=row.version,
        created_by=row.created_by,
        created_at=row.created_at,
        match_id=row.match_id,
        rematch=row.rematch,
    )


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"a table's status is one of {', '.join(STATUSES)}, not {status!r}")


def _sqlite_engine(url: URL) -> Engine:
    memory = url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 5.0},
        # An in-memory database lives in its connection: every thread must share that one.
        poolclass=StaticPool if memory else None,
    )

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take BEGIN away from the sqlite3 module, which skips it before SELECT and DDL; on_begin emits it.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("busy_timeout=5000", "journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    def on_begin(connection: Connection) -> None:
        # A writer takes the lock up front: a reader upgraded to a writer could fail at once instead of waiting.
        immediate = connection.get_execution_options().get(_WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    sa.event.listen(engine, "connect", on_connect)
    sa.event.listen(engine, "begin", on_begin)
    return engine


# A session that sits this long inside a transaction without a statement is ended by
# PostgreSQL: its process stalled (stopped, swapped out) holding locks, such as a table's row
# in the middle of a fenced write, which would otherwise block the process taking it over.
IDLE_TRANSACTION_SECONDS = 5


def _postgresql_engine(url: URL) -> Engine:
    connect_args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        connect_args["connect_timeout"] = 10
    engine = sa.create_engine(url, pool_pre_ping=True, connect_args=connect_args)
    if "idle_in_transaction_session_timeout" not in str(url.query.get("options", "")):

        def on_connect(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET idle_in_transaction_session_timeout = {IDLE_TRANSACTION_SECONDS * 1000}")
            dbapi_connection.commit()

        sa.event.listen(engine, "connect", on_connect)
    return engine


class Store:
    """Players, tables, decisions, finished matches and ratings, in SQLite or PostgreSQL.

    ``url`` is a SQLAlchemy URL: ``sqlite:///path/to/file.db``, or ``postgresql://user@host/db``
    (``postgres://`` and ``postgresql://`` use psycopg 3). ``sqlite://`` is an in-memory database
    in one shared connection, for tests: one thread at a time.
    """

    url: str

    def __init__(self, url: str | URL) -> None:
        try:
            parsed = make_url(url)
        except (exc.ArgumentError, ValueError):
            raise StoreError(f"not a database URL: {_redact(str(url))}") from None
        if parsed.drivername in ("postgres", "postgresql"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        self._password = parsed.password
        # URL.set() reads None as "unchanged": _replace is what drops the password.
        self.url = parsed._replace(password=None).difference_update_query(["password"]).render_as_string()
        backend = parsed.get_backend_name()
        if backend == "postgresql" and parsed.get_driver_name() == "psycopg" and not _psycopg_installed():
            raise StoreError("PostgreSQL needs psycopg: pip install 'sobe-e-desce[postgres]'")
        try:
            if backend == "sqlite":
                self._engine = _sqlite_engine(parsed)
            elif backend == "postgresql":
                self._engine = _postgresql_engine(parsed)
            else:
                raise StoreError(f"unsupported database {self.url}: use sqlite:///path/to/file.db or postgresql://...")
        except (exc.ArgumentError, ImportError) as error:
            raise StoreError(f"cannot use the database {self.url}: {self._reason(error)}") from None

    @classmethod
    def for_data_dir(cls, path: str) -> Store:
        """The SQLite store ``sobedesce.db`` in the folder ``path``, which is created if needed."""
        folder = Path(path)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create the data folder {path}: {error.strerror}") from None
        return cls(URL.create("sqlite", database=str(folder / "sobedesce.db")))

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    def _reason(self, error: BaseException) -> str:
        reason = _first_line(str(getattr(error, "orig", None) or error))
        if self._password:
            reason = reason.replace(self._password, "***")
        return _redact(reason)

    @contextmanager
    def _transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection in a transaction that commits when the block ends and rolls back if it raises."""
        try:
            connection = self._engine.connect()
        except exc.DBAPIError as error:
            raise StoreError(f"cannot reach the database {self.url}: {self._reason(error)}") from None
        with connection:
            if write:
                connection.execution_options(**{_WRITE: True})
            try:
                with connection.begin():
                    yield connection
            except (exc.OperationalError, exc.InterfaceError) as error:
                raise StoreError(f"the database {self.url} failed: {self._reason(error)}") from None

    # -- lifecycle

    def migrate(self) -> None:
        """Bring the schema up to date: Alembic's ``upgrade head``, a no-op when it already is."""
        config = Config()
        # The config is an INI parser: a % in the path would read as interpolation.
        config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
        with self._transaction(write=True) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
            config.attributes["connection"] = connection
            try:
                command.upgrade(config, "head")
            except (CommandError, RevisionError) as error:
                raise StoreError(f"cannot migrate the database {self.url}: {_first_line(str(error))}") from None

    def close(self) -> None:
        """Close the pooled connections."""
        self._engine.dispose()

    def ping(self) -> None:
        """Raise StoreError unless the database answers."""
        with self._transaction() as connection:
            connection.execute(sa.select(1))

    # -- players

    def create_player(self, name: str, token_hash: str) -> Player:
        """A new person with a fresh rating; NameTaken if the name is someone's already, ignoring case."""
        key = _name_key(name)
        # A person named like a bot would pass for one wherever names are shown.
        if key.startswith("bot ("):
            raise NameTaken(name)
        mu, sigma = new_rating()
        try:
            with self._transaction(write=True) as connection:
                if connection.execute(sa.select(t_players.c.id).where(t_players.c.name_key == key)).first():
                    raise NameTaken(name)
                result = connection.execute(
                    t_players.insert().values(
                        name=name,
                        name_key=key,
                        token_hash=token_hash,
                        kind="person",
                        mu=mu,
                        sigma=sigma,
                        created_at=_now(),
                    )
                )
                player_id = _inserted_id(result)
        except exc.IntegrityError:
            # Lost a race for the name (PostgreSQL), or the token is someone else's.
            if self.player_by_name(name) is not None:
                raise NameTaken(name) from None
            raise StoreError("that token already belongs to a player") from None
        return Player(id=player_id, name=name, kind="person", mu=mu, sigma=sigma)

    def player_by_token_hash(self, token_hash: str) -> Player | None:
        """The person whose token hashes to ``token_hash``."""
        if not _storable(token_hash):
            return None
        return self._one_player(t_players.c.token_hash == token_hash)

    def player(self, player_id: int) -> Player | None:
        """The player with this id."""
        if not _storable(player_id):
            return None
        return self._one_player(t_players.c.id == player_id)

    def player_by_name(self, name: str) -> Player | None:
        """The player with this name, ignoring case; bots answer to ``Bot (level)``, and to
        the names of their seats at a table, ``Bot 2 (level)``, as a match record has them."""
        if not _storable(name):
            return None
        key = unicodedata.normalize("NFC", name).casefold()  # as names are kept (tables.check_name)
        bot = _BOT_NAME.fullmatch(key)
        if bot is not None:
            key = BOT_KEY_PREFIX + bot.group(1)
        return self._one_player(t_players.c.name_key == key)

    def bot_player(self, level: str) -> Player:
        """The player that stands for every bot of this level, named ``Bot (level)``; created on first use."""
        name = f"Bot ({level})"
        if not level or len(name) > NAME_LENGTH:
            raise ValueError(f"a bot's level has 1 to {NAME_LENGTH - len('Bot ()')} characters: {level!r}")
        key = BOT_KEY_PREFIX + level.casefold()
        found = self._one_player(t_players.c.name_key == key)
        if found is not None:
            return found
        mu, sigma = new_rating()
        try:
            with self._transaction(write=True) as connection:
                connection.execute(
                    t_players.insert().values(
                        name=name, name_key=key, token_hash=None, kind="bot", mu=mu, sigma=sigma, created_at=_now()
                    )
                )
        except exc.IntegrityError:
            pass  # another thread or process created it first
        found = self._one_player(t_players.c.name_key == key)
        if found is None:
            raise StoreError(f"cannot create the bot player {name!r}")
        return found

    def _one_player(self, where: sa.ColumnElement[bool]) -> Player | None:
        with self._transaction() as connection:
            row = connection.execute(sa.select(t_players).where(where)).first()
        return None if row is None else _player(row)

    # -- tables

    def create_table(
        self, row: TableRow, *, then: Callable[[Connection], T] | None = None, limit: int | None = None
    ) -> T | None:
        """Store a new table; StoreError if its id or invite code is taken.  ``then`` runs in the
        same transaction (taking the new table's lease), its result returned.

        With ``limit``, only while its creator has fewer than ``limit`` tables open or in play:
        TooManyTables otherwise.  The count and the insert are one transaction that holds the
        creator's row (PostgreSQL: ``SELECT … FOR NO KEY UPDATE``; SQLite: one writer at a
        time), so that two processes sharing the database wait for each other instead of both
        passing the count before either has stored its table."""
        _check_status(row.status)
        if row.created_at.tzinfo is None:
            raise ValueError("created_at must be timezone-aware")
        try:
            with self._transaction(write=True) as connection:
                if limit is not None and row.created_by is not None:
                    self._check_tables_limit(connection, row.created_by, limit)
                connection.execute(
                    t_tables.insert().values(
                        id=row.id,
                        rules=row.rules,
                        private=row.private,
                        invite_code=row.invite_code,
                        seats=_dumps(row.seats),
                        settings=_dumps(row.settings),
                        secret=row.secret,
                        status=row.status,
                        version=row.version,
                        created_by=row.created_by,
                        created_at=row.created_at,
                        updated_at=row.created_at,
                        match_id=row.match_id,
                        rematch=row.rematch,
                    )
                )
                return then(connection) if then is not None else None
        except exc.IntegrityError as error:
            raise StoreError(f"cannot store the table {row.id!r}: {self._reason(error)}") from None

    @staticmethod
    def _check_tables_limit(connection: Connection, player_id: int, limit: int) -> None:
        # Held until the transaction ends: another creation for this player waits here, then
        # counts (a new statement: READ COMMITTED sees what the first one committed).  NO KEY
        # UPDATE, so that the foreign keys of other rows naming the player do not wait for it.
        connection.execute(sa.select(t_players.c.id).where(t_players.c.id == player_id).with_for_update(key_share=True))
        count = connection.execute(
            sa.select(sa.func.count())
            .select_from(t_tables)
            .where(t_tables.c.created_by == player_id)
            .where(t_tables.c.status.in_(("open", "playing")))
        ).scalar_one()
        if count >= limit:
            raise TooManyTables(int(count), limit)

    def update_table(
        self,
        table_id: str,
        *,
        seats: list[dict[str, Any]] | None = None,
        status: str | None = None,
        settings: dict[str, Any] | None = None,
        epoch: int | None = None,
    ) -> None:
        """Replace the given fields of a table; StoreError if there is no such table.

        With ``epoch`` (several processes), only while the table's lease epoch is still that
        one: LeaseLost otherwise."""
        values: dict[str, Any] = {"updated_at": _now()}
        if seats is not None:
            values["seats"] = _dumps(seats)
        if status is not None:
            _check_status(status)
            values["status"] = status
        if settings is not None:
            values["settings"] = _dumps(settings)
        where = t_tables.c.id == table_id
        if epoch is not None:
            where = sa.and_(where, t_tables.c.lease_epoch == epoch)
        with self._transaction(write=True) as connection:
            result = connection.execute(t_tables.update().where(where).values(values))
            if result.rowcount == 0:
                if (
                    epoch is not None
                    and connection.execute(sa.select(t_tables.c.id).where(t_tables.c.id == table_id)).first()
                ):
                    raise LeaseLost([table_id])
                raise StoreError(f"no table {table_id!r}")

    def set_rematch(self, table_id: str, rematch_id: str, *, instead_of: str | None = None) -> str:
        """Name the rematch of a finished table, unless another than ``instead_of`` (one that
        can no longer be joined) is named already; returns the one named.  StoreError if there
        is no such table."""
        named_now = t_tables.c.rematch.is_(None) if instead_of is None else t_tables.c.rematch == instead_of
        with self._transaction(write=True) as connection:
            connection.execute(
                t_tables.update()
                .where(t_tables.c.id == table_id)
                .where(named_now)
                .values(rematch=rematch_id, updated_at=_now())
            )
            named = connection.execute(sa.select(t_tables.c.rematch).where(t_tables.c.id == table_id)).first()
        if named is None:
            raise StoreError(f"no table {table_id!r}")
        return str(named.rematch)

    def table(self, table_id: str) -> TableRow | None:
        """The table with this id."""
        if not _storable(table_id):
            return None
        return self._one_table(t_tables.c.id == table_id)

    def table_by_invite(self, code: str) -> TableRow | None:
        """The table this invite code opens."""
        if not _storable(code):
            return None
        return self._one_table(t_tables.c.invite_code == code)

    def _one_table(self, where: sa.ColumnElement[bool]) -> TableRow | None:
        with self._transaction() as connection:
            row = connection.execute(sa.select(t_tables).where(where)).first()
        return None if row is None else _table_row(row)

    def tables(self, statuses: Sequence[str], created_by: int | None = None) -> list[TableRow]:
        """The tables in any of these statuses (made by player ``created_by`` if given), oldest first."""
        if not statuses:
            return []
        query = sa.select(t_tables).where(t_tables.c.status.in_(list(statuses)))
        if created_by is not None:
            query = query.where(t_tables.c.created_by == created_by)
        query = query.order_by(t_tables.c.created_at, t_tables.c.id)
        with self._transaction() as connection:
            return [_table_row(row) for row in connection.execute(query)]

    # -- decisions

    def append_decisions(self, table_id: str, decisions: Sequence[tuple[int, dict[str, Any]]], version: int) -> None:
        """Add a table's decisions and set its version, and its status to 'playing' if it was 'open'.

        All or nothing: a decision whose seq is stored already raises StoreError and writes nothing.
        """
        rows = [{"table_id": table_id, "seq": seq, "data": _dumps(data)} for seq, data in decisions]
        try:
            with self._transaction(write=True) as connection:
                result = connection.execute(
                    t_tables.update()
                    .where(t_tables.c.id == table_id)
                    .values(
                        version=version,
                        status=sa.case((t_tables.c.status == "open", "playing"), else_=t_tables.c.status),
                        updated_at=_now(),
                    )
                )
                if result.rowcount == 0:
                    raise StoreError(f"no table {table_id!r}")
                if not rows:
                    return
                stored = connection.execute(
                    sa.select(t_decisions.c.seq)
                    .where(t_decisions.c.table_id == table_id)
                    .where(t_decisions.c.seq.in_([row["seq"] for row in rows]))
                    .order_by(t_decisions.c.seq)
                ).first()
                if stored is not None:
                    raise StoreError(f"the decision {stored.seq} of table {table_id!r} is stored already")
                connection.execute(t_decisions.insert(), rows)
        except exc.IntegrityError as error:
            raise StoreError(f"cannot append decisions to table {table_id!r}: {self._reason(error)}") from None

    def append_many(self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], int]]) -> None:
        """Several tables' :meth:`append_decisions` in one transaction (a group commit): all or
        nothing. ``batch`` holds ``(table_id, decisions, version)``, one entry a table."""
        rows = [
            {"table_id": table_id, "seq": seq, "data": _dumps(data)}
            for table_id, decisions, _ in batch
            for seq, data in decisions
        ]
        versions = [{"key": table_id, "new_version": version} for table_id, _, version in batch]
        update = (
            t_tables.update()
            .where(t_tables.c.id == sa.bindparam("key"))
            .values(
                version=sa.bindparam("new_version"),
                status=sa.case((t_tables.c.status == "open", "playing"), else_=t_tables.c.status),
                updated_at=_now(),
            )
        )
        try:
            with self._transaction(write=True) as connection:
                # A table that is not stored fails the decisions' foreign key below.
                connection.execute(update, versions)
                if rows:
                    connection.execute(t_decisions.insert(), rows)
        except exc.IntegrityError as error:
            raise StoreError(f"cannot append the batch of decisions: {self._reason(error)}") from None

    def append_fenced(self, batch: Sequence[tuple[str, Sequence[tuple[int, dict[str, Any]]], int, int]]) -> None:
        """:meth:`append_many` for several processes (PostgreSQL): each entry is
        ``(table_id, decisions, version, epoch)`` and is written only while the table's lease
        epoch is still ``epoch``. All or nothing: LeaseLost names the tables whose lease moved on.

        The epoch is checked on the table's row, in the statement that moves its version: a
        process taking the lease over sets the row's epoch under the same row lock, so a write
        either commits before the takeover (and the new owner reads it) or is refused.
        """
        if not batch:
            return
        ids = [table_id for table_id, _, _, _ in batch]
        rows = [
            {"table_id": table_id, "seq": seq, "data": _dumps(data)}
            for table_id, decisions, _, _ in batch
            for seq, data in decisions
        ]
        update = sa.text(
            "UPDATE tables AS t SET version = u.version, updated_at = :now,"
            " status = CASE WHEN t.status = 'open' THEN 'playing' ELSE t.status END"
            " FROM unnest(CAST(:ids AS varchar[]), CAST(:versions AS integer[]), CAST(:epochs AS bigint[]))"
            " AS u(id, version, epoch)"
            " WHERE t.id = u.id AND t.lease_epoch = u.epoch RETURNING t.id"
        )
        params = {
            "ids": ids,
            "versions": [version for _, _, version, _ in batch],
            "epochs": [epoch for _, _, _, epoch in batch],
            "now": _now(),
        }
        try:
            with self._transaction(write=True) as connection:
                written = {row[0] for row in connection.execute(update, params)}
                if len(written) != len(set(ids)):
                    # Raising rolls the whole batch back.
                    raise LeaseLost([table_id for table_id in ids if table_id not in written])
                if rows:
                    connection.execute(t_decisions.insert(), rows)
        except exc.IntegrityError as error:
            raise StoreError(f"cannot append the batch of decisions: {self._reason(error)}") from None

    def decisions(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        """A table's decisions ``(seq, data)``, in order."""
        query = (
            sa.select(t_decisions.c.seq, t_decisions.c.data)
            .where(t_decisions.c.table_id == table_id)
            .order_by(t_decisions.c.seq)
        )
        with self._transaction() as connection:
            return [(int(row.seq), json.loads(row.data)) for row in connection.execute(query)]

    # -- matches

    def finish_match(
        self,
        table_id: str,
        rules: str,
        record: str,
        rounds: int,
        with_bots: bool,
        results: Sequence[SeatResult],
    ) -> int:
        """Record a table's finished match, move its players' ratings and close the table; the match id.

        Idempotent: a table that has its match already keeps it, and its id is returned.
        A player at several seats (one bot level playing twice) takes the mean of those seats' new ratings.
        """
        by_seat = sorted(results, key=lambda result: result.seat)
        if [result.seat for result in by_seat] != [0, 1, 2, 3]:
            raise ValueError(f"a match has one result for each of the seats 0 to 3, not {[r.seat for r in results]}")
        with self._transaction(write=True) as connection:
            table = connection.execute(
                sa.select(t_tables.c.match_id).where(t_tables.c.id == table_id).with_for_update()
            ).first()
            if table is None:
                raise StoreError(f"no table {table_id!r}")
            if table.match_id is not None:
                return int(table.match_id)
            player_ids = sorted({result.player_id for result in by_seat})
            # Locked in id order, so two matches sharing players wait for each other instead of deadlocking.
            current = {
                row.id: (float(row.mu), float(row.sigma))
                for row in connection.execute(
                    sa.select(t_players.c.id, t_players.c.mu, t_players.c.sigma)
                    .where(t_players.c.id.in_(player_ids))
                    .order_by(t_players.c.id)
                    .with_for_update()
                )
            }
            missing = [player_id for player_id in player_ids if player_id not in current]
            if missing:
                raise StoreError(f"no player {missing[0]}")
            rated = rate_match(
                [current[result.player_id] for result in by_seat],
                [result.score for result in by_seat],
                [result.seat for result in by_seat if result.won],
            )
            after: dict[int, tuple[float, float]] = {}
            for player_id in player_ids:
                mine = [rating for result, rating in zip(by_seat, rated, strict=True) if result.player_id == player_id]
                after[player_id] = (sum(mu for mu, _ in mine) / len(mine), sum(sigma for _, sigma in mine) / len(mine))
            match_id = _inserted_id(
                connection.execute(
                    t_matches.insert().values(
                        table_id=table_id,
                        rules=rules,
                        record=record,
                        rounds=rounds,
                        with_bots=with_bots,
                        finished_at=_now(),
                    )
                )
            )
            connection.execute(
                t_match_seats.insert(),
                [
                    {
                        "match_id": match_id,
                        "seat": result.seat,
                        "player_id": result.player_id,
                        "score": result.score,
                        "riscos": result.riscos,
                        "won": result.won,
                        "mu_before": current[result.player_id][0],
                        "sigma_before": current[result.player_id][1],
                        "mu_after": after[result.player_id][0],
                        "sigma_after": after[result.player_id][1],
                    }
                    for result in by_seat
                ],
            )
            for player_id, (mu, sigma) in after.items():
                connection.execute(t_players.update().where(t_players.c.id == player_id).values(mu=mu, sigma=sigma))
            connection.execute(
                t_tables.update()
                .where(t_tables.c.id == table_id)
                .values(status="finished", match_id=match_id, updated_at=_now())
            )
        return match_id

    def leaderboard(self, *, among: str = "people", limit: int = 50, since: datetime | None = None) -> list[Standing]:
        """People ranked by their riscos, then rating.

        ``among`` picks the matches counted: "people" (no bot at the table), "bots" (some bot), or "all";
        ``since``, only the matches finished then or later (a week's ranking).  The rating is
        the player's one rating, of every match.
        """
        won = sa.func.sum(sa.case((t_match_seats.c.won, 1), else_=0))
        riscos = sa.func.sum(t_match_seats.c.riscos)
        query = (
            sa.select(
                t_players.c.name,
                t_players.c.mu,
                t_players.c.sigma,
                riscos.label("riscos"),
                sa.func.count().label("played"),
                won.label("won"),
            )
            .select_from(t_match_seats.join(t_matches).join(t_players))
            .where(t_players.c.kind == "person")
            .group_by(t_players.c.id, t_players.c.name, t_players.c.mu, t_players.c.sigma)
            .order_by(riscos.desc(), (t_players.c.mu - 3 * t_players.c.sigma).desc(), t_players.c.name)
            .limit(limit)
        )
        if since is not None:
            query = query.where(t_matches.c.finished_at >= since)
        if among == "people":
            query = query.where(sa.not_(t_matches.c.with_bots))
        elif among == "bots":
            query = query.where(t_matches.c.with_bots)
        elif among != "all":
            raise ValueError(f"among is 'people', 'bots' or 'all', not {among!r}")
        with self._transaction() as connection:
            return [
                Standing(
                    player=row.name,
                    rating=ordinal(row.mu, row.sigma),
                    mu=float(row.mu),
                    sigma=float(row.sigma),
                    riscos=float(row.riscos),
                    played=int(row.played),
                    won=int(row.won),
                )
                for row in connection.execute(query)
            ]

    def matches(self, limit: int = 50, before: int | None = None) -> list[MatchEntry]:
        """The finished matches of public tables, newest first (``before``: only those whose id
        is lower), each with its players by seat, final scores, riscos and winners."""
        query = (
            sa.select(
                t_matches.c.id,
                t_matches.c.table_id,
                t_matches.c.rules,
                t_matches.c.finished_at,
                t_matches.c.rounds,
                t_matches.c.with_bots,
            )
            .select_from(t_matches.outerjoin(t_tables, _MATCH_TABLE))
            .where(_public_table())
        )
        if before is not None:
            query = query.where(t_matches.c.id < before)
        query = query.order_by(t_matches.c.id.desc()).limit(limit)
        with self._transaction() as connection:
            rows = connection.execute(query).all()
            by_match = _seats_of(connection, [row.id for row in rows])
        return [
            MatchEntry(
                match_id=row.id,
                table_id=row.table_id,
                rules=row.rules,
                finished_at=row.finished_at,
                rounds=row.rounds,
                with_bots=bool(row.with_bots),
                players=[s.name for s in by_match.get(row.id, [])],
                scores=[s.score for s in by_match.get(row.id, [])],
                riscos=[_whole(s.riscos) for s in by_match.get(row.id, [])],
                winners=[n for n, s in enumerate(by_match.get(row.id, [])) if s.won],
            )
            for row in rows
        ]

    def history(
        self, player_id: int, limit: int = 50, before: int | None = None, *, private: bool = True
    ) -> list[HistoryEntry]:
        """A player's finished matches, newest first, each once: a bot that sat at several seats
        of a match (three ``Bot (easy)``) is listed at the first of them.  ``before``: only the
        matches whose id is lower (the next page: a match's id grows with the time it ended);
        ``private=False``: only those of public tables."""
        first = (
            sa.select(t_match_seats.c.match_id, sa.func.min(t_match_seats.c.seat).label("seat"))
            .where(t_match_seats.c.player_id == player_id)
            .group_by(t_match_seats.c.match_id)
            .subquery()
        )
        mine = (
            sa.select(
                t_match_seats.c.match_id,
                t_match_seats.c.seat,
                t_match_seats.c.score,
                t_match_seats.c.riscos,
                t_match_seats.c.won,
                t_matches.c.table_id,
                t_matches.c.rules,
                t_matches.c.finished_at,
                t_matches.c.with_bots,
            )
            .select_from(
                t_match_seats.join(t_matches)
                .join(
                    first,
                    sa.and_(first.c.match_id == t_match_seats.c.match_id, first.c.seat == t_match_seats.c.seat),
                )
                .outerjoin(t_tables, _MATCH_TABLE)
            )
            .where(t_match_seats.c.player_id == player_id)
            .order_by(t_matches.c.finished_at.desc(), t_matches.c.id.desc())
            .limit(limit)
        )
        if before is not None:
            mine = mine.where(t_matches.c.id < before)
        if not private:
            mine = mine.where(_public_table())
        with self._transaction() as connection:
            entries = connection.execute(mine).all()
            by_match = _seats_of(connection, [entry.match_id for entry in entries])
        return [
            HistoryEntry(
                match_id=entry.match_id,
                table_id=entry.table_id,
                rules=entry.rules,
                finished_at=entry.finished_at,
                seat=entry.seat,
                score=entry.score,
                riscos=float(entry.riscos),
                won=bool(entry.won),
                with_bots=bool(entry.with_bots),
                players=[seat.name for seat in by_match[entry.match_id]],
                scores=[seat.score for seat in by_match[entry.match_id]],
            )
            for entry in entries
        ]

    def match_record(self, match_id: int) -> str | None:
        """The JSON record of a finished match."""
        found = self.finished_match(match_id)
        return None if found is None else found.record

    def finished_match(self, match_id: int) -> FinishedMatch | None:
        """A finished match's record, and whether its table was private (with its invitation),
        read at once: what the record's address needs to know before giving it."""
        if not _storable(match_id):
            return None
        query = (
            sa.select(t_matches.c.record, t_tables.c.private, t_tables.c.invite_code)
            .select_from(t_matches.outerjoin(t_tables, _MATCH_TABLE))
            .where(t_matches.c.id == match_id)
        )
        with self._transaction() as connection:
            row = connection.execute(query).first()
        if row is None or row.record is None:
            return None
        return FinishedMatch(str(row.record), bool(row.private), row.invite_code)

    def match_players(self, match_id: int) -> list[int] | None:
        """The ids of a finished match's four players, by seat."""
        if not _storable(match_id):
            return None
        query = (
            sa.select(t_match_seats.c.player_id)
            .where(t_match_seats.c.match_id == match_id)
            .order_by(t_match_seats.c.seat)
        )
        with self._transaction() as connection:
            ids = [int(player_id) for player_id in connection.execute(query).scalars()]
        return ids or None
