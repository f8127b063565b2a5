"""Fast bit-mask helpers shared by the bots: legal cards, a basic card-play policy and
play-outs of the rest of a round.

Everything here works on plain ints and lists (no action objects) so that search bots can
play thousands of rounds a second.  The rules logic mirrors ``core.game.Round`` exactly;
``tests/test_bots.py`` checks the two agree.
"""

from __future__ import annotations

from sobedesce.core.cards import SUIT_MASKS
from sobedesce.core.game import Round, legal_card_mask
from sobedesce.core.rules import Rules

ALL = (1 << 40) - 1
SUIT_OF = tuple(i // 10 for i in range(40))
# Cards of the same suit stronger than card i.
ABOVE = tuple(SUIT_MASKS[i // 10] & ~((2 << i) - 1) for i in range(40))
# Cards of the same suit weaker than card i.
BELOW = tuple(SUIT_MASKS[i // 10] & ((1 << i) - 1) for i in range(40))
BIT_INDEX = {1 << i: i for i in range(40)}


def low_card(mask: int) -> int:
    """The lowest-index card of a non-empty mask (lowest suit, then lowest rank)."""
    return (mask & -mask).bit_length() - 1


def high_card(mask: int) -> int:
    return mask.bit_length() - 1


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


# The legal-card rule has one statement, in the core.
legal_mask = legal_card_mask


def beats(card: int, win: int, trump: int) -> bool:
    sc = SUIT_OF[card]
    sw = SUIT_OF[win]
    if sc == sw:
        return card > win
    return sc == trump


def pick_card(hand: int, legal: int, lead: int, win: int, trump: int, played: int, n_after: int, won: int) -> int:
    """The basic policy's card: win cheaply when possible, lead winners, shed losers.

    ``played`` is every card seen played this round (public), ``n_after`` how many players
    still play to this trick after this one, ``won`` the tricks this seat has already won.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    unseen = ALL & ~played & ~hand
    tmask = SUIT_MASKS[trump]
    if lead < 0:
        # Leading: a trump that no unseen trump beats wins for sure.
        trumps = legal & tmask
        if trumps:
            top = trumps.bit_length() - 1
            if not (ABOVE[top] & unseen):
                return top
        # A side card that is the highest left in its suit (may be ruffed, still the best try).
        side = legal & ~tmask
        best = -1
        best_left = -1
        m = side
        while m:
            s = SUIT_OF[(m & -m).bit_length() - 1]
            suit_cards = m & SUIT_MASKS[s]
            m &= ~SUIT_MASKS[s]
            top = suit_cards.bit_length() - 1
            if not (ABOVE[top] & unseen):
                left = (unseen & SUIT_MASKS[s]).bit_count()
                if left > best_left:
                    best, best_left = top, left
        if best >= 0:
            return best
        if side:
            # Lead low from the shortest side suit (to get void and ruff later).
            best = -1
            best_len = 99
            m = side
            while m:
                s = SUIT_OF[(m & -m).bit_length() - 1]
                suit_cards = m & SUIT_MASKS[s]
                m &= ~SUIT_MASKS[s]
                n = suit_cards.bit_count()
                if n < best_len:
                    best, best_len = (suit_cards & -suit_cards).bit_length() - 1, n
            return best
        return (trumps & -trumps).bit_length() - 1
    # Following.
    winners = legal & ABOVE[win]
    if SUIT_OF[win] != trump:
        winners |= legal & tmask
    if not winners:
        # Shed: lowest-ranked non-trump, else the lowest trump.
        side = legal & ~tmask
        return lowest_rank(side) if side else (legal & -legal).bit_length() - 1
    if n_after == 0:
        return lowest_rank(winners) if winners & ~tmask else (winners & -winners).bit_length() - 1
    # Others still play: prefer the cheapest winner nobody unseen can top.
    safe = 0
    m = winners
    while m:
        low = m & -m
        card = low.bit_length() - 1
        s = SUIT_OF[card]
        if s == trump:
            if not (ABOVE[card] & unseen):
                safe |= low
        elif not (ABOVE[card] & unseen):
            safe |= low
        m ^= low
    if safe:
        side_safe = safe & ~tmask
        return (side_safe & -side_safe).bit_length() - 1 if side_safe else (safe & -safe).bit_length() - 1
    side_w = winners & ~tmask
    if side_w:
        # Third hand high in the suit led.
        return side_w.bit_length() - 1
    # Ruffing: the lowest winning trump (a top trump is better kept when one trick is won).
    if won == 0:
        return winners.bit_length() - 1 if n_after >= 2 else (winners & -winners).bit_length() - 1
    return (winners & -winners).bit_length() - 1


class PlayState:
    """The play phase as plain values, for fast play-outs."""

    __slots__ = (
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

    @classmethod
    def from_round(cls, rnd: Round) -> PlayState:
        st = cls.__new__(cls)
        st.hands = rnd.hands[:]
        st.trump = rnd.trump
        rules = rnd.rules
        st.must_beat = rules.must_beat_following
        st.must_under = rules.must_undertrump
        st.lead_ace = rules.must_lead_trump_ace
        st.n_active = rnd.n_active
        st.next_active = rnd.next_active
        st.to_act = rnd.to_act
        cur = rnd.tricks[-1] if rnd.tricks else []
        st.cur_len = len(cur)
        st.tricks_done = len(rnd.tricks) - 1
        st.lead = rnd.lead_suit
        st.win = rnd.win_card
        st.win_seat = rnd.win_seat
        st.tricks_won = rnd.tricks_won[:]
        played = 0
        for trick in rnd.tricks:
            for c in trick:
                played |= 1 << c
        st.played = played
        return st

    def copy(self) -> PlayState:
        st = PlayState.__new__(PlayState)
        st.hands = self.hands[:]
        st.trump = self.trump
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
        return legal_mask(
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
        elif beats(card, self.win, self.trump):
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

    @property
    def over(self) -> bool:
        return self.tricks_done >= 5

    def play_out(self) -> list[int]:
        """Play the rest of the round with the basic policy for every seat; tricks won."""
        hands = self.hands
        trump = self.trump
        mb, mu, la = self.must_beat, self.must_under, self.lead_ace
        n_active = self.n_active
        nxt = self.next_active
        tricks_won = self.tricks_won
        played = self.played
        seat = self.to_act
        lead, win, win_seat, cur_len = self.lead, self.win, self.win_seat, self.cur_len
        done = self.tricks_done
        while done < 5:
            hand = hands[seat]
            legal = legal_mask(hand, lead, win, trump, mb, mu, la)
            card = pick_card(hand, legal, lead, win, trump, played, n_active - cur_len - 1, tricks_won[seat])
            bit = 1 << card
            hands[seat] = hand ^ bit
            played |= bit
            if lead < 0:
                lead = SUIT_OF[card]
                win = card
                win_seat = seat
            elif ABOVE[win] >> card & 1 or (SUIT_OF[card] == trump and SUIT_OF[win] != trump):
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


def deltas_of(rules: Rules, trump: int, active: list[int], tricks_won: list[int]) -> list[int]:
    mult = rules.multiplier(trump)
    penalty = rules.no_trick_penalty * mult
    out = [0, 0, 0, 0]
    for seat in range(4):
        if active[seat] == 1:
            won = tricks_won[seat]
            out[seat] = -won * mult if won else penalty
    return out


def next_active_of(active: list[int]) -> list[int]:
    out = [0, 0, 0, 0]
    for seat in range(4):
        nxt = (seat + 1) % 4
        for _ in range(4):
            if active[nxt] == 1:
                break
            nxt = (nxt + 1) % 4
        out[seat] = nxt
    return out
