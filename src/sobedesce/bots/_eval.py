"""Hand evaluation and the basic policy's trump and exchange decisions, on bit masks.

The card values estimate how many tricks a card brings to a hand; they were fitted by least
squares on rounds played by the basic bot itself (see docs/bots.md) and are only a rough
guide: the strong bot relies on simulation, and uses these only to model other players.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from sobedesce.core import Round
from sobedesce.core.logic import (
    MAY_SIT_OUT,
    STOCK,
    SUIT_OF,
    credited_tricks,
    dealt_hands,
    must_play,
    score_changes,
)
from sobedesce.core.rules import Rules

from ._sim import ALL, PlayState

# Expected tricks a card brings, by strength 0 (Two) .. 9 (Ace): as a trump, and in a side suit.
TRUMP_VALUE = (0.43, 0.44, 0.47, 0.52, 0.60, 0.69, 0.82, 0.99, 1.19, 1.37)
SIDE_VALUE = (0.0, 0.0, 0.0, 0.0, 0.0, 0.005, 0.01, 0.01, 0.04, 0.26)
# A side Seven with its Ace beside it.
SEVEN_WITH_ACE = 0.05
# Base tricks by number of active players (a share of the 5 tricks not explained by cards).
BASE_BY_ACTIVE = {2: 0.6, 3: -0.1, 4: -0.45}
# P(no trick) against expected tricks, fitted on basic-vs-basic rounds; interpolated.
P0_TABLE = (
    (0.0, 0.85),
    (0.125, 0.76),
    (0.375, 0.635),
    (0.625, 0.49),
    (0.875, 0.33),
    (1.125, 0.19),
    (1.375, 0.09),
    (1.625, 0.034),
    (1.875, 0.012),
    (2.125, 0.003),
    (2.5, 0.0),
)


def card_value(card: int, trump: int, hand: int) -> float:
    strength = card % 10
    if SUIT_OF[card] == trump:
        return TRUMP_VALUE[strength]
    if strength == 8 and hand >> (card + 1) & 1:
        return SEVEN_WITH_ACE
    return SIDE_VALUE[strength]


def draw_value(trump: int) -> float:
    """The mean value of a card drawn at random (ignoring which cards are known)."""
    return _DRAW[trump]


_DRAW = tuple((sum(TRUMP_VALUE, 0.0) + 3 * sum(SIDE_VALUE, 0.0)) / 40 for _ in range(4))


def base_tricks(n_active: float) -> float:
    if n_active <= 2:
        return BASE_BY_ACTIVE[2]
    if n_active >= 4:
        return BASE_BY_ACTIVE[4]
    lo = int(n_active)
    frac = n_active - lo
    return BASE_BY_ACTIVE[lo] * (1 - frac) + BASE_BY_ACTIVE[lo + 1] * frac


def _p_zero_exact(tricks: float) -> float:
    if tricks <= 0.0:
        return P0_TABLE[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(P0_TABLE):
        if tricks < x1:
            return y0 + (y1 - y0) * (tricks - x0) / (x1 - x0)
    return 0.0


_P0_FINE = tuple(_p_zero_exact(i / 100) for i in range(301))


def p_zero(tricks: float) -> float:
    if tricks <= 0.0:
        return _P0_FINE[0]
    if tricks >= 3.0:
        return 0.0
    return _P0_FINE[int(tricks * 100.0 + 0.5)]


def expected_delta(tricks: float, mult: int, penalty: int = 5) -> float:
    """Expected score change for expected tricks ``tricks`` (negative is good)."""
    return mult * (penalty * p_zero(tricks) - tricks)


def ranked_cards(hand: int, trump: int) -> list[tuple[float, int]]:
    """The cards of ``hand`` with their values, best first."""
    out = []
    m = hand
    while m:
        low = m & -m
        card = low.bit_length() - 1
        out.append((card_value(card, trump, hand), card))
        m ^= low
    out.sort(reverse=True)
    return out


def may_sit_out(rules: Rules, trump: int, chooser: int, scores: Sequence[int], streaks: Sequence[int]) -> list[bool]:
    """Per seat, whether it may sit out this round (the core's rule, as booleans)."""
    return [code == MAY_SIT_OUT for code in must_play(rules, trump, chooser, scores, streaks)]


class ExchangePlan:
    """The basic policy's evaluation of an exchange decision."""

    __slots__ = ("discard", "k", "play_delta", "sit_out", "tricks_by_k")

    def __init__(self, discard: int, k: int, play_delta: float, sit_out: bool, tricks_by_k: dict[int, float]) -> None:
        self.discard = discard
        self.k = k
        self.play_delta = play_delta
        self.sit_out = sit_out
        self.tricks_by_k = tricks_by_k


def plan_exchange(
    hand: int, trump: int, rules: Rules, may_sit: bool, n_active: float, sit_margin: float = 0.0
) -> ExchangePlan:
    """Keep the cards worth more than a random draw; sit out when playing is expected to cost.

    Cached: search bots ask the same question for many options of one sampled deal."""
    key = (hand, trump, rules, may_sit, n_active, sit_margin)
    found = _PLAN_CACHE.get(key)
    if found is None:
        if len(_PLAN_CACHE) > 100_000:
            _PLAN_CACHE.clear()
        found = _PLAN_CACHE[key] = _plan_exchange(hand, trump, rules, may_sit, n_active, sit_margin)
    return found


_PLAN_CACHE: dict[tuple[int, int, Rules, bool, float, float], ExchangePlan] = {}


def _plan_exchange(
    hand: int, trump: int, rules: Rules, may_sit: bool, n_active: float, sit_margin: float
) -> ExchangePlan:
    ranked = ranked_cards(hand, trump)
    n = len(ranked)
    draw = draw_value(trump)
    base = base_tricks(n_active)
    mult = rules.multiplier(trump)
    penalty = rules.no_trick_penalty
    lo, hi = rules.min_discard, min(rules.max_discard, n)
    tricks_by_k: dict[int, float] = {}
    best_k = lo
    best_t = -1.0
    prefix = [0.0]
    for v, _c in ranked:
        prefix.append(prefix[-1] + v)
    for k in range(lo, hi + 1):
        t = base + prefix[n - k] + k * draw
        tricks_by_k[k] = t
        if t > best_t + 1e-9:
            best_t, best_k = t, k
    discard = 0
    for _v, card in ranked[n - best_k :] if best_k else ():
        discard |= 1 << card
    play_delta = expected_delta(best_t, mult, penalty)
    sit = may_sit and play_delta > sit_margin
    return ExchangePlan(discard, best_k, play_delta, sit, tricks_by_k)


SIT_TEMPERATURE = 0.2
K_DECAY = 4.0


def expected_players(active_before: int, still_to_decide: int) -> float:
    """The players the basic policy expects at an exchange decision: those who already chose
    to play, itself, and 0.7 for each seat deciding after it."""
    return active_before + 1 + 0.7 * still_to_decide


def sit_probability(play_delta: float) -> float:
    """The soft chance that the basic policy sits out when playing is expected to change its
    score by ``play_delta`` (a logistic with temperature ``SIT_TEMPERATURE``)."""
    x = max(-30.0, min(30.0, play_delta / SIT_TEMPERATURE))
    return 1.0 / (1.0 + math.exp(-x))


def exchange_likelihood(plan: ExchangePlan, may_sit: bool, observed_k: int | None) -> float:
    """How likely the basic policy makes the observed decision (``None`` = sat out)."""
    p_sit = sit_probability(plan.play_delta) if may_sit else 0.0
    if observed_k is None:
        return p_sit
    weights = {k: math.exp(-K_DECAY * abs(k - plan.k)) for k in plan.tricks_by_k}
    total = sum(weights.values(), 0.0)
    return (1.0 - p_sit) * weights.get(observed_k, 1e-3) / total


_TRUMP_CACHE: dict[tuple[int, Rules, bool], list[tuple[float, int]]] = {}


def trump_scores(three: int, rules: Rules, chooser_may_sit: bool = False) -> list[tuple[float, int]]:
    """Expected score change of each trump choice from the chooser's three cards.

    Returns ``(delta, option)`` with option 0..3 a named suit and 4 turning up (if allowed).
    Unknown cards are valued as the better of keeping them or exchanging them.  Cached.
    """
    key = (three, rules, chooser_may_sit)
    found = _TRUMP_CACHE.get(key)
    if found is None:
        if len(_TRUMP_CACHE) > 200_000:
            _TRUMP_CACHE.clear()
        found = _TRUMP_CACHE[key] = _trump_scores(three, rules, chooser_may_sit)
    return found


def _trump_scores(three: int, rules: Rules, chooser_may_sit: bool) -> list[tuple[float, int]]:
    out: list[tuple[float, int]] = []
    for suit in range(4):
        t = _three_value(three, suit) + 2 * _UNKNOWN_KEEP[suit]
        n = 4.0 if rules.all_play_suit == suit else 3.0
        t += base_tricks(n)
        d = expected_delta(t, rules.multiplier(suit), rules.no_trick_penalty)
        if chooser_may_sit and rules.all_play_suit != suit:
            d = min(d, 0.0)
        out.append((d, suit))
    if rules.turn_up_allowed:
        total = 0.0
        unknown = ALL & ~three
        count = 0
        m = unknown
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            suit = SUIT_OF[card]
            hand = three | low
            t = _three_value(hand, suit) + _UNKNOWN_KEEP[suit]
            n = 4.0 if rules.all_play_suit == suit else 3.0
            t += base_tricks(n)
            total += expected_delta(t, rules.multiplier(suit), rules.no_trick_penalty)
            count += 1
        out.append((total / count, 4))
    out.sort()
    return out


def _three_value(hand: int, trump: int) -> float:
    draw = draw_value(trump)
    total = 0.0
    m = hand
    while m:
        low = m & -m
        total += max(card_value(low.bit_length() - 1, trump, hand), draw)
        m ^= low
    return total


_UNKNOWN_KEEP = tuple(
    sum((max(TRUMP_VALUE[r] if s == t else SIDE_VALUE[r], _DRAW[t]) for s in range(4) for r in range(10)), 0.0) / 40
    for t in range(4)
)

TRUMP_TEMPERATURE = 0.1


def trump_likelihood(three: int, rules: Rules, option: int, chooser_may_sit: bool = False) -> float:
    """Soft-max probability that the basic policy makes trump choice ``option``."""
    key = (three, rules, chooser_may_sit, option, TRUMP_TEMPERATURE)
    found = _LIKELY_CACHE.get(key)
    if found is None:
        if len(_LIKELY_CACHE) > 200_000:
            _LIKELY_CACHE.clear()
        found = _LIKELY_CACHE[key] = _trump_likelihood(three, rules, option, chooser_may_sit)
    return found


_LIKELY_CACHE: dict[tuple[int, Rules, bool, int, float], float] = {}


def _trump_likelihood(three: int, rules: Rules, option: int, chooser_may_sit: bool) -> float:
    scores = trump_scores(three, rules, chooser_may_sit)
    weights = {opt: math.exp(-d / TRUMP_TEMPERATURE) for d, opt in scores}
    return weights.get(option, 0.0) / sum(weights.values(), 0.0)


# -- whole-round simulation from the exchange phase ---------------------------------------


class ExState:
    """The exchange phase as plain values: every seat still to decide uses the basic plan.

    Built from its parts, by :meth:`from_round` (a real round at its exchange phase) or by
    :func:`ex_state_from_deck` (a dealt deck with trump chosen); :meth:`copy` for a trial.
    """

    __slots__ = ("active", "chooser", "hands", "may_sit", "order_pos", "rules", "stock", "trump")

    def __init__(
        self,
        rules: Rules,
        trump: int,
        chooser: int,
        hands: list[int],
        stock: list[int],
        active: list[int],
        order_pos: int,
        may_sit: list[bool],
    ) -> None:
        """``stock`` is drawn from its end (``pop``); ``order_pos`` decisions are taken (the
        chooser's is the first); ``may_sit`` is :func:`may_sit_out` of the round."""
        self.rules = rules
        self.trump = trump
        self.chooser = chooser
        self.hands = hands
        self.stock = stock
        self.active = active
        self.order_pos = order_pos
        self.may_sit = may_sit

    @classmethod
    def from_round(cls, rnd: Round, stock: list[int]) -> ExState:
        """The real round at its exchange phase, with ``stock`` (drawn from its end) in place
        of the round's own remaining stock."""
        assert rnd.trump is not None
        trump = int(rnd.trump)
        active = [-1 if a is None else int(a) for a in rnd.active]
        return cls(
            rnd.rules,
            trump,
            rnd.chooser,
            list(rnd.hands),
            stock,
            active,
            sum(a >= 0 for a in active),
            may_sit_out(rnd.rules, trump, rnd.chooser, rnd.scores, rnd.streaks),
        )

    def copy(self) -> ExState:
        return ExState(
            self.rules,
            self.trump,
            self.chooser,
            self.hands[:],
            self.stock[:],
            self.active[:],
            self.order_pos,
            self.may_sit,
        )

    def seat_to_act(self) -> int:
        return (self.chooser + self.order_pos) % 4

    def apply(self, discard: int | None) -> None:
        """The seat to act sits out (``None``) or discards ``discard`` and draws as many."""
        seat = self.seat_to_act()
        if discard is None:
            self.active[seat] = 0
        else:
            k = discard.bit_count()
            hand = self.hands[seat] ^ discard
            for _ in range(k):
                hand |= 1 << self.stock.pop()
            self.hands[seat] = hand
            self.active[seat] = 1
        self.order_pos += 1

    def basic_decision(self, seat: int) -> int | None:
        decided_active = sum(1 for s in range(4) if self.active[s] == 1)
        n_exp = expected_players(decided_active, 4 - self.order_pos - 1)
        plan = plan_exchange(self.hands[seat], self.trump, self.rules, self.may_sit[seat], n_exp)
        return None if plan.sit_out else plan.discard

    def finish(self, seat_of_interest: int) -> list[int]:
        """Let the remaining seats decide with the basic plan, play out; the score changes."""
        while self.order_pos < 4:
            seat = self.seat_to_act()
            self.apply(self.basic_decision(seat))
        active = self.active
        won = credited_tricks(active)
        if won is None:
            won = PlayState.start(self.rules, self.trump, self.chooser, self.hands, active).play_out()
        return score_changes(self.rules, self.trump, active, won)


def ex_state_from_deck(
    rules: Rules, chooser: int, deck: list[int], trump: int, scores: tuple[int, ...], streaks: tuple[int, ...]
) -> ExState:
    """The exchange phase of a round dealt from ``deck`` (top first) with ``trump`` chosen."""
    stock = list(reversed(deck[STOCK:]))  # pop() draws from the top
    key = (rules, trump, chooser, scores, streaks)
    sit = _SIT_CACHE.get(key)
    if sit is None:
        if len(_SIT_CACHE) > 10_000:
            _SIT_CACHE.clear()
        sit = _SIT_CACHE[key] = may_sit_out(rules, trump, chooser, scores, streaks)
    return ExState(rules, trump, chooser, dealt_hands(deck, chooser), stock, [-1, -1, -1, -1], 0, sit)


# The trump phase's search asks who may sit out for the same round with every sampled deck.
_SIT_CACHE: dict[tuple[Rules, int, int, tuple[int, ...], tuple[int, ...]], list[bool]] = {}


def mask_cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


__all__ = [
    "ExState",
    "ExchangePlan",
    "card_value",
    "ex_state_from_deck",
    "exchange_likelihood",
    "expected_delta",
    "mask_cards",
    "may_sit_out",
    "plan_exchange",
    "ranked_cards",
    "trump_likelihood",
    "trump_scores",
]
