"""Rate limits per client address on what a client may add to the store: new players and new
tables, whether asked for over HTTP or over the WebSocket (docs/protocol.md, "Limits").

Nothing a match in progress needs (joining, watching, deciding, hints, leaving, reading the
lobby) is limited here: a person whose address has used its budget plays on.  Each process
keeps its own counts (docs/deploy.md).
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .tables import ServerError

__all__ = ["AddressLimits", "Limit", "Limits", "RateLimited", "address_key"]

_UNITS = {"s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0}
_LIMIT = re.compile(r"^\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)?\s*([a-z]*)\s*$")


@dataclass(frozen=True)
class Limit:
    """``count`` requests every ``per`` seconds from one address: a token bucket, ``count`` at
    once, then one every ``per / count`` seconds as time passes."""

    count: int
    per: float

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ValueError(f"a limit counts 1 request or more, not {self.count!r}")
        if not (isinstance(self.per, (int, float)) and math.isfinite(self.per) and self.per > 0):
            raise ValueError(f"a limit's period is a positive number of seconds, not {self.per!r}")

    @classmethod
    def parse(cls, text: str) -> Limit | None:
        """``30/h``, ``10/15min``, ``5/30s``, ``100/d`` or ``20/600`` (seconds); ``off`` for none."""
        if text.strip().lower() in ("off", "none", "0"):
            return None
        found = _LIMIT.match(text.lower())
        if found is None or (found.group(2) is None and not found.group(3)):
            raise ValueError(f"a limit is COUNT/PERIOD (30/h, 10/15min, 20/600) or 'off', not {text!r}")
        count, number, unit = int(found.group(1)), found.group(2), found.group(3)
        if unit and unit not in _UNITS:
            raise ValueError(f"a limit's period is in s, min, h or d, not {unit!r}")
        return cls(count, float(number or 1) * _UNITS.get(unit, 1.0))

    def text(self) -> str:
        """``30 an hour``, ``20 every 10 minutes``."""
        return f"{self.count} {_period(self.per)}"


def _period(seconds: float) -> str:
    for size, one, many in ((86400, "a day", "days"), (3600, "an hour", "hours"), (60, "a minute", "minutes")):
        if seconds >= size and (seconds / size).is_integer():
            n = int(seconds // size)
            return one if n == 1 else f"every {n} {many}"
    return "a second" if seconds == 1 else f"every {seconds:g} seconds"


def _wait(seconds: int) -> str:
    if seconds < 60:
        return "1 second" if seconds == 1 else f"{seconds} seconds"
    minutes = math.ceil(seconds / 60)
    return "1 minute" if minutes == 1 else f"{minutes} minutes"


LOOPBACK = ("127.0.0.0/8", "::1")


@dataclass(frozen=True)
class Limits:
    """What one client address may add to the store.  ``None`` turns a limit off."""

    registrations: Limit | None = Limit(30, 3600)
    """New players (``POST /api/players``, ``hello`` with a ``name``), refused or not."""
    tables: Limit | None = Limit(120, 3600)
    """New tables (``POST /api/tables``, ``POST /api/quick``, ``create``, ``quick``), refused or not."""
    exempt: tuple[str, ...] = LOOPBACK
    """Addresses or networks never limited: by default the machine itself (a local script, a
    benchmark; a reverse proxy on the same machine must send ``X-Forwarded-For``)."""
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            networks = tuple(ipaddress.ip_network(net.strip(), strict=False) for net in self.exempt)
        except ValueError as error:
            raise ValueError(f"not an address or network: {error}") from None
        object.__setattr__(self, "networks", networks)


class RateLimited(ServerError):
    """A request over its address's limit: answered with code ``rate_limited`` (HTTP 429)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message)
        self.retry_after = retry_after


def address_key(host: str | None) -> tuple[str, ipaddress.IPv4Address | ipaddress.IPv6Address | None]:
    """What a client address is counted under, and the address: an IPv4 address alone, an
    IPv6 address by its /64 (one subscriber's network: its addresses are free to pick), an
    IPv4 address written as IPv6 (``::ffff:1.2.3.4``) as the IPv4 one.  An address with a port
    (``1.2.3.4:5678``, ``[2001:db8::1]:80``) counts as the address alone.  No address, or one that
    is not an IP address (``X-Forwarded-For: junk``, from a trusted proxy), counts under the one
    key ``unknown``, shared by all of them: a client cannot get a fresh budget by writing a new
    name, and never passes for an exempt address."""
    address = _parse(host.strip()) if host else None
    if address is None:
        return UNKNOWN, None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped), address.ipv4_mapped
        return str(ipaddress.IPv6Network((address.exploded, 64), strict=False)), address
    return str(address), address


UNKNOWN = "unknown"
"""The key of every client whose address is missing or is not an IP address."""


def _parse(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``host`` as an IP address, without the port it may carry; ``None`` if it is not one."""
    if host.startswith("[") and "]" in host:
        host = host[1 : host.index("]")]  # [2001:db8::1]:80
    elif host.count(":") == 1:
        host = host.partition(":")[0]  # 192.0.2.1:5678
    try:
        return ipaddress.ip_address(host.partition("%")[0])  # without an IPv6 zone (fe80::1%eth0)
    except ValueError:
        return None


def refilled(tokens: float, since: float, now: float, rate: float, capacity: float) -> float:
    """A token bucket's tokens at ``now``: ``tokens`` at ``since``, refilled at ``rate`` a second
    up to ``capacity`` (a clock that went back refills nothing)."""
    return min(capacity, tokens + max(0.0, now - since) * rate)


class _Buckets:
    """One token bucket per address for one :class:`Limit`; a bucket that has filled up again
    is the same as none, and is forgotten."""

    def __init__(self, what: str, limit: Limit, clock: Callable[[], float]) -> None:
        self.what, self.limit, self.clock = what, limit, clock
        self.rate = limit.count / limit.per
        self.buckets: dict[str, tuple[float, float]] = {}
        self.prune_at = 10_000

    def take(self, key: str) -> None:
        now = self.clock()
        capacity = float(self.limit.count)
        held = self.buckets.get(key)
        tokens = capacity if held is None else refilled(held[0], held[1], now, self.rate, capacity)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            retry = max(1, math.ceil((1 - tokens) / self.rate))
            raise RateLimited(
                f"too many {self.what} from your address: at most {self.limit.text()}; try again in {_wait(retry)}",
                retry,
            )
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > self.prune_at:
            self._prune(now)

    def _prune(self, now: float) -> None:
        capacity = float(self.limit.count)
        self.buckets = {
            key: (tokens, stamp)
            for key, (tokens, stamp) in self.buckets.items()
            if refilled(tokens, stamp, now, self.rate, capacity) < capacity
        }
        self.prune_at = max(10_000, 2 * len(self.buckets))


class AddressLimits:
    """The limits of :class:`Limits`, counted per client address on ``clock`` (seconds)."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self._kinds: dict[str, _Buckets] = {}
        if self.limits.registrations is not None:
            self._kinds["registrations"] = _Buckets("new players", self.limits.registrations, clock)
        if self.limits.tables is not None:
            self._kinds["tables"] = _Buckets("new tables", self.limits.tables, clock)

    def take(self, kind: str, host: str | None) -> None:
        """Count one request of ``kind`` (``registrations``, ``tables``) from ``host``, or raise
        :class:`RateLimited` (counting nothing) when its address has none left."""
        buckets = self._kinds.get(kind)
        if buckets is None:
            return
        key, address = address_key(host)
        if address is not None and any(address in network for network in self.limits.networks):
            return
        buckets.take(key)
