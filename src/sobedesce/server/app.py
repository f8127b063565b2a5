"""The ASGI app of ``sobedesce serve``: the HTTP API, the WebSocket endpoint and the page.

The WebSocket at ``/ws`` carries the game (docs/protocol.md); the HTTP API under ``/api``
(described at ``/openapi.json``, browsable at ``/docs``) serves registration, the lobby,
finished matches' records, the leaderboard, histories and a health check.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import Body, Depends, FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from sobedesce.core import read_record, summary

from .bus import Bus, BusError
from .cluster import Cluster
from .lease import Leases
from .limits import AddressLimits, Limit, Limits, RateLimited, refilled
from .protocol import (
    MAX_MESSAGE_BYTES,
    Act,
    Close,
    Create,
    Hello,
    Hint,
    Join,
    Leave,
    ListTables,
    Ping,
    ProtocolError,
    Quick,
    Rematch,
    Say,
    Watch,
    action_from_json,
    error_json,
    hint_json,
    loads_json,
    parse_message,
    shown,
    text_of,
)
from .store import Store, StoreError
from .tables import Client, ServerError, Settings, Tables

__all__ = ["BURST", "RATE", "ClusterSettings", "Limit", "Limits", "create_app"]

log = logging.getLogger("sobedesce.server")

RATE = 10.0
"""Messages a second a connection may send, on average (decisions the table takes are free)."""
BURST = 40
"""Messages a connection may send at once before the rate applies."""
DROPPED = (
    f"too many messages: at most {RATE:g} a second; the ones over it were dropped unanswered (no ack or error "
    "for their id): send again any you wait for"
)
"""The one ``rate_limited`` error (a second at most) for the messages a connection's limit drops."""
EMPTY_BODY = "not JSON: the request body is empty"
STORE_DOWN = "the server cannot reach its store just now; try again in a moment"


@dataclass(frozen=True)
class ClusterSettings:
    """One of several processes sharing a PostgreSQL store, with Redis between them."""

    redis_url: str
    lease_seconds: float = 10.0
    """How long a table's lease lasts without renewal: a dead process's tables wait this long."""
    prefix: str = "sobedesce"
    """The prefix of every Redis key and channel: processes with the same one form a cluster."""


class _Bucket:
    """A token bucket: once a connection has sent more than ``burst`` messages faster than
    ``rate``, its further messages are dropped until it slows down."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def available(self) -> bool:
        now = time.monotonic()
        self.tokens = refilled(self.tokens, self.stamp, now, self.rate, self.burst)
        self.stamp = now
        return self.tokens >= 1

    def charge(self) -> None:
        self.tokens -= 1


class _BodyCheck:
    """Read an HTTP request body before the app does, and refuse what the WebSocket refuses of
    a message, alike:

    - over ``limit`` bytes: a 413, by its ``Content-Length`` before reading it, or (sent in
      chunks) as soon as it grows past the limit.  Without it a body of any size was read into
      memory, parsed, and echoed back whole in the 422 that refused it;
    - a JSON body that is no JSON (nested more than ``MAX_NESTING`` deep, not UTF-8, or not
      JSON at all): a 400 with the WebSocket's ``bad_json`` code and text, in the lobby's error
      shape.  FastAPI answered a body nested too deeply, or not UTF-8, with a generic "There
      was an error parsing the body"; and a body nested just less deeply than its parser's
      stack allows could pass it and fail later.
    """

    def __init__(self, app: Any, limit: int, allowed_origins: Sequence[str] = ()) -> None:
        self.app, self.limit, self.allowed = app, limit, allowed_origins
        self.detail = {"detail": f"a request body may hold at most {limit} bytes", "code": "too_large"}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH", "DELETE"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if origin is not None and not _same_site(
            origin.decode("latin-1"), headers.get(b"host", b"").decode("latin-1"), self.allowed
        ):
            # Another site's page: a browser sends a body with no type, or text/plain, without
            # asking first (CORS), so such a page could register names with its visitors'
            # addresses and read their tokens.  A script sends no Origin; the page its own.
            foreign = {
                "detail": "a request from another site's page is refused: only simple GETs may cross sites",
                "code": "foreign_origin",
            }
            await JSONResponse(foreign, status_code=403)(scope, receive, send)
            return
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await JSONResponse(self.detail, status_code=413)(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending it all: nobody to answer
            body += message.get("body", b"")
            if len(body) > self.limit:
                await JSONResponse(self.detail, status_code=413)(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        if body and not _json_typed(headers.get(b"content-type")):
            # FastAPI would read it as text and refuse it with a puzzling 422 ("Input should be
            # a valid dictionary"), JSON in it or not; and a page elsewhere may send text/plain
            # without asking first (CORS), application/json not.
            await JSONResponse(_NOT_JSON_TYPED, status_code=415)(scope, receive, send)
            return
        if body:
            try:
                loads_json(bytes(body))
            except ProtocolError as error:
                answer = JSONResponse({"detail": error.message, "code": error.code}, status_code=400)
                await answer(scope, receive, send)
                return
            if not headers.get(b"content-type"):
                # A JSON body sent with no type (docs/protocol.md allows it): FastAPI would read
                # it as text and refuse it with a 422, so it is given the type it was read as.
                untyped = [(name, value) for name, value in scope["headers"] if name != b"content-type"]
                scope = {**scope, "headers": [*untyped, (b"content-type", b"application/json")]}
        read = False

        async def replay() -> Any:
            nonlocal read
            if not read:
                read = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


_NOT_JSON_TYPED = {
    "detail": "a request body must be JSON, sent with Content-Type: application/json",
    "code": "bad_content_type",
}

_HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "bad_content_type",
}
"""The ``code`` of an HTTP refusal made by the framework (an unknown path, a wrong method)."""


def _json_typed(content_type: bytes | None) -> bool:
    """A body FastAPI reads as JSON: ``application/json``, ``application/…+json``, or no type."""
    if not content_type:
        return True
    kind = content_type.split(b";", 1)[0].strip().lower()
    return kind == b"application/json" or (kind.startswith(b"application/") and kind.endswith(b"+json"))


def _sendable(value: Any) -> Any:
    """``value`` made fit for a JSON answer: a number JSON has no text for (``inf``, ``nan``)
    and a string UTF-8 cannot encode (a lone surrogate, ``"\\ud800"``) are written as text.
    FastAPI's 422 echoes the input it refused, and failed with a 500 on such values."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        return value if text_of(value) is not None else value.encode("utf-8", "backslashreplace").decode()
    if isinstance(value, dict):
        return {_sendable(key): _sendable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sendable(item) for item in value]
    return value


# At module level: with postponed annotations, FastAPI resolves a parameter's annotation in the
# module's namespace, so an alias local to create_app() broke every endpoint that takes a token
# (and /openapi.json) with a 500.
Auth = Annotated[str | None, Header(description="Bearer TOKEN, the player's token")]
Code = Annotated[
    str | None, Query(max_length=64, description="a private table's invitation (or send a player's token)")
]


class _Body(BaseModel):
    # As over the WebSocket: an unknown field or a wrong type is refused, not ignored or converted.
    model_config = ConfigDict(extra="forbid", strict=True)


class NewPlayer(_Body):
    name: str = Field(max_length=200, examples=["Ana"])


class NewTable(_Body):
    rules: Literal["classic", "table"] = "classic"
    seats: list[Literal["you", "open", "easy", "hard", "expert"]] = Field(
        min_length=4, max_length=4, examples=[["you", "open", "hard", "easy"]]
    )
    private: bool = False
    clock: float | None = Field(default=None, ge=0.05, le=600, allow_inf_nan=False)
    seed: str | None = Field(default=None, max_length=64)
    """Taken only by a server started with ``--allow-seed`` (tests, benchmarks)."""


class QuickTable(_Body):
    rules: Literal["classic", "table"] = "classic"
    level: Literal["easy", "hard", "expert"] = "hard"


def create_app(
    store: Store,
    settings: Settings | None = None,
    *,
    allowed_origins: Sequence[str] = (),
    cluster: ClusterSettings | None = None,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> FastAPI:
    """The app over ``store``; WebSocket upgrades from another origin than the page's own
    (or one of ``allowed_origins``) are refused.  With ``cluster``, this process is one of
    several sharing the store (PostgreSQL) and a Redis (docs/deploy.md).

    ``limits`` (by default :class:`Limits`' own) caps the players and tables one client
    address may create, over HTTP and the WebSocket alike, counted on ``clock`` (seconds;
    tests give their own); nothing a match in progress needs is limited."""
    tables_holder: dict[str, Tables] = {}
    limiter = AddressLimits(limits, clock)
    cluster_holder: dict[str, Cluster] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store.migrate()
        tables = Tables(store, settings)
        tables_holder["tables"] = tables
        if cluster is not None:
            node = uuid.uuid4().hex
            leases = Leases(store, node, cluster.lease_seconds)
            bus = Bus(cluster.redis_url, node, prefix=cluster.prefix, presence_ttl=cluster.lease_seconds)
            member = Cluster(tables, bus, leases)
            # Tables are taken as their leases allow (the first sweep), not all at once.
            await member.start()
            cluster_holder["cluster"] = member
        else:
            restored = await tables.restore()
            if restored:
                log.info("restored %d tables", restored)
        try:
            yield
        finally:
            if "cluster" in cluster_holder:
                await cluster_holder["cluster"].close()
            await tables.close()
            store.close()
            # Read by `sobedesce serve`: a stop that failed on the way says so, not "stored".
            app.state.stopped_cleanly = True

    app = FastAPI(
        title="Sobe e Desce",
        summary="Play Sobe e Desce online: lobby, tables over WebSockets, records and the riscos ranking.",
        version=_version(),
        lifespan=lifespan,
    )
    app.add_middleware(_BodyCheck, limit=MAX_MESSAGE_BYTES, allowed_origins=tuple(allowed_origins))
    # What anyone may read (the leaderboard, the matches, their records, the open tables) may
    # be read by another site's page too (a club's own page): simple GETs from any origin, with
    # no credentials and no other header (a token's Authorization is refused at the preflight).
    app.add_middleware(_CrossSiteReads)

    def tables() -> Tables:
        return tables_holder["tables"]

    def member() -> Cluster | None:
        return cluster_holder.get("cluster")

    async def who(authorization: str | None) -> Any:
        token = _bearer(authorization)
        if token is None:
            raise ServerError("unauthorized", "send your player token: Authorization: Bearer TOKEN")
        return await tables().authenticate(token)

    async def person(authorization: Auth = None) -> Any:
        # A dependency: FastAPI resolves it before it reads the body, so a request without a
        # valid token is refused as such (401) whatever its body, not for the body (422).
        return await who(authorization)

    signed_in = Depends(person)

    async def maybe_person(authorization: Auth = None) -> Any:
        # A token is optional where it only shows more (one's private matches): none is no
        # one, and a token sent is checked (an unknown one is a 401, not ignored).
        return None if authorization is None else await who(authorization)

    signed_in_or_not = Depends(maybe_person)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Any, error: RequestValidationError) -> JSONResponse:
        errors = error.errors()
        if any(e.get("type") == "missing" and tuple(e.get("loc", ())) == ("body",) for e in errors):
            # No body where one is needed: an empty body is no JSON (a 400 bad_json, as a body
            # of spaces is), not a 422 "body: Field required".
            return JSONResponse({"detail": EMPTY_BODY, "code": "bad_json"}, status_code=400)
        # FastAPI's own answer, but for values it could not write (a 500 instead of the 422).
        return JSONResponse({"detail": _sendable(jsonable_encoder(errors))}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Any, error: StarletteHTTPException) -> JSONResponse:
        # An unknown path, a wrong method: the lobby's error shape, with a code, as every
        # refusal but a 422 (their headers kept: a 405's Allow).
        code = _HTTP_CODES.get(error.status_code, "bad_request" if error.status_code < 500 else "internal")
        return JSONResponse(
            {"detail": error.detail, "code": code}, status_code=error.status_code, headers=error.headers
        )

    @app.exception_handler(ServerError)
    async def server_error(request: Any, error: ServerError) -> JSONResponse:
        body = {"detail": error.message, "code": error.code}
        if isinstance(error, RateLimited):
            return JSONResponse(body, status_code=429, headers={"Retry-After": str(error.retry_after)})
        status = _STATUS.get(error.code, 400)
        # A 401 says how to authenticate (RFC 9110).
        return JSONResponse(body, status_code=status, headers={"WWW-Authenticate": "Bearer"} if status == 401 else None)

    @app.exception_handler(StoreError)
    async def store_error(request: Any, error: StoreError) -> JSONResponse:
        # The database cannot be reached (or failed): a 500 with a plain-text body before.
        log.warning("a request failed: the store failed: %s", error)
        return JSONResponse(
            {"detail": STORE_DOWN, "code": "unavailable"}, status_code=503, headers={"Retry-After": "5"}
        )

    @app.post("/api/players", tags=["players"], status_code=201, responses=_refusals(*_BODY, 409, 429))
    async def register(body: NewPlayer, request: Request) -> dict[str, Any]:
        """Register a display name; the answer holds the player's secret token (shown once)."""
        limiter.take("registrations", _host(request))
        player, token = await tables().register(body.name)
        return {"player": {"id": player.id, "name": player.name}, "token": token}

    @app.get("/api/me", tags=["players"], responses=_refusals(401))
    async def me(player: Any = signed_in) -> dict[str, Any]:
        return {"id": player.id, "name": player.name}

    # `:path`: a name may hold a "/" (sent as %2F, which the server decodes before routing).
    @app.get("/api/players/{name:path}/history", tags=["players"], responses=_refusals(404))
    async def history(
        name: str,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
        caller: Any = signed_in_or_not,
    ) -> list[dict[str, Any]]:
        """A player's finished matches, newest first; ``before``: only those whose match id is
        lower (the next page: the last one's ``match``).  Those of private tables are listed
        to the player alone (their token in ``Authorization``)."""
        player = await tables().read(store.player_by_name, name)
        if player is None:
            raise ServerError("no_player", f"no player {shown(name)}")
        own = caller is not None and caller.id == player.id
        entries = await tables().read(store.history, player.id, limit, before, private=own)
        return [
            {
                "match": e.match_id,
                "table": e.table_id,
                "rules": e.rules,
                "finished_at": e.finished_at.isoformat(),
                "seat": e.seat,
                "score": e.score,
                "riscos": e.riscos,
                "won": e.won,
                "with_bots": e.with_bots,
                "players": e.players,
                "scores": e.scores,
            }
            for e in entries
        ]

    @app.get("/api/leaderboard", tags=["ranking"], responses=_refusals())
    async def leaderboard(
        among: Literal["people", "bots", "all"] = "people",
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        since: datetime | None = None,
    ) -> list[dict[str, Any]]:
        """Riscos and rating: ``people`` counts matches among people only, ``bots`` those with bots;
        ``since`` (an ISO date or time, UTC unless it says), only the matches finished then or
        later.  The rating is each player's one rating, of all their matches."""
        if since is not None:
            try:
                since = since.astimezone(UTC) if since.tzinfo is not None else since.replace(tzinfo=UTC)
            except OverflowError:
                # 9999-12-31T23:59-23:59 is after the last moment UTC can write (a 500 before).
                raise RequestValidationError(
                    [
                        {
                            "type": "value_error",
                            "loc": ("query", "since"),
                            "msg": "Value error, out of range once read in UTC (years 1 to 9999)",
                            "input": since.isoformat(),
                        }
                    ]
                ) from None
        rows = await tables().read(store.leaderboard, among=among, limit=limit, since=since)
        return [
            {"player": r.player, "riscos": r.riscos, "played": r.played, "won": r.won, "rating": round(r.rating, 2)}
            for r in rows
        ]

    @app.get("/api/tables", tags=["tables"], responses=_refusals())
    async def list_tables() -> list[dict[str, Any]]:
        """Public tables open or in play."""
        joined = member()
        return await joined.list_tables() if joined is not None else tables().list_tables()

    @app.post("/api/tables", tags=["tables"], status_code=201, responses=_refusals(*_BODY, 401, 429))
    async def create_table(body: NewTable, request: Request, player: Any = signed_in) -> dict[str, Any]:
        """A new table; sit at it over the WebSocket with ``join``."""
        limiter.take("tables", _host(request))
        room = await tables().create(
            player, body.rules, body.seats, private=body.private, clock=body.clock, seed=body.seed
        )
        info = room.public()
        info["invite"] = room.invite_code
        return info

    @app.post("/api/quick", tags=["tables"], status_code=201, responses=_refusals(*_BODY, 401, 429))
    async def quick(
        request: Request,
        player: Any = signed_in,
        body: Annotated[QuickTable | None, Body()] = None,
    ) -> dict[str, Any]:
        """You and three bots: the match starts as soon as you join the table.  Every field
        has a default, so the body may be left out (``classic``, ``hard``)."""
        limiter.take("tables", _host(request))
        body = body or QuickTable()
        room = await tables().create(player, body.rules, ["you", body.level, body.level, body.level])
        return room.public()

    @app.get("/api/tables/{table_id}", tags=["tables"], responses=_refusals(404))
    async def table(table_id: str) -> dict[str, Any]:
        joined = member()
        return await joined.table_info(table_id) if joined is not None else await tables().table_info(table_id)

    async def finished_record(match_id: int, caller: Any, code: str | None) -> str:
        # An id no stored match can have (0, negative, beyond the store's integers) names none:
        # the store answers it without asking the database, which would refuse it (store._storable).
        found = await tables().read(store.finished_match, match_id)
        none = ServerError("no_match", f"no finished match {shown(match_id)}")
        if found is None:
            raise none
        if found.private:
            # A private table's match is its players' and its invitation's: to anyone else, no
            # such match (its record shows every hand, and who played with whom).
            invited = code is not None and code == found.invite
            seated = caller is not None and caller.id in (await tables().read(store.match_players, match_id) or [])
            if not (invited or seated):
                raise none
        return found.record

    @app.get("/api/matches", tags=["matches"], responses=_refusals())
    async def matches(
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
        before: Annotated[int | None, Query(ge=1, le=2**62)] = None,
    ) -> list[dict[str, Any]]:
        """The finished matches of public tables, newest first; ``before``: only those whose id
        is lower."""
        entries = await tables().read(store.matches, limit, before)
        return [
            {
                "match": e.match_id,
                "table": e.table_id,
                "rules": e.rules,
                "finished_at": e.finished_at.isoformat(),
                "rounds": e.rounds,
                "with_bots": e.with_bots,
                "players": e.players,
                "scores": e.scores,
                "riscos": e.riscos,
                "winners": e.winners,
            }
            for e in entries
        ]

    @app.get("/api/matches/{match_id}", tags=["matches"], responses=_refusals(404))
    async def match_summary(match_id: int, code: Code = None, caller: Any = signed_in_or_not) -> dict[str, Any]:
        """A finished match: players, rounds, final scores, winners and riscos.  A private
        table's: with its invitation (``code``) or a token of one of its players."""
        text = await finished_record(match_id, caller, code)
        match = read_record(text)
        return {"match": match_id, "players": list(match.players or ()), "summary": summary(match)}

    @app.get("/api/matches/{match_id}/record", tags=["matches"], responses=_refusals(404))
    async def match_record(match_id: int, code: Code = None, caller: Any = signed_in_or_not) -> Response:
        """The record (docs/record.md) of a finished match; a match in play has none to give.
        A private table's: with its invitation (``code``) or a token of one of its players."""
        text = await finished_record(match_id, caller, code)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="sobedesce-match-{match_id}.json"'},
        )

    @app.get("/api/health", tags=["server"])
    async def health() -> JSONResponse:
        try:
            await tables().read(store.ping)
        except StoreError as error:
            # The reason names the database's host: the log has it, the public answer does not.
            log.warning("health check: the store failed: %s", error)
            return JSONResponse({"status": "error", "store": "unavailable"}, status_code=503)
        answer: dict[str, Any] = {"status": "ok", "store": "ok", "tables_in_play": tables().in_play()}
        answer["tables_in_memory"] = tables().in_memory()
        joined = member()
        if joined is not None:
            try:
                await joined.bus.ping()
            except BusError as error:
                log.warning("health check: the bus failed: %s", error)
                return JSONResponse({"status": "error", "store": "ok", "bus": "unavailable"}, status_code=503)
            answer |= {"bus": "ok", "process": joined.node}
        return JSONResponse(answer)

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        if not _origin_ok(websocket, allowed_origins):
            await websocket.close(code=1008, reason="foreign origin")
            return
        await websocket.accept()
        await _serve(websocket, tables(), member(), limiter)

    web = resources.files("sobedesce") / "web"
    if web.is_dir():
        index = web / "index.html"

        @app.get("/", include_in_schema=False)
        async def page() -> Response:
            return FileResponse(str(index), media_type="text/html")

        app.mount("/static", StaticFiles(directory=str(web)), name="static")

    return app


def _version() -> str:
    from sobedesce import __version__

    return __version__


_STATUS = {
    "no_table": 404,
    "no_player": 404,
    "no_match": 404,
    "unauthorized": 401,
    "name_taken": 409,
    "seat_taken": 409,
}
"""The HTTP status of a refusal by its code (any other: 400)."""


class Refusal(BaseModel):
    """A refusal's body: the WebSocket ``error``'s text and code (docs/protocol.md, Errors)."""

    detail: str
    code: str


_REFUSALS: dict[int, str] = {
    400: "Refused: `bad_json` (not JSON, not UTF-8, nested too deeply, empty), or the lobby's refusal "
    "(`bad_name`, `bad_table`, `too_many_tables`, ...), with the WebSocket's text",
    401: "`unauthorized`: no `Authorization: Bearer TOKEN` header, or an unknown token",
    403: "`foreign_origin`: sent by another site's page (an `Origin` not the page's own)",
    404: "Nothing by that name or id: `no_player`, `no_table` (or a private one), `no_match` (or one in play)",
    409: "`name_taken`: the name is in use, whatever its case or accents",
    413: "`too_large`: a body over 64 KiB, unread",
    415: "`bad_content_type`: a body not sent as `application/json`",
    429: "Too many from this client address: `rate_limited`, and a `Retry-After` header (seconds)",
    503: "`unavailable`: the server cannot reach its store; nothing was stored. A `Retry-After` header",
}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer, for its OpenAPI description: each a :class:`Refusal`."""
    return {status: {"model": Refusal, "description": _REFUSALS[status]} for status in (*statuses, 503)}


_BODY = (400, 403, 413, 415)


def _host(connection: Any) -> str | None:
    """The client's address: the peer's, or (from a trusted proxy, by uvicorn's
    ``--forwarded-allow-ips``) the one its ``X-Forwarded-For`` names."""
    client = getattr(connection, "client", None)
    return client.host if client is not None else None


def _bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _origin_ok(websocket: WebSocket, allowed: Sequence[str]) -> bool:
    """No ``Origin`` (a script) or the page's own origin; a browser elsewhere is refused."""
    origin = websocket.headers.get("origin")
    return origin is None or _same_site(origin, websocket.headers.get("host", ""), allowed)


def _same_site(origin: str, host: str, allowed: Sequence[str]) -> bool:
    """``origin`` is the page's own (its host is the request's ``Host``) or one allowed."""
    return origin in allowed or urlsplit(origin).netloc.lower() == host.lower()


class _CrossSiteReads:
    """CORS for what anyone may read: ``GET`` (and ``HEAD``, and the preflights, which refuse
    every other method) answer any ``Origin``; no other request gets a CORS header."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cors = CORSMiddleware(app, allow_origins=["*"], allow_methods=["GET"], allow_credentials=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.cors(scope, receive, send)
        else:
            await self.app(scope, receive, send)


async def _serve(
    websocket: WebSocket, tables: Tables, cluster: Cluster | None, limiter: AddressLimits | None = None
) -> None:
    async def drop() -> None:
        # Too slow, or its last send failed: the connection leaves its table now (no longer
        # counted as its seat's or a spectator, and the others are told), not only once the
        # receive below ends, which waits for a peer that may never answer the close.
        tables.detach(client)
        if cluster is not None:
            await cluster.unlink(client)  # at a table another process holds: it is told too
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="too slow: messages were dropped; join again with since")

    client = Client(websocket.send_text, drop)
    client.start()
    # The address's limits on new players and tables, whichever connection asks.
    share = _Limiter(limiter or AddressLimits(Limits(registrations=None, tables=None)), _host(websocket))
    if cluster is not None:
        cluster.connected(client)
    bucket = _Bucket(RATE, BURST)
    warned = 0.0
    try:
        token = _bearer(websocket.headers.get("authorization"))
        if token is not None:
            try:
                client.player = await tables.authenticate(token)
                client.send({"type": "welcome", "player": {"id": client.player.id, "name": client.player.name}})
            except ServerError as error:
                client.send(error_json(error.code, error.message))
            except StoreError as failure:
                # The connection was dropped without a close frame or a word.
                log.warning("a connection's token could not be read: the store failed (%s)", failure)
                client.send(error_json("unavailable", STORE_DOWN))
        while not client.closed:
            try:
                message = await websocket.receive()
            except WebSocketDisconnect:
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            if len(text) > MAX_MESSAGE_BYTES:
                await websocket.close(code=1009, reason=f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
                break
            if not bucket.available():
                now = time.monotonic()
                if now - warned > 1:
                    warned = now
                    # One warning a second at most, and none per message: answering each (its
                    # id read from JSON) would cost the server what the limit is there to save.
                    client.send(error_json("rate_limited", DROPPED))
                continue
            request_id: str | None = None
            # A decision the table takes costs nothing: a script may play as fast as the
            # game goes.  Everything else, refused decisions included, counts.
            bucket.charge()
            try:
                parsed = parse_message(text)
                request_id = getattr(parsed, "id", None)
                if client.player is not None and isinstance(parsed, (Create, Quick, Rematch)):
                    # Counted here, before a cluster forwards a rematch to the table's process.
                    share.take("tables")
                if cluster is None or not await cluster.handle(client, parsed):
                    await _handle(client, tables, parsed, cluster, share)
                if isinstance(parsed, Act):
                    bucket.tokens += 1
            except ProtocolError as error:
                client.send(error_json(error.code, error.message, error.request_id or request_id))
            except ServerError as error:
                answer = error_json(error.code, error.message, request_id)
                if isinstance(error, RateLimited):
                    answer["retry_after"] = error.retry_after
                client.send(answer)
            except StoreError as error:
                # Not a bug ("internal"): the database is down or unreachable for a moment.
                log.warning("a message failed: the store failed (%s)", error)
                client.send(error_json("unavailable", STORE_DOWN, request_id))
            except Exception:
                log.exception("a message failed")
                client.send(
                    error_json("internal", "the server could not take that message; nothing changed", request_id)
                )
    finally:
        tables.detach(client)
        if cluster is not None:
            await cluster.disconnected(client)
        await client.stop()


@dataclass(frozen=True)
class _Limiter:
    """A connection's share of its address's limits."""

    limits: AddressLimits
    address: str | None

    def take(self, kind: str) -> None:
        self.limits.take(kind, self.address)


async def _handle(
    client: Client, tables: Tables, message: Any, cluster: Cluster | None = None, limiter: _Limiter | None = None
) -> None:
    if isinstance(message, Ping):
        client.send({"type": "pong"})
        return
    if isinstance(message, Hello):
        # A seat here, or (with several processes) a seat at a table another process holds.
        link = client.link
        seated = (client.room is not None and client.seat is not None) or (
            link is not None and link.request.get("type") == "join"
        )
        if message.token:
            player = await tables.authenticate(message.token)
            if seated and client.player is not None and player.id != client.player.id:
                raise ServerError("seated", "this connection sits at a table as another player: leave it first")
            client.player = player
            client.send({"type": "welcome", "player": {"id": player.id, "name": player.name}})
        elif message.name is not None:
            if seated:
                raise ServerError("seated", "this connection sits at a table: leave it before registering a name")
            if limiter is not None:
                limiter.take("registrations")
            player, token = await tables.register(message.name)
            client.player = player
            client.send({"type": "welcome", "player": {"id": player.id, "name": player.name}, "token": token})
        else:
            raise ServerError("bad_message", "hello needs your token, or a name to register")
        return
    if isinstance(message, ListTables):
        listed = await cluster.list_tables() if cluster is not None else tables.list_tables()
        answer: dict[str, Any] = {"type": "tables", "tables": listed}
        if client.player is not None:
            answer["yours"] = await tables.yours(client.player.id)
            answer["kept"] = tables.kept_for(client.player.id)
        client.send(answer)
        return
    # Looking on needs no name (a link to watch sent to a friend): everything that seats or
    # decides does.
    if isinstance(message, Watch):
        await tables.watch(client, message.table, code=message.code, since=message.since)
        return
    if isinstance(message, Leave):
        await tables.leave(client)
        client.send({"type": "left"})
        return
    if client.player is None:
        raise ServerError("unauthorized", "say hello first, with your token or a name")
    if cluster is not None and isinstance(message, (Create, Quick)):
        # A new table is this process's: the connection leaves a table another process holds.
        await cluster.unlink(client)
    if isinstance(message, Create):
        room = await tables.create(
            client.player, message.rules, message.seats, private=message.private, clock=message.clock, seed=message.seed
        )
        created = room.public()
        created["invite"] = room.invite_code
        client.send({"type": "created", "table": created})
        if "you" in message.seats:
            await tables.join(client, room.id)
    elif isinstance(message, Quick):
        room = await tables.create(client.player, message.rules, ["you", message.level, message.level, message.level])
        await tables.join(client, room.id)
    elif isinstance(message, Join):
        await tables.join(client, message.table, seat=message.seat, code=message.code, since=message.since)
    elif isinstance(message, Close):
        await tables.close_table(client)
    elif isinstance(message, Act):
        await tables.act(client, message.id, message.v, action_from_json(message.action))
    elif isinstance(message, Hint):
        version, options = await tables.hint(client)
        client.send(hint_json(message.id, version, options))
    elif isinstance(message, Say):
        tables.say(client, message.phrase)
    elif isinstance(message, Rematch):
        await tables.rematch(client)
