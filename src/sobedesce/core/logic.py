"""Every rule of RULES.md that decides something, stated once, as small pure functions on ints.

Cards are indices 0-39 (``suit * 10 + strength``), hands and card sets are 40-bit masks,
seats are 0-3 and ``active`` holds, per seat, 1 (plays), 0 (sits out) or -1 (not decided).
:class:`~sobedesce.core.game.Round`, :func:`~sobedesce.core.view.seat_view`,
:func:`~sobedesce.core.view.round_from_view` and the bots' simulators all call these; nothing
else in the package restates a rule.  They are plain enough to be fast in a play-out.

===========================================  ============================================
RULES.md                                     here
===========================================  ============================================
§3.1, §3.3 the deal (who gets which cards)   :func:`packet_indices`, :func:`first_packets`,
                                             :func:`second_packets`, :func:`dealt_hands`,
                                             :data:`TURNED`, :data:`STOCK`
§3.1 the chooser                             :func:`chooser_of`
§3.4 who may sit out                         :func:`must_play`
§3.5 who plays (a void or a lone round)      :func:`credited_tricks`
§3.6 the order of play, the first leader     :func:`next_active_seats`, :func:`first_leader`,
                                             :func:`trick_seats`
§4 which card may be played                  :func:`legal_card_mask`
§4 what beats the winning card, who wins     :func:`beats`, :data:`BEATERS`,
                                             :func:`trick_winner`
§3.7 scoring                                 :func:`score_changes`
§3.8 end of match                            :func:`match_winners`, :func:`settle_round`
§5 riscos                                    :func:`riscos_for`
===========================================  ============================================

>>> from sobedesce.core.cards import Card
>>> ah, ks, two_h = Card.parse("AH"), Card.parse("KS"), Card.parse("2H")
>>> beats(two_h, ks, trump=1), beats(ks, two_h, trump=1)
(True, False)
>>> trick_winner([ks, two_h, ah], trump=0)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import SUIT_MASKS
from .rules import Rules

__all__ = [
    "ABOVE",
    "BEATERS",
    "MAY_SIT_OUT",
    "MUST_PLAY_CHOOSER",
    "MUST_PLAY_SCORE",
    "MUST_PLAY_STREAK",
    "MUST_PLAY_TRUMP",
    "SEATINGS",
    "STOCK",
    "SUIT_OF",
    "TRICKS_PER_ROUND",
    "TURNED",
    "beats",
    "chooser_of",
    "credited_tricks",
    "dealt_hands",
    "first_leader",
    "first_packets",
    "legal_card_mask",
    "match_winners",
    "must_play",
    "next_active_seats",
    "packet_indices",
    "riscos_for",
    "score_changes",
    "second_packets",
    "settle_round",
    "trick_seats",
    "trick_winner",
]

# Module constants are ``Final``: compiled by mypyc, they are C variables instead of names
# looked up in the module's dictionary at every use.
TRICKS_PER_ROUND: Final = 5

# The suits' masks, as a constant of this module (cards.py stays interpreted in the compiled build).
_SUIT_MASKS: Final[tuple[int, ...]] = tuple(SUIT_MASKS)

SUIT_OF: Final[tuple[int, ...]] = tuple(i // 10 for i in range(40))
"""The suit of each card index."""
ABOVE: Final[tuple[int, ...]] = tuple(_SUIT_MASKS[i // 10] & ~((2 << i) - 1) for i in range(40))
"""For each card, the mask of the cards of its suit that rank above it."""

# -- §3.1-3.3: the deal ------------------------------------------------------------------

TURNED: Final = 12
"""Index in the deck of the card a chooser turns up: the first card of their second packet."""
STOCK: Final = 20
"""Index in the deck of the top card of the stock."""


def chooser_of(dealer: int) -> int:
    """The seat that chooses trump (and decides first, and leads first when it plays)."""
    return (dealer + 1) % 4


def packet_indices(seat: int, chooser: int) -> tuple[range, range]:
    """The positions in the deck of the cards dealt to ``seat``: its first packet (3 cards,
    from the top: the chooser's first, then each next seat's) and its second (2 cards, in the
    same order from :data:`TURNED`, so the card a chooser turns up is its second packet's first)."""
    i = (seat - chooser) % 4
    return range(3 * i, 3 * i + 3), range(TURNED + 2 * i, TURNED + 2 * i + 2)


# Per chooser, the positions in the deck of every seat's first packet (seat 0's three, then
# seat 1's...) and of its second packet: :func:`packet_indices`, tabulated for every deal.
_FIRST_POSITIONS: Final = tuple(
    tuple(p for seat in range(4) for p in packet_indices(seat, chooser)[0]) for chooser in range(4)
)
_SECOND_POSITIONS: Final = tuple(
    tuple(p for seat in range(4) for p in packet_indices(seat, chooser)[1]) for chooser in range(4)
)


def first_packets(deck: Sequence[int], chooser: int) -> list[int]:
    """Per seat, the mask of the 3 cards of the first part of the deal (the positions
    :func:`packet_indices` gives, tabulated and unrolled: this runs at every deal)."""
    a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2 = _FIRST_POSITIONS[chooser]
    return [
        1 << deck[a0] | 1 << deck[a1] | 1 << deck[a2],
        1 << deck[b0] | 1 << deck[b1] | 1 << deck[b2],
        1 << deck[c0] | 1 << deck[c1] | 1 << deck[c2],
        1 << deck[d0] | 1 << deck[d1] | 1 << deck[d2],
    ]


def second_packets(deck: Sequence[int], chooser: int) -> list[int]:
    """Per seat, the mask of the 2 cards of the second part of the deal (as :func:`first_packets`)."""
    a0, a1, b0, b1, c0, c1, d0, d1 = _SECOND_POSITIONS[chooser]
    return [
        1 << deck[a0] | 1 << deck[a1],
        1 << deck[b0] | 1 << deck[b1],
        1 << deck[c0] | 1 << deck[c1],
        1 << deck[d0] | 1 << deck[d1],
    ]


def dealt_hands(deck: Sequence[int], chooser: int) -> list[int]:
    """Per seat, the mask of the 5 cards held once the deal is complete."""
    first = first_packets(deck, chooser)
    second = second_packets(deck, chooser)
    return [first[0] | second[0], first[1] | second[1], first[2] | second[2], first[3] | second[3]]


# -- §3.4: who may sit out -----------------------------------------------------------------

MAY_SIT_OUT: Final = 0
MUST_PLAY_TRUMP: Final = 1
"""Trump is the suit everyone must play under (Hearts)."""
MUST_PLAY_STREAK: Final = 2
"""The seat sat out the previous rounds, as many as the rules allow in a row."""
MUST_PLAY_CHOOSER: Final = 3
"""The chooser must play (``classic``)."""
MUST_PLAY_SCORE: Final = 4
"""A score at or below the rules' floor must play (``classic``)."""


def must_play(rules: Rules, trump: int, chooser: int, scores: Sequence[int], streaks: Sequence[int]) -> list[int]:
    """Per seat, why it may not sit out this round (a ``MUST_PLAY_*`` code), or
    :data:`MAY_SIT_OUT` (0) when it may.  ``streaks`` are the rounds each sat out in a row."""
    if rules.all_play_suit is not None and trump == rules.all_play_suit:
        return [MUST_PLAY_TRUMP] * 4
    limit = rules.max_sit_outs_in_row
    floor = rules.must_play_at_or_below
    codes = [MAY_SIT_OUT] * 4
    for seat in range(4):
        if streaks[seat] >= limit:
            codes[seat] = MUST_PLAY_STREAK
        elif rules.chooser_must_play and seat == chooser:
            codes[seat] = MUST_PLAY_CHOOSER
        elif floor is not None and scores[seat] <= floor:
            codes[seat] = MUST_PLAY_SCORE
    return codes


# -- §3.5-3.6: who plays, in which order ----------------------------------------------------


def credited_tricks(active: Sequence[int]) -> list[int] | None:
    """When fewer than two seats play there are no tricks: the tricks each seat is credited
    with (all five to a lone player, none in a void round); ``None`` when tricks are played."""
    players = [seat for seat in range(4) if active[seat] == 1]
    if len(players) >= 2:
        return None
    won = [0, 0, 0, 0]
    if players:
        won[players[0]] = TRICKS_PER_ROUND
    return won


def next_active_seats(active: Sequence[int]) -> list[int]:
    """Per seat, the next seat in the order of play that plays the round (seats that sit out
    are skipped); a seat's own number when no other seat plays."""
    out = [0, 0, 0, 0]
    for seat in range(4):
        nxt = (seat + 1) % 4
        for _ in range(3):
            if active[nxt] == 1:
                break
            nxt = (nxt + 1) % 4
        out[seat] = nxt
    return out


def first_leader(chooser: int, active: Sequence[int], next_active: Sequence[int]) -> int:
    """The chooser leads the first trick if it plays, else the next seat after it that plays."""
    return chooser if active[chooser] == 1 else next_active[chooser]


def _seating(played: int) -> tuple[int, tuple[int, ...] | None, tuple[int, ...]]:
    active = [played >> seat & 1 for seat in range(4)]
    credited = credited_tricks(active)
    return sum(active), None if credited is None else tuple(credited), tuple(next_active_seats(active))


SEATINGS: Final = tuple([_seating(played) for played in range(16)])
"""``SEATINGS[played]``, ``played`` being the mask of the seats that play (bit ``s`` for seat
``s``): how many play, :func:`credited_tricks` (a tuple, or ``None``) and
:func:`next_active_seats` (a tuple), tabulated once for the end of every exchange phase."""


def trick_seats(leader: int, count: int, next_active: Sequence[int]) -> list[int]:
    """The seats that play the first ``count`` cards of a trick led by ``leader``."""
    seats = [leader] if count else []
    while len(seats) < count:
        seats.append(next_active[seats[-1]])
    return seats


# -- §4: which card may be played, and what wins --------------------------------------------


def beats(card: int, win: int, trump: int) -> bool:
    """Whether ``card``, played now, would take the trick from ``win``, the card winning it:
    a higher card of the same suit, or a trump over a non-trump."""
    if SUIT_OF[card] == SUIT_OF[win]:
        return card > win
    return SUIT_OF[card] == trump


BEATERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << card for card in range(40) if beats(card, win, trump)) for win in range(40)) for trump in range(4)
)
"""``BEATERS[trump][win]``: the mask of the cards that :func:`beats` ``win`` (the same rule,
tabulated once for the hot paths)."""


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The position in ``cards`` (in order of play) of the card that wins the trick."""
    best = 0
    for i in range(1, len(cards)):
        if BEATERS[trump][cards[best]] >> cards[i] & 1:
            best = i
    return best


def legal_card_mask(
    hand: int,
    lead_suit: int,
    win_card: int,
    trump: int,
    must_beat_following: bool,
    must_undertrump: bool,
    must_lead_trump_ace: bool = True,
) -> int:
    """The cards of ``hand`` (a mask) that may be played, as a mask.

    ``lead_suit`` is -1 for a lead; ``win_card`` is the card winning the trick so far.
    """
    if lead_suit < 0:
        if must_lead_trump_ace:
            ace = 1 << (trump * 10 + 9)
            if hand & ace:
                return ace
        return hand
    follow = hand & _SUIT_MASKS[lead_suit]
    if follow:
        if must_beat_following:
            beaters = follow & BEATERS[trump][win_card]
            if beaters:
                return beaters
        return follow
    trumps = hand & _SUIT_MASKS[trump]
    if trumps:
        beaters = trumps & BEATERS[trump][win_card]
        if beaters:
            return beaters
        if must_undertrump:
            return trumps
    return hand


# -- §3.7, §3.8, §5: scoring, the end of a match, riscos -------------------------------------


def score_changes(rules: Rules, trump: int, active: Sequence[int], tricks_won: Sequence[int]) -> list[int]:
    """Per seat, the change of score of a finished round: -tricks x multiplier for an active
    seat that won tricks, +penalty x multiplier for one that won none, 0 for a seat that sat out."""
    multiplier = rules.multiplier(trump)
    penalty = rules.no_trick_penalty * multiplier
    # Unrolled over the four seats: this runs at the end of every round (and of every play-out).
    a0, a1, a2, a3 = active
    w0, w1, w2, w3 = tricks_won
    return [
        (-w0 * multiplier if w0 else penalty) if a0 == 1 else 0,
        (-w1 * multiplier if w1 else penalty) if a1 == 1 else 0,
        (-w2 * multiplier if w2 else penalty) if a2 == 1 else 0,
        (-w3 * multiplier if w3 else penalty) if a3 == 1 else 0,
    ]


def settle_round(
    scores: list[int], streaks: list[int], deltas: Sequence[int], active: Sequence[int], target: int
) -> list[int]:
    """The end of a round for the match: each seat's score changes by its delta (§3.7), its
    count of rounds sat out in a row grows or restarts (§3.4), in place; returns
    :func:`match_winners` (§3.8)."""
    d0, d1, d2, d3 = deltas
    a0, a1, a2, a3 = active
    scores[0] += d0
    scores[1] += d1
    scores[2] += d2
    scores[3] += d3
    streaks[0] = streaks[0] + 1 if a0 == 0 else 0
    streaks[1] = streaks[1] + 1 if a1 == 0 else 0
    streaks[2] = streaks[2] + 1 if a2 == 0 else 0
    streaks[3] = streaks[3] + 1 if a3 == 0 else 0
    return match_winners(scores, target)


def match_winners(scores: Sequence[int], target: int) -> list[int]:
    """The seats whose score reached the target (the match is over when there is one)."""
    if min(scores) > target:  # the usual answer, without a loop
        return []
    return [seat for seat in range(4) if scores[seat] <= target]


def riscos_for(scores: Sequence[int], winners: Sequence[int]) -> list[float]:
    """Ranking points of a finished match; they sum to zero.

    >>> riscos_for([0, 11, 2, 5], [0])
    [18, -11, -2, -5]
    >>> riscos_for([0, 11, 0, 4], [0, 2])
    [7.5, -11, 7.5, -4]

    Each is an ``int`` but the winners' share of the losers' scores when it is fractional
    (winners splitting an odd sum): a ``float`` then.

    ``winners`` are seats of ``scores``, each once, at least one (``ValueError`` otherwise:
    no winner would divide by zero, and a seat out of range would be silently left out).
    """
    count = len(winners)
    if not count or len(set(winners)) != count or not all(0 <= s < len(scores) for s in winners):
        raise ValueError(f"winners: must be one or more seats of the {len(scores)} scores, each once, not {winners!r}")
    losers_total = sum(scores[s] for s in range(len(scores)) if s not in winners)
    whole, rest = divmod(losers_total, count)
    # Appended one by one, not a conditional expression: compiled by mypyc, the join of an int
    # and a float is a float, and a whole share would turn into one.
    riscos: list[float] = []
    for s in range(len(scores)):
        if s not in winners:
            riscos.append(-scores[s])
        elif rest:
            riscos.append(losers_total / count)
        else:
            riscos.append(whole)
    return riscos
