"""The game driver of a table: whose turn it is, asking the bots, taking a person's decision,
and saving the match record after every decision.

It knows nothing about screens, keyboards or sockets, so the terminal table and the online
server share it: a frontend asks :attr:`TableDriver.status`, calls :meth:`~TableDriver.deal`,
:meth:`~TableDriver.play_bot` or :meth:`~TableDriver.play_human`, and shows the
:class:`Event` objects they return.  Any number of seats may be people; the others are bots.
Events carry public facts, plus the cards a person's own exchange put down and drew (a
frontend shows those to that seat only); what a person sees is always
:meth:`TableDriver.view` of their seat, a :func:`~sobedesce.core.seat_view`.

>>> driver = TableDriver(Match("classic", players=["Ana", "B1", "B2", "B3"]), 0,
...                      {s: make_bot("random") for s in (1, 2, 3)}, seed=5)
>>> driver.status
'deal'
>>> [e.kind for e in driver.deal()]
['deal']
>>> two = TableDriver(Match("table"), {0, 2}, {1: make_bot("basic"), 3: make_bot("basic")}, seed=1)
>>> two.people
(0, 2)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import re
import secrets
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sobedesce.bots import Bot, bot_key, make_bot
from sobedesce.core import (
    Action,
    Card,
    Exchange,
    IllegalActionError,
    Match,
    NameTrump,
    Phase,
    Play,
    Round,
    SeatView,
    SitOut,
    Suit,
    TrickView,
    TurnUp,
    dumps_record,
    seat_view,
)

__all__ = [
    "HINT_BOTS",
    "BotError",
    "Event",
    "TableDriver",
    "bot_label",
    "level_of_name",
    "resolve_bot",
    "save_atomically",
]

HINT_BOTS = ("strong", "basic")
"""The bots that give a hint, in turn: the next answers only if one fails to explain."""


def resolve_bot(name: str, timed: bool = True) -> tuple[str, Bot]:
    """``(key, bot)``: the bot or level called ``name`` and the key it is known by; an unknown
    name raises ``ValueError`` with the registry's message.

    ``timed``: a level keeps its deadline per decision by the clock; without it (a seeded
    match, which promises to replay exactly) it plays at its sample budget only."""
    key = bot_key(name)  # a plug-in's ``package.module:ClassName`` keeps its spelling
    if key == "oracle":
        raise ValueError(
            "the oracle sees every card: it measures the others in the arena and is never offered at a table"
        )
    return key, make_bot(key, timed=timed)


def _text(value: object, how: Any = repr) -> str:
    """``how(value)`` on one line, or the plain ``object`` repr when the value's own method
    raises: a bot's answer or error is described in a message, never allowed to raise again."""
    try:
        return " ".join(str(how(value)).split())
    except Exception:
        return object.__repr__(value)


def _finished_tricks(current: Round) -> int:
    """How many tricks of ``current`` are complete."""
    return sum(current.trick_winner(number) is not None for number in range(len(current.leaders)))


def bot_label(number: int, level: str) -> str:
    """The record's player name of a bot: ``Bot 1 (hard)``."""
    return f"Bot {number} ({level})"


# The bot in the parentheses is written as ``--bots`` takes it: a level or bot name, perhaps
# with settings (``expert:play_samples=5``) or a plug-in's ``package.module:ClassName``.  The
# name was once only ``[\w-]+``: a tuned bot's or a plug-in's seat then carried no level, and a
# resumed match gave it plain hard bots under its name.
_BOT_NAME = re.compile(r"Bot \d+ \((?P<level>[\w.-]+(?::.*)?)\)")


def level_of_name(name: str) -> str | None:
    """The level in a bot's player name (``Bot 2 (hard)`` → ``hard``, ``Bot 1
    (expert:play_samples=5)`` → ``expert:play_samples=5``), else ``None``."""
    found = _BOT_NAME.fullmatch(name)
    return found.group("level") if found else None


class BotError(Exception):
    """A bot failed at its decision: it raised, or answered with what is not an action, or
    with an illegal one.  The message names the seat's player and the failure, in one line."""


def save_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and ``os.replace``: a crash leaves
    either the old file or the new one, never half of one.

    The file keeps its permissions; a new one gets the usual ones (``0o666`` less the umask),
    as every other record the program writes.  (``tempfile.mkstemp`` made every save ``600``.)"""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        keep: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        keep = None  # a new file
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temp = os.path.join(folder, f".sobedesce-{secrets.token_hex(6)}.tmp")
        try:
            handle = os.open(temp, flags, 0o666)  # the umask applies, as to any new file
        except FileExistsError:
            continue
        break
    else:
        raise FileExistsError(f"no free temporary file name in {folder}")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            if keep is not None:  # before a byte is written: a private record is never readable
                os.chmod(temp, keep)
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table, in public terms.

    ``kind`` is one of ``deal`` (``seat`` deals, ``chooser`` chooses), ``trump`` (``seat``
    named ``suit``, or turned up ``turned``), ``exchange`` (``seat`` sat out, or played
    exchanging ``count`` cards; ``discard``/``drawn`` only for the person's own seat),
    ``play`` (``seat`` played ``card``), ``trick`` (``trick`` is complete; its ``winner``),
    ``round`` (the round is scored: ``deltas``, ``tricks_won``, ``active``, ``scores``) and
    ``match`` (``winners``, ``scores``, ``riscos``).  ``round_index`` is 0-based.
    """

    kind: Literal["deal", "trump", "exchange", "play", "trick", "round", "match"]
    round_index: int
    seat: int | None = None
    chooser: int | None = None
    suit: Suit | None = None
    turned: Card | None = None
    sit_out: bool = False
    count: int | None = None
    discard: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = ()
    card: Card | None = None
    trick_number: int | None = None
    trick: TrickView | None = None
    deltas: tuple[int, ...] = ()
    tricks_won: tuple[int, ...] = ()
    active: tuple[bool, ...] = ()
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    riscos: tuple[float, ...] = ()
    multiplier: int = 1


Status = Literal["deal", "human", "bot", "over"]


class TableDriver:
    """People at the seats ``people`` (one seat, or several) and ``bots`` (seat → bot) at the
    others, playing ``match``.

    With a ``seed`` (tests, benchmarks, a server's secret), every deck is shuffled by a
    generator derived from the seed and the round number, and every bot decision by one
    derived from the seed and the decision's place in the match, so a resumed match with the
    same seed goes on exactly as it would have.

    With ``seed=None`` (a person's table), nothing about a deal can be predicted: each deck
    is shuffled from the operating system's randomness (:mod:`secrets`) when it is dealt.
    Each bot decision then uses a generator derived from a cryptographic hash of the deck of
    the round in play and the decision's place in it: the deck is already in the record, so
    a resumed match goes on exactly as it would have with no seed handed back, and the
    record holds nothing about any deal still to come.  (Someone who can read the record
    sees the round in play anyway; no one at the table can learn the hash without it.)
    """

    def __init__(
        self,
        match: Match,
        people: int | Iterable[int],
        bots: Mapping[int, Any],
        *,
        seed: int | str | None,
        save_path: str | None = None,
    ) -> None:
        seats = (people,) if isinstance(people, int) else tuple(sorted(set(people)))
        for seat in seats:
            if not (isinstance(seat, int) and 0 <= seat < 4):
                raise ValueError(f"a person's seat must be 0-3, not {seat!r}")
        taken = [s for s in seats if s in bots]
        if taken:
            raise ValueError(f"seat(s) {taken} cannot be a person's and a bot's")
        missing = [s for s in range(4) if s not in seats and s not in bots]
        if missing:
            raise ValueError(f"no bot for seat(s) {missing}")
        self.match = match
        self.people: tuple[int, ...] = seats
        self.bots = dict(bots)
        self.seed = seed
        self.save_path = save_path
        self.hint_bot_name: str | None = None
        # The last hint worked out: the decision it is for (round, decisions made, seat), its
        # options and the bot that gave them.
        self._hinted: tuple[tuple[int, int, int], list[Any], str | None] | None = None
        # Why the last save after a decision failed (the folder gone, the disk full), or None.
        self.save_error: OSError | None = None

    @property
    def human(self) -> int:
        """The person's seat at a table with one person (the terminal's)."""
        if len(self.people) != 1:
            raise ValueError(f"this table has {len(self.people)} people, not one")
        return self.people[0]

    # -- what a frontend reads ---------------------------------------------------------

    @property
    def names(self) -> list[str]:
        players = self.match.players
        return list(players) if players is not None else [f"Seat {s}" for s in range(4)]

    @property
    def status(self) -> Status:
        phase = self.match.phase
        if phase == Phase.MATCH_OVER:
            return "over"
        if phase == Phase.DEAL:
            return "deal"
        return "human" if self.match.current_seat in self.people else "bot"

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when a deal is due or the match is over."""
        return self.match.current_seat

    def _seat(self, seat: int | None) -> int:
        return self.human if seat is None else seat

    def view(self, seat: int | None = None) -> SeatView:
        """What the person at ``seat`` (by default the only person) sees now."""
        return seat_view(self.match, self._seat(seat))

    def illegal_reason(self, action: Action) -> str | None:
        """Why the seat to act may not take ``action`` now (``None`` if it may); nothing changes."""
        probe = self.match.copy()
        try:
            probe.apply(action)
        except IllegalActionError as error:
            return error.reason
        return None

    def must_play_reason(self, seat: int | None = None) -> str | None:
        """In the exchange phase, why the person to act may not sit out (``None`` if they may)."""
        if self.to_act != self._seat(seat) or self.match.phase != Phase.EXCHANGE:
            return None
        return self.illegal_reason(SitOut())

    def forced_play(self, seat: int | None = None) -> tuple[Card, str] | None:
        """``(card, why)`` when the person to act has exactly one legal card, else ``None``."""
        if self.to_act != self._seat(seat) or self.match.phase != Phase.PLAY:
            return None
        view = self.view(seat)
        legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if len(legal) != 1:
            return None
        card = legal[0]
        if len(view.hand) == 1:
            return card, "it is your last card"
        other = next(c for c in view.hand if c != card)
        reason = self.illegal_reason(Play(other)) or "it is your only legal card"
        return card, reason

    def hint(self, seat: int | None = None) -> list[Any]:
        """The options of the strongest available bot for the person's seat, best first,
        worked out from that seat's view alone, once a decision: asked again before the
        decision is made, the same options (the strong bot thinks for up to seconds, and
        without a seed would answer a little differently each time).

        A bot that fails to explain gives way to the next of :data:`HINT_BOTS`;
        ``hint_bot_name`` tells which one answered.
        """
        key = self._hint_key(seat)
        if self._hinted is None or self._hinted[0] != key:
            self._hinted = (key, *self._work_out_hint(seat))
        self.hint_bot_name = self._hinted[2]
        return list(self._hinted[1])

    def hint_ready(self, seat: int | None = None) -> bool:
        """Whether :meth:`hint` for ``seat`` is worked out already (it answers at once)."""
        return self._hinted is not None and self._hinted[0] == self._hint_key(seat)

    def _hint_key(self, seat: int | None) -> tuple[int, int, int]:
        return (len(self.match.rounds), self._decisions(), self._seat(seat))

    def _work_out_hint(self, seat: int | None) -> tuple[list[Any], str | None]:
        # Without a seed a hint needs no reproducing: fresh randomness, tied to nothing hidden.
        rng_seed = self._rng_seed("hint") if self.seed is not None else secrets.token_hex(16)
        view = self.view(seat)
        for name in HINT_BOTS:
            try:
                return list(make_bot(name).explain(view, random.Random(rng_seed))), name
            except Exception:  # a bot's bug must not end a person's match
                continue
        return [], None

    # -- moving the match on -------------------------------------------------------------

    def deal(self, deck: Sequence[Card] | None = None, dealer: int | None = None) -> list[Event]:
        """Deal the next round: the deck shuffled from the seed (from the operating system's
        randomness without one), or ``deck`` as given (a stored round dealt again)."""
        if self.status != "deal":
            raise IllegalActionError("no deal is due")
        if deck is None:
            rng: random.Random = (
                secrets.SystemRandom()
                if self.seed is None
                else random.Random(f"{self.seed}/deal/{len(self.match.rounds)}")
            )
            current = self.match.deal(rng=rng)
        else:
            current = self.match.deal(deck, dealer=dealer)
        self._save_after_move()
        return [Event("deal", len(self.match.rounds) - 1, seat=current.dealer, chooser=current.chooser)]

    def bot_action(self, stand_in: Any = None) -> Action:
        """The decision of the bot to act, without applying it.

        At a person's seat, ``stand_in`` is the bot that plays for them while they are away.
        The bot is handed the seat's view only; nothing changes, so a server may work it out away
        from the table's writer and then :meth:`play` it.
        """
        _seat, bot, view, rng = self._bot_to_act(stand_in)
        return bot.act(view, rng)  # type: ignore[no-any-return]

    def _bot_to_act(self, stand_in: Any) -> tuple[int, Any, SeatView, random.Random]:
        """The seat to act, its bot (or ``stand_in``), and what the bot is handed: the seat's
        view and its generator for this decision."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("no decision is due")
        bot = self.bots.get(seat, stand_in)
        if bot is None:
            raise IllegalActionError("it is not a bot's turn")
        return seat, bot, seat_view(self.match, seat), random.Random(self._rng_seed("bot"))

    def play_bot(self, stand_in: Any = None) -> list[Event]:
        """Let the bot to act (or ``stand_in`` at a person's seat) take its decision."""
        if self.status != "bot" and stand_in is None:
            raise IllegalActionError("it is not a bot's turn")
        seat, bot, view, rng = self._bot_to_act(stand_in)
        # A bot that fails (a plug-in's bug) raises :class:`BotError` naming it, never its own
        # exception: the frontend ends the match cleanly, saved as it stood.  Only the bot's
        # own call and its answer are judged here; our code's errors stay errors.
        who = f"bot {self.names[seat]!r} (seat {seat})"
        try:
            action = bot.act(view, rng)
        except (Exception, SystemExit) as error:  # SystemExit too: sys.exit() in a bot
            raise BotError(f"{who} raised {type(error).__name__}: {_text(error, str)}") from None
        if not isinstance(action, Action):
            raise BotError(f"{who} broke the rules: returned {_text(action)}, which is not an action")
        try:
            return self._apply(seat, action)
        except IllegalActionError as error:  # refused before anything changed
            raise BotError(f"{who} broke the rules: {_text(action, str)} is illegal: {error.reason}") from None

    def play_human(self, action: Action, seat: int | None = None) -> list[Event]:
        """The decision of the person at ``seat`` (by default the only person); raises
        :class:`IllegalActionError` with the rule's reason."""
        seat = self._seat(seat)
        if self.to_act != seat or seat not in self.people:
            raise IllegalActionError("it is not your turn")
        return self._apply(seat, action)

    def play(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``, whoever took it; raises :class:`IllegalActionError`."""
        if self.to_act != seat:
            raise IllegalActionError("it is not your turn")
        return self._apply(seat, action)

    def save(self) -> None:
        if self.save_path:
            save_atomically(self.save_path, dumps_record(self.match) + "\n")

    def _save_after_move(self) -> None:
        """Save after a decision.  The decision is made whatever happens to the file: a save
        that fails is kept in :attr:`save_error` for the frontend to report, not raised
        (raised, it would end the match with the decision's events unseen), and the next
        decision tries again."""
        try:
            self.save()
        except OSError as error:
            self.save_error = error
        else:
            self.save_error = None

    # -- inside --------------------------------------------------------------------------

    def _rng_seed(self, purpose: str) -> str:
        """The seed of a bot's (or, with a table seed, a hint's) generator for the decision due
        now: from the table's seed, or without one from a hash of the deck of the round in play."""
        place = f"{purpose}/{len(self.match.rounds)}/{self._decisions()}"
        if self.seed is not None:
            return f"{self.seed}/{place}"
        current = self.match.round
        deck = " ".join(str(c) for c in current.deck) if current is not None and current.deck else ""
        return hashlib.sha256(f"{place}/{deck}".encode()).hexdigest()

    def _decisions(self) -> int:
        current = self.match.round
        if current is None:
            return 0
        return (current.trump_action is not None) + len(current.exchanges) + sum(len(t) for t in current.tricks)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        # The events are public facts of the round (its tricks, the trump), read from it
        # directly, plus the acting seat's own hand before and after its exchange (sent to that
        # seat alone): a seat's whole view twice a decision cost more than the rest of it.
        match = self.match
        previous = match.round  # the round in play (``apply`` refuses any action otherwise)
        done_before = _finished_tricks(previous) if previous is not None else 0
        own_exchange = isinstance(action, Exchange) and seat in self.people
        hand_before = previous.hand(seat) if own_exchange and previous is not None else ()
        match.apply(action)
        index = len(match.rounds) - 1
        current = match.rounds[-1]
        events: list[Event] = []
        if isinstance(action, TurnUp):
            events.append(Event("trump", index, seat=seat, suit=current.trump, turned=current.turned_card))
        elif isinstance(action, NameTrump):
            events.append(Event("trump", index, seat=seat, suit=action.suit))
        elif isinstance(action, SitOut):
            events.append(Event("exchange", index, seat=seat, sit_out=True))
        elif isinstance(action, Exchange):
            if own_exchange:
                kept = set(hand_before) - set(action.discard)
                drawn_cards = tuple(c for c in current.hand(seat) if c not in kept)
                events.append(
                    Event(
                        "exchange",
                        index,
                        seat=seat,
                        count=len(action.discard),
                        discard=tuple(action.discard),
                        drawn=drawn_cards,
                    )
                )
            else:
                events.append(Event("exchange", index, seat=seat, count=len(action.discard)))
        elif isinstance(action, Play):
            events.append(Event("play", index, seat=seat, card=action.card))
        tricks = current.tricks
        for number in range(done_before, len(tricks)):
            winner = current.trick_winner(number)
            if winner is not None:
                trick = TrickView(current.leaders[number], tricks[number], current.trick_seats(number), winner)
                events.append(Event("trick", index, seat=winner, trick_number=number + 1, trick=trick))
        if current.is_over:
            deltas = tuple(current.deltas or (0, 0, 0, 0))
            events.append(
                Event(
                    "round",
                    index,
                    deltas=deltas,
                    tricks_won=tuple(current.tricks_won),
                    active=tuple(a is True for a in current.active),
                    scores=tuple(match.scores),
                    suit=current.trump,
                    multiplier=match.rules.multiplier(current.trump) if current.trump is not None else 1,
                )
            )
        if match.is_over:
            events.append(
                Event(
                    "match",
                    index,
                    scores=tuple(match.scores),
                    winners=tuple(match.winners),
                    riscos=tuple(match.riscos() or ()),
                )
            )
        self._save_after_move()
        return events
