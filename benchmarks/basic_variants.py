"""Variants of ``basic``'s card play, to seat in the arena by class path (measurement only).

    PYTHONPATH=benchmarks .venv/bin/sobedesce arena \\
        --bots basic_variants:CardVariant:zero_high=true,basic,basic,basic --deals 3000 --seed 7

The question they answer (docs/bots.md, "Sixth round"): is there a rule-of-thumb card play
better than ``basic``'s, cheap enough to be the search's play-out policy for its own seat?
Each setting changes one rule of ``basic``'s card play and nothing else (the trump choice and
the exchange are ``basic``'s):

- ``zero_high``: with no trick won yet and players still to come, follow with the strongest
  card that heads the trick (a trump if it has one), to hold it, instead of the cheapest safe one;
- ``lead_trumps``: lead its highest trump when it holds at least this many trumps and some
  trump is unseen (draw the others' trumps so its side cards stand); 0 is off;
- ``ruff_high``: when only trumps head the trick and players are still to come, ruff with the
  highest instead of the lowest.
"""

from __future__ import annotations

from sobedesce.bots._sim import ALL, pick_card
from sobedesce.bots.basic import BasicBot
from sobedesce.core import SeatView
from sobedesce.core.cards import SUIT_MASKS
from sobedesce.core.logic import BEATERS


class CardVariant(BasicBot):
    name = "card-variant"

    def __init__(self, zero_high: bool = False, lead_trumps: int = 0, ruff_high: bool = False) -> None:
        super().__init__()
        self.zero_high = zero_high
        self.lead_trumps = lead_trumps
        self.ruff_high = ruff_high

    def _pick(self, view: SeatView) -> int:
        hand, legal, lead, win, trump, played, n_after, won = inputs = self._card_inputs(view)
        if legal & (legal - 1):
            tmask = SUIT_MASKS[trump]
            if lead < 0:
                trumps = legal & tmask
                unseen = ALL & ~played & ~hand
                if self.lead_trumps and trumps.bit_count() >= self.lead_trumps and unseen & tmask:
                    return trumps.bit_length() - 1
            else:
                winners = legal & BEATERS[trump][win]
                if winners and n_after > 0:
                    if self.zero_high and won == 0:
                        pool = winners & tmask or winners
                        return pool.bit_length() - 1
                    if self.ruff_high and not winners & ~tmask:
                        return winners.bit_length() - 1
        return pick_card(*inputs)
