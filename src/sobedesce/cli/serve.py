"""``sobedesce serve``: the online table, its WebSocket protocol and its store."""

from __future__ import annotations

import argparse
import gc
import ipaddress
import math
import os
import signal
import socket
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

DEFAULT_DATA = os.path.join(".", "sobedesce-data")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the online table: the page, the WebSocket protocol and the ranking",
        description=(
            "Serve Sobe e Desce online. The store is a SQLite file in --data unless --db names a database "
            "(postgresql://user@host/db). Every decision is stored before it is acknowledged; Ctrl-C stops cleanly. "
            "With --redis, any number of processes share one PostgreSQL store (docs/deploy.md)."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000; 0 picks a free one)")
    parser.add_argument("--db", metavar="URL", default=None, help="database URL (default: SQLite in --data)")
    parser.add_argument(
        "--data", metavar="DIR", default=None, help=f"folder of the embedded store (default: {DEFAULT_DATA})"
    )
    parser.add_argument(
        "--pace", type=float, default=0.8, metavar="SECONDS", help="pause before each bot move (default: 0.8)"
    )
    parser.add_argument(
        "--away-after",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a person disconnected this long is played for by a bot until they return (default: 60)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may connect and post (repeatable)",
    )
    parser.add_argument(
        "--allow-seed", action="store_true", help="let table creators give the deal seed (tests and benchmarks only)"
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=None,
        help="run as one of several processes, with Redis between them (redis://host:6379/0); needs --db postgresql://",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --redis: how long a table waits for its process before another takes it over (default: 10)",
    )
    parser.add_argument(
        "--cluster-name",
        default=None,
        metavar="NAME",
        help="with --redis: processes with the same name share tables (the prefix of Redis keys; default: sobedesce)",
    )
    parser.add_argument(
        "--limit-registrations",
        default="30/h",
        metavar="LIMIT",
        help="new players one client address may register, over HTTP or the WebSocket: COUNT/PERIOD "
        "(30/h, 10/15min, 100/d) or 'off' (default: 30/h)",
    )
    parser.add_argument(
        "--limit-tables",
        default="120/h",
        metavar="LIMIT",
        help="new tables one client address may create, over HTTP or the WebSocket (default: 120/h)",
    )
    parser.add_argument(
        "--limit-exempt",
        action="append",
        default=None,
        metavar="NETWORK",
        help="an address or network the limits do not apply to (repeatable; default: this machine, "
        "127.0.0.0/8 and ::1; 'none' limits every address)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="reverse proxies trusted to name the client in X-Forwarded-For, by which the limits count: "
        "comma-separated addresses or networks, '*' for any (default: $FORWARDED_ALLOW_IPS or 127.0.0.1,::1)",
    )
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"])
    parser.set_defaults(run=run)


def _not_addresses(text: str) -> str | None:
    """The first entry of a comma-separated list that is neither an address, a network nor
    ``*`` (uvicorn would take it silently and trust no proxy by it), or ``None``."""
    for entry in (part.strip() for part in text.split(",")):
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            return entry
    return None


def run(args: argparse.Namespace) -> int:
    def fail(message: str) -> int:
        print(f"sobedesce serve: {message}", file=sys.stderr)
        return 2

    if not 0 <= args.port <= 65535:
        return fail(f"--port must be 0-65535, not {args.port}")
    if not (math.isfinite(args.pace) and args.pace >= 0 and math.isfinite(args.away_after) and args.away_after > 0):
        return fail("--pace must be 0 or more and --away-after more than 0, both finite")

    from sobedesce.server.limits import LOOPBACK, Limit, Limits

    parsed: dict[str, Any] = {}
    for option, value in (("registrations", args.limit_registrations), ("tables", args.limit_tables)):
        try:
            parsed[option] = Limit.parse(value)
        except ValueError as error:
            return fail(f"--limit-{option}: {error}")
    try:
        exempt = LOOPBACK if args.limit_exempt is None else tuple(n for n in args.limit_exempt if n != "none")
        limits = Limits(**parsed, exempt=exempt)
    except ValueError as error:
        return fail(f"--limit-exempt: {error}")

    import uvicorn

    from sobedesce.server.app import ClusterSettings, create_app
    from sobedesce.server.protocol import MAX_MESSAGE_BYTES
    from sobedesce.server.store import Store, StoreError
    from sobedesce.server.tables import Settings

    if args.db and args.data:
        return fail("give --db or --data, not both")
    # The option, else the variable uvicorn reads without it (taken as it came before, so a
    # mistyped entry trusted no proxy without a word): checked alike.
    proxies, source = args.forwarded_allow_ips, "--forwarded-allow-ips"
    if proxies is None:
        proxies, source = os.environ.get("FORWARDED_ALLOW_IPS"), "$FORWARDED_ALLOW_IPS"
    bad = _not_addresses(proxies) if proxies is not None else None
    if bad is not None:
        return fail(f"{source} takes addresses or networks, comma-separated, or '*', not {bad!r}")
    cluster = None
    if args.redis is None:
        given = [
            option
            for option, value in (("--lease-seconds", args.lease_seconds), ("--cluster-name", args.cluster_name))
            if value is not None
        ]
        if given:
            return fail(f"{' and '.join(given)} {'works' if len(given) == 1 else 'work'} only with --redis")
    else:
        args.lease_seconds = 10.0 if args.lease_seconds is None else args.lease_seconds
        args.cluster_name = "sobedesce" if args.cluster_name is None else args.cluster_name
        if not args.db or not args.db.startswith(("postgresql", "postgres")):
            return fail("--redis needs --db postgresql://...: the processes share one PostgreSQL store")
        if not args.redis.startswith(("redis://", "rediss://", "unix://")):
            return fail(f"--redis takes a URL redis://host:6379/0, not {args.redis!r}")
        if not 0.5 <= args.lease_seconds <= 600:
            return fail(f"--lease-seconds must be 0.5-600, not {args.lease_seconds:g}")
        if not args.cluster_name or not all(c.isalnum() or c in "-_." for c in args.cluster_name):
            return fail("--cluster-name takes letters, digits, '-', '_' and '.'")
        try:
            import redis  # noqa: F401
        except ImportError:
            return fail("--redis needs redis-py: pip install 'sobe-e-desce[redis]'")
        cluster = ClusterSettings(args.redis, args.lease_seconds, args.cluster_name)
        if not _redis_answers(args.redis):
            return fail(f"cannot reach Redis at {_redis_shown(args.redis)}")
    # The address first: a port in use is said before the store is made (an empty database
    # was left behind in a new --data folder).
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
        # Listen before telling the address: a client that connects at once waits in the
        # backlog until the app has started, instead of being refused.
        sock.listen(2048)
    except OSError as error:
        return fail(f"cannot listen on {args.host}:{args.port}: {error.strerror}")
    try:
        store = Store(args.db) if args.db else Store.for_data_dir(args.data or DEFAULT_DATA)
        store.migrate()
    except (StoreError, OSError) as error:
        sock.close()
        return fail(f"cannot open the store: {error}")
    settings = Settings(pace=args.pace, away_after=args.away_after, allow_seed=args.allow_seed)
    app = create_app(store, settings, allowed_origins=args.allow_origin, cluster=cluster, limits=limits)
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=MAX_MESSAGE_BYTES,
        # Game messages are small: compressing each costs more CPU than it saves.
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=5,
        # X-Forwarded-For is believed from these proxies only: the address the limits count.
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    bus = f", bus: {_redis_shown(args.redis)}" if cluster is not None else ""
    print(f"Sobe e Desce is served at http://{shown}:{port}/ (store: {store.url}{bus})", flush=True)
    print("Open that address in a browser; Ctrl-C stops the server.", flush=True)
    # What is loaded by now (the modules, the app, the engine's and the bots' tables) lives as
    # long as the process: out of the cyclic collector's sight, its full collections scan only
    # what the tables in play allocate.
    gc.freeze()
    # uvicorn shuts down on Ctrl-C or SIGTERM, then raises the signal again for the handler it
    # found: that one lets this function say what is stored and end with 0, as a stop asked
    # for is.  (Before, Ctrl-C ended with "interrupted" and 130, SIGTERM with the signal.)
    previous = {sig: signal.signal(sig, _stopping(server)) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if not getattr(app.state, "stopped_cleanly", False):
        # The app's start or stop failed (the log above says how): every decision acknowledged
        # was stored before its ack, but the stop itself did not finish.
        print("Stopped, but not cleanly: see the log above. Every acknowledged decision was stored.", flush=True)
        return 1
    print("Stopped; every decision is stored.", flush=True)
    return 0


def _stopping(server: Any) -> Callable[[int, FrameType | None], None]:
    def handler(sig: int, frame: FrameType | None) -> None:
        # Raised again by uvicorn once it has stopped: nothing left to do.  A signal before
        # uvicorn listens for them (while the event loop starts) stops the start.
        if not server.should_exit:
            raise KeyboardInterrupt

    return handler


def _redis_shown(url: str) -> str:
    head, sep, tail = url.partition("@")
    return f"{head.partition('://')[0]}://***@{tail}" if sep else url


def _redis_answers(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError):
        return False
