"""The bot protocol: a seat's view and an injected random generator in, an action out."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sobedesce.core import Action, SeatView


@dataclass(frozen=True, slots=True)
class Option:
    """One option a bot considered, with the change in its own score it expects.

    Negative is good: winning tricks brings a score down.  ``ranking`` is what the bot ranks
    its options by when that is not ``expected_delta`` (the strong bot: its own change against
    the others' mean), lowest first; ``None`` when the options are ranked by their expected
    change.  ``note`` is the bot's remark, which does not repeat ``ranking``: a reader that
    shows both words the figure with :func:`ranking_note` (the terminal writes the two in a
    line; the server sends them as two fields).

    ``tricks`` and ``no_trick``, when the bot knows them (``None`` otherwise, and for sitting
    out): the tricks the seat expects to end the round with, and its chance of ending it with
    none (the penalty), which say the figure in a player's words.
    """

    action: Action
    expected_delta: float
    note: str = ""
    ranking: float | None = None
    tricks: float | None = None
    no_trick: float | None = None


def ranking_note(ranking: float) -> str:
    """How an option's ``ranking`` is written in words: ``+1.72 against the others``."""
    return f"{ranking:+.2f} against the others"


def forced_action(view: SeatView) -> Action | None:
    """The seat's only legal action, or ``None`` when it has a choice: how a bot's ``act``
    begins.  Raises ``ValueError`` when it is not the seat's turn."""
    legal = view.legal_actions
    if not legal:
        raise ValueError("not this seat's turn")
    return legal[0] if len(legal) == 1 else None


@runtime_checkable
class Bot(Protocol):
    """A player.  ``act`` must return one of ``view.legal_actions``; it is never handed hidden cards."""

    name: str

    def act(self, view: SeatView, rng: random.Random) -> Action: ...

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        """The options considered, best first, each with its expected score change."""
        ...
