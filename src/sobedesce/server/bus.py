"""What passes between server processes, over Redis: each process's inbox, its presence, and
the lobby's live facts.

- Every process subscribes to one channel, its inbox ``{prefix}:n:{node}``: commands for the
  tables it owns (a decision, a join, a hint, from a connection held by another process) and
  the messages the owners of other tables made for its own connections.  A process thus hears
  only of tables it has connections on, and only what those connections may see: the owner
  makes every message with the same ``state_json``/``event_json`` as for a local connection,
  for that connection's seat, and the bus never carries a deck, a seed or another seat's hand.
- Presence: ``{prefix}:node:{node}`` exists while the process runs (a TTL key it refreshes).
- The lobby: ``{prefix}:table:{id}`` holds the owner's public facts of a table (who sits,
  who is connected, spectators), with a TTL; PostgreSQL stays the source of truth for which
  tables exist.

Publishing goes through one queue and one connection, so the messages of one process to
another arrive in the order they were made.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Bus", "BusError"]

log = logging.getLogger("sobedesce.server.bus")

# Pseudo-channels of the publishing queue: lobby keys set and deleted in order with the messages.
_SET = "\0set"
_DELETE = "\0del"


class BusError(RuntimeError):
    """Redis cannot be reached or refused a command."""


class Bus:
    """One process's end of the bus: ``node`` is its id, ``prefix`` separates clusters (and tests)."""

    def __init__(self, url: str, node: str, *, prefix: str = "sobedesce", presence_ttl: float = 10.0) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise BusError("several processes need redis-py: pip install 'sobe-e-desce[redis]'") from None
        self.url = url
        self.node = node
        self.prefix = prefix
        self.presence_ttl = presence_ttl
        try:
            self._redis: Any = aioredis.Redis.from_url(url, decode_responses=True, health_check_interval=30)
            self._publisher: Any = aioredis.Redis.from_url(url, decode_responses=True, health_check_interval=30)
        except ValueError as error:
            raise BusError(f"not a Redis URL ({error}): use redis://host:6379/0") from None
        self._pubsub: Any = None
        self._queue: asyncio.Queue[tuple[str, str, asyncio.Future[int] | None] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Callable[[dict[str, Any]], Awaitable[None] | None] | None = None
        self.on_back: Callable[[], None] | None = None
        """Called when the inbox is subscribed again after its subscription failed: what was
        published to it meanwhile is lost (Redis keeps no messages for an absent subscriber)."""

    # -- names

    def inbox(self, node: str) -> str:
        return f"{self.prefix}:n:{node}"

    def _node_key(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def _table_key(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    # -- lifecycle

    async def start(self, handler: Callable[[dict[str, Any]], Awaitable[None] | None]) -> None:
        """Subscribe to this process's inbox (``handler`` gets each message, in order) and say it runs."""
        self._handler = handler
        try:
            await self._redis.ping()
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(self.inbox(self.node))
            await self.heartbeat()
        except Exception as error:
            raise BusError(f"cannot use Redis at {_shown(self.url)}: {error}") from None
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish_loop())]

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._redis.delete(self._node_key(self.node))
        self._queue.put_nowait(None)
        if len(self._tasks) == 2:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._tasks[1]), 5)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        for client in (self._redis, self._publisher):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _listen(self) -> None:
        assert self._pubsub is not None and self._handler is not None
        failed = False
        while True:
            try:
                if failed:
                    # Raises while Redis is still away; once it answers, the inbox is ours again.
                    await self._pubsub.subscribe(self.inbox(self.node))
                    failed = False
                    log.warning("the bus's subscription is back")
                    if self.on_back is not None:
                        self.on_back()
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # Expected while Redis is away: one line when it fails, one when it is back (a
                # traceback a second filled the log of an outage).
                if not failed:
                    log.warning("the bus's subscription failed (%s); subscribing again", error_text(error))
                failed = True
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                result = self._handler(data)
                if result is not None:
                    await result
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a message from the bus failed")

    async def _publish_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                return
            batch = [item]
            while not self._queue.empty() and len(batch) < 500:
                more = self._queue.get_nowait()
                if more is None:
                    self._queue.put_nowait(None)
                    break
                batch.append(more)
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for channel, text, _ in batch:
                        if channel == _SET:
                            key, value, ttl = json.loads(text)
                            pipe.set(key, json.dumps(value, separators=(",", ":")), px=int(ttl * 1000))
                        elif channel == _DELETE:
                            pipe.delete(text)
                        else:
                            pipe.publish(channel, text)
                    results = await pipe.execute()
            except Exception as error:
                log.warning("publishing %d messages failed (%s)", len(batch), error_text(error))
                for _, _, future in batch:
                    if future is not None and not future.done():
                        future.set_exception(BusError(f"cannot publish to Redis: {error}"))
                continue
            for (_, _, future), result in zip(batch, results, strict=True):
                if future is not None and not future.done():
                    future.set_result(int(result or 0))

    # -- messages

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for the process ``node``, after every message queued before it."""
        self._queue.put_nowait((self.inbox(node), json.dumps(message, separators=(",", ":")), None))

    async def send_now(self, node: str, message: dict[str, Any]) -> bool:
        """Publish ``message`` (after what is queued) and wait: whether ``node`` is listening."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((self.inbox(node), json.dumps(message, separators=(",", ":")), future))
        return await future > 0

    # -- presence

    async def heartbeat(self) -> None:
        await self._redis.set(self._node_key(self.node), "1", px=int(self.presence_ttl * 1000))

    async def alive(self, nodes: list[str]) -> dict[str, bool]:
        """Whether each process listens to its inbox: Redis drops a subscription the moment its
        connection closes, so a killed process is known gone at once (a stalled one loses its
        leases when they expire)."""
        if not nodes:
            return {}
        counts = await self._redis.pubsub_numsub(*[self.inbox(n) for n in nodes])
        listening = {str(channel): int(count) for channel, count in counts}
        return {node: listening.get(self.inbox(node), 0) > 0 for node in nodes}

    # -- the lobby

    def table_changed(self, table_id: str, public: dict[str, Any], ttl: float) -> None:
        self._queue.put_nowait((_SET, json.dumps([self._table_key(table_id), public, ttl]), None))

    def table_gone(self, table_id: str) -> None:
        self._queue.put_nowait((_DELETE, self._table_key(table_id), None))

    async def tables(self, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        if not table_ids:
            return {}
        values = await self._redis.mget([self._table_key(t) for t in table_ids])
        return {t: json.loads(v) for t, v in zip(table_ids, values, strict=True) if v is not None}

    async def ping(self) -> None:
        try:
            await self._redis.ping()
        except Exception as error:
            raise BusError(f"Redis at {_shown(self.url)} does not answer: {error}") from None


def error_text(error: BaseException) -> str:
    """An error in a log line: its type and, if it has one, its message."""
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _shown(url: str) -> str:
    """A Redis URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep:
        return url
    scheme, _, _ = head.partition("://")
    return f"{scheme}://***@{tail}"
