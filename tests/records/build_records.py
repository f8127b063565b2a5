"""Write the golden records of tests/records/ and their expected results.

Run ``python tests/records/build_records.py`` from the project root.  Every expected result
below was worked out by hand from RULES.md and RECORD.md (the comments give the reasoning);
nothing here runs the engine.  A legal record NAME.json gets NAME.expected.json (the
``--json`` summary); an illegal one gets NAME.expected-error.json: the exit status and a
regular expression the one-line error must match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from helpers import WORKED_EXAMPLES, build_deck, record, round_entry, worked_example_record  # noqa: E402

N = None
T, F = True, False
S20 = [20, 20, 20, 20]
CASES: dict[str, tuple[dict[str, object], dict[str, object]]] = {}


def rnd(dealer: int, trump: str | None, active: list, tricks: list, scores: list) -> dict[str, object]:
    return {"dealer": dealer, "trump": trump, "active": active, "tricks": tricks, "scores": scores}


def summ(rounds: list, scores: list, nxt: object, winners: list | None = None, riscos: list | None = None) -> dict:
    return {
        "rounds": rounds,
        "scores": scores,
        "finished": bool(winners),
        "winners": winners or [],
        "riscos": riscos,
        "next": nxt,
    }


def exch(seat: int, sit_out: bool, low: int, high: int = 5) -> dict[str, object]:
    return {
        "seat": seat,
        "phase": "exchange",
        "legal": {"may_sit_out": sit_out, "min_discard": low, "max_discard": high},
    }


def deal(seat: int | None) -> dict[str, object]:
    return {"seat": seat, "phase": "deal", "legal": None}


def play(seat: int, legal: list[str]) -> dict[str, object]:
    return {"seat": seat, "phase": "play", "legal": legal}


def ok(name: str, rec: dict[str, object], expected: dict[str, object]) -> None:
    CASES[name] = (rec, expected)


def bad(name: str, rec: dict[str, object], pattern: str, status: int = 1) -> None:
    CASES[name] = (rec, {"exit": status, "pattern": pattern})


DECK3 = build_deck(3, {0: "2D 3D 4D 5D 6D", 1: "2C 3C 4C 5C 6C"})  # dealer 3, chooser 0
DECK0 = build_deck(0, {1: "2D 3D 4D 5D 6D", 2: "2C 3C 4C 5C 6C"})  # dealer 0, chooser 1
DECK1 = build_deck(1, {2: "2D 3D 4D 5D 6D", 3: "2C 3C 4C 5C 6C"})  # dealer 1, chooser 2
ALL_OUT_3 = [(0, N), (1, N), (2, N), (3, N)]

# -- trump: named or turned up -------------------------------------------------------------

# Dealer 3: the chooser is seat 0, whose 4th card (first of its second packet) is deck[12].
TURN = build_deck(3, {0: "2S 3S 4S 5C 6S"})
assert TURN[12] == "5C"
# classic: turning up shows 5C, so Clubs are trump; the chooser then must play (classic).
ok(
    "classic-turn-up",
    record([round_entry(3, TURN, "turn")]),
    summ([rnd(3, "C", [N] * 4, [N] * 4, S20)], S20, exch(0, F, 0)),
)
bad("table-turn-up", record([round_entry(3, TURN, "turn")], rules="table"), r"^round 1, trump, seat 0\b[^:]*: .*turn")
# lower-case card text is accepted (RULES.md §1: readers accept lower case)
ok(
    "classic-lower-case-cards",
    record([round_entry(3, [c.lower() for c in TURN], "turn")]),
    summ([rnd(3, "C", [N] * 4, [N] * 4, S20)], S20, exch(0, F, 0)),
)
# a record without "rules" is classic: turning up is allowed
no_rules = record([round_entry(3, TURN, "turn")])
del no_rules["rules"]
ok("default-rules-are-classic", no_rules, summ([rnd(3, "C", [N] * 4, [N] * 4, S20)], S20, exch(0, F, 0)))

# -- positions before any decision -------------------------------------------------------------

ok("classic-no-rounds", record([]), summ([], S20, deal(None)))
ok("table-no-rounds-given-scores", record([], rules="table", scores=[3, 4, 5, 6]), summ([], [3, 4, 5, 6], deal(None)))
ok(
    "classic-trump-phase",
    record([round_entry(0, DECK0)]),
    summ([rnd(0, N, [N] * 4, [N] * 4, S20)], S20, {"seat": 1, "phase": "trump", "legal": ["S", "H", "D", "C", "turn"]}),
)
ok(
    "table-trump-phase",
    record([round_entry(0, DECK0)], rules="table"),
    summ([rnd(0, N, [N] * 4, [N] * 4, S20)], S20, {"seat": 1, "phase": "trump", "legal": ["S", "H", "D", "C"]}),
)

# -- exchanges: how many cards -------------------------------------------------------------

# classic: discarding nothing is playing; seat 1 (score 20, not chooser, Spades) may sit out.
ok(
    "classic-discard-zero",
    record([round_entry(3, DECK3, "S", [(0, [])])]),
    summ([rnd(3, "S", [T, N, N, N], [N] * 4, S20)], S20, exch(1, T, 0)),
)
bad(
    "table-discard-zero",
    record([round_entry(3, DECK3, "S", [(0, [])])], rules="table"),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*\b1\b",
)
bad(
    "classic-discard-not-held",
    record([round_entry(3, DECK3, "S", [(0, ["AS"])])]),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*(hold|AS)",
)
bad(
    "classic-exchange-out-of-turn",
    record([round_entry(3, DECK3, "S", [(2, [])])]),
    r"^round 1, exchange 1, seat 2\b[^:]*: .*(turn|seat 0)",
)
# a rules object overriding one setting: at most 3 cards
MAX3 = {"preset": "classic", "max_discard": 3}
ok(
    "classic-max-discard-3",
    record([round_entry(3, DECK3, "S", [(0, ["2D", "3D", "4D"])])], rules=MAX3),
    summ([rnd(3, "S", [T, N, N, N], [N] * 4, S20)], S20, exch(1, T, 0, 3)),
)
bad(
    "classic-max-discard-3-discards-4",
    record([round_entry(3, DECK3, "S", [(0, ["2D", "3D", "4D", "5D"])])], rules=MAX3),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*3",
)
bad(
    "classic-fifth-exchange",
    record([round_entry(3, DECK3, "S", [(0, []), (1, N), (2, N), (3, N), (0, [])])]),
    r"^round 1, exchange 5\b",
)
bad(
    "classic-exchange-before-trump",
    record([{"dealer": 3, "deck": DECK3, "exchanges": [{"seat": 0, "discard": []}]}]),
    r"^round 1\b.*trump",
)

# -- who may sit out ------------------------------------------------------------------------------

# table: the chooser may sit out; classic: it may not.
ok(
    "table-chooser-to-decide",
    record([round_entry(3, DECK3, "S")], rules="table"),
    summ([rnd(3, "S", [N] * 4, [N] * 4, S20)], S20, exch(0, T, 1)),
)
ok(
    "table-chooser-sits-out",
    record([round_entry(3, DECK3, "S", [(0, N)])], rules="table"),
    summ([rnd(3, "S", [F, N, N, N], [N] * 4, S20)], S20, exch(1, T, 1)),
)
ok(
    "classic-chooser-to-decide",
    record([round_entry(3, DECK3, "S")]),
    summ([rnd(3, "S", [N] * 4, [N] * 4, S20)], S20, exch(0, F, 0)),
)
bad(
    "classic-chooser-sits-out",
    record([round_entry(3, DECK3, "S", [(0, N)])]),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*chooser",
)

# classic: a score of 5 or less must play; 6 may sit out.  table: no such rule.
LOW = [20, 5, 6, 20]
ok(
    "classic-score-5-must-play",
    record([round_entry(3, DECK3, "S", [(0, [])])], scores=LOW),
    summ([rnd(3, "S", [T, N, N, N], [N] * 4, LOW)], LOW, exch(1, F, 0)),
)
ok(
    "classic-score-6-may-sit-out",
    record([round_entry(3, DECK3, "S", [(0, []), (1, [])])], scores=LOW),
    summ([rnd(3, "S", [T, T, N, N], [N] * 4, LOW)], LOW, exch(2, T, 0)),
)
bad(
    "classic-score-5-sits-out",
    record([round_entry(3, DECK3, "S", [(0, []), (1, N)])], scores=LOW),
    r"^round 1, exchange 2, seat 1\b[^:]*: .*5",
)
ok(
    "table-score-5-may-sit-out",
    record([round_entry(3, DECK3, "S", [(0, ["2D"])])], rules="table", scores=LOW),
    summ([rnd(3, "S", [T, N, N, N], [N] * 4, LOW)], LOW, exch(1, T, 1)),
)
ok(
    "table-score-5-sits-out",
    record([round_entry(3, DECK3, "S", [(0, ["2D"]), (1, N)])], rules="table", scores=LOW),
    summ([rnd(3, "S", [T, F, N, N], [N] * 4, LOW)], LOW, exch(2, T, 1)),
)

# at most two sit-outs in a row (both presets), from sat_out_before
STREAK = [0, 2, 1, 0]
for preset, first, low in (("classic", [], 0), ("table", ["2D"], 1)):
    ok(
        f"{preset}-sat-out-twice-before-must-play",
        record([round_entry(3, DECK3, "S", [(0, first)])], rules=preset, sat_out_before=STREAK),
        summ([rnd(3, "S", [T, N, N, N], [N] * 4, S20)], S20, exch(1, F, low)),
    )
    bad(
        f"{preset}-sat-out-twice-before-sits-out",
        record([round_entry(3, DECK3, "S", [(0, first), (1, N)])], rules=preset, sat_out_before=STREAK),
        r"^round 1, exchange 2, seat 1\b[^:]*: .*(two|2)",
    )
    ok(
        f"{preset}-sat-out-once-before-may-sit-out",
        record([round_entry(3, DECK3, "S", [(0, first), (1, ["2C"])])], rules=preset, sat_out_before=STREAK),
        summ([rnd(3, "S", [T, T, N, N], [N] * 4, S20)], S20, exch(2, T, low)),
    )

# classic, streaks built inside the record by lone-player rounds (Spades, so 5 tricks = -5):
# R1 dealer 3: seat 0 alone -> [15,20,20,20]; R2 dealer 0: seat 1 alone -> [15,15,20,20];
# seats 2 and 3 sat out both rounds, so in R3 (dealer 1, chooser 2) both must play.
R1 = round_entry(3, DECK3, "S", [(0, []), (1, N), (2, N), (3, N)])
R2 = round_entry(0, DECK0, "S", [(1, []), (2, N), (3, N), (0, N)])
R1_SUM = rnd(3, "S", [T, F, F, F], [5, N, N, N], [15, 20, 20, 20])
R2_SUM = rnd(0, "S", [F, T, F, F], [N, 5, N, N], [15, 15, 20, 20])
ok(
    "classic-third-sit-out-forbidden-position",
    record([R1, R2, round_entry(1, DECK1, "S", [(2, [])])]),
    summ([R1_SUM, R2_SUM, rnd(1, "S", [N, N, T, N], [N] * 4, [15, 15, 20, 20])], [15, 15, 20, 20], exch(3, F, 0)),
)
bad(
    "classic-third-sit-out",
    record([R1, R2, round_entry(1, DECK1, "S", [(2, []), (3, N)])]),
    r"^round 3, exchange 2, seat 3\b[^:]*: .*(two|2)",
)
ok(
    "classic-second-sit-out-allowed",
    record([R1, R2, round_entry(1, DECK1, "S", [(2, []), (3, [])])]),
    summ([R1_SUM, R2_SUM, rnd(1, "S", [N, N, T, T], [N] * 4, [15, 15, 20, 20])], [15, 15, 20, 20], exch(0, T, 0)),
)
bad("classic-wrong-dealer", record([R1, round_entry(1, DECK1, "S")]), r"^round 2\b.*dealer")
bad(
    "classic-round-before-previous-complete",
    record([round_entry(3, DECK3, "S", [(0, [])]), round_entry(0, DECK0)]),
    r"^round 2\b",
)

# Hearts trump: nobody may sit out (both presets)
ok(
    "table-hearts-all-play",
    record([round_entry(3, DECK3, "H")], rules="table"),
    summ([rnd(3, "H", [N] * 4, [N] * 4, S20)], S20, exch(0, F, 1)),
)
bad(
    "table-hearts-sit-out",
    record([round_entry(3, DECK3, "H", [(0, N)])], rules="table"),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*(Hearts|H\b)",
)
ok(
    "classic-hearts-all-play",
    record([round_entry(3, DECK3, "H", [(0, [])])]),
    summ([rnd(3, "H", [T, N, N, N], [N] * 4, S20)], S20, exch(1, F, 0)),
)
bad(
    "classic-hearts-sit-out",
    record([round_entry(3, DECK3, "H", [(0, []), (1, N)])]),
    r"^round 1, exchange 2, seat 1\b[^:]*: .*(Hearts|H\b)",
)

# -- the lone player and the void round -------------------------------------------------------------

ok(
    "classic-lone-player",
    record([R1]),
    summ([R1_SUM], [15, 20, 20, 20], deal(0)),
)
ok(  # Clubs double: 5 tricks x 2
    "classic-lone-player-clubs",
    record([round_entry(3, DECK3, "C", [(0, []), (1, N), (2, N), (3, N)])]),
    summ([rnd(3, "C", [T, F, F, F], [5, N, N, N], [10, 20, 20, 20])], [10, 20, 20, 20], deal(0)),
)
ok(  # table: the chooser sits out, seat 1 alone
    "table-lone-player-clubs",
    record([round_entry(3, DECK3, "C", [(0, N), (1, ["2C"]), (2, N), (3, N)])], rules="table"),
    summ([rnd(3, "C", [F, T, F, F], [N, 5, N, N], [20, 10, 20, 20])], [20, 10, 20, 20], deal(0)),
)
bad(
    "classic-lone-player-with-tricks",
    record([round_entry(3, DECK3, "S", [(0, []), (1, N), (2, N), (3, N)], [["2D"]])]),
    r"^round 1, trick 1\b.*: .*(fewer|two|2|lone|alone)",
)
ok(  # table: nobody plays, the round is void, nobody's score changes
    "table-void-round",
    record([round_entry(3, DECK3, "S", ALL_OUT_3)], rules="table"),
    summ([rnd(3, "S", [F] * 4, [N] * 4, S20)], S20, deal(0)),
)
bad(
    "classic-nobody-plays",
    record([round_entry(3, DECK3, "S", ALL_OUT_3)]),
    r"^round 1, exchange 1, seat 0\b[^:]*: .*chooser",
)
# two void rounds: everyone sat out twice, so in round 3 everyone must play
V1 = round_entry(3, DECK3, "S", ALL_OUT_3)
V2 = round_entry(0, DECK0, "D", [(1, N), (2, N), (3, N), (0, N)])
V_SUMS = [rnd(3, "S", [F] * 4, [N] * 4, S20), rnd(0, "D", [F] * 4, [N] * 4, S20)]
ok(
    "table-after-two-void-rounds",
    record([V1, V2, round_entry(1, DECK1, "S")], rules="table"),
    summ([*V_SUMS, rnd(1, "S", [N] * 4, [N] * 4, S20)], S20, exch(2, F, 1)),
)
bad(
    "table-after-two-void-rounds-sit-out",
    record([V1, V2, round_entry(1, DECK1, "S", [(2, N)])], rules="table"),
    r"^round 3, exchange 1, seat 2\b[^:]*: .*(two|2)",
)

# -- end of the match, winners, riscos -------------------------------------------------------------

# classic, seat 1 at 4 must play; alone with Spades: 4 - 5 = -1, it wins; losers hold 60.
END = record([round_entry(0, DECK0, "S", [(1, []), (2, N), (3, N), (0, N)])], scores=[20, 4, 20, 20])
ok(
    "classic-lone-player-ends-match",
    END,
    summ(
        [rnd(0, "S", [F, T, F, F], [N, 5, N, N], [20, -1, 20, 20])],
        [20, -1, 20, 20],
        None,
        winners=[1],
        riscos=[-20, 60, -20, -20],
    ),
)
bad(
    "classic-round-after-match-end",
    record([*END["rounds"], round_entry(1, DECK1)], scores=[20, 4, 20, 20]),  # type: ignore[list-item]
    r"^round 2\b.*(ended|over|finished)",
)
# table, the classic text's riscos example: 0, 11, 2, 5 -> +18, -11, -2, -5
ok(
    "table-riscos-example",
    record([round_entry(3, DECK3, "S", [(0, ["2D"]), (1, N), (2, N), (3, N)])], rules="table", scores=[5, 11, 2, 5]),
    summ(
        [rnd(3, "S", [T, F, F, F], [5, N, N, N], [0, 11, 2, 5])],
        [0, 11, 2, 5],
        None,
        winners=[0],
        riscos=[18, -11, -2, -5],
    ),
)

# A shared win with a fraction.  classic, scores 2 1 20 7, dealer 3, Spades (nobody holds one).
# Seats 0 and 1 play, 2 (20) and 3 (7 > 5) sit out.
#   T1 seat 0 AH, seat 1 2H (must follow)        -> seat 0
#   T2 seat 0 7H, seat 1 3H                      -> seat 0
#   T3 seat 0 KH, seat 1 KD (void, no trump)     -> seat 0
#   T4 seat 0 2C, seat 1 AC (follows)            -> seat 1
#   T5 seat 1 7C, seat 0 3C                      -> seat 1
# Seat 0: 2 - 3 = -1; seat 1: 1 - 2 = -1; both win and share 20 + 7 = 27: 13.5 each.
SHARED = build_deck(3, {0: "AH 7H KH 2C 3C", 1: "2H 3H AC 7C KD"})
SHARED_TRICKS = ["AH 2H", "7H 3H", "KH KD", "2C AC", "7C 3C"]
ok(
    "classic-shared-win",
    record([round_entry(3, SHARED, "S", [(0, []), (1, []), (2, N), (3, N)], SHARED_TRICKS)], scores=[2, 1, 20, 7]),
    summ(
        [rnd(3, "S", [T, T, F, F], [3, 2, N, N], [-1, -1, 20, 7])],
        [-1, -1, 20, 7],
        None,
        winners=[0, 1],
        riscos=[13.5, 13.5, -20, -7],
    ),
)
bad(
    "classic-too-many-cards-in-trick",
    record([round_entry(3, SHARED, "S", [(0, []), (1, []), (2, N), (3, N)], ["AH 2H 3H"])], scores=[2, 1, 20, 7]),
    r"^round 1, trick 1\b.*: .*(many|cards|2)",
)
bad(
    "classic-trick-incomplete-then-next",
    record([round_entry(3, SHARED, "S", [(0, []), (1, []), (2, N), (3, N)], ["AH", "7H 3H"])], scores=[2, 1, 20, 7]),
    r"^round 1, trick 2\b",
)

# Three players, classic, dealer 3.  Seats 0 1 2 discard nothing, seat 3 sits out.
#   T1 seat 0 AH, seat 1 2H, seat 2 4H            -> seat 0
#   T2 seat 0 7H, seat 1 3H, seat 2 5H            -> seat 0
#   T3 seat 0 KH, seat 1 6x, seat 2 KD (both void) -> seat 0
#   T4 seat 0 2D, seat 1 4D, seat 2 AD            -> seat 2
#   T5 seat 2 7D, seat 0 3D, seat 1 5D (3 skipped) -> seat 2
# Tricks 3 0 2.  Spades: -3 +5 -2 -> 17 25 18 20.  Clubs (x2): -6 +10 -4 -> 14 30 16 20.
THREE_EX = [(0, []), (1, []), (2, []), (3, N)]
THREE_S = build_deck(3, {0: "AH 7H KH 2D 3D", 1: "2H 3H 4D 5D 6C", 2: "4H 5H AD 7D KD"})
THREE_C = build_deck(3, {0: "AH 7H KH 2D 3D", 1: "2H 3H 4D 5D 6S", 2: "4H 5H AD 7D KD"})
ok(
    "classic-three-players",
    record([round_entry(3, THREE_S, "S", THREE_EX, ["AH 2H 4H", "7H 3H 5H", "KH 6C KD", "2D 4D AD", "7D 3D 5D"])]),
    summ([rnd(3, "S", [T, T, T, F], [3, 0, 2, N], [17, 25, 18, 20])], [17, 25, 18, 20], deal(0)),
)
ok(
    "classic-three-players-clubs-doubled",
    record([round_entry(3, THREE_C, "C", THREE_EX, ["AH 2H 4H", "7H 3H 5H", "KH 6S KD", "2D 4D AD", "7D 3D 5D"])]),
    summ([rnd(3, "C", [T, T, T, F], [3, 0, 2, N], [14, 30, 16, 20])], [14, 30, 16, 20], deal(0)),
)
bad(
    "classic-sixth-trick",
    record(
        [round_entry(3, THREE_S, "S", THREE_EX, ["AH 2H 4H", "7H 3H 5H", "KH 6C KD", "2D 4D AD", "7D 3D 5D", "2S"])]
    ),
    r"^round 1, trick 6\b",
)
# mid-trick in trick 3: seat 0 led KH; seat 1 holds 4D 5D 6C: void in Hearts, no trump -> any card
ok(
    "classic-three-players-mid-trick",
    record([round_entry(3, THREE_S, "S", THREE_EX, ["AH 2H 4H", "7H 3H 5H", "KH"])]),
    summ([rnd(3, "S", [T, T, T, F], [2, 0, 0, N], S20)], S20, play(1, ["5D", "4D", "6C"])),
)
# between tricks: seat 2 won trick 4 and leads; of 4H 5H AD 7D KD only 7D is left.
ok(
    "classic-three-players-between-tricks",
    record([round_entry(3, THREE_S, "S", THREE_EX, ["AH 2H 4H", "7H 3H 5H", "KH 6C KD", "2D 4D AD"])]),
    summ([rnd(3, "S", [T, T, T, F], [3, 0, 1, N], S20)], S20, play(2, ["7D"])),
)

# table, two players, Clubs trump (x2).  Seats 1 and 3 sit out; 0 and 2 each discard one card
# and draw the card they need (seat 0 draws deck[20] = 3D, seat 2 then deck[21] = KS).
#   T1 AH 2H -> 0; T2 7H 3H -> 0; T3 KH KS -> 0; T4 2D AD (must beat) -> 2; T5 7D 3D -> 2
# 3 tricks: -6 -> 14; 2 tricks: -4 -> 16.
TWO_C = build_deck(3, {0: "AH 7H KH 2D 2S", 2: "2H 3H AD 7D 3S"}, stock=["3D", "KS"])
TWO_C_EX = [(0, ["2S"]), (1, N), (2, ["3S"]), (3, N)]
ok(
    "table-two-players-clubs-doubled",
    record([round_entry(3, TWO_C, "C", TWO_C_EX, ["AH 2H", "7H 3H", "KH KS", "2D AD", "7D 3D"])], rules="table"),
    summ([rnd(3, "C", [T, F, T, F], [3, N, 2, N], [14, 20, 16, 20])], [14, 20, 16, 20], deal(0)),
)
# table must beat: on 2D seat 2 holds AD 7D, both beat 2D, so both are legal.
ok(
    "table-two-players-must-beat-position",
    record([round_entry(3, TWO_C, "C", TWO_C_EX, ["AH 2H", "7H 3H", "KH KS", "2D"])], rules="table"),
    summ([rnd(3, "C", [T, F, T, F], [3, N, 0, N], S20)], S20, play(2, ["AD", "7D"])),
)
bad(
    "table-two-players-card-not-held",
    record([round_entry(3, TWO_C, "C", TWO_C_EX, ["AH 2S"])], rules="table"),
    r"^round 1, trick 1, seat 2 plays 2S: .*hold",
)

# -- RULES.md §4 worked examples as positions (trump Hearts, all four play) -----------------
# worked_example_record: seat 0 wins the filler Club tricks, so it has n tricks.
CHOSEN = {
    "lead": ("", "AH KS 2D"),
    "follow-must-beat": ("KS", "AS QS 3H"),
    "overtrump": ("KS 4H", "AS QS 5H"),
    "undertrump": ("KS 6H", "2H 3H QD"),
    "trump-void": ("KS", "2H QD"),
    "trump-led": ("JH", "KH 2H AS"),
}
LEGAL = {(t, h): (lt, lc) for t, h, lt, lc in WORKED_EXAMPLES}
SORTED = {  # the table's legal cards in RECORD.md order (S H D C, then A 7 K J Q 6 5 4 3 2)
    "AH": ["AH"],
    "AS": ["AS"],
    "AS QS": ["AS", "QS"],
    "2H 3H": ["3H", "2H"],
    "2H 3H QD": ["3H", "2H", "QD"],
    "2H": ["2H"],
    "KH": ["KH"],
    "KH 2H": ["KH", "2H"],
}
for label, (on_table, hand) in CHOSEN.items():
    for preset, legal in zip(("table", "classic"), LEGAL[(on_table, hand)], strict=True):
        rec, seat, fillers = worked_example_record(preset, on_table, hand)
        ok(
            f"{preset}-worked-example-{label}",
            rec,
            summ([rnd(3, "H", [T] * 4, [fillers, 0, 0, 0], S20)], S20, play(seat, SORTED[legal])),
        )


def illegal_play(preset: str, on_table: str, hand: str, card: str) -> tuple[dict[str, object], int, int]:
    rec, seat, fillers = worked_example_record(preset, on_table, hand)
    tricks = rec["rounds"][0]["tricks"]  # type: ignore[index]
    if on_table:
        tricks[-1].append(card)
    else:
        tricks.append([card])
    return rec, seat, fillers + 1


rec, seat, n = illegal_play("classic", "KS", "AS QS 3H", "3H")
bad("classic-must-follow-suit", rec, rf"^round 1, trick {n}, seat {seat} plays 3H: must follow suit S$")
rec, seat, n = illegal_play("table", "KS", "AS QS 3H", "QS")
bad("table-must-beat-following", rec, rf"^round 1, trick {n}, seat {seat} plays QS: .*beat")
rec, seat, n = illegal_play("table", "KS", "AS QS 3H", "3H")
bad("table-must-follow-suit", rec, rf"^round 1, trick {n}, seat {seat} plays 3H: .*(follow|suit|S)")
rec, seat, n = illegal_play("table", "KS 6H", "2H 3H QD", "QD")
bad("table-must-undertrump", rec, rf"^round 1, trick {n}, seat {seat} plays QD: .*trump")
rec, seat, n = illegal_play("classic", "KS", "2H QD", "QD")
bad("classic-must-trump-when-void", rec, rf"^round 1, trick {n}, seat {seat} plays QD: .*trump")
rec, seat, n = illegal_play("classic", "KS 6H", "7H 2H QD", "2H")
bad("classic-must-overtrump-when-able", rec, rf"^round 1, trick {n}, seat {seat} plays 2H: .*(trump|7H|6H)")
rec, seat, n = illegal_play("table", "JH", "KH 2H AS", "2H")
bad("table-must-beat-trump-led", rec, rf"^round 1, trick {n}, seat {seat} plays 2H: .*beat")
rec, seat, n = illegal_play("classic", "KS", "AS QS 3H", "AC")
bad("classic-card-already-played", rec, rf"^round 1, trick {n}, seat {seat} plays AC: .*hold")
for preset in ("classic", "table"):
    rec, seat, n = illegal_play(preset, "", "AH KS 2D", "KS")
    bad(f"{preset}-must-lead-trump-ace", rec, rf"^round 1, trick {n}, seat {seat} plays KS: .*Ace")

# -- rules objects overriding single settings (RULES.md §6: every row is a named setting) ------

LONE_C = [round_entry(3, DECK3, "C", [(0, []), (1, N), (2, N), (3, N)])]
# start score 10 (so the default "scores" are 10 each); alone with Clubs: 10 - 10 = 0, a win
ok(
    "classic-start-score-10",
    record(LONE_C, rules={"preset": "classic", "start_score": 10}),
    summ(
        [rnd(3, "C", [T, F, F, F], [5, N, N, N], [0, 10, 10, 10])],
        [0, 10, 10, 10],
        None,
        winners=[0],
        riscos=[30, -10, -10, -10],
    ),
)
ok(
    "classic-clubs-not-doubled",
    record(LONE_C, rules={"preset": "classic", "doubled_suit": None}),
    summ([rnd(3, "C", [T, F, F, F], [5, N, N, N], [15, 20, 20, 20])], [15, 20, 20, 20], deal(0)),
)
ok(
    "table-turn-up-allowed-trump-phase",
    record([round_entry(0, DECK0)], rules={"preset": "table", "turn_up_allowed": True}),
    summ([rnd(0, N, [N] * 4, [N] * 4, S20)], S20, {"seat": 1, "phase": "trump", "legal": ["S", "H", "D", "C", "turn"]}),
)
ok(  # table's other settings stay: the chooser may sit out, at least one card
    "table-turn-up-allowed",
    record([round_entry(3, TURN, "turn")], rules={"preset": "table", "turn_up_allowed": True}),
    summ([rnd(3, "C", [N] * 4, [N] * 4, S20)], S20, exch(0, T, 1)),
)
ok(
    "classic-chooser-may-sit-out-override",
    record([round_entry(3, DECK3, "S", [(0, N)])], rules={"preset": "classic", "chooser_must_play": False}),
    summ([rnd(3, "S", [F, N, N, N], [N] * 4, S20)], S20, exch(1, T, 0)),
)

# -- the deck ----------------------------------------------------------------------------------------

dup = list(DECK3)
dup[39] = dup[0]
bad("deck-duplicated-card", record([round_entry(3, dup)]), rf"^round 1, deck\b.*{DECK3[0]}")
bad("deck-missing-card", record([round_entry(3, DECK3[:39])]), rf"^round 1, deck\b.*{DECK3[39]}")
bad("deck-41-cards", record([round_entry(3, [*DECK3, DECK3[5]])]), r"^round 1, deck\b")


def main() -> None:
    for old in HERE.glob("*.json"):
        old.unlink()
    for name, (rec, expected) in sorted(CASES.items()):
        (HERE / f"{name}.json").write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
        suffix = "expected-error" if "pattern" in expected else "expected"
        (HERE / f"{name}.{suffix}.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print(f"{len(CASES)} records written to {HERE}")


if __name__ == "__main__":
    main()
