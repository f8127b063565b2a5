"""Fast play-outs for the bots: the play phase as plain ints, and the basic card-play policy.

Everything here works on plain ints and lists (no action objects) so that search bots can
play thousands of rounds a second.  Every rule it needs (which card may be played, what wins
a trick, who plays next) is the core's own, from :mod:`sobedesce.core.logic`;
``tests/test_bots.py`` checks that a play-out and a real ``Round`` agree card for card.
"""

from __future__ import annotations

from collections.abc import Sequence

from sobedesce.core import Round, SeatView
from sobedesce.core.cards import SUIT_MASKS
from sobedesce.core.logic import (
    ABOVE,
    BEATERS,
    SUIT_OF,
    TRICKS_PER_ROUND,
    first_leader,
    legal_card_mask,
    next_active_seats,
    trick_seats,
    trick_winner,
)
from sobedesce.core.rules import Rules

__all__ = ["ALL", "PlayState", "pick_card"]

ALL = (1 << 40) - 1
"""The mask of the whole deck."""


def lowest_rank(mask: int) -> int:
    """The card of ``mask`` with the lowest rank (any suit)."""
    best = -1
    best_rank = 99
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        rank = card % 10
        if rank < best_rank:
            best, best_rank = card, rank
        mask ^= low
    return best


def pick_card(hand: int, legal: int, lead: int, win: int, trump: int, played: int, n_after: int, won: int) -> int:
    """The basic policy's card: win cheaply when possible, lead winners, shed losers.

    ``played`` is every card seen played this round (public), ``n_after`` how many players
    still play to this trick after this one, ``won`` the tricks this seat has already won.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    # (Below, ``(m & -m).bit_length() - 1`` is the lowest card of a mask m, inline for speed.)
    unseen = ALL & ~played & ~hand
    if lead < 0:
        return _pick_lead(legal, unseen, SUIT_MASKS[trump])
    return _pick_follow(legal, win, trump, unseen, n_after, won)


def _pick_lead(legal: int, unseen: int, tmask: int) -> int:
    """Leading: a sure trump winner, else the best side winner, else low from the shortest side suit."""
    # A trump that no unseen trump beats wins for sure.
    trumps = legal & tmask
    if trumps:
        top = trumps.bit_length() - 1
        if not (ABOVE[top] & unseen):
            return top
    # A side card that is the highest left in its suit (may be ruffed, still the best try):
    # the one whose suit has the most unseen cards left.
    side = legal & ~tmask
    best = -1
    best_left = -1
    m = side
    while m:
        suit = SUIT_OF[(m & -m).bit_length() - 1]
        suit_cards = m & SUIT_MASKS[suit]
        m &= ~SUIT_MASKS[suit]
        top = suit_cards.bit_length() - 1
        if not (ABOVE[top] & unseen):
            left = (unseen & SUIT_MASKS[suit]).bit_count()
            if left > best_left:
                best, best_left = top, left
    if best >= 0:
        return best
    if not side:
        return (trumps & -trumps).bit_length() - 1
    # Lead low from the shortest side suit (to get void and ruff later).
    best_len = 99
    m = side
    while m:
        suit = SUIT_OF[(m & -m).bit_length() - 1]
        suit_cards = m & SUIT_MASKS[suit]
        m &= ~SUIT_MASKS[suit]
        n = suit_cards.bit_count()
        if n < best_len:
            best, best_len = (suit_cards & -suit_cards).bit_length() - 1, n
    return best


def _pick_follow(legal: int, win: int, trump: int, unseen: int, n_after: int, won: int) -> int:
    """Following: shed when the trick is lost; otherwise win as cheaply as is safe."""
    tmask = SUIT_MASKS[trump]
    winners = legal & BEATERS[trump][win]
    if not winners:
        # Shed: lowest-ranked non-trump, else the lowest trump.
        side = legal & ~tmask
        return lowest_rank(side) if side else (legal & -legal).bit_length() - 1
    if n_after == 0:
        return lowest_rank(winners) if winners & ~tmask else (winners & -winners).bit_length() - 1
    # Others still play: prefer the cheapest winner that no unseen card of its own suit tops
    # (the chance of a ruff is not counted: see docs/bots.md).
    safe = 0
    m = winners
    while m:
        low = m & -m
        if not (ABOVE[low.bit_length() - 1] & unseen):
            safe |= low
        m ^= low
    if safe:
        side_safe = safe & ~tmask
        return (side_safe & -side_safe).bit_length() - 1 if side_safe else (safe & -safe).bit_length() - 1
    side_winners = winners & ~tmask
    if side_winners:
        # Third hand high in the suit led.
        return side_winners.bit_length() - 1
    # Ruffing: the lowest winning trump (a top trump is better kept when one trick is won).
    if won == 0 and n_after >= 2:
        return winners.bit_length() - 1
    return (winners & -winners).bit_length() - 1


class PlayState:
    """The play phase as plain values, for fast play-outs.

    Built by :meth:`start` (the first lead of a round), :meth:`from_round` (a real round in
    play) or :meth:`from_view` (a seat's view in play, the other hands to be filled in with
    :meth:`with_hands`).
    """

    __slots__ = (
        "beaters",
        "cur_len",
        "hands",
        "lead",
        "lead_ace",
        "must_beat",
        "must_under",
        "n_active",
        "next_active",
        "played",
        "to_act",
        "tricks_done",
        "tricks_won",
        "trump",
        "win",
        "win_seat",
    )

    def __new__(cls, *args: object, **kwargs: object) -> PlayState:
        # A state whose slots are still unset, for :meth:`with_hands` to fill
        # (``PlayState.__new__(PlayState)``); ``PlayState(...)`` then runs ``__init__``.  Defined
        # because the constructor of a class compiled by mypyc (the compiled build) otherwise
        # always runs ``__init__``.
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        trump: int,
        hands: list[int],
        active: Sequence[int],
        to_act: int,
        *,
        tricks_done: int = 0,
        tricks_won: list[int] | None = None,
        played: int = 0,
        current: Sequence[int] = (),
        leader: int = -1,
        next_active: list[int] | None = None,
    ) -> None:
        """The play phase with ``to_act`` to play, ``current`` the cards of the trick in play
        (led by ``leader``), ``tricks_done`` tricks complete and ``played`` every card played."""
        self.hands = hands
        self.trump = trump
        self.beaters = BEATERS[trump]
        self.must_beat = rules.must_beat_following
        self.must_under = rules.must_undertrump
        self.lead_ace = rules.must_lead_trump_ace
        self.n_active = active.count(1)
        self.next_active = next_active if next_active is not None else next_active_seats(active)
        self.to_act = to_act
        self.tricks_done = tricks_done
        self.tricks_won = tricks_won if tricks_won is not None else [0, 0, 0, 0]
        self.played = played
        self.cur_len = len(current)
        self.lead = -1
        self.win = -1
        self.win_seat = -1
        if current:
            best = trick_winner(current, trump)
            self.lead = SUIT_OF[current[0]]
            self.win = current[best]
            self.win_seat = trick_seats(leader, len(current), self.next_active)[best]

    @classmethod
    def start(cls, rules: Rules, trump: int, chooser: int, hands: list[int], active: Sequence[int]) -> PlayState:
        """The first lead of a round that at least two seats play."""
        following = next_active_seats(active)
        return cls(rules, trump, hands, active, first_leader(chooser, active, following), next_active=following)

    @classmethod
    def _at(
        cls,
        rules: Rules,
        trump: int,
        hands: list[int],
        active: Sequence[int],
        tricks: Sequence[Sequence[int]],
        leaders: Sequence[int],
        tricks_won: Sequence[int],
        to_act: int,
    ) -> PlayState:
        played = 0
        for trick in tricks:
            for card in trick:
                played |= 1 << card
        current = tricks[-1] if tricks else ()
        return cls(
            rules,
            trump,
            hands,
            active,
            to_act,
            tricks_done=len(tricks) - 1,
            tricks_won=list(tricks_won),
            played=played,
            current=current,
            leader=leaders[-1] if leaders else -1,
        )

    @classmethod
    def from_round(cls, rnd: Round) -> PlayState:
        """A real round in its play phase."""
        assert rnd.trump is not None and rnd.to_act is not None
        return cls._at(
            rnd.rules,
            int(rnd.trump),
            list(rnd.hands),
            [1 if a else 0 for a in rnd.active],
            rnd.tricks,
            rnd.leaders,
            rnd.tricks_won,
            rnd.to_act,
        )

    @classmethod
    def from_view(cls, view: SeatView) -> PlayState:
        """A seat's view in the play phase; every hand is empty until :meth:`with_hands`."""
        assert view.trump is not None
        return cls._at(
            view.rules,
            int(view.trump),
            [0, 0, 0, 0],
            [1 if a else 0 for a in view.active],
            [trick.cards for trick in view.tricks],
            [trick.leader for trick in view.tricks],
            view.tricks_won,
            view.to_act if view.to_act is not None else view.seat,
        )

    def copy(self) -> PlayState:
        return self.with_hands(self.hands)

    def with_hands(self, hands: Sequence[int]) -> PlayState:
        """A copy of this state with ``hands`` (copied) as every seat's cards."""
        st = PlayState.__new__(PlayState)
        st.hands = list(hands)
        st.trump = self.trump
        st.beaters = self.beaters
        st.must_beat = self.must_beat
        st.must_under = self.must_under
        st.lead_ace = self.lead_ace
        st.n_active = self.n_active
        st.next_active = self.next_active
        st.to_act = self.to_act
        st.cur_len = self.cur_len
        st.tricks_done = self.tricks_done
        st.lead = self.lead
        st.win = self.win
        st.win_seat = self.win_seat
        st.tricks_won = self.tricks_won[:]
        st.played = self.played
        return st

    def legal(self) -> int:
        return legal_card_mask(
            self.hands[self.to_act], self.lead, self.win, self.trump, self.must_beat, self.must_under, self.lead_ace
        )

    def play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << card
        self.played |= 1 << card
        if self.lead < 0:
            self.lead = SUIT_OF[card]
            self.win = card
            self.win_seat = seat
        elif self.beaters[self.win] >> card & 1:
            self.win = card
            self.win_seat = seat
        self.cur_len += 1
        if self.cur_len < self.n_active:
            self.to_act = self.next_active[seat]
            return
        winner = self.win_seat
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        self.cur_len = 0
        self.lead = -1
        self.to_act = winner

    def play_out(self) -> list[int]:
        """Play the rest of the round with the basic policy for every seat; tricks won."""
        hands = self.hands
        trump = self.trump
        tmask = SUIT_MASKS[trump]
        beaters = self.beaters
        mb, mu, la = self.must_beat, self.must_under, self.lead_ace
        n_active = self.n_active
        nxt = self.next_active
        tricks_won = self.tricks_won
        played = self.played
        seat = self.to_act
        lead, win, win_seat, cur_len = self.lead, self.win, self.win_seat, self.cur_len
        done = self.tricks_done
        while done < TRICKS_PER_ROUND:
            hand = hands[seat]
            legal = legal_card_mask(hand, lead, win, trump, mb, mu, la)
            # pick_card, its steps called directly: this loop is the bots' hottest.
            if legal & (legal - 1) == 0:
                card = legal.bit_length() - 1
            elif lead < 0:
                card = _pick_lead(legal, ALL & ~played & ~hand, tmask)
            else:
                card = _pick_follow(legal, win, trump, ALL & ~played & ~hand, n_active - cur_len - 1, tricks_won[seat])
            bit = 1 << card
            hands[seat] = hand ^ bit
            played |= bit
            if lead < 0:
                lead = SUIT_OF[card]
                win = card
                win_seat = seat
            elif beaters[win] >> card & 1:
                win = card
                win_seat = seat
            cur_len += 1
            if cur_len < n_active:
                seat = nxt[seat]
                continue
            tricks_won[win_seat] += 1
            done += 1
            cur_len = 0
            lead = -1
            seat = win_seat
        self.tricks_done = done
        self.played = played
        self.to_act = seat
        self.lead, self.win, self.win_seat, self.cur_len = lead, win, win_seat, cur_len
        return tricks_won
