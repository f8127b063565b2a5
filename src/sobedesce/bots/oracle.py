"""``oracle``: sees every card (the real deck, the stock, every hand), to measure headroom.

It runs the strong bot's evaluation on the true deal instead of sampled ones: every option
(every trump choice, every legal discard or sitting out, every legal card) is played out
once with the basic policies for all seats, which is exact when the others are ``basic``
bots.  It is never offered at a table: :meth:`act` refuses a plain seat view.
"""

from __future__ import annotations

import random

from sobedesce.core import Action, Match, SeatView
from sobedesce.core.actions import KIND_SIT_OUT, PLAYS, TRUMP_ACTIONS, TURN_UP

from ._eval import ExState, ex_state_from_deck
from ._sim import SUIT_OF, PlayState, deltas_of
from .base import Option


class OracleBot:
    name = "oracle"
    omniscient = True

    def act(self, view: SeatView, rng: random.Random) -> Action:
        raise TypeError("the oracle sees every card: call act_full(match, seat, rng) with the full match, not a view")

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        raise TypeError("the oracle sees every card: call explain_full(match, seat, rng) with the full match")

    def act_full(self, match: Match, seat: int, rng: random.Random) -> Action:
        return self.explain_full(match, seat, rng)[0].action

    def explain_full(self, match: Match, seat: int, rng: random.Random) -> list[Option]:
        rnd = match.round
        if rnd is None or rnd.to_act != seat:
            raise ValueError("not this seat's turn")
        legal = rnd.legal_actions()
        phase = rnd.phase
        values: list[tuple[float, int, Action]] = []
        if phase == 1:
            assert rnd.deck is not None
            deck = list(rnd.deck)
            for action in legal:
                trump = SUIT_OF[deck[12]] if action is TURN_UP else int(action.suit)  # type: ignore[attr-defined]
                ex = ex_state_from_deck(rnd.rules, rnd.chooser, deck, trump, rnd.scores, rnd.streaks)
                values.append((ex.finish(seat)[seat], len(values), action))
        elif phase == 2:
            stock = list(rnd.stock[rnd.stock_pos :])
            stock.reverse()
            for action in legal:
                if action.kind == KIND_SIT_OUT:
                    values.append((0.0, len(values), action))
                    continue
                ex = ExState.from_round(rnd, stock[:])
                ex.apply(action.mask)  # type: ignore[attr-defined]
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
                values.append((deltas_of(rnd.rules, rnd.trump, rnd.active, won)[seat], card, PLAYS[card]))
        values.sort(key=lambda t: (t[0], t[1]))
        return [Option(a, v, "seen with every card") for v, _i, a in values]


__all__ = ["OracleBot", "TRUMP_ACTIONS"]
