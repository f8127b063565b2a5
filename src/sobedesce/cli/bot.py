"""``sobedesce bot``: seat a bot at an online table of a ``sobedesce serve`` server, as a client
in a process of its own.

The bot is any name :func:`~sobedesce.bots.make_bot` takes (a level, a built-in bot with its
settings, ``package.module:ClassName``, an entry point).  It plays its seat over the WebSocket
protocol (docs/protocol.md) as any other client: whenever the seat's ``state`` says it is to
act, the view is rebuilt from that state alone (:func:`~sobedesce.server.protocol.view_from_state`)
and handed to ``bot.act``.  The bot never sees more than its own seat's state, and the server
never runs its code: the safe way to seat a bot one does not trust (docs/bots.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

DEFAULT_RULES = "classic"
ANSWER_TIMEOUT = 60.0
"""Seconds the lobby's answers (``welcome``, ``joined``) may take before the server is called silent."""
RECONNECT_FOR = 300.0
"""Seconds of failed reconnections after which a dropped connection is given up."""
MAX_SERVER_MESSAGE = 16 * 1024 * 1024
LEVEL_CHOICES = ("easy", "hard", "expert")
RULE_CHOICES = ("classic", "table")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="seat a bot at an online table of a `sobedesce serve` server, in a process of its own",
        description=(
            "Play a seat at a `sobedesce serve` server with a bot: any name the arena takes (a level, "
            "basic, strong:play_samples=50, package.module:ClassName, an entry point). The bot decides "
            "in this process from its own seat's state only. Sit at an open seat (--table), a private "
            "table (--code), or try the bot against three of the server's bots (--quick LEVEL). Prints "
            "each round's result and the match's; exits 0 at the match's end."
        ),
    )
    parser.add_argument("url", metavar="URL", help="the server's address, like http://127.0.0.1:8000")
    parser.add_argument("--bot", required=True, metavar="NAME", help="the bot to play with (as the arena's --bots)")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--name", help="register this new player name (its token is printed, for --token next time)")
    who.add_argument("--token", help="the token of a player registered before")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="ID", help="take an open seat at this table")
    where.add_argument("--code", metavar="CODE", help="take a seat at the private table of this invitation code")
    where.add_argument(
        "--quick",
        metavar="LEVEL",
        choices=LEVEL_CHOICES,
        help=f"play against three of the server's bots at this level ({', '.join(LEVEL_CHOICES)})",
    )
    parser.add_argument(
        "--rules", choices=RULE_CHOICES, default=None, help=f"with --quick: the rule set (default: {DEFAULT_RULES})"
    )
    parser.add_argument(
        "--matches", type=int, default=None, metavar="N", help="with --quick: matches to play (default: 1)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the bot's random generator (default: a random one); with it, a level's bot plays at its "
        "sample budget, without its clock, so that its decisions depend on the seed alone",
    )
    parser.set_defaults(run=run)


class Refused(Exception):
    """Bad input, or the server refusing it: one line on stderr, exit status 2."""


class Failed(Exception):
    """The bot failed (an illegal action, an exception), or the server went for good: exit status 1."""


def run(args: argparse.Namespace) -> int:
    try:
        client = _client(args)
        return asyncio.run(client.main())
    except Refused as error:
        print(f"sobedesce bot: {error}", file=sys.stderr)
        return 2
    except Failed as error:
        print(f"sobedesce bot: {error}", file=sys.stderr)
        return 1


def _client(args: argparse.Namespace) -> BotClient:
    if args.quick is None:
        extra = [
            option for option, value in (("--rules", args.rules), ("--matches", args.matches)) if value is not None
        ]
        if extra:
            raise Refused(f"{' and '.join(extra)} work{'s' if len(extra) == 1 else ''} only with --quick")
    matches = 1 if args.matches is None else args.matches
    if matches < 1:
        raise Refused(f"--matches is at least 1, not {matches}")
    if args.table is not None and not args.table.strip():
        raise Refused("--table needs a table's id")
    ws_url = websocket_url(args.url)
    # Imported here: `sobedesce bot --help` needs none of it.
    from sobedesce.bots import make_bot

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    try:
        bot = make_bot(args.bot, timed=args.seed is None)
    except (ValueError, TypeError) as error:
        raise Refused(str(error)) from None
    return BotClient(
        base=args.url.rstrip("/"),
        ws_url=ws_url,
        bot=bot,
        bot_name=args.bot,
        rng=random.Random(seed),
        seed=seed,
        name=args.name,
        token=args.token,
        table=args.table,
        code=args.code,
        quick=args.quick,
        rules=args.rules or DEFAULT_RULES,
        matches=matches,
    )


def websocket_url(url: str) -> str:
    """The WebSocket address of the server at ``url`` (``http://host:port``): its ``/ws``."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 (checks the port: a ValueError for 'host:port' that is none)
    except ValueError as error:
        raise Refused(f"bad server URL {url!r}: {error}") from None
    schemes = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
    if parts.scheme not in schemes or not parts.hostname:
        raise Refused(f"bad server URL {url!r}: give the server's address, like http://127.0.0.1:8000")
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((schemes[parts.scheme], parts.netloc, path, "", ""))


@dataclass
class BotClient:
    """One seat played by a bot over the WebSocket protocol."""

    base: str
    ws_url: str
    bot: Any
    bot_name: str
    rng: random.Random
    seed: int
    name: str | None
    token: str | None
    table: str | None
    code: str | None
    quick: str | None
    rules: str
    matches: int
    # What the connection has been told.
    seat: int | None = None
    table_rules: str = DEFAULT_RULES
    names: list[str] = field(default_factory=lambda: [f"seat {n}" for n in range(4)])
    v: int | None = None
    state: dict[str, Any] | None = None
    acted_at: int | None = None
    over: bool = False
    sent: tuple[str, Any] | None = None
    """The id and the action of the last decision sent."""
    announced: bool = False
    """The table's rules and players said (its first ``table`` message)."""
    registered: str | None = None
    """The player name this run registered (its token printed), if it did."""
    _ids: int = 0

    async def main(self) -> int:
        from websockets.exceptions import ConnectionClosed

        ws = await self._open(first=True)
        try:
            await self._hello(ws)
            for number in range(self.matches):
                try:
                    await self._sit(ws)
                except ConnectionClosed:
                    raise Failed("the server closed the connection before the bot sat down") from None
                ws = await self._play(ws)
                if number + 1 < self.matches:
                    self.table = None
        finally:
            with contextlib.suppress(Exception):
                await ws.close()
        return 0

    # -- the connection -------------------------------------------------------------------

    async def _open(self, *, first: bool = False) -> Any:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidURI

        try:
            return await asyncio.wait_for(
                connect(self.ws_url, max_size=MAX_SERVER_MESSAGE, open_timeout=ANSWER_TIMEOUT), ANSWER_TIMEOUT
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            if not first:
                raise
            status = getattr(getattr(error, "response", None), "status_code", None)
            if status is not None:
                # Something answered, but no game's WebSocket is there (a path after the
                # address, another program on the port).
                raise Refused(
                    f"no sobedesce server answers at {self.ws_url} (HTTP {status}): give the server's address,"
                    " like http://127.0.0.1:8000"
                ) from None
            reason = str(error) or type(error).__name__
            raise Refused(f"cannot reach the server at {self.base} ({self.ws_url}): {reason}") from None

    async def _request(self, ws: Any, message: dict[str, Any], *answers: str) -> dict[str, Any]:
        """Send ``message`` and read up to its answer (one of ``answers``, or an ``error``)."""
        await ws.send(json.dumps(message))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ANSWER_TIMEOUT
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                raise Refused(f"the server did not answer {message['type']!r} within {ANSWER_TIMEOUT:g} s") from None
            answer = json.loads(raw)
            if answer.get("type") in answers or answer.get("type") == "error":
                return dict(answer)

    async def _hello(self, ws: Any) -> None:
        message: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            message["token"] = self.token
        else:
            message["name"] = self.name
        answer = await self._request(ws, message, "welcome")
        if answer["type"] == "error":
            if self.token is not None:
                raise Refused(f"the server refused the token: {_said(answer)}")
            raise Refused(f"the server refused the name {self.name!r}: {_said(answer)}")
        player = answer["player"]["name"]
        if self.token is None:
            self.token = answer["token"]
            self.registered = player
            _say(
                f"registered {player}; its token (printed this once; play as {player} again with --token): {self.token}"
            )
        else:
            _say(f"playing as {player}")

    async def _sit(self, ws: Any) -> None:
        if self.quick is not None:
            message: dict[str, Any] = {"type": "quick", "rules": self.rules, "level": self.quick}
        elif self.code is not None:
            message = {"type": "join", "code": self.code}
        else:
            message = {"type": "join", "table": self.table}
        answer = await self._request(ws, message, "joined")
        if answer["type"] == "error":
            also = ""
            if self.registered is not None:
                also = f"; the name {self.registered} is registered now: try again with --token {self.token}"
            raise Refused(f"cannot sit at the table: {_said(answer)}{also}")
        self.table, self.seat = answer["table"], answer["seat"]
        self.v = self.state = self.acted_at = None
        self.over = self.announced = False
        self.names = [f"seat {n}" for n in range(4)]
        _say(f"seated at table {self.table}, seat {self.seat}, with bot {self.bot_name} (seed {self.seed})")

    async def _reconnect(self, reason: str) -> Any:
        """A new connection, back in the seat with every event after the last one seen."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        loop = asyncio.get_running_loop()
        give_up = loop.time() + RECONNECT_FOR
        delay = 0.5
        while True:
            print(f"sobedesce bot: {reason}; connecting again in {delay:g} s", file=sys.stderr, flush=True)
            await asyncio.sleep(delay)
            try:
                ws = await self._open()
                welcome = await self._request(ws, {"type": "hello", "token": self.token}, "welcome")
                if welcome["type"] == "error":
                    raise Failed(f"the server no longer knows this player: {_said(welcome)}")
                join: dict[str, Any] = {"type": "join", "table": self.table}
                if self.code is not None:
                    join["code"] = self.code
                if self.v is not None:
                    join["since"] = self.v
                joined = await self._request(ws, join, "joined")
                if joined["type"] == "joined":
                    # The seat's decision is taken again from the state that follows (one sent
                    # before the drop is answered 'stale' if it was taken).
                    self.acted_at = None
                    return ws
                if joined.get("code") != "unavailable":
                    raise Failed(f"cannot come back to table {self.table}: {_said(joined)}")
                reason = f"table {self.table} is moving: {joined['message']}"
            except (OSError, TimeoutError, Refused, ConnectionClosed, InvalidHandshake, InvalidURI) as error:
                reason = f"cannot reach the server ({error or type(error).__name__})"
            if loop.time() >= give_up:
                raise Failed(f"gave up after {RECONNECT_FOR:g} s: {reason}")
            delay = min(delay * 2, 10.0)

    # -- the match ------------------------------------------------------------------------

    async def _play(self, ws: Any) -> Any:
        """Play the seat until the match is over; the connection then open."""
        from websockets.exceptions import ConnectionClosed

        while not self.over:
            try:
                await self._decide(ws)
                message = json.loads(await ws.recv())
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                what = "the server is restarting" if code == 1012 else "the connection dropped"
                ws = await self._reconnect(what)
                continue
            await self._take(ws, message)
        await self._record(ws)
        return ws

    async def _take(self, ws: Any, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "table":
            self._table(message["table"])
        elif kind == "snapshot":
            self._table(message["table"])
            self.v, self.state = message["v"], message["state"]
            if self.state is not None and self.state["phase"] == "match_over":
                _say(f"the match at table {self.table} is over: {self._scores(self.state['scores'])}")
                self.over = True
        elif kind == "update":
            for event in message["events"]:
                self._event(event)
            self.v, self.state = message["v"], message["state"]
        elif kind == "error":
            code = message.get("code")
            if code in ("stale", "not_your_turn", "not_started"):
                return  # the decision was overtaken: the next update brings the state
            if code == "illegal" and self.sent is not None and message.get("id") == self.sent[0]:
                raise Failed(
                    f"bot {self.bot_name} broke the rules: {self.sent[1]} is illegal: {message.get('message')}"
                )
            if code in ("illegal", "bad_card", "bad_message"):
                raise Failed(f"bot {self.bot_name} made a decision the server refused: {_said(message)}")
            if code == "unavailable":
                self.acted_at = None  # decide again from the state at hand
                return
            if code == "rate_limited":
                await asyncio.sleep(1.0)
                self.acted_at = None
                return
            print(f"sobedesce bot: the server said {_said(message)}", file=sys.stderr, flush=True)
        elif kind == "left":
            raise Failed(f"table {self.table} closed before its match started")

    async def _decide(self, ws: Any) -> None:
        state = self.state
        if state is None or state.get("legal") is None or state.get("to_act") != self.seat or self.acted_at == self.v:
            return
        from sobedesce.core import Action
        from sobedesce.server.protocol import action_json, view_from_state

        try:
            view = view_from_state(state, self.table_rules)
        except ValueError as error:
            raise Failed(f"the server sent a state this client cannot read: {error}") from None
        try:
            # In a thread: the connection keeps answering the server's pings while the bot thinks.
            action = await asyncio.to_thread(self.bot.act, view, self.rng)
        except Exception as error:
            where = traceback.extract_tb(error.__traceback__)[-1]
            raise Failed(
                f"bot {self.bot_name} raised {type(error).__name__}: {error} "
                f"at {where.filename}:{where.lineno} in {where.name}"
            ) from None
        if not isinstance(action, Action):
            raise Failed(f"bot {self.bot_name} broke the rules: returned {action!r}, which is not an action")
        self.acted_at = self.v
        self._ids += 1
        # An illegal one too: the server refuses it with the engine's reason, said as the arena
        # says it (and the match goes on, its bot playing the seat once this client has gone).
        self.sent = (f"a{self._ids}", action)
        await ws.send(json.dumps({"type": "act", "id": f"a{self._ids}", "v": self.v, "action": action_json(action)}))

    async def _record(self, ws: Any) -> None:
        """Say where the finished match's record is, once the server names it (a moment later)."""
        from websockets.exceptions import ConnectionClosed

        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5.0
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.0, deadline - loop.time())))
                if message.get("type") == "table" and message["table"].get("match_id") is not None:
                    # A private table's record is given with its invitation (or a player's token).
                    query = f"?code={quote(self.code)}" if message["table"].get("private") and self.code else ""
                    _say(f"record: {self.base}/api/matches/{message['table']['match_id']}/record{query}")
                    return

    def _table(self, table: dict[str, Any]) -> None:
        self.table_rules = table.get("rules", self.table_rules)
        for seat in table.get("seats", []):
            if seat.get("name"):
                self.names[seat["seat"]] = seat["name"] + (" (this bot)" if seat["seat"] == self.seat else "")
        if not self.announced and table.get("status") in ("playing", "finished"):
            self.announced = True
            _say(f"{self.table_rules} rules; seats: {', '.join(f'{n} {name}' for n, name in enumerate(self.names))}")

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "round":
            trump = event["trump"] or "-"
            parts = []
            for seat in range(4):
                if event["active"][seat] is False:
                    change = "sat out"
                else:
                    won = event["tricks_won"][seat]
                    change = f"{event['deltas'][seat]:+d}, {won} trick{'' if won == 1 else 's'}"
                parts.append(f"{self.names[seat]} {event['scores'][seat]} ({change})")
            _say(f"round {event['round']}, trump {trump} x{event['multiplier']}: {'; '.join(parts)}")
        elif kind == "match":
            winners = ", ".join(self.names[seat] for seat in event["winners"])
            riscos = ", ".join(f"{self.names[s]} {_number(r)}" for s, r in enumerate(event["riscos"]))
            _say(f"match over: won by {winners}; scores {self._scores(event['scores'])}; riscos {riscos}")
            self.over = True

    def _scores(self, scores: list[int]) -> str:
        return ", ".join(f"{self.names[seat]} {score}" for seat, score in enumerate(scores))


def _number(value: float) -> str:
    return f"{value:+.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value):+d}"


def _said(error: dict[str, Any]) -> str:
    text = f"{error.get('message', '')} ({error.get('code', 'error')})"
    if error.get("retry_after") is not None:
        text += f"; try again in {error['retry_after']} s"
    return text


def _say(line: str) -> None:
    print(line, flush=True)
