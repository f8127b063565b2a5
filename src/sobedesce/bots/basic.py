"""``basic``: a sound rule-based player.

- Trump: from its three cards it values every suit (and, in ``classic``, turning up the
  13th card) by the tricks the hand should take, counting Clubs double both ways and Hearts
  bringing every player in (so fewer tricks each).
- Play or sit out: it keeps the cards worth more than a random draw, exchanges the rest, and
  sits out (when allowed) if the hand it expects is more likely to cost points than save them.
- Cards: it leads sure winners (counting the trumps and high cards already played), heads a
  trick as cheaply as it can, ruffs when void, and sheds its lowest losers otherwise.

Settings make the variants of the bots' pool (docs/bots.md): ``sit_margin`` (points by which
playing may be expected to cost before it sits out: negative sits out more, "cautious";
positive less, "bold") and ``trump_bias`` ("trump-happy": as chooser it counts every card it
holds of a suit ``trump_bias`` points in that suit's favour, so it names the suit it is long
in; and it plays rather than sits out by ``trump_bias`` points more for each trump it holds).

``explain`` gives the expected change of its own score for each option: from the hand
estimate for trump and exchange decisions, and from a quick simulation (a few dozen deals
consistent with what the seat has seen) for card play.
"""

from __future__ import annotations

import math
import random

from sobedesce.core import SIT_OUT, TURN_UP, Action, Exchange, NameTrump, Phase, Play, SeatView
from sobedesce.core.cards import CARDS, SUIT_MASKS
from sobedesce.core.logic import SUIT_OF, trick_winner

from ._eval import (
    ExchangePlan,
    expected_delta,
    expected_players,
    mask_cards,
    may_sit_out,
    plan_exchange,
    ranked_cards,
    trump_scores,
)
from ._search import PlayContext, evaluate_play, sample_play_worlds
from ._sim import pick_card
from .base import Option, forced_action


def expected_active(view: SeatView) -> float:
    """Players expected to play: those known to, plus 0.7 for each seat still to decide."""
    known = sum(1 for a in view.active if a is True)
    undecided = sum(1 for a in view.active if a is None)
    return expected_players(known, max(undecided - 1, 0))


def trump_action(option: int) -> Action:
    return TURN_UP if option == 4 else NameTrump.of(option)


def exchange_action(discard: int | None) -> Action:
    if discard is None:
        return SIT_OUT
    return Exchange(tuple(CARDS[c] for c in mask_cards(discard)))


def trick_state(view: SeatView) -> tuple[int, int, int]:
    """(lead suit or -1, the winning card so far or -1, players still to play after this one)."""
    assert view.trump is not None
    current = view.current_trick
    lead, win, length = -1, -1, 0
    if current is not None and current.cards:
        length = len(current.cards)
        lead = SUIT_OF[current.cards[0]]
        win = current.cards[trick_winner(current.cards, int(view.trump))]
    n_active = sum(1 for a in view.active if a)
    return lead, win, n_active - length - 1


class BasicBot:
    name = "basic"

    def __init__(self, explain_samples: int = 24, sit_margin: float = 0.0, trump_bias: float = 0.0) -> None:
        if explain_samples < 1:
            raise ValueError(f"explain_samples must be at least 1, not {explain_samples}")
        for setting, value in (("sit_margin", sit_margin), ("trump_bias", trump_bias)):
            if not math.isfinite(value):
                raise ValueError(f"{setting} must be a finite number, not {value}")
        self.explain_samples = explain_samples
        self.sit_margin = sit_margin
        self.trump_bias = trump_bias

    # -- decisions ----------------------------------------------------------------------

    def act(self, view: SeatView, rng: random.Random) -> Action:
        forced = forced_action(view)
        if forced is not None:
            return forced
        if view.phase == Phase.TRUMP:
            return trump_action(self._trump_scores(view)[0][1])
        if view.phase == Phase.EXCHANGE:
            plan = self._plan(view)
            return SIT_OUT if plan.sit_out else exchange_action(plan.discard)
        return Play.of(self._pick(view))

    def _trump_scores(self, view: SeatView) -> list[tuple[float, int]]:
        """``trump_scores``'s expected changes, best first, each named suit's lowered by
        ``trump_bias`` for every card of it in the hand."""
        scores = trump_scores(view.hand_mask, view.rules, not view.rules.chooser_must_play)
        if not self.trump_bias:
            return scores
        held = [(view.hand_mask & mask).bit_count() for mask in SUIT_MASKS]
        return sorted((d - self.trump_bias * held[o] if o < 4 else d, o) for d, o in scores)

    def _plan(self, view: SeatView) -> ExchangePlan:
        assert view.trump is not None and view.chooser is not None
        trump = int(view.trump)
        may_sit = may_sit_out(view.rules, trump, view.chooser, view.scores, view.sat_out_streaks)[view.seat]
        margin = self.sit_margin + self.trump_bias * (view.hand_mask & SUIT_MASKS[trump]).bit_count()
        return plan_exchange(view.hand_mask, trump, view.rules, may_sit, expected_active(view), margin)

    def _pick(self, view: SeatView) -> int:
        return pick_card(*self._card_inputs(view))

    def _card_inputs(self, view: SeatView) -> tuple[int, int, int, int, int, int, int, int]:
        """``pick_card``'s arguments for ``view``: hand, legal cards, suit led, winning card,
        trump, cards played, players after this one, tricks won (masks and ints)."""
        assert view.trump is not None
        played = 0
        for trick in view.tricks:
            for c in trick.cards:
                played |= 1 << c
        lead, win, n_after = trick_state(view)
        legal = 0
        for action in view.legal_actions:
            legal |= 1 << action.card  # type: ignore[attr-defined]
        return (view.hand_mask, legal, lead, win, int(view.trump), played, n_after, view.tricks_won[view.seat])

    # -- explanations -------------------------------------------------------------------

    def explain(self, view: SeatView, rng: random.Random) -> list[Option]:
        legal = view.legal_actions
        if not legal:
            return []
        rules = view.rules
        if view.phase == Phase.TRUMP:
            scores = self._trump_scores(view)
            # No note: "Clubs as trump" only said again what the option's action says.
            return [Option(trump_action(o), d) for d, o in scores]
        if view.phase == Phase.EXCHANGE:
            assert view.trump is not None
            trump = int(view.trump)
            plan = self._plan(view)
            mult = rules.multiplier(trump)
            ranked = ranked_cards(view.hand_mask, trump)
            n = len(ranked)
            options = []
            for k, t in plan.tricks_by_k.items():
                discard = 0
                for _v, c in ranked[n - k :] if k else ():
                    discard |= 1 << c
                note = f"keep the best {n - k}, expect {t:.1f} tricks"
                options.append(Option(exchange_action(discard), expected_delta(t, mult, rules.no_trick_penalty), note))
            if legal[0] == SIT_OUT:
                options.append(Option(SIT_OUT, 0.0, "sit out: the score stays"))
            options.sort(key=lambda o: o.expected_delta)
            return options
        # Play: a quick simulation over deals consistent with the view.
        ctx = PlayContext(view)
        worlds = sample_play_worlds(ctx, rng, self.explain_samples, weighted=False)
        cards = [a.card for a in legal]  # type: ignore[attr-defined]
        choice = self._pick(view)
        if not worlds:
            return [Option(Play.of(c), 0.0, "basic's choice" if c == choice else "") for c in cards]
        values = evaluate_play(ctx, worlds, cards)
        options = [
            Option(Play.of(c), v[0], "basic's choice" if c == choice else "", tricks=v[2], no_trick=v[3])
            for c, v in values.items()
        ]
        options.sort(key=lambda o: o.expected_delta)
        return options
