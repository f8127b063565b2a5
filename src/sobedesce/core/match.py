"""The match: rounds dealt one after another until a score reaches the target.

>>> import random
>>> from sobedesce.core.rules import find_rules
>>> match = Match(find_rules("classic"))
>>> first = match.deal(rng=random.Random(7))
>>> match.phase
<Phase.TRUMP: 1>
>>> [str(a) for a in match.legal_actions()]
['S', 'H', 'D', 'C', 'turn']

This module stays interpreted in the compiled build (see setup.py): a match puts the bound
methods of the round in play in its instance dictionary, so that ``match.apply`` and
``match.legal_actions`` are the round's own (compiled) methods, with no wrapper call; and its
methods stay Python functions, which ``help()`` and ``inspect`` show as such.  It costs a
compiled build nothing per decision.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import Final

from . import _checks
from .actions import Action, IllegalActionError
from .cards import Card
from .game import Phase, Round, _shuffled_indices, check_deck, not_an_action
from .logic import match_winners, riscos_for, settle_round
from .rules import CLASSIC, Rules, find_rules

__all__ = ["Match"]


class Match:
    """A match: rounds dealt one after another until a score reaches the target (0).

    ``phase`` tells what is awaited.  In :attr:`Phase.DEAL` call :meth:`deal`; otherwise the
    seat ``current_seat`` acts with ``apply(action)``, choosing from ``legal_actions()``.
    """

    def __init__(
        self,
        rules: Rules | str = CLASSIC,
        *,
        scores: Sequence[int] | None = None,
        sat_out_before: Sequence[int] | None = None,
        players: Sequence[str] | None = None,
    ) -> None:
        self._rules = rules = find_rules(rules)
        start = rules.start_score
        self._initial_scores = (
            _checks.whole_numbers("scores", scores, "four scores") if scores is not None else (start,) * 4
        )
        self._initial_streaks = (
            _checks.whole_numbers("sat_out_before", sat_out_before, "four counts", size=rules.max_sit_outs_in_row + 1)
            if sat_out_before is not None
            else (0,) * 4
        )
        self._players = _names(players)
        self._scores = list(self._initial_scores)
        self._streaks = list(self._initial_streaks)
        self._rounds: list[Round] = []
        # The round in play (None between rounds and once the match is over).
        self._current: Round | None = None
        self._winners: list[int] = match_winners(self._scores, rules.target_score)

    # While a round is in play, ``apply`` and ``legal_actions`` are looked up in the instance
    # first: ``_bind`` puts the round's own bound methods there, which spares every decision
    # a wrapper call; the methods below are what ``help()`` shows and what runs otherwise.
    # Compiled by mypyc (the compiled build), a match has no instance dictionary: the methods
    # below always run, and as compiled code they call the round's directly.

    def __new__(cls, *args: object, **kwargs: object) -> Match:
        # A match whose attributes are still unset, for :meth:`copy` to fill
        # (``Match.__new__(Match)``); ``Match(...)`` then runs ``__init__``.  Defined because the
        # constructor of a class compiled by mypyc otherwise always runs ``__init__``.
        return object.__new__(cls)

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act; empty when a deal is due or the match is over."""
        current = self._current
        return current.legal_actions() if current is not None else ()

    def apply(self, action: Action) -> None:
        """Apply the action of :attr:`current_seat`; raises :class:`IllegalActionError` when the
        rules do not allow it (its ``reason`` says why, as a player would read it)."""
        current = self._current
        if current is not None:
            current.apply(action)
        elif not isinstance(action, Action):
            raise TypeError(not_an_action(action))
        elif self._winners:
            raise IllegalActionError("the match is over", action=action)
        else:
            raise IllegalActionError("a new round must be dealt first", action=action)

    def _bind(self, current: Round) -> None:
        self._current = current
        current._on_over = self._settle
        if _INSTANCE_DICT:
            fast = self.__dict__
            fast["legal_actions"] = current.legal_actions
            fast["apply"] = current.apply

    def copy(self) -> Match:
        """An independent copy: applying actions to it leaves this match unchanged."""
        new = Match.__new__(Match)
        new._rules = self._rules
        new._players = self._players
        new._initial_scores = self._initial_scores
        new._initial_streaks = self._initial_streaks
        new._scores = self._scores[:]
        new._streaks = self._streaks[:]
        new._rounds = self._rounds[:]
        new._winners = self._winners[:]
        new._current = None
        if self._current is not None:
            new._rounds[-1] = current = self._current.copy()
            new._bind(current)
        return new

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> tuple[str, ...] | None:
        """The players' names, by seat, when given."""
        return self._players

    @players.setter
    def players(self, names: Sequence[str] | None) -> None:
        """Name the players (they are written in the record; they change nothing in play)."""
        self._players = _names(names)

    @property
    def initial_scores(self) -> tuple[int, ...]:
        return self._initial_scores

    @property
    def initial_streaks(self) -> tuple[int, ...]:
        """Per seat, the rounds sat out in a row before the match (``sat_out_before``)."""
        return self._initial_streaks

    @property
    def scores(self) -> tuple[int, ...]:
        """The scores now (after the last finished round)."""
        return tuple(self._scores)

    @property
    def streaks(self) -> tuple[int, ...]:
        """Per seat, the rounds it sat out in a row, now."""
        return tuple(self._streaks)

    @property
    def rounds(self) -> tuple[Round, ...]:
        """Every round dealt, the latest last."""
        return tuple(self._rounds)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won, once the match is over (empty before)."""
        return tuple(self._winners)

    @property
    def round(self) -> Round | None:
        """The latest round (finished or not), or ``None`` before the first deal."""
        return self._rounds[-1] if self._rounds else None

    @property
    def is_over(self) -> bool:
        return bool(self._winners)

    @property
    def phase(self) -> Phase:
        if self._winners:
            return Phase.MATCH_OVER
        current = self._current
        if current is None:
            return Phase.DEAL
        return _PHASES[current._phase]

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when a deal is due or the match is over."""
        current = self._current
        if current is None:
            return None
        seat = current._to_act
        return seat if seat >= 0 else None

    @property
    def next_dealer(self) -> int | None:
        """The dealer of the next round (``None`` before the first, which is drawn)."""
        return (self._rounds[-1]._dealer + 1) % 4 if self._rounds else None

    def deal(
        self,
        deck: Sequence[Card] | None = None,
        *,
        dealer: int | None = None,
        rng: _random.Random | None = None,
    ) -> Round:
        """Start the next round with ``deck`` (top card first) or a deck shuffled by ``rng``.

        The first dealer is ``dealer`` or drawn with ``rng``; later dealers follow in turn.
        """
        if self._winners:
            raise IllegalActionError("the match is over")
        if self._current is not None:
            raise IllegalActionError("the current round is not over")
        if deck is not None:
            # The deck first: a bad one says what is wrong with it, whatever else is missing
            # (it waited behind "pass dealer= or rng=", and was refused only once that was mended).
            check_deck(deck)
        expected = self.next_dealer
        if dealer is None:
            if expected is None:
                if rng is None:
                    raise ValueError("the first dealer is drawn: pass dealer= or rng=")
                try:
                    expected = rng.randrange(4)
                except AttributeError:
                    _check_rng(rng)
                    raise
            dealer = expected
        elif isinstance(dealer, bool) or not isinstance(dealer, int):
            raise TypeError(f"dealer must be a seat, an int 0-3, not {dealer!r}")
        elif not 0 <= dealer < 4:
            raise ValueError(f"dealer must be a seat 0-3, not {dealer!r}")
        elif expected is not None and dealer != expected:
            raise IllegalActionError(f"the dealer must be seat {expected}, the seat after the previous dealer")
        if deck is None:
            if rng is None:
                raise ValueError("pass a deck or an rng to shuffle one")
            # Dealt from the shuffled card indices as they are (``Round(...)`` would convert).
            try:
                indices = _shuffled_indices(rng)
            except AttributeError:  # the type is checked here, not at every deal
                _check_rng(rng)
                raise
            new = Round.__new__(Round)
            new._deal(self._rules, dealer, bytes(indices), self._scores, self._streaks)
        else:
            # The dealer, scores and streaks are the match's own, checked already, and the deck
            # above (``Round(...)`` would check all of them again, every round).
            new = Round.__new__(Round)
            new._deal(self._rules, dealer, bytes([int(card) for card in deck]), self._scores, self._streaks)
        self._rounds.append(new)
        self._bind(new)
        return new

    def _settle(self, finished: Round) -> None:
        deltas = finished._deltas
        assert deltas is not None
        self._winners = settle_round(self._scores, self._streaks, deltas, finished._active, self._rules.target_score)
        finished._on_over = None
        # ``_unbind()``, inlined: this runs at the end of every round.
        self._current = None
        if _INSTANCE_DICT:
            fast = self.__dict__
            fast.pop("legal_actions", None)
            fast.pop("apply", None)

    def riscos(self) -> list[float] | None:
        """Ranking points when the match is over (RULES.md §5), else ``None``: ints, but a float for
        the winners' share when it is fractional (:func:`riscos_for`)."""
        return riscos_for(self._scores, self._winners) if self._winners else None

    def returns(self) -> list[float]:
        """Riscos once over, else zeros (the OpenSpiel convention)."""
        return self.riscos() or [0.0] * 4


def risco_text(value: float) -> str:
    """A risco as text: a whole one in full (``+2000000006``; ``:+g`` made it ``+2e+09``), a
    fractional share (winners splitting an odd total) with two decimals (``+3.33``)."""
    if value == int(value):
        return f"{int(value):+d}"
    return f"{value:+.2f}"


def _check_rng(rng: object) -> None:
    """Raise ``TypeError`` unless ``rng`` is a ``random.Random`` (``deal`` asks only when using it failed)."""
    if not isinstance(rng, _random.Random):
        raise TypeError(f"rng must be a random.Random, not {rng!r}")


MAX_NAME = 1000
"""The longest player name a match (and its record) may hold: every name is shown on most
lines of a replay, so a name of megabytes made gigabytes of output (a real one is a person's
name, at most 32 characters on the server, or an arena's entry with its settings)."""


def _names(names: object) -> tuple[str, ...] | None:
    """The players' names as a tuple (``None`` stays ``None``), worded as the record reader's."""
    if names is None:
        return None
    if (
        isinstance(names, str | bytes)
        or not isinstance(names, Sequence)
        or len(names) != 4
        or not all(isinstance(name, str) for name in names)
    ):
        raise ValueError(f"players: must be four names, one a seat, not {names!r}")
    check_name_lengths(names)
    return tuple(names)


def check_name_lengths(names: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first of ``names`` longer than ``MAX_NAME``."""
    for seat, name in enumerate(names):
        if len(name) > MAX_NAME:
            raise ValueError(f"players[{seat}]: a name of {len(name):,} characters: at most {MAX_NAME:,}")


# Whether a match has an instance dictionary for ``_bind``'s fast path: it has in the pure build,
# not compiled by mypyc (asking ``getattr(match, "__dict__", None)`` there would raise and catch
# an AttributeError twice a round).
_INSTANCE_DICT: Final = Match.__dictoffset__ != 0
# ``Phase`` by value: a lookup, where ``Phase(value)`` runs the enum's Python-level call.
_PHASES: Final = tuple(Phase)
