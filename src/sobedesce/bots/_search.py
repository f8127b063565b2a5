"""Sampling deals consistent with a seat's view, weighted by how well they explain what the
other seats did, and evaluating options by play-outs on those deals.

Three samplers, one per kind of decision:

- trump phase: full decks whose first three cards are the chooser's;
- exchange phase: full decks consistent with the chooser's trump choice (the turned card),
  and the earlier seats' sit-outs and discard counts, weighted by the basic policy's
  likelihood of those decisions;
- play phase: the other active seats' current hands, respecting every observed play's
  legality (voids, forced trumps, forced overtakes), weighted by how well the hands explain
  the discard counts, the trump choice and the cards played; at the round's first card,
  before anything is played, whole decks instead, weighted as the exchange phase's by the
  trump choice and every seat's exchange decision, the exchanges then played out; after it,
  decks built backwards from the play (the hands before the exchange dealt from the current
  hands, the cards played and the cards nobody holds), weighted the same way.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from math import comb

from sobedesce.core import SeatView, SitOut
from sobedesce.core.cards import SUIT_MASKS, mask_of
from sobedesce.core.logic import (
    BEATERS,
    SUIT_OF,
    legal_card_mask,
    match_winners,
    next_active_seats,
    riscos_for,
    score_changes,
)

from ._equity import Equity, equity_for
from ._eval import (
    K_DECAY,
    ExchangePlan,
    ExState,
    base_tricks,
    card_value,
    draw_value,
    ex_state_from_deck,
    exchange_likelihood,
    expected_delta,
    expected_players,
    mask_cards,
    may_sit_out,
    plan_exchange,
    ranked_cards,
    sit_probability,
    trump_likelihood,
)
from ._sim import ALL, PlayState, pick_card

Value = tuple[float, float, float, float]
"""What the play-outs say of one option, as weighted means over the worlds: the seat's change
of score, the objective it ranks by, the tricks it ends the round with, and the chance that it
ends with none while playing (the penalty).  The last two explain an option in words (a hint);
sitting out gives 0 and 0."""

PLAY_MISMATCH = 0.4
"""Likelihood factor of a card played that the basic policy would not have played."""
KEEPER_MISS = 0.35
"""Likelihood factor per kept card a sampled hand lacks, given the discard count."""


def objective(
    deltas: Sequence[int],
    seat: int,
    rivalry: float,
    scores: Sequence[int] | None = None,
    target: int = 0,
    equity: tuple[Equity, float] | None = None,
    riscos: bool = True,
) -> float:
    """What the search minimises for ``seat``: its own change minus ``rivalry`` times the
    mean change of the three others, and, when ``scores`` are given, ``riscos`` is on and the
    round would end the match, minus its riscos instead (offset so both are on one scale: the
    final score relative to the others' mean).  So a seat close to 0 goes for the win and
    keeps the others from reaching 0 first.  With ``equity`` (a model and a weight), that
    value is blended with the change of the seat's chance of winning the match, in points."""
    own = deltas[seat]
    if equity is not None and scores is not None:
        model, weight = equity
        finals = tuple([scores[i] + deltas[i] for i in range(4)])
        change = model.points_per_win * (model.win(scores, seat) - model.win(finals, seat))
        if weight >= 1.0:
            return change
        base = objective(deltas, seat, rivalry, scores if riscos else None, target)
        return weight * change + (1.0 - weight) * base
    if scores is not None and riscos:
        ends = [scores[i] + deltas[i] for i in range(4)]
        winners = match_winners(ends, target)
        if winners:
            value = -riscos_for(ends, winners)[seat]
            base = scores[seat] - rivalry * (sum(scores) - scores[seat]) / 3.0
            return value - base
    if not rivalry:
        return own
    return own - rivalry * (deltas[0] + deltas[1] + deltas[2] + deltas[3] - own) / 3.0


def _objective_inputs(
    view: SeatView, match_aware: bool, equity: float
) -> tuple[tuple[int, ...] | None, int, tuple[Equity, float] | None]:
    """What :func:`objective` needs besides the deltas and ``riscos`` (= ``match_aware``):
    the scores (when either the riscos or the equity need them), the target, and the equity
    model with its weight (when it has one)."""
    eq = (equity_for(view.rules), equity) if equity else None
    if not match_aware and eq is None:
        return None, view.rules.target_score, None
    return view.scores, view.rules.target_score, eq


# -- trump phase ------------------------------------------------------------------------


def sample_trump_decks(view: SeatView, rng: random.Random, n: int) -> list[list[int]]:
    """Decks (top first) whose first three cards are the chooser's (the viewer's) hand."""
    mine = mask_cards(view.hand_mask)
    rest = mask_cards(ALL & ~view.hand_mask)
    out = []
    for _ in range(n):
        rng.shuffle(rest)
        out.append(mine + rest)
    return out


def evaluate_trump(
    view: SeatView,
    decks: Sequence[list[int]],
    options: Sequence[int],
    rivalry: float = 0.0,
    match_aware: bool = False,
    equity: float = 0.0,
) -> dict[int, Value]:
    """Mean score change of the chooser and mean objective for each option (0..3 a suit,
    4 turning up), with the chooser's tricks and chance of none (:data:`Value`)."""
    seat = view.seat
    chooser = view.chooser
    assert chooser is not None
    rules = view.rules
    scores, target, eq = _objective_inputs(view, match_aware, equity)
    totals = {o: [0.0, 0.0, 0.0, 0.0] for o in options}
    for deck in decks:
        for option in options:
            trump = SUIT_OF[deck[12]] if option == 4 else option
            ex = ex_state_from_deck(rules, chooser, deck, trump, view.scores, view.sat_out_streaks)
            deltas = ex.finish(seat)
            acc = totals[option]
            own = deltas[seat]
            acc[0] += own
            acc[1] += objective(deltas, seat, rivalry, scores, target, eq, match_aware)
            if own > 0:
                acc[3] += 1.0
            else:
                acc[2] += -own / rules.multiplier(trump)
    n = max(len(decks), 1)
    return {o: (t[0] / n, t[1] / n, t[2] / n, t[3] / n) for o, t in totals.items()}


# -- exchange phase ---------------------------------------------------------------------


def _trump_option(view: SeatView) -> int:
    if view.turned_card is not None:
        return 4
    assert view.trump is not None
    return int(view.trump)


class _ExchangeSetting:
    """What a view at the exchange phase says, prepared once for every candidate deal."""

    def __init__(self, view: SeatView) -> None:
        assert view.chooser is not None and view.trump is not None
        self.view = view
        self.seat = view.seat
        self.chooser = view.chooser
        self.rules = view.rules
        self.trump = int(view.trump)
        self.order = view.exchange_order
        self.me_index = self.order.index(self.seat)
        self.turned = view.turned_card
        # The cards the viewer never held: its hand and, once it has exchanged (a first lead
        # reads the exchange phase, :class:`FirstLeadDraw`), its discards.
        unseen = ALL & ~view.hand_mask & ~mask_of(view.my_discards)
        if self.turned is not None and self.chooser != self.seat:
            unseen &= ~(1 << self.turned)
        self.pool = mask_cards(unseen)
        """The cards the viewer has not seen, shuffled in place for each candidate."""
        self.option = _trump_option(view)
        self.chooser_may_sit = not self.rules.chooser_must_play
        self.may_sit = may_sit_out(self.rules, self.trump, self.chooser, view.scores, view.sat_out_streaks)


_Candidate = tuple[float, list[int], list[int], list[int | None]]
"""A candidate deal: its weight, every seat's five dealt cards, the stock (top first) and the
discards of the seats that decided before the viewer (``None`` for a seat that sat out)."""


def sample_exchange_worlds(
    view: SeatView, rng: random.Random, n: int, weighted: bool = True, oversample: int = 8
) -> list[tuple[float, ExState]]:
    """Worlds at the viewer's exchange decision.

    ``n * oversample`` candidate deals are drawn and weighted by the likelihood of the trump
    choice and the earlier seats' decisions; ``n`` of them are then resampled in proportion
    to their weights (a deal drawn twice gets a fresh stock order), so play-outs are not
    wasted on unlikely deals.  Every returned world carries the candidates' mean weight
    (:class:`ExchangeDraw`, which a search under a clock uses to draw them in chunks).
    """
    draw = ExchangeDraw(view, n, weighted, oversample)
    draw.draw(rng, draw.want)
    return draw.worlds(rng)


class ExchangeDraw:
    """The candidate deals of one exchange decision, drawn in chunks (:meth:`draw`, so that a
    clock can be read between them), then resampled all at once (:meth:`worlds`).

    Resampling every candidate together is what makes the worlds follow the weights: worlds
    resampled chunk by chunk from a few candidates each (3 worlds from 24, the clock's first
    batches) lean toward deals drawn from the view alone, however unlikely, and weighting each
    chunk by its candidates' mean weight instead leaves a few heavy chunks deciding."""

    def __init__(self, view: SeatView, n: int, weighted: bool = True, oversample: int = 8) -> None:
        self.setting = _ExchangeSetting(view)
        self.n = n
        self.weighted = weighted
        self.oversample = oversample if weighted else 1
        self.want = n * self.oversample
        self.candidates: list[_Candidate] = []
        self.tried = 0

    @property
    def done(self) -> bool:
        """Every candidate wanted is drawn."""
        return self.tried >= self.want

    def draw(self, rng: random.Random, count: int) -> None:
        """Draw ``count`` more candidate deals (those of weight 0 are dropped)."""
        setting = self.setting
        weighted = self.weighted
        candidates = self.candidates
        for _ in range(count):
            rng.shuffle(setting.pool)
            weight, originals, stock = _deal_candidate(setting, weighted)
            weight, discards = _explain_decisions(setting, originals, weight, weighted)
            if weight > 0.0:
                candidates.append((weight, originals, stock, discards))
        self.tried += count

    def worlds(self, rng: random.Random) -> list[tuple[float, ExState]]:
        """``n`` worlds resampled from every candidate drawn (fewer if the drawing stopped
        early: one for each ``oversample`` tried), each with their mean weight; unweighted
        (``oversample`` 1), every candidate as it is, with its weight."""
        candidates = self.candidates
        if not candidates:
            return []
        if self.oversample > 1:
            n = self.n if self.done else max(1, self.tried // self.oversample)
            chosen = _resample([c[0] for c in candidates], n, rng)
            mean = sum((c[0] for c in candidates), 0.0) / self.tried
        else:
            chosen = list(range(len(candidates)))
            mean = 0.0
        out: list[tuple[float, ExState]] = []
        last = -1
        for index in chosen:
            stock_top_first = candidates[index][2][:]
            if index == last:
                rng.shuffle(stock_top_first)
            last = index
            world = _world_of(self.setting, candidates[index], stock_top_first)
            out.append((mean if self.oversample > 1 else candidates[index][0], world))
        return out


def _deal_candidate(setting: _ExchangeSetting, weighted: bool) -> tuple[float, list[int], list[int]]:
    """Deal the shuffled pool: 3 + 2 cards to each other seat in order (the chooser's second
    packet starting with the turned card, if any), the rest is the stock; weighted by how
    likely the chooser's trump decision is from its first three cards."""
    pool = setting.pool
    pos = 0
    originals = [0, 0, 0, 0]
    weight = 1.0
    for i in range(4):
        s = setting.order[i]
        if s == setting.seat:
            originals[s] = setting.view.hand_mask
            continue
        if i == 0 and setting.turned is not None:
            first = pool[pos : pos + 3]
            rest = [setting.turned, pool[pos + 3]]
            pos += 4
        else:
            first = pool[pos : pos + 3]
            rest = pool[pos + 3 : pos + 5]
            pos += 5
        m = 0
        for c in first:
            m |= 1 << c
        if weighted and i == 0:
            weight *= trump_likelihood(m, setting.rules, setting.option, setting.chooser_may_sit)
        for c in rest:
            m |= 1 << c
        originals[s] = m
    return weight, originals, pool[pos:]


def _explain_decisions(
    setting: _ExchangeSetting, originals: list[int], weight: float, weighted: bool
) -> tuple[float, list[int | None]]:
    """The seats that decided before the viewer: how likely the basic policy makes their
    decisions from these hands (times ``weight``), and what each discarded (the ``k`` weakest
    cards, for the ``k`` it showed)."""
    view = setting.view
    trump = setting.trump
    discards: list[int | None] = [None, None, None, None]
    active_so_far = 0
    for i in range(setting.me_index):
        s = setting.order[i]
        may_sit = setting.may_sit[s]
        plan = plan_exchange(originals[s], trump, setting.rules, may_sit, expected_players(active_so_far, 3 - i))
        if view.active[s] is False:
            if weighted:
                weight *= exchange_likelihood(plan, may_sit, None)
            continue
        active_so_far += 1
        k = view.discard_counts[s] or 0
        if weighted:
            weight *= exchange_likelihood(plan, may_sit, k)
        discards[s] = _discard_of(plan, originals[s], trump, k)
    return weight, discards


def _discard_of(plan: ExchangePlan, hand: int, trump: int, k: int) -> int:
    """The cards the basic policy discards from ``hand`` when it exchanges ``k`` of them: its
    plan's, or the ``k`` weakest when the count is not the plan's."""
    if k == plan.k:
        return plan.discard
    discard = 0
    for _v, c in ranked_cards(hand, trump)[5 - k :] if k else ():
        discard |= 1 << c
    return discard


def _world_of(setting: _ExchangeSetting, candidate: _Candidate, stock_top_first: list[int]) -> ExState:
    """The exchange phase at the viewer's decision: the earlier seats' exchanges drawn from
    ``stock_top_first`` in order."""
    _weight, originals, _stock, discards = candidate
    hands = originals[:]
    active = [-1, -1, -1, -1]
    draw_pos = 0
    for i in range(setting.me_index):
        s = setting.order[i]
        discard = discards[s]
        if setting.view.active[s] is False or discard is None:
            active[s] = 0
            continue
        k = discard.bit_count()
        hand = originals[s] ^ discard
        for c in stock_top_first[draw_pos : draw_pos + k]:
            hand |= 1 << c
        draw_pos += k
        hands[s] = hand
        active[s] = 1
    stock = stock_top_first[draw_pos:]
    stock.reverse()
    return ExState(
        setting.rules, setting.trump, setting.chooser, hands, stock, active, setting.me_index, setting.may_sit
    )


def evaluate_exchange(
    view: SeatView,
    worlds: Sequence[tuple[float, ExState]],
    options: Sequence[int | None],
    rivalry: float = 0.0,
    match_aware: bool = False,
    equity: float = 0.0,
) -> dict[int | None, Value]:
    """Weighted mean score change of the viewer and objective for each option (``None`` =
    sit out), with the viewer's tricks and chance of none (:data:`Value`)."""
    seat = view.seat
    scores, target, eq = _objective_inputs(view, match_aware, equity)
    total_w = sum((w for w, _ in worlds), 0.0) or 1.0
    assert view.trump is not None
    mult = float(view.rules.multiplier(int(view.trump)))
    values: dict[int | None, Value] = {}
    option: int | None  # declared for mypyc, which would infer None from the test below
    for option in options:
        if option is None and not rivalry and scores is None:
            values[option] = (0.0, 0.0, 0.0, 0.0)
            continue
        acc = 0.0
        acc_obj = 0.0
        acc_tricks = 0.0
        acc_none = 0.0
        for w, ex in worlds:
            if w <= 0.0:
                continue
            sim = ex.copy()
            sim.apply(option)
            deltas = sim.finish(seat)
            own = deltas[seat]
            acc += w * own
            acc_obj += w * objective(deltas, seat, rivalry, scores, target, eq, match_aware)
            if own > 0:
                acc_none += w
            else:
                acc_tricks -= w * own
        values[option] = (acc / total_w, acc_obj / total_w, acc_tricks / mult / total_w, acc_none / total_w)
    return values


def exchange_candidates(view: SeatView, every_subset: bool = False) -> list[int | None]:
    """Sit out (when legal) and, for each legal count k, discarding the k weakest cards;
    with ``every_subset``, every legal discard (the k weakest first, so they win ties)."""
    rules = view.rules
    assert view.trump is not None
    trump = int(view.trump)
    hand = view.hand_mask
    ranked = ranked_cards(hand, trump)
    n = len(ranked)
    out: list[int | None] = []
    legal = view.legal_actions
    if legal and isinstance(legal[0], SitOut):
        out.append(None)
    lo, hi = rules.min_discard, min(rules.max_discard, n)
    for k in range(lo, hi + 1):
        discard = 0
        for _v, c in ranked[n - k :] if k else ():
            discard |= 1 << c
        out.append(discard)
    if every_subset:
        cards = [c for _v, c in ranked]
        seen = set(out)
        for bits in range(1 << n):
            if not lo <= bits.bit_count() <= hi:
                continue
            discard = 0
            for i in range(n):
                if bits >> i & 1:
                    discard |= 1 << cards[i]
            if discard not in seen:
                seen.add(discard)
                out.append(discard)
    return out


def screen_exchange(
    view: SeatView,
    worlds: Sequence[tuple[float, ExState]],
    options: Sequence[int | None],
    keep: int,
    screen: int,
    rivalry: float = 0.0,
    match_aware: bool = False,
    equity: float = 0.0,
    bias: dict[int | None, float] | None = None,
) -> dict[int | None, Value]:
    """Successive halving on common worlds: every option on the first ``screen`` worlds, the
    ``keep`` best of them (sitting out always kept) on all the worlds.  Every value returned
    is over all the worlds."""
    if len(options) <= keep or len(worlds) <= screen:
        return evaluate_exchange(view, worlds, options, rivalry, match_aware, equity)
    head, tail = worlds[:screen], worlds[screen:]
    first = evaluate_exchange(view, head, options, rivalry, match_aware, equity)
    bias = bias or {}
    ranked = sorted(options, key=lambda o: first[o][1] + bias.get(o, 0.0))
    survivors = ranked[:keep]
    if None in options and None not in survivors:
        survivors.append(None)
    rest = evaluate_exchange(view, tail, survivors, rivalry, match_aware, equity)
    w_head = sum((w for w, _ in head), 0.0)
    w_tail = sum((w for w, _ in tail), 0.0)
    total = (w_head + w_tail) or 1.0
    return {
        o: (
            (first[o][0] * w_head + rest[o][0] * w_tail) / total,
            (first[o][1] * w_head + rest[o][1] * w_tail) / total,
            (first[o][2] * w_head + rest[o][2] * w_tail) / total,
            (first[o][3] * w_head + rest[o][3] * w_tail) / total,
        )
        for o in survivors
    }


# -- play phase -------------------------------------------------------------------------


class PlayContext:
    """What a play-phase view says, prepared once for many sampled worlds."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        seat = view.seat
        assert view.trump is not None
        self.trump = int(view.trump)
        rules = view.rules
        self.rules = rules
        self.active = [1 if a else 0 for a in view.active]
        self.next_active = next_active_seats(self.active)
        played = 0
        for trick in view.tricks:
            for c in trick.cards:
                played |= 1 << c
        self.played = played
        mine = 0
        for c in view.my_discards:
            mine |= 1 << c
        self.unseen = ALL & ~view.hand_mask & ~played & ~mine
        self.others = [s for s in range(4) if s != seat and self.active[s] == 1]
        self.sizes = {s: view.hand_sizes[s] for s in self.others}
        voids = view.voids()
        self.allowed = {}
        for s in self.others:
            mask = self.unseen
            for suit in voids[s]:
                mask &= ~SUIT_MASKS[suit]
            self.allowed[s] = mask
        # Cards each seat played, for rebuilding start-of-play hands.
        self.played_by = [0, 0, 0, 0]
        for trick in view.tricks:
            for c, s in zip(trick.cards, trick.seats, strict=False):
                self.played_by[s] |= 1 << c
        # The exchange decisions of the other seats, as the basic policy saw them: who may
        # have sat out, and how many players it expected (see ``ExState.basic_decision``).
        self.draw = draw_value(self.trump)
        self.mult = rules.multiplier(self.trump)
        self.sat_out: list[tuple[int, float]] = []
        self.played_by_choice: list[tuple[int, int, float]] = []
        decided_active = 0
        chooser_seat = view.chooser if view.chooser is not None else seat
        sit = may_sit_out(rules, self.trump, chooser_seat, view.scores, view.sat_out_streaks)
        for i, s in enumerate(view.exchange_order):
            n_exp = expected_players(decided_active, 3 - i)
            if view.active[s]:
                decided_active += 1
            if s == seat:
                continue
            if not sit[s]:
                continue
            if view.active[s]:
                self.played_by_choice.append((s, view.discard_counts[s] or 0, n_exp))
            else:
                self.sat_out.append((s, n_exp))
        base = PlayState.from_view(view)
        self.base = base
        turned = view.turned_card
        self.turned = -1
        chooser = view.chooser
        if (
            turned is not None
            and chooser != seat
            and chooser is not None
            and self.active[chooser] == 1
            and self.unseen >> turned & 1
            and self.allowed[chooser] >> turned & 1
        ):
            self.turned = turned


def sample_play_worlds(
    ctx: PlayContext,
    rng: random.Random,
    n: int,
    weighted: bool = True,
    max_tries: int = 0,
    evidence: bool = False,
    oversample: int = 1,
) -> list[tuple[float, list[int]]]:
    """The other active seats' current hands, with a weight each (0-weight deals dropped).

    With ``evidence`` the weight also carries the exchange phase's decisions (see
    :func:`_exchange_evidence`).  With ``oversample`` > 1, ``n * oversample`` deals are drawn
    and ``n`` resampled in proportion to their weights, each then carrying the mean weight of
    every deal tried (:class:`PlayDraw`, which a search under a clock uses to draw them in
    chunks)."""
    draw = PlayDraw(ctx, n, weighted, max_tries, evidence, oversample)
    draw.draw(rng, draw.want)
    return draw.worlds(rng)


class PlayDraw:
    """The deals of one card decision, drawn in chunks (:meth:`draw`), then resampled all at
    once (:meth:`worlds`), as :class:`ExchangeDraw`."""

    def __init__(
        self,
        ctx: PlayContext,
        n: int,
        weighted: bool = True,
        max_tries: int = 0,
        evidence: bool = False,
        oversample: int = 1,
    ) -> None:
        self.ctx = ctx
        self.n = n
        self.weighted = weighted
        self.evidence = evidence
        self.oversample = oversample if weighted else 1
        self.want = n * self.oversample
        self.limit = max_tries or self.want * 20
        self.tries = 0
        self.out: list[tuple[float, list[int]]] = []
        self.others = sorted(ctx.others, key=lambda s: ctx.allowed[s].bit_count() - ctx.sizes[s])
        self.pool = mask_cards(ctx.unseen)
        self.keep_turned = 0.9
        """The chance that a deal puts the turned card in the chooser's hand outright (when the
        chooser may hold it); otherwise it is dealt as any other unseen card."""

    @property
    def done(self) -> bool:
        """Every deal wanted is drawn, or the tries are used up."""
        return len(self.out) >= self.want or self.tries >= self.limit

    def draw(self, rng: random.Random, upto: int) -> None:
        """Draw deals until ``upto`` of them (of weight above 0) are kept, or the tries are up."""
        ctx = self.ctx
        view = ctx.view
        seat = view.seat
        others = self.others
        pool_all = self.pool
        out = self.out
        upto = min(upto, self.want)
        limit = self.limit
        tries = self.tries
        size = len(pool_all)
        rand = rng.random
        while len(out) < upto and tries < limit:
            tries += 1
            # A fresh random order of the unseen cards, shuffled lazily (Fisher-Yates, one
            # position at a time): most deals are complete long before the end of the pool.
            filled = 0
            hands = [0, 0, 0, 0]
            hands[seat] = view.hand_mask
            taken = 0
            chooser = view.chooser
            if ctx.turned >= 0 and rand() < self.keep_turned and ctx.sizes[chooser] > 0:  # type: ignore[index]
                hands[chooser] = 1 << ctx.turned  # type: ignore[index]
                taken = 1 << ctx.turned
            ok = True
            for s in others:
                need = ctx.sizes[s] - hands[s].bit_count()
                allowed = ctx.allowed[s] & ~taken
                if need <= 0:
                    continue
                got = hands[s]
                i = 0
                while i < size:
                    if i >= filled:
                        j = i + int(rand() * (size - i))
                        pool_all[i], pool_all[j] = pool_all[j], pool_all[i]
                        filled = i + 1
                    c = pool_all[i]
                    i += 1
                    if allowed >> c & 1:
                        got |= 1 << c
                        allowed ^= 1 << c
                        need -= 1
                        if not need:
                            break
                if need:
                    ok = False
                    break
                taken |= got
                hands[s] = got
            if not ok:
                continue
            weight = self._weigh(hands, rng)
            if weight > 0.0:
                out.append((weight, hands))
        self.tries = tries

    def _weigh(self, hands: list[int], rng: random.Random) -> float:
        """The weight of a deal of current hands: 0 when the play could not have come from it."""
        weight = _replay_weight(self.ctx, hands, self.weighted)
        if weight > 0.0 and self.evidence and self.weighted:
            weight *= _exchange_evidence(self.ctx, hands, rng)
        return weight

    def worlds(self, rng: random.Random) -> list[tuple[float, list[int]]]:
        """With ``oversample`` > 1, ``n`` deals resampled from every deal kept (fewer if the
        drawing stopped early: one for each ``oversample`` kept), each with the mean weight of
        every deal tried; otherwise every deal kept, with its weight."""
        out = self.out
        if self.oversample > 1 and out:
            return _resampled(out, self.n if self.done else max(1, len(out) // self.oversample), self.tries, rng)
        return out


class PlayDeckDraw(PlayDraw):
    """The deals of a card decision after the round's first card, read through whole decks.

    :class:`FirstLeadDraw` deals whole decks and weighs them by what the basic policy would
    have decided from them; after the first card that would mostly deal cards the seats could
    not have played, so this builds the decks backwards instead, consistent with the play by
    construction.  It deals the other seats' current hands from the cards they may hold (the
    voids they showed respected), the play replayed and weighed by the basic card policy as in
    :class:`PlayDraw`; adds back the cards each seat played to get the hand it held after the
    exchange; and for each other seat, in the order they decided, deals what it held before: it
    kept ``5 - k`` of those cards and discarded ``k`` of the cards nobody holds now, ones the
    basic policy would throw before those it kept; a seat that sat out held five of those.  Each
    deal is weighed by the basic policy's likelihood of the trump choice (the chooser's first
    three cards any three of its five, the turned card apart) and of every other seat's sit-out
    and discard count, as :class:`FirstLeadDraw` does.

    The deals are drawn leaning toward what those likelihoods favour (a seat that exchanged
    ``k`` cards holding ``5 - k`` worth keeping, the chooser its turned card, the discards the
    cards the basic policy would rather exchange), and every lean is undone in the weight, the
    chance of each choice known exactly: the weights are those of deals drawn uniformly."""

    def __init__(self, ctx: PlayContext, n: int, oversample: int = 4) -> None:
        super().__init__(ctx, n, weighted=True, evidence=False, oversample=oversample)
        view = ctx.view
        self.setting = _ExchangeSetting(view)
        setting = self.setting
        chooser = setting.chooser
        turned = setting.turned if chooser != view.seat else None
        self.turned_bit = 0 if turned is None else 1 << turned
        if ctx.turned >= 0 and (view.discard_counts[chooser] or 0) >= 5:
            self.keep_turned = 0.0  # the chooser exchanged all five: it discarded the turned card
        self.steps: list[tuple[int, bool, float, int | None]] = []
        active_so_far = 0
        for i, s in enumerate(setting.order):
            n_exp = expected_players(active_so_far, 3 - i)
            if view.active[s]:
                active_so_far += 1
            if s != view.seat:
                k = (view.discard_counts[s] or 0) if view.active[s] else None
                self.steps.append((s, setting.may_sit[s], n_exp, k))
        self.below = _BELOW[setting.trump]
        self.junk = _JUNK[setting.trump]
        # Per other active seat, how many more cards worth keeping its hand after the exchange
        # held than those it played: the 5 - k it kept.
        self.keepers = {
            s: max(0, 5 - (view.discard_counts[s] or 0) - (ctx.played_by[s] & ~self.junk).bit_count())
            for s in ctx.others
        }

    def draw(self, rng: random.Random, upto: int) -> None:
        """Draw deals until ``upto`` of them (of weight above 0) are kept, or the tries are up."""
        ctx = self.ctx
        view = ctx.view
        out = self.out
        upto = min(upto, self.want)
        turned = self.turned_bit if ctx.turned >= 0 else 0
        while len(out) < upto and self.tries < self.limit:
            self.tries += 1
            hands = [0, 0, 0, 0]
            hands[view.seat] = view.hand_mask
            taken = 0
            weight = 1.0
            for s in self.others:
                avail = ctx.allowed[s] & ~taken
                lean = self.keep_turned if turned and s == view.chooser and avail & turned else 0.0
                hand, factor = _deal_leaning(avail, ctx.sizes[s], self.keepers[s], self.junk, turned, lean, rng)
                if hand < 0:
                    weight = 0.0
                    break
                hands[s] = hand
                taken |= hand
                weight *= factor
            if weight > 0.0:
                weight *= self._weigh(hands, rng)
            if weight > 0.0:
                out.append((weight, hands))

    def _weigh(self, hands: list[int], rng: random.Random) -> float:
        ctx = self.ctx
        junk = self.junk
        weight = _replay_weight(ctx, hands, True, thumbs=False)
        if weight <= 0.0:
            return 0.0
        setting = self.setting
        trump = setting.trump
        rules = setting.rules
        chooser = setting.chooser
        dead = ctx.unseen
        for s in ctx.others:
            dead &= ~hands[s]
        turned_bit = self.turned_bit
        below = self.below
        for s, may_sit, n_exp, k in self.steps:
            if k is None:
                five = _pick(dead, 5, rng)
                if five < 0:
                    return 0.0
                dead &= ~five
                original = five
                plan = plan_exchange(original, trump, rules, may_sit, n_exp)
                weight *= exchange_likelihood(plan, may_sit, None)
            else:
                held = hands[s] | ctx.played_by[s]
                keep_forced = drop_forced = 0
                if s == chooser and turned_bit:
                    if held & turned_bit:
                        keep_forced = turned_bit
                    elif dead & turned_bit:
                        drop_forced = turned_bit
                    else:
                        return 0.0
                if not k:
                    if drop_forced:
                        return 0.0
                    original = held
                    discard = 0
                else:
                    free = k - (1 if drop_forced else 0)
                    pool = dead & ~drop_forced
                    cards = mask_cards(held)
                    # (lean, kept cards, keepers among the free discards, where they come from)
                    choices: list[tuple[float, int, int, int]] = []
                    total = 0.0
                    for kept_cards in combinations(cards, 5 - k):
                        kept = 0
                        for c in kept_cards:
                            kept |= 1 << c
                        if kept & keep_forced != keep_forced:
                            continue
                        under = _below_all(kept, trump, below)
                        if drop_forced and not under & drop_forced:
                            continue
                        allowed = pool & under
                        good = (allowed & ~junk).bit_count()
                        bad = (allowed & junk).bit_count()
                        # The basic policy's count is the junk it holds: what was kept, and
                        # the discards that were not keepers.
                        excess = (kept & junk).bit_count() - (1 if drop_forced & ~junk else 0)
                        for j in range(max(0, free - bad), min(free, good) + 1):
                            lean = comb(good, j) * comb(bad, free - j) * _OFF_COUNT[abs(excess - j)]
                            choices.append((lean, kept, j, allowed))
                            total += lean
                    if not total:
                        return 0.0
                    point = rng.random() * total
                    chosen = choices[-1]
                    for choice in choices:
                        point -= choice[0]
                        if point < 0.0:
                            chosen = choice
                            break
                    _lean, kept, j, allowed = chosen
                    excess = (kept & junk).bit_count() - (1 if drop_forced & ~junk else 0)
                    discard = drop_forced | _pick(allowed & ~junk, j, rng) | _pick(allowed & junk, free - j, rng)
                    weight *= total / _OFF_COUNT[abs(excess - j)]
                    original = kept | discard
                    dead &= ~discard
                plan = plan_exchange(original, trump, rules, may_sit, n_exp)
                weight *= exchange_likelihood(plan, may_sit, k)
                if k and _discard_of(plan, original, trump, k) != discard:
                    return 0.0
            if s == chooser:
                weight *= _trump_chance(setting, original)
            if weight <= 0.0:
                return 0.0
        return weight


def _deal_leaning(
    avail: int, need: int, keepers: int, junk: int, turned: int, lean: float, rng: random.Random
) -> tuple[int, float]:
    """``need`` cards of ``avail`` for a seat that kept ``keepers`` cards worth keeping, and
    how much more likely a uniform deal makes them than this one (the weight that undoes the
    lean); (-1, 0) when ``avail`` holds too few.  Hands short of worth-keeping cards are drawn
    as much less often as the basic policy's discard count makes them less likely
    (``_OFF_COUNT``), and with probability ``lean`` the hand holds ``turned`` outright."""
    total = avail.bit_count()
    if total < need:
        return -1, 0.0
    good, bad = avail & ~junk, avail & junk
    lean = lean if need > 0 else 0.0
    # The turned card is a trump, so worth keeping.
    if lean > 0.0 and rng.random() < lean:
        hand = turned | _leaned_hand(good & ~turned, bad, need - 1, keepers - 1, rng)
    else:
        hand = _leaned_hand(good, bad, need, keepers, rng)
    chance = _deal_chance(good, bad, need, keepers, hand)
    if lean > 0.0:
        chance *= 1.0 - lean
        if hand & turned:
            chance += lean * _deal_chance(good & ~turned, bad, need - 1, keepers - 1, hand & ~turned)
    return hand, 1.0 / (comb(total, need) * chance)


def _leaned_hand(good: int, bad: int, need: int, keepers: int, rng: random.Random) -> int:
    """``need`` cards of ``good | bad``: how many of ``good`` drawn by :func:`_keeper_spread`,
    which ones uniformly."""
    spread = _keeper_spread(good.bit_count(), bad.bit_count(), need, keepers)
    point = rng.random() * spread[-1]
    x = 0
    while x < len(spread) - 1 and point >= spread[x]:
        x += 1
    x += max(0, need - bad.bit_count())
    return _pick(good, x, rng) | _pick(bad, need - x, rng)


def _keeper_spread(good: int, bad: int, need: int, keepers: int) -> list[float]:
    """The cumulative leaned weights of a hand of ``need`` holding ``low``, ``low + 1``, ...
    cards worth keeping (``good`` of them available, ``bad`` others), ``low`` the fewest it
    can hold."""
    out = []
    acc = 0.0
    for x in range(max(0, need - bad), min(need, good) + 1):
        acc += comb(good, x) * comb(bad, need - x) * _OFF_COUNT[max(0, keepers - x)]
        out.append(acc)
    return out


def _deal_chance(good: int, bad: int, need: int, keepers: int, hand: int) -> float:
    """The chance that :func:`_leaned_hand` gives exactly ``hand``."""
    spread = _keeper_spread(good.bit_count(), bad.bit_count(), need, keepers)
    if not spread or spread[-1] <= 0.0:
        return 0.0
    x = (hand & good).bit_count()
    return _OFF_COUNT[max(0, keepers - x)] / spread[-1]


def _pick(mask: int, n: int, rng: random.Random) -> int:
    """``n`` cards of ``mask`` drawn uniformly (a mask), or -1 when it holds fewer."""
    cards = mask_cards(mask)
    if len(cards) < n:
        return -1
    out = 0
    for c in rng.sample(cards, n):
        out |= 1 << c
    return out


def _below_all(kept: int, trump: int, below: tuple[int, ...]) -> int:
    """The cards the basic policy would discard before every card of ``kept`` (it discards
    the weakest by :func:`~._eval.ranked_cards`' order, a side Seven beside its Ace valued
    above a lone one); every card when ``kept`` is empty."""
    out = ALL
    m = kept
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if c % 10 == 8 and SUIT_OF[c] != trump and kept >> (c + 1) & 1:
            out &= _BELOW_SEVEN_WITH_ACE[trump][SUIT_OF[c]]
        else:
            out &= below[c]
    return out


def _trump_chance(setting: _ExchangeSetting, original: int) -> float:
    """How likely the basic policy makes the chooser's trump choice from its five cards: the
    mean over which three of them came first (the turned card, the fourth, never among them)."""
    cards = mask_cards(original & ~(0 if setting.turned is None else 1 << setting.turned))
    total = 0.0
    count = 0
    for three_cards in combinations(cards, 3):
        three = 0
        for c in three_cards:
            three |= 1 << c
        total += trump_likelihood(three, setting.rules, setting.option, setting.chooser_may_sit)
        count += 1
    return total / count if count else 0.0


def _ranked_below(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card, the cards ranked below it in :func:`~._eval.ranked_cards`' order (value, then
    card) with no context; and per side suit, those below its Seven when the Ace is beside it."""
    key = [(card_value(c, trump, 0), c) for c in range(40)]
    below = tuple(sum(1 << d for d in range(40) if key[d] < key[c]) for c in range(40))
    sevens = []
    for suit in range(4):
        seven = suit * 10 + 8
        mark = (card_value(seven, trump, 1 << (seven + 1)), seven)
        sevens.append(sum(1 << d for d in range(40) if key[d] < mark))
    return below, tuple(sevens)


_JUNK = tuple(sum(1 << c for c in range(40) if card_value(c, t, 0) < draw_value(t)) for t in range(4))
"""Per trump, the cards the basic policy would rather exchange than keep."""
_OFF_COUNT = tuple(math.exp(-K_DECAY * n) for n in range(11))
"""How much less often an earlier hand is proposed for which the basic policy's discard count
would be ``n`` away from the one observed (the cards it would rather exchange: those it kept
and those it discarded that it would have kept), as its likelihood of the count weighs it."""

_RANKED_BELOW = tuple(_ranked_below(t) for t in range(4))
_BELOW = tuple(b for b, _ in _RANKED_BELOW)
_BELOW_SEVEN_WITH_ACE = tuple(s for _, s in _RANKED_BELOW)


FIRST_LEAD_OVERSAMPLE = 40
"""Whole decks drawn for each deal kept at the first lead (the weights of the four seats'
decisions are sharp, so few decks carry most of the weight)."""


class FirstLeadDraw:
    """The deals of the round's first card, drawn as whole decks, in chunks (:meth:`draw`),
    then resampled all at once (:meth:`worlds`), with :class:`PlayDraw`'s interface.

    Before any card is played, what a seat knows of the others comes from the trump choice and
    the exchange decisions alone, and the basic policy that explains them is a rule on whole
    hands.  So rather than drawing the current hands and weighing them by rules of thumb (what
    :class:`PlayDraw` does), this deals every other seat's five cards and the stock from the
    cards the viewer never held, weighs the deal by the basic policy's likelihood of the trump
    choice and of *every* seat's exchange decision (as the exchange phase weighs the earlier
    seats'), and plays the exchanges out (the basic discards, the draws in order) to get the
    hands the seats now hold.  The viewer's own draws never came from these cards: the others
    draw from the stock as if they were not there.  Measured against this sampler's rejection
    form, the exact posterior against ``basic`` players, at the first lead
    (``benchmarks/first_lead_posterior.py``)."""

    def __init__(self, ctx: PlayContext, n: int, oversample: int = FIRST_LEAD_OVERSAMPLE) -> None:
        view = ctx.view
        self.ctx = ctx
        self.n = n
        self.oversample = oversample
        self.want = n * oversample
        self.tries = 0
        self.out: list[tuple[float, list[int]]] = []
        self.setting = _ExchangeSetting(view)

    @staticmethod
    def applies(view: SeatView) -> bool:
        """Whether ``view`` is a decision this sampler is for: the round's first card."""
        return view.chooser is not None and view.trump is not None and not view.played_cards

    @property
    def done(self) -> bool:
        return self.tries >= self.want

    def draw(self, rng: random.Random, upto: int) -> None:
        """Draw decks until ``upto`` deals are kept (every deck is, unless its weight is 0) or
        every deck wanted is drawn."""
        setting = self.setting
        view = setting.view
        seat = setting.seat
        while len(self.out) < upto and self.tries < self.want:
            self.tries += 1
            rng.shuffle(setting.pool)
            weight, originals, stock = _deal_candidate(setting, True)
            hands = [0, 0, 0, 0]
            hands[seat] = view.hand_mask
            active_so_far = 0
            drawn = 0
            for i, s in enumerate(setting.order):
                if s == seat:
                    active_so_far += 1
                    continue
                may_sit = setting.may_sit[s]
                plan = plan_exchange(
                    originals[s], setting.trump, setting.rules, may_sit, expected_players(active_so_far, 3 - i)
                )
                if view.active[s] is False:
                    weight *= exchange_likelihood(plan, may_sit, None)
                    continue
                active_so_far += 1
                k = view.discard_counts[s] or 0
                weight *= exchange_likelihood(plan, may_sit, k)
                hand = originals[s] ^ _discard_of(plan, originals[s], setting.trump, k)
                for c in stock[drawn : drawn + k]:
                    hand |= 1 << c
                drawn += k
                hands[s] = hand
            if weight > 0.0:
                self.out.append((weight, hands))

    def worlds(self, rng: random.Random) -> list[tuple[float, list[int]]]:
        """``n`` deals resampled from every deal drawn (fewer if the drawing stopped early: one
        for each ``oversample`` drawn), each with the mean weight of every deal drawn."""
        if not self.out:
            return []
        return _resampled(self.out, self.n if self.done else max(1, self.tries // self.oversample), self.tries, rng)


def _resampled(
    out: list[tuple[float, list[int]]], n: int, tries: int, rng: random.Random
) -> list[tuple[float, list[int]]]:
    """``n`` of the deals ``out`` resampled by weight, each with the mean weight of the
    ``tries`` deals drawn (those of weight 0 not kept among them)."""
    mean = sum((w for w, _ in out), 0.0) / tries
    return [(mean, out[i][1]) for i in _resample([w for w, _ in out], n, rng)]


def _resample(weights: Sequence[float], n: int, rng: random.Random) -> list[int]:
    """``n`` indices drawn in proportion to ``weights`` (systematic resampling)."""
    total = sum(weights, 0.0)
    step = total / n
    point = rng.random() * step
    acc = 0.0
    index = 0
    chosen = []
    for _ in range(n):
        while index < len(weights) - 1 and acc + weights[index] < point:
            acc += weights[index]
            index += 1
        chosen.append(index)
        point += step
    return chosen


EVIDENCE_DRAWS = 4
"""Hands drawn for each sat-out seat to estimate how likely it was to sit out."""


def _sit_chance(values: list[float], n_exp: float, ctx: PlayContext) -> float:
    """The basic policy's chance of sitting out with cards of these values (best first), as
    :func:`~._eval.exchange_likelihood` gives it (from values, not a hand: faster); also used, as ``1 - chance``, for a seat
    that played with these cards kept."""
    rules = ctx.rules
    draw = ctx.draw
    n = len(values)
    best = -1.0
    kept = sum(values, 0.0)
    for k in range(0, min(rules.max_discard, n) + 1):
        if k:
            kept -= values[n - k]
        if k >= rules.min_discard:
            best = max(best, kept + k * draw)
    return sit_probability(expected_delta(base_tricks(n_exp) + best, ctx.mult, rules.no_trick_penalty))


def _exchange_evidence(ctx: PlayContext, hands: list[int], rng: random.Random) -> float:
    """How well the sampled hands explain the other seats' sit-out decisions.

    A seat that played although it could have sat out is unlikely to have kept a weak hand:
    its kept cards are taken to be the best ``5 - k`` of its start-of-play hand.  A seat that
    sat out held a weak hand: its hand is drawn (``EVIDENCE_DRAWS`` times) from the cards
    that no active seat holds, and the chance that the basic policy sits out with it is
    averaged.  (A side Seven beside its Ace is valued as a plain Seven here.)
    """
    value = _VALUE[ctx.trump]
    weight = 1.0
    for s, k, n_exp in ctx.played_by_choice:
        m = hands[s] | ctx.played_by[s]
        values = []
        while m:
            low = m & -m
            values.append(value[low.bit_length() - 1])
            m ^= low
        values.sort(reverse=True)
        kept = values[: 5 - k]
        weight *= 1.0 - _sit_chance(kept + [ctx.draw] * k, n_exp, ctx)
    if ctx.sat_out:
        held = 0
        for s in ctx.others:
            held |= hands[s]
        left = [value[c] for c in mask_cards(ctx.unseen & ~held)]
        if len(left) >= 5 * len(ctx.sat_out):
            rng.shuffle(left)
            draws = min(EVIDENCE_DRAWS, len(left) // 5)
            pos = 0
            for _s, n_exp in ctx.sat_out:
                total = 0.0
                for _ in range(draws):
                    if pos + 5 > len(left):
                        rng.shuffle(left)
                        pos = 0
                    five = sorted(left[pos : pos + 5], reverse=True)
                    pos += 5
                    total += _sit_chance(five, n_exp, ctx)
                weight *= total / draws
    return weight


_VALUE = tuple(tuple(card_value(c, t, 0) for c in range(40)) for t in range(4))


def _replay_weight(ctx: PlayContext, hands: list[int], weighted: bool, thumbs: bool = True) -> float:
    """0 when some observed play would have been illegal from these hands, else a weight: with
    ``weighted``, ``PLAY_MISMATCH`` for each observed card the basic policy would not have
    played and, with ``thumbs`` too, the rules of thumb on the discard counts and the trump."""
    view = ctx.view
    seat = view.seat
    trump = ctx.trump
    rules = ctx.rules
    mb, mu, la = rules.must_beat_following, rules.must_undertrump, rules.must_lead_trump_ace
    start = [hands[s] | ctx.played_by[s] for s in range(4)]
    held = start[:]
    weight = 1.0
    if weighted and thumbs:
        draw = ctx.draw
        value = _VALUE[trump]
        for s in ctx.others:
            k = view.discard_counts[s] or 0
            keep_needed = 5 - k
            keepers = sum(1 for c in mask_cards(start[s]) if value[c] > draw)
            if keepers < keep_needed:
                weight *= KEEPER_MISS ** (keep_needed - keepers)
        chooser = view.chooser
        if view.turned_card is None and chooser is not None and chooser != seat and ctx.active[chooser] == 1:
            trumps = (start[chooser] & SUIT_MASKS[trump]).bit_count()
            weight *= 1.0 + 0.5 * trumps
    beaters = BEATERS[trump]
    played = 0
    won = [0, 0, 0, 0]
    n_active = sum(ctx.active)
    for trick in view.tricks:
        lead = -1
        win = -1
        win_seat = -1
        for i, (card, s) in enumerate(zip(trick.cards, trick.seats, strict=False)):
            if s != seat:
                hand = held[s]
                legal = legal_card_mask(hand, lead, win, trump, mb, mu, la)
                if not legal >> card & 1:
                    return 0.0
                if (
                    weighted
                    and legal & (legal - 1)
                    and pick_card(hand, legal, lead, win, trump, played, n_active - i - 1, won[s]) != card
                ):
                    weight *= PLAY_MISMATCH
            held[s] &= ~(1 << card)
            played |= 1 << card
            if lead < 0:
                lead = SUIT_OF[card]
                win, win_seat = card, s
            elif beaters[win] >> card & 1:
                win, win_seat = card, s
        if len(trick.cards) == n_active:
            won[win_seat] += 1
    return weight


def evaluate_play(
    ctx: PlayContext,
    worlds: Sequence[tuple[float, list[int]]],
    cards: Sequence[int],
    rivalry: float = 0.0,
    match_aware: bool = False,
    equity: float = 0.0,
) -> dict[int, Value]:
    """Weighted mean score change of the viewer and objective for each card, with the
    viewer's tricks and chance of none (:data:`Value`)."""
    seat = ctx.view.seat
    scores, target, eq = _objective_inputs(ctx.view, match_aware, equity)
    total_w = sum((w for w, _ in worlds), 0.0) or 1.0
    rules, trump, active = ctx.rules, ctx.trump, ctx.active
    values: dict[int, Value] = {}
    for card in cards:
        acc = 0.0
        acc_obj = 0.0
        acc_tricks = 0.0
        acc_none = 0.0
        for w, hands in worlds:
            st = ctx.base.with_hands(hands)
            st.play(card)
            won = st.play_out()
            deltas = score_changes(rules, trump, active, won)
            acc += w * deltas[seat]
            acc_obj += w * objective(deltas, seat, rivalry, scores, target, eq, match_aware)
            tricks = won[seat]
            if tricks:
                acc_tricks += w * tricks
            else:
                acc_none += w
        values[card] = (acc / total_w, acc_obj / total_w, acc_tricks / total_w, acc_none / total_w)
    return values


__all__ = [
    "ExchangeDraw",
    "FirstLeadDraw",
    "PlayContext",
    "PlayDeckDraw",
    "PlayDraw",
    "Value",
    "card_value",
    "evaluate_exchange",
    "evaluate_play",
    "evaluate_trump",
    "exchange_candidates",
    "sample_exchange_worlds",
    "sample_play_worlds",
    "sample_trump_decks",
    "screen_exchange",
]
