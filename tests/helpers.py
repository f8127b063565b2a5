"""Test helpers written from RULES.md and RECORD.md, independently of the engine.

Cards here are plain strings (``"AS"``, ``"7H"``) so nothing depends on the engine's card
type: a deck builder that follows RECORD.md's deal order, a record builder, a reference
implementation of RULES.md (legal cards, trick winner, scoring, who must play) and a
runner for the real ``sobedesce replay`` command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

SUITS = "SHDC"
RANKS_HIGH_TO_LOW = "A7KJQ65432"
ALL_CARDS = [rank + suit for suit in SUITS for rank in RANKS_HIGH_TO_LOW]
ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path(__file__).resolve().parent / "records"


# -- cards ---------------------------------------------------------------------------------


def split(text: str | Iterable[str]) -> list[str]:
    words = text.split() if isinstance(text, str) else list(text)
    return [w.upper() for w in words]


def suit_of(card: str) -> str:
    return card[1]


def strength(card: str) -> int:
    """Higher is stronger: A=9, 7=8, K=7, J=6, Q=5, 6=4 … 2=0."""
    return 9 - RANKS_HIGH_TO_LOW.index(card[0])


def ref_sorted(cards: Iterable[str]) -> list[str]:
    """RECORD.md order for ``next.legal``: suit S H D C, then rank A 7 K J Q 6 5 4 3 2."""
    return sorted(cards, key=lambda c: (SUITS.index(c[1]), RANKS_HIGH_TO_LOW.index(c[0])))


# -- decks in deal order -------------------------------------------------------------------


def deal_order(dealer: int) -> list[tuple[int, int, int]]:
    """(seat, start, stop) slices of the deck per RECORD.md: 3 each from the chooser, then 2 each."""
    chooser = (dealer + 1) % 4
    out = [((chooser + i) % 4, 3 * i, 3 * i + 3) for i in range(4)]
    out += [((chooser + i) % 4, 12 + 2 * i, 14 + 2 * i) for i in range(4)]
    return out


def build_deck(
    dealer: int,
    hands: dict[int, str | Sequence[str]],
    stock: str | Sequence[str] = (),
    filler: Sequence[str] | None = None,
) -> list[str]:
    """The 40-card deck, top first, that deals ``hands`` with ``dealer``.

    ``hands[seat]`` is the 5 cards dealt to the seat: the first three are its first packet,
    the last two its second packet (so for the chooser ``hands[chooser][3]`` is deck[12],
    the card a turn-up shows).  Seats left out get unused cards.  ``stock`` is the top of
    the stock (deck[20], deck[21], …); the rest of the stock is filled with unused cards.
    """
    wanted = {seat: split(cards) for seat, cards in hands.items()}
    top = split(stock)
    used = [c for cards in wanted.values() for c in cards] + top
    for card in used:
        assert card in ALL_CARDS, card
    assert len(set(used)) == len(used), f"a card is used twice: {used}"
    for seat, cards in wanted.items():
        assert len(cards) == 5, (seat, cards)
    spare = [c for c in (filler or ALL_CARDS) if c not in used]
    spare += [c for c in ALL_CARDS if c not in used and c not in spare]
    for seat in range(4):
        if seat not in wanted:
            wanted[seat], spare = spare[:5], spare[5:]
    deck: list[str | None] = [None] * 40
    for seat, start, stop in deal_order(dealer):
        packet = wanted[seat][:3] if stop - start == 3 else wanted[seat][3:]
        deck[start:stop] = packet
    rest = top + spare
    deck[20:40] = rest
    assert len(rest) == 20 and sorted(deck) == sorted(ALL_CARDS)  # type: ignore[type-var]
    return deck  # type: ignore[return-value]


def dealt_hands(deck: Sequence[str], dealer: int) -> dict[int, list[str]]:
    """Each seat's 5 dealt cards (RECORD.md deal order)."""
    hands: dict[int, list[str]] = {s: [] for s in range(4)}
    for seat, start, stop in deal_order(dealer):
        hands[seat] += list(deck[start:stop])
    return hands


# -- records -------------------------------------------------------------------------------


def record(
    rounds: list[dict[str, object]],
    rules: object = "classic",
    scores: Sequence[int] | None = None,
    sat_out_before: Sequence[int] | None = None,
) -> dict[str, object]:
    out: dict[str, object] = {"format": "sobedesce-record", "version": 1, "rules": rules}
    out["players"] = ["Ana", "Bruno", "Carla", "Duarte"]
    if scores is not None:
        out["scores"] = list(scores)
    if sat_out_before is not None:
        out["sat_out_before"] = list(sat_out_before)
    out["rounds"] = rounds
    return out


def round_entry(
    dealer: int,
    deck: Sequence[str],
    trump: str | None = None,
    exchanges: Sequence[tuple[int, str | Sequence[str] | None]] = (),
    tricks: Sequence[str | Sequence[str]] = (),
) -> dict[str, object]:
    """One ``rounds[]`` entry; an exchange is ``(seat, None)`` to sit out, else the discards."""
    out: dict[str, object] = {"dealer": dealer, "deck": list(deck)}
    if trump is not None:
        out["trump"] = trump
        out["exchanges"] = [
            {"seat": s, "sit_out": True} if d is None else {"seat": s, "discard": split(d)} for s, d in exchanges
        ]
        out["tricks"] = [split(t) for t in tricks]
    return out


def run_replay(
    path: str | os.PathLike[str],
    *extra: str,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run the installed ``sobedesce replay`` command on a file (the real CLI, in a subprocess)."""
    exe = Path(sys.executable).parent / "sobedesce"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "sobedesce"]
    result = subprocess.run(
        [*command, "replay", *extra, str(path)],
        capture_output=True,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )
    return subprocess.CompletedProcess(
        result.args,
        result.returncode,
        result.stdout.decode("utf-8", "replace"),
        result.stderr.decode("utf-8", "replace"),
    )


# -- a reference implementation of RULES.md ---------------------------------------------------


class RuleBreak(Exception):
    """The reference model rejects a decision."""


def winning_index(trick: Sequence[str], trump: str) -> int:
    """§4: the highest trump played wins; if none, the highest card of the suit led."""
    lead = suit_of(trick[0])
    trumps = [i for i, c in enumerate(trick) if suit_of(c) == trump]
    pool = trumps or [i for i, c in enumerate(trick) if suit_of(c) == lead]
    return max(pool, key=lambda i: strength(trick[i]))


def beats(card: str, winning: str, lead: str, trump: str) -> bool:
    """§4: a trump beats any non-trump; a higher trump beats a lower trump; a card of the
    suit led beats a lower card of that suit when no trump has been played."""
    if suit_of(card) == trump:
        return suit_of(winning) != trump or strength(card) > strength(winning)
    if suit_of(card) == lead and suit_of(winning) == lead:
        return strength(card) > strength(winning)
    return False


def legal_cards(hand: Iterable[str], trick: Sequence[str], trump: str, preset: str) -> set[str]:
    """The cards RULES.md §4 allows, written straight from its text."""
    hand = set(hand)
    if not trick:
        ace = "A" + trump
        return {ace} if ace in hand else hand
    lead = suit_of(trick[0])
    winning = trick[winning_index(trick, trump)]
    of_lead = {c for c in hand if suit_of(c) == lead}
    trumps = {c for c in hand if suit_of(c) == trump}
    if preset == "table":
        candidates = of_lead or trumps or hand
        beaters = {c for c in candidates if beats(c, winning, lead, trump)}
        return beaters or candidates
    assert preset == "classic"
    if of_lead:
        return of_lead
    beating_trumps = {c for c in trumps if beats(c, winning, lead, trump)}
    return beating_trumps or hand


def must_play(preset: str, trump: str, seat: int, chooser: int, score: int, streak: int) -> bool:
    """§3.4: may this seat not sit out?"""
    if trump == "H" or streak >= 2:
        return True
    return preset == "classic" and (seat == chooser or score <= 5)


def multiplier(trump: str, settings: dict[str, Any] | None = None) -> int:
    s = settings or CLASSIC_SETTINGS
    return s["doubled_multiplier"] if trump == s["doubled_suit"] else 1


def round_deltas(
    active: Sequence[bool], tricks_won: Sequence[int], trump: str, settings: dict[str, Any] | None = None
) -> list[int]:
    """§3.7 score changes (a lone player is passed in with 5 tricks)."""
    s = settings or CLASSIC_SETTINGS
    m = multiplier(trump, s)
    penalty = s["no_trick_penalty"] * m
    return [0 if not active[i] else (-tricks_won[i] * m if tricks_won[i] else penalty) for i in range(4)]


# RULES.md §6, one row a setting (the names are the ones a record's rules object overrides).
CLASSIC_SETTINGS: dict[str, Any] = {
    "turn_up_allowed": True,
    "min_discard": 0,
    "max_discard": 5,
    "chooser_must_play": True,
    "must_play_at_or_below": 5,
    "max_sit_outs_in_row": 2,
    "all_play_suit": "H",
    "must_beat_following": False,
    "must_undertrump": False,
    "doubled_suit": "C",
    "doubled_multiplier": 2,
    "no_trick_penalty": 5,
    "must_lead_trump_ace": True,
    "start_score": 20,
    "target_score": 0,
}
TABLE_SETTINGS: dict[str, Any] = {
    **CLASSIC_SETTINGS,
    "turn_up_allowed": False,
    "min_discard": 1,
    "chooser_must_play": False,
    "must_play_at_or_below": None,
    "must_beat_following": True,
    "must_undertrump": True,
}
PRESET_SETTINGS = {"classic": CLASSIC_SETTINGS, "table": TABLE_SETTINGS}


def settings_of(rules: object) -> dict[str, Any]:
    """The settings a record's ``rules`` value stands for."""
    if rules is None:
        return dict(CLASSIC_SETTINGS)
    if isinstance(rules, str):
        return dict(PRESET_SETTINGS[rules.lower()])
    assert isinstance(rules, dict)
    out = dict(PRESET_SETTINGS[str(rules.get("preset", "classic")).lower()])
    for key, value in rules.items():
        if key == "preset" or key == "direction":
            continue
        assert key in out, key
        out[key] = value.upper() if isinstance(value, str) else value
    return out


def legal_cards_general(hand: Iterable[str], trick: Sequence[str], trump: str, settings: dict[str, Any]) -> set[str]:
    """§4 with each duty a separate setting (for rules objects that mix the presets)."""
    hand = set(hand)
    if not trick:
        ace = "A" + trump
        return {ace} if settings["must_lead_trump_ace"] and ace in hand else hand
    lead = suit_of(trick[0])
    winning = trick[winning_index(trick, trump)]
    of_lead = {c for c in hand if suit_of(c) == lead}
    if of_lead:
        beaters = {c for c in of_lead if beats(c, winning, lead, trump)}
        return beaters if settings["must_beat_following"] and beaters else of_lead
    trumps = {c for c in hand if suit_of(c) == trump}
    beating_trumps = {c for c in trumps if beats(c, winning, lead, trump)}
    if beating_trumps:
        return beating_trumps
    if trumps and settings["must_undertrump"]:
        return trumps
    return hand


def must_play_general(settings: dict[str, Any], trump: str, seat: int, chooser: int, score: int, streak: int) -> bool:
    if trump == settings["all_play_suit"] or streak >= settings["max_sit_outs_in_row"]:
        return True
    if settings["chooser_must_play"] and seat == chooser:
        return True
    floor = settings["must_play_at_or_below"]
    return floor is not None and score <= floor


def riscos(scores: Sequence[float], winners: Sequence[int]) -> list[float]:
    losers = sum(scores[s] for s in range(4) if s not in winners)
    return [losers / len(winners) if s in winners else -scores[s] for s in range(4)]


class RefRound:
    """One round of RULES.md §3, tracking where every card is (strings, no engine code)."""

    def __init__(
        self,
        rules: str | dict[str, Any],
        dealer: int,
        deck: Sequence[str],
        scores: Sequence[int],
        streaks: Sequence[int],
    ):
        self.settings = PRESET_SETTINGS[rules] if isinstance(rules, str) else rules
        self.preset = (
            rules
            if isinstance(rules, str)
            else next((name for name, value in PRESET_SETTINGS.items() if value == rules), "custom")
        )
        self.discard_range = (self.settings["min_discard"], self.settings["max_discard"])
        self.dealer = dealer
        self.chooser = (dealer + 1) % 4
        self.deck = list(deck)
        self.scores = list(scores)
        self.streaks = list(streaks)
        packets = dealt_hands(deck, dealer)
        self.hands = {s: set(packets[s][:3]) for s in range(4)}
        self.second = {s: packets[s][3:] for s in range(4)}
        self.undealt = set(deck[12:20])
        self.stock = list(deck[20:])
        self.discards: dict[int, set[str]] = {s: set() for s in range(4)}
        self.active: list[bool | None] = [None] * 4
        self.trump: str | None = None
        self.turned: str | None = None
        self.decided = 0
        self.tricks: list[list[str]] = []
        self.trick_seats: list[list[int]] = []
        self.tricks_won = [0] * 4
        self.deltas: list[int] | None = None
        self.phase = "trump"

    @property
    def to_act(self) -> int | None:
        if self.phase == "trump":
            return self.chooser
        if self.phase == "exchange":
            return (self.chooser + self.decided) % 4
        if self.phase == "play":
            seats = self.trick_seats[-1]
            if not seats:
                return self.leader
            return self.next_active(seats[-1])
        return None

    def next_active(self, seat: int) -> int:
        nxt = (seat + 1) % 4
        while not self.active[nxt]:
            nxt = (nxt + 1) % 4
        return nxt

    def choose_trump(self, choice: str) -> None:
        assert self.phase == "trump"
        if choice == "turn":
            if not self.settings["turn_up_allowed"]:
                raise RuleBreak("turn-up is classic only")
            self.trump = suit_of(self.deck[12])
            self.turned = self.deck[12]
        else:
            self.trump = choice
        for s in range(4):
            self.hands[s] |= set(self.second[s])
        self.undealt = set()
        self.phase = "exchange"

    def may_sit_out(self, seat: int) -> bool:
        assert self.trump is not None
        args = (self.trump, seat, self.chooser, self.scores[seat], self.streaks[seat])
        if self.preset in PRESET_SETTINGS:
            return not must_play(self.preset, *args)
        return not must_play_general(self.settings, *args)

    def exchange(self, seat: int, discard: Sequence[str] | None) -> None:
        assert self.phase == "exchange"
        if seat != self.to_act:
            raise RuleBreak("out of turn")
        if discard is None:
            if not self.may_sit_out(seat):
                raise RuleBreak("must play")
            self.active[seat] = False
        else:
            low, high = self.discard_range
            if not low <= len(discard) <= high or len(set(discard)) != len(discard):
                raise RuleBreak("wrong number of cards")
            if not set(discard) <= self.hands[seat]:
                raise RuleBreak("not held")
            drawn, self.stock = self.stock[: len(discard)], self.stock[len(discard) :]
            self.hands[seat] = (self.hands[seat] - set(discard)) | set(drawn)
            self.discards[seat] = set(discard)
            self.active[seat] = True
        self.decided += 1
        if self.decided == 4:
            self.start_play()

    def start_play(self) -> None:
        players = [s for s in range(4) if self.active[s]]
        if len(players) < 2:
            if players:
                self.tricks_won[players[0]] = 5
            self.finish()
            return
        self.phase = "play"
        self.leader = self.chooser if self.active[self.chooser] else self.next_active(self.chooser)
        self.tricks.append([])
        self.trick_seats.append([])

    def legal(self) -> set[str]:
        seat = self.to_act
        assert self.phase == "play" and seat is not None and self.trump is not None
        if self.preset in PRESET_SETTINGS:
            return legal_cards(self.hands[seat], self.tricks[-1], self.trump, self.preset)
        return legal_cards_general(self.hands[seat], self.tricks[-1], self.trump, self.settings)

    def play(self, card: str) -> None:
        seat = self.to_act
        assert seat is not None and self.trump is not None
        if card not in self.hands[seat]:
            raise RuleBreak("not held")
        if card not in self.legal():
            raise RuleBreak("not legal")
        self.hands[seat].remove(card)
        self.tricks[-1].append(card)
        self.trick_seats[-1].append(seat)
        if len(self.tricks[-1]) == sum(bool(a) for a in self.active):
            winner = self.trick_seats[-1][winning_index(self.tricks[-1], self.trump)]
            self.tricks_won[winner] += 1
            if len(self.tricks) == 5:
                self.finish()
                return
            self.leader = winner
            self.tricks.append([])
            self.trick_seats.append([])

    def finish(self) -> None:
        assert self.trump is not None
        self.deltas = round_deltas([bool(a) for a in self.active], self.tricks_won, self.trump, self.settings)
        self.phase = "over"

    def played(self) -> set[str]:
        return {c for trick in self.tricks for c in trick}

    def places(self) -> list[set[str]]:
        """Every place a card can be: four hands (sat-out hands included), undealt, stock,
        four discard piles, played."""
        return [
            *(set(self.hands[s]) for s in range(4)),
            set(self.undealt),
            set(self.stock),
            *(set(self.discards[s]) for s in range(4)),
            self.played(),
        ]


class RefMatch:
    """A match per RULES.md: scores, sit-out streaks, dealer order and the end."""

    def __init__(
        self,
        rules: str | dict[str, Any],
        scores: Sequence[int] | None = None,
        streaks: Sequence[int] | None = None,
    ):
        self.rules = rules
        self.settings = PRESET_SETTINGS[rules] if isinstance(rules, str) else rules
        self.scores = list(scores) if scores is not None else [self.settings["start_score"]] * 4
        self.streaks = list(streaks) if streaks is not None else [0] * 4
        self.rounds: list[RefRound] = []
        self.history: list[list[int]] = []

    @property
    def winners(self) -> list[int]:
        return [s for s in range(4) if self.scores[s] <= self.settings["target_score"]]

    def deal(self, dealer: int, deck: Sequence[str]) -> RefRound:
        if self.winners:
            raise RuleBreak("match over")
        if self.rounds and self.rounds[-1].phase != "over":
            raise RuleBreak("round not over")
        if self.rounds and dealer != (self.rounds[-1].dealer + 1) % 4:
            raise RuleBreak("dealer order")
        if sorted(deck) != sorted(ALL_CARDS):
            raise RuleBreak("deck")
        current = RefRound(self.rules, dealer, deck, self.scores, self.streaks)
        self.rounds.append(current)
        return current

    def settle(self) -> None:
        current = self.rounds[-1]
        assert current.deltas is not None
        for s in range(4):
            self.scores[s] += current.deltas[s]
            self.streaks[s] = self.streaks[s] + 1 if current.active[s] is False else 0
            assert self.streaks[s] <= max(2, self.settings["max_sit_outs_in_row"]), "too many sit-outs in a row"
        self.history.append(list(self.scores))


def ref_replay(data: dict[str, object]) -> RefMatch:
    """Replay a record (as parsed JSON) with the reference model; raises :class:`RuleBreak`."""
    rules = data.get("rules", "classic")
    settings = settings_of(rules)
    preset = next((name for name, value in PRESET_SETTINGS.items() if value == settings), None)
    match = RefMatch(preset or settings, data.get("scores"), data.get("sat_out_before"))  # type: ignore[arg-type]
    for raw in data["rounds"]:  # type: ignore[attr-defined]
        current = match.deal(raw["dealer"], split(raw["deck"]))
        if raw.get("trump") is None:
            if raw.get("exchanges") or raw.get("tricks"):
                raise RuleBreak("decisions before the trump")
            continue
        trump = raw["trump"]
        current.choose_trump(trump if trump == "turn" else trump.upper())
        for entry in raw.get("exchanges", []):
            current.exchange(entry["seat"], None if entry.get("sit_out") else split(entry["discard"]))
        for index, trick in enumerate(raw.get("tricks", [])):
            if current.phase != "play" or len(current.tricks) != index + 1 or current.tricks[-1]:
                raise RuleBreak("no trick expected here")
            for card in split(trick):
                if current.phase != "play" or len(current.tricks) != index + 1:
                    raise RuleBreak("too many cards")
                current.play(card)
        if current.phase == "over":
            match.settle()
    return match


def load_json(path: Path) -> dict[str, object]:
    return json.loads(path.read_text(encoding="utf-8"))


# -- the worked examples of RULES.md §4 as positions -------------------------------------------

# (cards on the table, hand, legal under table, legal under classic); trump Hearts.
WORKED_EXAMPLES = [
    ("", "AH KS 2D", "AH", "AH"),
    ("KS", "AS QS 3H", "AS", "AS QS"),
    ("KS 4H", "AS QS 5H", "AS QS", "AS QS"),
    ("KS 6H", "2H 3H QD", "2H 3H", "2H 3H QD"),
    ("KS 6H", "7H 2H QD", "7H", "7H"),
    ("KS", "2H QD", "2H", "2H"),
    ("KS", "QD 3C", "QD 3C", "QD 3C"),
    ("JH", "KH 2H AS", "KH", "KH 2H"),
]


def worked_example_record(preset: str, on_table: str, hand: str) -> tuple[dict[str, object], int, int]:
    """A record stopped where a seat holds exactly ``hand`` and ``on_table`` lies on the trick.

    Trump is Hearts, so all four play.  Dealer 3, so seat 0 chooses and leads.  Each seat
    discards one junk card and draws the card it needs.  Seat 0 holds AC 7C KC and wins
    filler Club tricks (everyone else follows with lower Clubs, seat 3 holds no Club and no
    Heart) until the tested hand is down to its size; then seat 0 leads ``on_table[0]``,
    seat 1 plays ``on_table[1]`` if any, and the next seat is to play with ``hand``.
    Returns the record, the tested seat and the number of filler tricks.
    """
    table_cards, tested_hand = split(on_table), split(hand)
    tested = len(table_cards)
    used = set(table_cards) | set(tested_hand)
    side = [c for c in ALL_CARDS if suit_of(c) in "DS" and c not in used]
    diamonds = [c for c in side if suit_of(c) == "D"]
    spades = [c for c in side if suit_of(c) == "S"]

    def take(pool: list[str], n: int) -> list[str]:
        out = pool[:n]
        del pool[:n]
        for other in (diamonds, spades):
            for card in out:
                if card in other:
                    other.remove(card)
        return out

    final: dict[int, list[str]] = {}
    if not table_cards:
        n_fill = 0
        final[0] = tested_hand + take(spades, 5 - len(tested_hand))
    else:
        n_fill = 5 - len(tested_hand)
        lows = [c for c in ("JC", "QC", "6C", "5C", "4C", "2C", "3C") if c not in used]
        final[0] = [*["AC", "7C", "KC"][:n_fill], table_cards[0]]
        final[0] += take(spades, 5 - len(final[0]))
        final[1] = lows[:n_fill] + (tested_hand if tested == 1 else [table_cards[1]])
        final[1] += take(diamonds, 5 - len(final[1]))  # void in Spades: it may play a Heart on KS
        final[2] = lows[n_fill : 2 * n_fill] + (tested_hand if tested == 2 else [])
        final[2] += take(spades + diamonds, 5 - len(final[2]))
    final[3] = take(diamonds + spades, 5)
    for seat in range(4):
        if seat not in final:
            final[seat] = take(diamonds + spades, 5)
    in_hands = {c for cards in final.values() for c in cards}
    assert len(in_hands) == 20, final
    junk = [c for c in ALL_CARDS if c not in in_hands][:4]
    dealt = {s: [*final[s][:4], junk[s]] for s in range(4)}
    deck = build_deck(3, dealt, stock=[final[s][4] for s in range(4)])
    exchanges = [(s, [junk[s]]) for s in range(4)]
    tricks = [[final[s][k] for s in range(4)] for k in range(n_fill)]
    if table_cards:
        tricks.append(table_cards)
    rec = record([round_entry(3, deck, "H", exchanges, tricks)], rules=preset)
    return rec, tested, n_fill
