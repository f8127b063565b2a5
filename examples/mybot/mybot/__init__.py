"""An example bot in its own package: it needs nothing of Sobe e Desce but the public API.

``GreedyBot`` names the suit it holds most of (by strength), keeps its trumps and Aces,
sits out a weak hand when allowed, and in the tricks wins as cheaply as it can or sheds its
lowest card.  It is a teaching example, not a strong player.
"""

from __future__ import annotations

import random

from sobedesce.bots import Option
from sobedesce.core import Action, Exchange, NameTrump, Phase, Play, SeatView, SitOut, Suit, TurnUp

__all__ = ["GreedyBot"]


def _strength(card: int, trump: int | None) -> float:
    """Rough worth of a card: trumps by rank, side Aces a little, the rest nothing."""
    suit, rank = divmod(card, 10)
    if suit == trump:
        return 0.5 + rank / 10
    return 0.4 if rank == 9 else 0.0


class GreedyBot:
    """The example bot.  Settings: ``sit_below`` (sit out a hand worth less than this, when
    allowed) and ``turn_up`` (turn up the 13th card when the three cards hold no trump suit)."""

    name = "greedy"

    def __init__(self, sit_below: float = 1.0, turn_up: bool = True) -> None:
        self.sit_below = sit_below
        self.turn_up = turn_up

    def act(self, view: SeatView, rng: random.Random) -> Action:
        return self.explain(view, rng)[0].action

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        legal = list(view.legal_actions)
        if not legal:
            return []
        if view.phase == Phase.TRUMP:
            return self._trump(view, legal)
        if view.phase == Phase.EXCHANGE:
            return self._exchange(view, legal)
        return self._play(view, legal)

    def _trump(self, view: SeatView, legal: list[Action]) -> list[Option]:
        scores: dict[Action, float] = {}
        for action in legal:
            if isinstance(action, NameTrump):
                scores[action] = sum(_strength(c, int(action.suit)) for c in view.hand)
            elif isinstance(action, TurnUp):
                scores[action] = 0.9 if self.turn_up else -1.0
        ranked = sorted(scores, key=lambda a: -scores[a])
        return [Option(a, -scores[a], "cards' worth as trumps") for a in ranked]

    def _exchange(self, view: SeatView, legal: list[Action]) -> list[Option]:
        trump = int(view.trump) if view.trump is not None else None
        worth = sum(_strength(c, trump) for c in view.hand)
        weak = tuple(c for c in view.hand if _strength(c, trump) == 0.0)
        options: list[Option] = []
        wanted = Exchange(weak)
        if wanted in legal:
            options.append(Option(wanted, -worth, "discard every weak card"))
        else:
            # The rules ask for a different count (table: at least one): the weakest first.
            order = sorted(view.hand, key=lambda c: (_strength(c, trump), c % 10))
            for action in legal:
                if isinstance(action, Exchange) and set(action.discard) == set(order[: len(action.discard)]):
                    options.append(Option(action, -worth, "discard the weakest"))
                    break
        sit = next((a for a in legal if isinstance(a, SitOut)), None)
        if sit is not None:
            options.insert(0 if worth < self.sit_below else len(options), Option(sit, 0.0, f"hand worth {worth:.1f}"))
        if not options:
            options.append(Option(legal[-1], -worth, "fallback"))
        return options

    def _play(self, view: SeatView, legal: list[Action]) -> list[Option]:
        trump = int(view.trump) if view.trump is not None else -1
        trick = view.current_trick
        cards = [a.card for a in legal if isinstance(a, Play)]

        def beats(card: int, best: int) -> bool:
            return (card // 10 == best // 10 and card > best) or (card // 10 == trump and best // 10 != trump)

        if trick is None or not trick.cards:
            order = sorted(cards, key=lambda c: (-(c % 10 == 9), c // 10 == trump, c % 10))
            return [Option(Play(c), 0.0, "lead") for c in order]
        best = trick.cards[0]
        for card in trick.cards[1:]:
            if beats(card, best):
                best = card
        winners = sorted((c for c in cards if beats(c, best)), key=lambda c: (c // 10 == trump, c % 10))
        losers = sorted((c for c in cards if not beats(c, best)), key=lambda c: (c // 10 == trump, c % 10))
        return [Option(Play(c), -1.0, "wins the trick cheaply") for c in winners] + [
            Option(Play(c), 0.0, "sheds a low card") for c in losers
        ]


# The protocol's types, for readers: Suit names a trump suit.
_ = Suit
