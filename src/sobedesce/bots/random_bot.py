"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random

from sobedesce.core import Action, SeatView

from .base import Option


class RandomBot:
    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        return [Option(action, 0.0, "chosen at random") for action in view.legal_actions]
