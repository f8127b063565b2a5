"""``oracle``: sees every card (the real deck, the stock, every hand), to measure headroom.

It runs the strong bot's evaluation on the true deal instead of sampled ones: every option
(every trump choice, every legal discard or sitting out, every legal card) is played out
once with the basic policies for all seats, which is exact when the others are ``basic``
bots.

The oracle is not a bot: a bot plays from a seat's view, the oracle is handed the whole match.
It is its own kind of seat, :class:`OracleSeat`, which the arena builds from the name
``oracle`` by an explicit branch and calls with :meth:`OracleSeat.act_full`; its :meth:`act`
refuses a plain seat view.  It is never offered at a table (the terminal refuses the name,
the online server seats its own levels only).
"""

from __future__ import annotations

import random

from sobedesce.core import TURN_UP, Action, Exchange, Match, Phase, Play, SeatView
from sobedesce.core.logic import SUIT_OF, TURNED, score_changes

from ._eval import ExState, ex_state_from_deck
from ._sim import PlayState
from .base import Option


class OracleSeat:
    """The oracle's seat: handed a copy of the whole match with :meth:`act_full`, never a view."""

    name = "oracle"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        raise TypeError(
            "the oracle is not a bot that plays from a view: it sees every card; "
            "call act_full(match, seat, rng) with the full match, not a view"
        )

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        raise TypeError(
            "the oracle is not a bot that plays from a view: it sees every card; "
            "call explain_full(match, seat, rng) with the full match"
        )

    def act_full(self, match: Match, seat: int, rng: random.Random) -> Action:
        return self.explain_full(match, seat, rng)[0].action

    def explain_full(self, match: Match, seat: int, rng: random.Random) -> list[Option]:
        rnd = match.round
        if rnd is None or rnd.to_act != seat:
            raise ValueError("not this seat's turn")
        legal = rnd.legal_actions()
        phase = rnd.phase
        values: list[tuple[float, int, Action]] = []
        if phase == Phase.TRUMP:
            assert rnd.deck is not None
            deck: list[int] = list(rnd.deck)
            for action in legal:
                trump = SUIT_OF[deck[TURNED]] if action is TURN_UP else int(action.suit)  # type: ignore[attr-defined]
                ex = ex_state_from_deck(rnd.rules, rnd.chooser, deck, trump, rnd.scores, rnd.streaks)
                values.append((ex.finish(seat)[seat], len(values), action))
        elif phase == Phase.EXCHANGE:
            stock: list[int] = list(rnd.stock)
            stock.reverse()
            for action in legal:
                if not isinstance(action, Exchange):
                    values.append((0.0, len(values), action))
                    continue
                ex = ExState.from_round(rnd, stock[:])
                ex.apply(action.mask)
                values.append((ex.finish(seat)[seat], len(values), action))
        else:
            base = PlayState.from_round(rnd)
            mask = rnd.legal_cards()
            while mask:
                low = mask & -mask
                card = low.bit_length() - 1
                mask ^= low
                st = base.copy()
                st.play(card)
                won = st.play_out()
                assert rnd.trump is not None
                active = [1 if a else 0 for a in rnd.active]
                values.append((score_changes(rnd.rules, rnd.trump, active, won)[seat], card, Play.of(card)))
        values.sort(key=lambda t: (t[0], t[1]))
        return [Option(a, v, "seen with every card") for v, _i, a in values]


__all__ = ["OracleSeat"]
