"""The pure rules core: cards, rule sets, round and match state, views and records.

It imports only the standard library and nothing else of ``sobedesce``.
"""

from . import logic
from .actions import SIT_OUT, TURN_UP, Action, Exchange, IllegalActionError, NameTrump, Play, SitOut, TurnUp, describe
from .cards import CARDS, Card, CardParseError, Rank, Suit, cards_of, format_cards, mask_of, parse_cards, sorted_cards
from .game import (
    HAND_SIZE,
    TRICKS_PER_ROUND,
    Phase,
    Round,
    check_deck,
    legal_card_mask,
    riscos_for,
)
from .match import Match, risco_text
from .record import (
    RecordFormatError,
    RecordRuleError,
    dumps_record,
    read_record,
    record_of,
    summary,
)
from .rules import CLASSIC, PRESETS, TABLE, Rules, RulesError, find_rules
from .view import SeatView, TrickView, round_from_view, seat_view

__all__ = [
    "Action",
    "CARDS",
    "CLASSIC",
    "Card",
    "CardParseError",
    "Exchange",
    "HAND_SIZE",
    "IllegalActionError",
    "Match",
    "NameTrump",
    "PRESETS",
    "SIT_OUT",
    "Phase",
    "Play",
    "Rank",
    "RecordFormatError",
    "RecordRuleError",
    "Round",
    "Rules",
    "RulesError",
    "SeatView",
    "SitOut",
    "Suit",
    "TABLE",
    "TRICKS_PER_ROUND",
    "TURN_UP",
    "TrickView",
    "TurnUp",
    "cards_of",
    "check_deck",
    "describe",
    "dumps_record",
    "find_rules",
    "logic",
    "format_cards",
    "legal_card_mask",
    "mask_of",
    "parse_cards",
    "read_record",
    "record_of",
    "riscos_for",
    "round_from_view",
    "seat_view",
    "sorted_cards",
    "summary",
    "risco_text",
]
