"""``beginner``: the rules of thumb of someone who has just learnt the game, with their mistakes.

It plays like ``basic`` most of the time, but, with the chances given by its settings, it

- misjudges hands: its trump choice is ``basic``'s estimate blurred by noise (``trump_noise``
  points);
- keeps too many mediocre cards: a side King or Seven is kept instead of exchanged
  (``keep_mediocre``);
- sits out a bit too often: it sits out when playing is expected to gain less than
  ``sit_margin`` points (``basic``: when it is expected to cost);
- plays its highest winning card instead of the cheapest (``high_winner``), leads its highest
  side card although it may not be the best left (``lead_high``), sheds any losing side card
  rather than the lowest (``loose_shed``);
- forgets cards already played, trumps most of all (``forget``: the chance of forgetting each
  card played before the last complete trick; trumps half as much again), so it believes
  fewer of its cards are sure winners than there are.

It never makes a move a beginner would find absurd (:func:`absurd` lists them and the bot
checks its choice against them):

1. it never names as trump a suit it holds no card of;
2. it never discards the Ace of trumps, and never discards a trump while keeping a side card
   lower than a Seven;
3. it never sits out holding the Ace of trumps;
4. playing last to a trick it can win, it wins it (every trick brings its score down);
5. on a trick it cannot win, it never spends a trump while it may play a side card.
"""

from __future__ import annotations

import random

from sobedesce.core import SIT_OUT, Action, Exchange, NameTrump, Phase, Play, SeatView, SitOut
from sobedesce.core.cards import SUIT_MASKS
from sobedesce.core.logic import BEATERS

from ._eval import draw_value, mask_cards, may_sit_out, plan_exchange, ranked_cards, trump_scores
from ._sim import lowest_rank, pick_card
from .base import Option, forced_action
from .basic import BasicBot, exchange_action, expected_active, trick_state, trump_action

ACE, SEVEN, KING = 9, 8, 7
"""Rank indices within a suit (a card's index is ``10 * suit + rank``)."""


def absurd(view: SeatView, action: Action) -> str | None:
    """Why ``action`` would be absurd for a beginner in ``view`` (the module's five rules), or
    ``None``.  Only legal actions are judged."""
    hand = view.hand_mask
    if view.phase == Phase.TRUMP:
        if isinstance(action, NameTrump) and not hand & SUIT_MASKS[int(action.suit)]:
            return "names as trump a suit it holds no card of"
        return None
    assert view.trump is not None
    trump = int(view.trump)
    trump_ace = 1 << (10 * trump + ACE)
    if view.phase == Phase.EXCHANGE:
        if isinstance(action, SitOut):
            return "sits out holding the Ace of trumps" if hand & trump_ace else None
        if isinstance(action, Exchange):
            discard = action.mask
            if discard & trump_ace:
                return "discards the Ace of trumps"
            kept = hand & ~discard
            low_side = 0
            for c in mask_cards(kept & ~SUIT_MASKS[trump]):
                if c % 10 < SEVEN:
                    low_side |= 1 << c
            if discard & SUIT_MASKS[trump] and low_side:
                return "discards a trump while keeping a side card lower than a Seven"
        return None
    if not isinstance(action, Play):
        return None
    card = int(action.card)
    legal = 0
    for a in view.legal_actions:
        legal |= 1 << a.card  # type: ignore[attr-defined]
    lead, win, n_after = trick_state(view)
    if lead < 0:
        return None
    winners = legal & BEATERS[trump][win]
    if n_after == 0 and winners and not winners >> card & 1:
        return "lets a trick go that it could win, playing last"
    if not winners and card // 10 == trump and legal & ~SUIT_MASKS[trump]:
        return "spends a trump on a trick it cannot win"
    return None


class BeginnerBot:
    name = "beginner"

    def __init__(
        self,
        trump_noise: float = 1.0,
        keep_mediocre: float = 0.7,
        sit_margin: float = -0.8,
        high_winner: float = 0.5,
        lead_high: float = 0.4,
        loose_shed: float = 0.5,
        forget: float = 0.5,
    ) -> None:
        for setting, value in {
            "keep_mediocre": keep_mediocre,
            "high_winner": high_winner,
            "lead_high": lead_high,
            "loose_shed": loose_shed,
            "forget": forget,
        }.items():
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{setting} is a chance, between 0 and 1, not {value}")
        if trump_noise < 0:
            raise ValueError(f"trump_noise must be at least 0, not {trump_noise}")
        self.trump_noise = trump_noise
        self.keep_mediocre = keep_mediocre
        self.sit_margin = sit_margin
        self.high_winner = high_winner
        self.lead_high = lead_high
        self.loose_shed = loose_shed
        self.forget = forget
        self._basic = BasicBot()

    def act(self, view: SeatView, rng: random.Random) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        if view.phase == Phase.TRUMP:
            action = self._trump(view, rng)
        elif view.phase == Phase.EXCHANGE:
            action = self._exchange(view, rng)
        else:
            action = Play.of(self._card(view, rng))
        if action not in view.legal_actions or absurd(view, action) is not None:
            # A slip the rules above do not allow: the sound rule-based move instead.
            action = self._basic.act(view, rng)
        return action

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        """``basic``'s estimates, with this bot's own choice first."""
        choice = self.act(view, random.Random(rng.random()))
        options = self._basic.explain(view, rng)
        mine = [o for o in options if o.action == choice]
        first = Option(choice, mine[0].expected_delta if mine else 0.0, "a beginner's choice")
        return [first] + [o for o in options if o.action != choice]

    # -- decisions ----------------------------------------------------------------------

    def _trump(self, view: SeatView, rng: random.Random) -> Action:
        hand = view.hand_mask
        scores = trump_scores(hand, view.rules, not view.rules.chooser_must_play)
        best: tuple[float, int] | None = None
        for delta, option in scores:
            if option < 4 and not hand & SUIT_MASKS[option]:
                continue
            blurred = delta + rng.gauss(0.0, self.trump_noise)
            if best is None or blurred < best[0]:
                best = (blurred, option)
        assert best is not None  # it holds three cards, so at least one suit
        return trump_action(best[1])

    def _exchange(self, view: SeatView, rng: random.Random) -> Action:
        assert view.trump is not None and view.chooser is not None
        trump = int(view.trump)
        hand = view.hand_mask
        rules = view.rules
        may_sit = may_sit_out(rules, trump, view.chooser, view.scores, view.sat_out_streaks)[view.seat]
        if may_sit and SIT_OUT in view.legal_actions and not hand >> (10 * trump + ACE) & 1:
            plan = plan_exchange(hand, trump, rules, may_sit, expected_active(view), self.sit_margin)
            if plan.sit_out:
                return SIT_OUT
        draw = draw_value(trump)
        valued = []
        for value, card in ranked_cards(hand, trump):
            if card // 10 != trump and card % 10 in (KING, SEVEN) and rng.random() < self.keep_mediocre:
                value = max(value, draw + 0.01)  # a mediocre card it is fond of
            valued.append((value, card))
        valued.sort(reverse=True)
        n = len(valued)
        k = sum(1 for value, _card in valued if value <= draw)
        k = max(rules.min_discard, min(k, rules.max_discard, n))
        discard = 0
        for _value, card in valued[n - k :] if k else ():
            discard |= 1 << card
        return exchange_action(discard)

    def _card(self, view: SeatView, rng: random.Random) -> int:
        assert view.trump is not None
        trump = int(view.trump)
        tmask = SUIT_MASKS[trump]
        hand = view.hand_mask
        legal = 0
        for action in view.legal_actions:
            legal |= 1 << action.card  # type: ignore[attr-defined]
        lead, win, n_after = trick_state(view)
        # What it remembers: the current trick and the last one, and each earlier card only
        # if it does not forget it (a trump more easily).
        remembered = 0
        tricks = view.tricks
        for index, trick in enumerate(tricks):
            recent = index >= len(tricks) - 2 or len(trick.cards) < sum(1 for a in view.active if a)
            for c in trick.cards:
                lapse = self.forget * (1.5 if c // 10 == trump else 1.0)
                if recent or rng.random() >= lapse:
                    remembered |= 1 << c
        card = pick_card(hand, legal, lead, win, trump, remembered, n_after, view.tricks_won[view.seat])
        if lead < 0:
            side = legal & ~tmask
            if side and rng.random() < self.lead_high:
                # "Lead your high cards": its highest side card, the longest suit's on a tie.
                card = max(mask_cards(side), key=lambda c: (c % 10, (side & SUIT_MASKS[c // 10]).bit_count()))
            return card
        winners = legal & BEATERS[trump][win]
        if winners and winners & (winners - 1) and rng.random() < self.high_winner:
            side_winners = winners & ~tmask
            pool = side_winners or winners
            card = max(mask_cards(pool), key=lambda c: c % 10)
        elif not winners and rng.random() < self.loose_shed:
            side = legal & ~tmask
            if side:
                card = rng.choice(mask_cards(side))
        if not winners and card // 10 == trump and legal & ~tmask:
            card = lowest_rank(legal & ~tmask)
        return card
