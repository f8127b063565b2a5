"""Table leases in PostgreSQL: exactly one server process applies a table's decisions.

A lease is a row of ``table_leases``: the owner (a process's id), an expiry and an epoch.
Every operation is one atomic SQL statement timed by the database's clock (``now()``), never
by a process's: two processes can never both hold a lease, whatever their clocks say.

- :meth:`Leases.acquire` takes a table whose lease is missing or expired, with the next epoch,
  and copies that epoch to the table's row (``tables.lease_epoch``) in the same transaction;
- :meth:`Leases.renew` extends every lease this process still holds, in one statement;
- :meth:`Leases.release` lets a lease lapse at once (a finished table, a process stopping).

The epoch is a fencing token: the store writes a decision only while ``tables.lease_epoch``
still equals the writer's epoch (:meth:`~sobedesce.server.store.Store.append_fenced`), so a
process that stalled past its expiry and wakes up after a takeover cannot write any more.

A process can stall in the middle of such a write, holding the table's row lock.  The takeover
then waits for that lock only briefly (``lock_timeout``) and tries again at the next sweep,
rather than blocking its writer; PostgreSQL ends the stalled session once it has sat idle in
its transaction long enough (the store's ``idle_in_transaction_session_timeout``), which
rolls its write back and frees the row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.engine import Connection

from .store import Store, StoreError, TableRow

__all__ = ["Lease", "Leases"]

_ACQUIRE = sa.text(
    "INSERT INTO table_leases (table_id, owner, epoch, expires_at)"
    " VALUES (:table_id, :owner, 1, now() + make_interval(secs => :seconds))"
    " ON CONFLICT (table_id) DO UPDATE"
    " SET owner = EXCLUDED.owner, epoch = table_leases.epoch + 1, expires_at = EXCLUDED.expires_at"
    " WHERE table_leases.expires_at <= now()"
    " RETURNING epoch"
)
# Waits for a write of the previous owner in flight on the table's row; any later one is refused.
_FENCE = sa.text("UPDATE tables SET lease_epoch = :epoch WHERE id = :table_id AND lease_epoch < :epoch")
_RENEW = sa.text(
    "UPDATE table_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE owner = :owner AND expires_at > now() RETURNING table_id, epoch"
)
_RENEW_ONE = sa.text(
    "UPDATE table_leases SET expires_at = now() + make_interval(secs => :seconds)"
    " WHERE table_id = :table_id AND owner = :owner AND epoch = :epoch AND expires_at > now()"
)
# A released lease keeps its epoch (the fence only grows) and loses its owner: the table is
# finished, or its process stopped cleanly; either way another may take it at once.
_RELEASE = sa.text(
    "UPDATE table_leases SET owner = '', expires_at = now() - interval '1 second'"
    " WHERE table_id = :table_id AND owner = :owner AND epoch = :epoch"
)
_RELEASE_ALL = sa.text(
    "UPDATE table_leases SET owner = '', expires_at = now() - interval '1 second' WHERE owner = :owner"
)
# How long a takeover waits for the previous owner's write in flight, at most: a write takes
# milliseconds, so a longer wait means its process stalled holding the row.
_LOCK_WAIT_SECONDS = 0.5
_LOCK_NOT_AVAILABLE = "55P03"
_LEASE = sa.text(
    "SELECT owner, epoch, expires_at > now() AS live, EXTRACT(EPOCH FROM expires_at - now()) AS left_s"
    " FROM table_leases WHERE table_id = :table_id"
)
_LEASES = sa.text(
    "SELECT table_id, owner, epoch, expires_at > now() AS live FROM table_leases"
    " WHERE table_id = ANY(CAST(:ids AS varchar[]))"
)
# Tables in play or open whose lease lapsed, or that never had one: the sweep takes them over.
_ORPHANS = sa.text(
    "SELECT t.id FROM tables AS t LEFT JOIN table_leases AS l ON l.table_id = t.id"
    " WHERE t.status IN ('open', 'playing') AND (l.table_id IS NULL OR l.expires_at <= now())"
    " ORDER BY random() LIMIT :limit"
)


@dataclass(frozen=True)
class Lease:
    owner: str
    """The holding process; empty once released."""
    epoch: int
    live: bool
    """Not expired, by the database's clock."""
    seconds_left: float = 0.0


class Leases:
    """The leases of one process, ``owner``, each ``seconds`` long, in ``store`` (PostgreSQL)."""

    def __init__(self, store: Store, owner: str, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError(f"a lease lasts more than 0 seconds, not {seconds}")
        self.store = store
        self.owner = owner
        self.seconds = float(seconds)

    def _run(self, statement: sa.TextClause, **params: Any) -> list[sa.Row[Any]]:
        with self.store._transaction(write=True) as connection:
            result = connection.execute(statement, params)
            return list(result) if result.returns_rows else []

    def acquire(self, table_id: str) -> int | None:
        """Take the table's lease if nobody holds it (or it expired): the new epoch, else ``None``
        (held by another process, or its stalled owner still holds the table's row: not yet)."""
        try:
            with self.store._transaction(write=True) as connection:
                return self._acquire(connection, table_id)
        except _RowBusy:
            return None

    def _acquire(self, connection: Connection, table_id: str) -> int | None:
        wait_ms = max(1, round(min(_LOCK_WAIT_SECONDS, self.seconds / 4) * 1000))
        connection.execute(sa.text(f"SET LOCAL lock_timeout = {wait_ms}"))
        try:
            row = connection.execute(
                _ACQUIRE, {"table_id": table_id, "owner": self.owner, "seconds": self.seconds}
            ).first()
            if row is None:
                return None
            epoch = int(row[0])
            connection.execute(_FENCE, {"table_id": table_id, "epoch": epoch})
        except exc.OperationalError as error:
            if getattr(error.orig, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
                raise _RowBusy(table_id) from None  # rolls the lease back with the transaction
            raise
        return epoch

    def create(self, row: TableRow, *, limit: int | None = None) -> int:
        """Store a new table with its lease, in one transaction (so that no other process
        takes it for a table nobody holds): the lease's epoch.  ``limit``: as for
        :meth:`~sobedesce.server.store.Store.create_table`, the tables its creator may have."""

        def lease(connection: Connection) -> int:
            epoch = self._acquire(connection, row.id)
            if epoch is None:
                raise StoreError(f"the new table {row.id!r} has a lease already")
            return epoch

        epoch = self.store.create_table(row, then=lease, limit=limit)
        assert epoch is not None
        return epoch

    def renew(self) -> dict[str, int]:
        """Extend every lease this process holds and has not let expire: table id → epoch."""
        rows = self._run(_RENEW, owner=self.owner, seconds=self.seconds)
        return {str(row.table_id): int(row.epoch) for row in rows}

    def renew_one(self, table_id: str, epoch: int) -> bool:
        with self.store._transaction(write=True) as connection:
            result = connection.execute(
                _RENEW_ONE, {"table_id": table_id, "owner": self.owner, "epoch": epoch, "seconds": self.seconds}
            )
            return result.rowcount == 1

    def release(self, table_id: str, epoch: int) -> None:
        self._run(_RELEASE, table_id=table_id, owner=self.owner, epoch=epoch)

    def release_all(self) -> None:
        self._run(_RELEASE_ALL, owner=self.owner)

    def lease(self, table_id: str) -> Lease | None:
        rows = self._run(_LEASE, table_id=table_id)
        if not rows:
            return None
        row = rows[0]
        return Lease(str(row.owner), int(row.epoch), bool(row.live), float(row.left_s))

    def leases(self, table_ids: list[str]) -> dict[str, Lease]:
        if not table_ids:
            return {}
        rows = self._run(_LEASES, ids=table_ids)
        return {str(row.table_id): Lease(str(row.owner), int(row.epoch), bool(row.live)) for row in rows}

    def orphans(self, limit: int = 50) -> list[str]:
        """Tables open or in play that nobody holds."""
        return [str(row[0]) for row in self._run(_ORPHANS, limit=limit)]


class _RowBusy(Exception):
    """The table's row is locked by a write in flight that did not end in time."""


def check_postgresql(store: Store) -> None:
    """Leases need PostgreSQL: StoreError naming the store otherwise."""
    if not store.url.startswith("postgresql"):
        raise StoreError(f"several processes share one PostgreSQL store (--db postgresql://...), not {store.url}")
