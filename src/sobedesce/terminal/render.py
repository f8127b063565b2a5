"""Drawing the table for a terminal: pure functions from a seat's view to lines of rich text.

Everything drawn comes from one :class:`~sobedesce.core.SeatView` (and public events), so no
hidden card can reach the screen.  Every function takes the terminal's ``width`` (and the
table its ``height``) and returns lines of at most ``width`` cells: long lines wrap, never
cut.  At 80x24 (the default) a screen is at most 22 lines, leaving a line for the prompt and
one for the answer; in a narrower or shorter terminal the table is drawn compactly, the less
essential parts (the list of events, reminders) shortened or dropped first, down to
:data:`MIN_WIDTH` x :data:`MIN_HEIGHT`; below that a line says the window is too small.
Colour is only a help: without it, legal cards carry a ``*`` and suits their symbols.
"""

from __future__ import annotations

import itertools
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from sobedesce.bots.base import ranking_note
from sobedesce.core import (
    Action,
    Card,
    Exchange,
    NameTrump,
    Phase,
    Play,
    Rules,
    SeatView,
    SitOut,
    Suit,
    TrickView,
    TurnUp,
    risco_text,
    sorted_cards,
)
from sobedesce.core.logic import MAY_SIT_OUT, must_play
from sobedesce.table import Event

__all__ = [
    "HEIGHT",
    "LOG_KEPT",
    "LOG_LINES",
    "MAX_LINES",
    "MIN_HEIGHT",
    "MIN_WIDTH",
    "WIDTH",
    "TableScreen",
    "action_text",
    "card_text",
    "cards_text",
    "default_guidance",
    "default_guidance_forms",
    "describe_event",
    "help_lines",
    "hint_lines",
    "hint_words",
    "history_lines",
    "match_over_lines",
    "page_chunks",
    "print_lines",
    "printable",
    "round_over_lines",
    "rules_lines",
    "seat_positions",
    "short_name",
    "suit_text",
    "screen_rows",
    "table_screen",
    "too_small_note",
]

WIDTH = 80
"""The width the table is drawn for, seats around the trick; narrower, it is drawn compactly."""
HEIGHT = 24
MAX_LINES = 22
"""Lines a screen may use above the prompt (24 rows: the prompt and the typed answer)."""
MIN_WIDTH = 40
MIN_HEIGHT = 16
"""The smallest window in which every screen shows all a decision needs (header, seats and
scores, the trick, the hand, the prompt and the last error); below it a line says so."""
LOG_LINES = 6
LOG_KEPT = 3
"""The latest log entries a screen keeps in sight, taking a more compact layout for them if
need be (a forced card, a trick's result and the next lead pass between two prompts)."""
WIDE_HEIGHT = 19
"""The fewest rows for the table drawn around the trick (13 lines, two for the guidance, two
for a message, the prompt and the answer); in fewer it is drawn compactly, whatever is said."""
RED = "red"
_SUIT_STYLE = ("", RED, RED, "")


# -- small pieces ---------------------------------------------------------------------

# What a terminal acts on instead of showing: C0 and C1 control characters (escape sequences,
# newlines, backspace…), the line and paragraph separators and the bidirectional overrides.
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(name: str) -> str:
    """``name`` safe to print: each control character replaced by U+FFFD (``�``).

    >>> printable("Ana\\x1b[2J\\nBot")
    'Ana�[2J�Bot'
    """
    return _UNPRINTABLE.sub("\ufffd", name)


def card_text(card: Card, style: str = "") -> Text:
    """``K♠``; hearts and diamonds in red."""
    colour = _SUIT_STYLE[card.suit]
    return Text(f"{card.rank.letter}{card.suit.symbol}", style=" ".join(s for s in (colour, style) if s))


_REASON_CARD = re.compile(
    r"\b(?:(?P<rank>[A7KJQ65432])(?P<suit>[SHDC])|(?P<after>void in|follow suit) (?P<alone>[SHDC]))\b"
)


def reason_text(reason: str, style: str = "") -> Text:
    """A rule's reason as the screen shows cards and suits: ``must overtrump 4S`` → ``must
    overtrump 4♠``, ``void in C`` → ``void in ♣`` (the rules core spells them in letters)."""
    out = Text(style=style)
    start = 0
    for found in _REASON_CARD.finditer(reason):
        out.append(reason[start : found.start()])
        if found["rank"]:
            out.append_text(card_text(Card.parse(found[0]), style))
        else:
            suit = Suit.parse(found["alone"])
            out.append(f"{found['after']} ")
            out.append(suit.symbol, style=" ".join(s for s in (_SUIT_STYLE[suit], style) if s))
        start = found.end()
    out.append(reason[start:])
    return out


def cards_text(cards: Iterable[Card], sep: str = " ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card))
    return out


def suit_text(suit: Suit) -> Text:
    """``♥ Hearts`` in the suit's colour."""
    return Text(f"{suit.symbol} {suit.title}", style=_SUIT_STYLE[suit])


def short_name(names: Sequence[str], seat: int, human: int) -> str:
    """``You``, ``Bot 2`` for ``Bot 2 (hard)``, or the name cut to 10 cells."""
    if seat == human:
        return "You"
    name = names[seat]
    found = re.match(r"^(Bot \d+) \(", name)
    if found:
        return found.group(1)
    return _cut(name, 10)


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells (a CJK character takes two), ``…`` marking the cut."""
    if cell_len(text) <= width:
        return text
    out, cells = "", 1
    for char in text:
        cells += cell_len(char)
        if cells > width:
            break
        out += char
    return out + "…"


def _ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells (``str.ljust`` counts characters)."""
    return text + " " * max(0, width - cell_len(text))


def _verb(seat: int, human: int, verb: str) -> str:
    """``play`` for the person, ``plays`` for others; ``sit``/``sits``…"""
    if seat == human:
        return verb
    return verb + ("es" if verb.endswith(("sh", "ch")) else "s")


def action_text(action: Action) -> Text:
    """A decision as a person would say it: ``K♠``, ``discard 2♣ 3♣``, ``sit out``…"""
    if isinstance(action, Play):
        return card_text(action.card)
    if isinstance(action, NameTrump):
        return suit_text(action.suit)
    if isinstance(action, TurnUp):
        return Text("turn up")
    if isinstance(action, SitOut):
        return Text("sit out")
    if isinstance(action, Exchange):
        if not action.discard:
            return Text("keep all five")
        return Text("discard ").append_text(cards_text(sorted_cards(action.discard)))
    return Text(str(action))


def _fit(text: Text, width: int = WIDTH) -> Text:
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    return text


def _fold(text: Text | str, width: int = WIDTH, indent: int = 0) -> list[Text]:
    """``text`` wrapped at spaces into lines of at most ``width`` cells, the lines after the
    first indented by ``indent`` (when that leaves room): nothing is cut.  A word longer than
    a line is split."""
    text = Text(text) if isinstance(text, str) else text
    width = max(1, width)
    if text.cell_len <= width:
        return [text]
    if width - indent < 12:
        indent = 0
    plain = text.plain
    lines: list[Text] = []
    start, room = 0, width
    while start < len(plain):
        if lines:
            while start < len(plain) and plain[start] == " ":
                start += 1
            if start == len(plain):
                break
        end, cells, space = start, 0, None
        while end < len(plain):
            cells += cell_len(plain[end])
            if cells > room:
                break
            if plain[end] == " ":
                space = end
            end += 1
        if end < len(plain):  # the line is full: break at its last space, else inside the word
            if space is not None and space > start:
                end = space
            end = max(end, start + 1)
        line = text[start:end]
        line.rstrip()
        lines.append(Text(" " * indent).append_text(line) if lines and indent else line)
        start, room = end, width - indent
    return lines


def _pack(pieces: Iterable[Text | str], width: int = WIDTH, sep: str = " · ", indent: int = 0) -> list[Text]:
    """``pieces`` on lines of at most ``width`` cells, ``sep`` between two on a line: a line
    breaks only between pieces (unless one piece is wider than a line)."""
    lines: list[Text] = []
    line: Text | None = None
    for piece in pieces:
        piece = Text(piece) if isinstance(piece, str) else piece
        if not piece.plain:
            continue
        if line is not None and line.cell_len + cell_len(sep) + piece.cell_len <= width:
            line.append(sep).append_text(piece)
            continue
        if line is not None:
            lines.append(line)
        line = (Text(" " * indent) if lines and indent else Text()).append_text(piece)
    if line is not None:
        lines.append(line)
    out: list[Text] = []
    for line in lines:
        line.rstrip()
        out.extend(_fold(line, width, indent))
    return out


def screen_rows(height: int) -> int:
    """Lines a screen may use above the prompt in a terminal ``height`` rows tall: the prompt
    and the typed answer take two; never more than :data:`MAX_LINES`."""
    return max(1, min(MAX_LINES, height - 2))


def too_small_note(width: int, height: int) -> Text | None:
    """The line that says the window is below :data:`MIN_WIDTH` x :data:`MIN_HEIGHT`, if it is."""
    if width >= MIN_WIDTH and height >= MIN_HEIGHT:
        return None
    return Text(
        f"! Window {width}x{height} is too small: the table needs {MIN_WIDTH}x{MIN_HEIGHT} or more; enlarge it.",
        style="bold",
    )


def _too_small_forms(width: int, height: int) -> list[list[Text]]:
    """The too-small line's forms as lines of ``width`` cells, the longest first: the whole
    sentence, then a short one for a window with too few rows for it."""
    note = too_small_note(width, height)
    if note is None:
        return [[], []]
    short = Text(f"! Too small: needs {MIN_WIDTH}x{MIN_HEIGHT}", style="bold")
    return [_fold(note, width), _fold(short, width)]


def page_chunks(lines: Sequence[Text | str], width: int = WIDTH, height: int = HEIGHT) -> list[list[Text]]:
    """A page (the rules, help, a summary…) in screens of a ``width`` x ``height`` window: lines
    wider than the window wrapped, then cut into screens that leave room for the prompt;
    below the minimum size each screen starts with the line that says so (its short form when
    the whole would take more than a third of the screen, none when that would take half)."""
    folded = _folded(lines, width)
    head, rows = _screen_head(width, height)
    return [head + folded[i : i + rows] for i in range(0, max(1, len(folded)), rows)]


def _folded(lines: Sequence[Text | str], width: int) -> list[Text]:
    """``lines`` wrapped to ``width``."""
    return [part for line in lines for part in _fold(Text(line) if isinstance(line, str) else line, width)]


def _screen_head(width: int, height: int) -> tuple[list[Text], int]:
    """The lines each screen of a page starts with (below the minimum size, the one that says
    so: its short form when the whole would take more than a third of the screen, none when
    that would take half), and the rows left under them for the page."""
    rows = screen_rows(height)
    full, short = _too_small_forms(width, height)
    head = full if 3 * len(full) <= rows else short if 2 * len(short) <= rows else []
    return head, max(1, rows - len(head))


def block_chunks(blocks: Sequence[Sequence[Text | str]], width: int = WIDTH, height: int = HEIGHT) -> list[list[Text]]:
    """A page made of ``blocks`` (a summary, the scores, a command under its label) in screens,
    like :func:`page_chunks`, a blank line between blocks: a block is never split across
    screens unless it alone is taller than one, and the screens are filled from the end, so the
    last one, where the prompt is, holds the last blocks whole."""
    head, rows = _screen_head(width, height)
    screens: list[list[Text]] = []  # from the last one back
    current: list[Text] = []
    for block in reversed(blocks):
        folded = _folded(block, width)
        if not folded:
            continue
        if current and len(folded) + 1 + len(current) <= rows:
            current = [*folded, Text(""), *current]
            continue
        if current:
            screens.append(current)
        pieces = [folded[i : i + rows] for i in range(0, len(folded), rows)]
        current = pieces.pop()
        if pieces:  # taller than a screen: a screen for each piece
            screens.append(current)
            screens += reversed(pieces[1:])
            current = pieces[0]
    screens.append(current)
    return [head + screen for screen in reversed(screens)]


def _place(parts: Sequence[tuple[int, Text]], width: int = WIDTH) -> Text:
    """One line with each text starting at its column (earlier parts win overlaps)."""
    line = Text()
    for column, part in sorted(parts, key=lambda p: p[0]):
        if not part.plain:
            continue
        column = max(column, line.cell_len)
        room = width - column
        if room <= 0:
            break
        line.append(" " * (column - line.cell_len))
        line.append_text(_fit(part, room))
    return line


def _centre(text: Text, left: int = 0, width: int = WIDTH) -> tuple[int, Text]:
    text = _fit(text, width)
    return left + (width - text.cell_len) // 2, text


def _right(text: Text, right_edge: int = WIDTH) -> tuple[int, Text]:
    return right_edge - text.cell_len, text


def seat_positions(rules: Rules, human: int) -> dict[str, int]:
    """Where each seat is drawn with the person at the bottom.

    Seats play 0, 1, 2, 3; counter-clockwise the next seat sits to the person's right,
    clockwise to their left.
    """
    after, across, before = (human + 1) % 4, (human + 2) % 4, (human + 3) % 4
    if rules.direction == "counter-clockwise":
        return {"bottom": human, "right": after, "top": across, "left": before}
    return {"bottom": human, "left": after, "top": across, "right": before}


def print_lines(console: Console, lines: Iterable[Text | str]) -> None:
    """Print ``lines`` as they are; one wider than the console (a window below the minimum
    width) is wrapped rather than cut."""
    for line in lines:
        for part in _fold(line, console.width):
            console.print(part, overflow="crop", no_wrap=True, crop=True, highlight=False, markup=False, emoji=False)


# -- the table --------------------------------------------------------------------------


def _seat_status(view: SeatView, seat: int) -> str:
    active = view.active[seat]
    if active is False:
        return "sitting out"
    parts = []
    if active is True:
        count = view.discard_counts[seat]
        parts.append("kept all" if not count else f"swapped {count}")
    elif view.phase == Phase.EXCHANGE and view.to_act == seat:
        parts.append("deciding…")
    if view.phase >= Phase.PLAY and active is True:
        won = view.tricks_won[seat]
        parts.append(f"{won} trick{'s' if won != 1 else ''}")
    return " · ".join(parts)


SIDE_NAME = 26
"""Cells for a name beside the trick in the wide table (the top card is centred in column 38)."""


def _seat_block(view: SeatView, names: Sequence[str], seat: int, room: int = SIDE_NAME) -> tuple[Text, Text, Text]:
    """A seat's name line (its name in at most ``room`` cells), its score and cards, its status."""
    to_act = view.to_act == seat and view.phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY)
    name = Text("▶ " if to_act else "", style="bold")
    label = _labelled(names, seat, view.seat, room)
    name.append(label, style="bold")
    name.append(f" · seat {seat}")
    stats = Text(f"score {view.scores[seat]}")
    if view.active[seat] is not False and view.round_index >= 0 and view.phase != Phase.DEAL:
        size = view.hand_sizes[seat]
        stats.append(f" · {size} card{'s' if size != 1 else ''}")
    return name, stats, Text(_seat_status(view, seat), style="dim" if view.active[seat] is False else "")


def shown_trick(view: SeatView) -> TrickView | None:
    """The trick on the table: the one being played, else the last one won (face up a moment)."""
    current = view.current_trick
    if current is not None and current.cards:
        return current
    done = [t for t in view.tricks if t.winner is not None and t.cards]
    return done[-1] if done else None


def _caption(view: SeatView, names: Sequence[str], trick: TrickView | None) -> Text:
    human = view.seat
    if view.phase == Phase.TRUMP and view.to_act is not None:
        who = short_name(names, view.to_act, human)
        return Text(f"{who} {_verb(view.to_act, human, 'choose')} trump")
    if view.phase == Phase.EXCHANGE and view.to_act is not None:
        who = short_name(names, view.to_act, human)
        if _may_sit_out(view, view.to_act):
            return Text(f"{who}: play or sit out?")
        return Text(f"{who} must play" + (": how many cards?" if view.rules.max_discard else ""))
    if trick is None:
        if view.round_index >= 0 and sum(a is True for a in view.active) == 1:
            lone = view.active.index(True)
            return Text(f"{short_name(names, lone, human)} played alone: all 5 tricks")
        if view.round_index >= 0 and view.phase in (Phase.DEAL, Phase.MATCH_OVER) and not any(view.active):
            return Text("nobody played: the round is void")
        return Text("")
    number = view.tricks.index(trick) + 1
    if trick.winner is not None:
        win_card = trick.cards[trick.seats.index(trick.winner)]
        who = short_name(names, trick.winner, human)
        return Text(f"trick {number}: {who} {_verb(trick.winner, human, 'win')} with ").append_text(card_text(win_card))
    return Text(f"trick {number} · led by {short_name(names, trick.leader, human)}")


def _may_sit_out(view: SeatView, seat: int) -> bool:
    """Whether ``seat`` may sit out this round, by the rules core, from what every seat sees."""
    if view.trump is None or view.chooser is None:
        return True
    codes = must_play(view.rules, int(view.trump), view.chooser, view.scores, view.sat_out_streaks)
    return codes[seat] == MAY_SIT_OUT


Guidance = Text | str | None | Sequence[Text | str | None]
"""The line under the hand: a text, or its forms from the longest to the shortest (``None``
or ``""``: nothing), the shorter taken when the window is small."""


@dataclass(frozen=True)
class TableScreen:
    """A table screen laid out for a window: its ``lines``; ``notice_shown``: whether the
    whole notice is among them (else the log is, and the notice is for a page of its own);
    ``compact``: drawn as a list of seats rather than around the trick."""

    lines: list[Text]
    notice_shown: bool
    compact: bool


def table_screen(
    view: SeatView,
    names: Sequence[str],
    *,
    log: Sequence[Text | str] = (),
    notice: Sequence[Text | str] = (),
    guidance: Guidance = None,
    message: Text | str | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> TableScreen:
    """The whole screen above the prompt in a ``width`` x ``height`` window: header, the four
    seats and the trick, the person's hand, a guidance line, then ``notice`` (a hint, the
    history…) or the latest ``log`` lines, then ``message`` (e.g. why an input was refused).

    From 80 columns and :data:`WIDE_HEIGHT` rows the seats are drawn around the trick;
    narrower or shorter, as a list in the order of play.  Nothing is cut: long lines wrap.  What does not fit the
    height goes first: the log (from its oldest line), then the shorter form of the guidance,
    a shorter header, the list's column titles, the guidance, the caption of the trick.  The
    notice is shown whole or not at all (``notice_shown``).  Below :data:`MIN_WIDTH` x
    :data:`MIN_HEIGHT` a line above the message says the window is too small."""
    rows = screen_rows(height)
    forms = _guidance_forms(view, names, guidance)
    if isinstance(message, str):
        message = Text(message, style="bold")
    said = _fold(message, width) if message else []
    notes = [line for entry in notice for line in _fold(entry, width, 2)]
    levels = _levels(view, names, width, forms, wide=width >= WIDTH and height >= WIDE_HEIGHT)
    # The layouts and what is said under them, best first: below the smallest window the
    # too-small line too (its short form when rows run out), and the bare essentials last.
    regular = len(levels)
    options = [(i, said) for i in range(len(levels))]
    if too_small_note(width, height) is not None:
        # The whole too-small line under the richest layout with room for it, else its short
        # form; then the fewest lines for a decision (trump, the cards on the table, the hand)
        # with either, then without it; at last the hand alone.
        full, short = _too_small_forms(width, height)
        options = [(i, full + said) for i in range(len(levels))] + [(i, short + said) for i in range(len(levels))]
        tiny = len(levels)
        levels += _tiny_levels(view, names, width, forms)
        options += [(i, small + said) for i in range(tiny, len(levels) - 1) for small in (full, short)]
        options += [(len(levels) - 2, said), (len(levels) - 1, short + said), (len(levels) - 1, said)]
    # The first (richest) layout whose essentials fit with the latest log entries (a table,
    # not one of a tiny window's bare essentials), else the first whose essentials fit; then, if a notice
    # is to be shown, the first from there on, of the same kind and still with its column
    # titles, with room for all of it (else the notice is shown on a page of its own).
    recent = sum(len(_fold(_as_text(entry), width, 2)) for entry in list(log)[-LOG_KEPT:])
    base, said_after = next(
        (
            (i, after)
            for reserve in (recent, 0)
            for i, after in options
            if len(levels[i][1]) + len(after) + reserve <= rows and (i < regular or not reserve)
        ),
        options[-1],
    )
    chosen, shown = base, False
    if notes:
        for i in range(base, len(levels)):
            compact, top, titled = levels[i]
            if compact != levels[base][0] or not titled:
                break
            if len(top) + len(said_after) + len(notes) <= rows:
                chosen, shown = i, True
                break
    compact, top, _ = levels[chosen]
    lines = list(top)
    room = max(0, rows - len(lines) - len(said_after))
    area = min(LOG_LINES, room)
    if shown:
        lines.extend(notes)
        area -= len(notes)
    else:
        latest: list[Text] = []
        for entry in reversed(log):
            folded = _fold(_as_text(entry), width, 2)
            if len(latest) + len(folded) > area:
                break
            latest[:0] = folded
        lines.extend(latest)
        area -= len(latest)
    lines.extend(Text("") for _ in range(max(0, area)))
    lines.extend(said_after)
    # Only in a window too small even for the essentials: its bottom lines, the error and the
    # hand above it, rather than a screen taller than the window.
    return TableScreen(lines[-rows:], shown or not notes, compact)


def _as_text(entry: Text | str) -> Text:
    return Text(entry) if isinstance(entry, str) else entry


def _tiny_levels(
    view: SeatView, names: Sequence[str], width: int, forms: Sequence[Text | None]
) -> list[tuple[bool, list[Text], bool]]:
    """The layouts for a window below :data:`MIN_WIDTH` x :data:`MIN_HEIGHT` where even the
    compact table does not fit, richest first: trump (with the turned-up card, the stock and
    the dealer, then alone), the cards on the table, the hand, the shortest guidance; at last
    the hand alone."""
    _, header = _header_pieces(view, names)
    table = _table_line(view, names)
    on_table = _pack(table, width, indent=2) if table else []
    hand = _pack(_hand_pieces(view), width, sep=" ", indent=2)
    shortest = _fold(forms[-1], width, 2) if forms[-1] else []
    trump = Text("Trump ").append_text(suit_text(view.trump)) if view.trump is not None else None
    return [
        (True, lines, False)
        for lines in (
            _pack(header, width) + on_table + hand + shortest,
            _pack(header, width) + on_table + hand,
            (_fold(trump, width) if trump is not None else []) + on_table + hand,
            hand,
        )
    ]


def _table_line(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The cards on the table for the tiniest screen, in pieces: ``Table:``, then ``Bot 2 [3♦]``
    for each card in the order played (none when the table is empty)."""
    trick = shown_trick(view)
    if trick is None:
        return []
    played = _played_cards(view)
    return [
        Text("Table: " if i == 0 else "").append(short_name(names, seat, view.seat) + " ").append_text(played[seat])
        for i, seat in enumerate(trick.seats)
    ]


def _levels(
    view: SeatView, names: Sequence[str], width: int, forms: Sequence[Text | None], *, wide: bool
) -> list[tuple[bool, list[Text], bool]]:
    """The layouts of the table above the log, richest first (``wide``: drawn around the trick
    first), each as (compact, lines, with the compact table's column titles or drawn wide)."""
    levels: list[tuple[bool, list[Text], bool]] = []
    if wide:
        around = _header_lines(view, names)
        around.append(Text("─" * WIDTH, style="dim"))
        around.extend(_table_area(view, names))
        around.append(Text("─" * WIDTH, style="dim"))
        around.append(_fit(_hand_line(view)))
        for form in _distinct(forms):
            levels.append((False, around + (_fold(form, WIDTH) if form else []), True))
    hand = _pack(_hand_pieces(view), width, sep=" ", indent=10)
    caption = _caption(view, names, shown_trick(view))
    for header, titles, form, with_caption in (
        ("full", True, forms[0], True),
        ("full", True, forms[-1], True),
        ("short", True, forms[-1], True),
        ("short", False, forms[-1], True),
        ("short", False, None, True),
        ("short", False, None, False),
    ):
        lines = _compact_header(view, names, width, short=header == "short")
        lines.extend(_seat_rows(view, names, width, titles=titles))
        if with_caption and caption.plain:
            lines.extend(_fold(caption, width, 2))
        lines.extend(hand)
        if form:
            lines.extend(_fold(form, width, 2))
        if not levels or lines != levels[-1][1]:
            levels.append((True, lines, titles))
    return levels


def _distinct(forms: Sequence[Text | None]) -> list[Text | None]:
    out: list[Text | None] = []
    for form in forms:
        if not any((form.plain if form else "") == (o.plain if o else "") for o in out):
            out.append(form)
    return out


def _guidance_forms(view: SeatView, names: Sequence[str], guidance: Guidance) -> list[Text | None]:
    """The guidance from its longest form to its shortest (at least one)."""
    if guidance is None:
        forms: Sequence[Text | str | None] = default_guidance_forms(view, names)
    elif isinstance(guidance, (Text, str)):
        forms = [guidance]
    else:
        forms = list(guidance) or [None]
    return [(Text(f) if isinstance(f, str) else f) if f else None for f in forms]


def _header_pieces(view: SeatView, names: Sequence[str], *, short: bool = False) -> tuple[list[Text], list[Text]]:
    """The header's two lines in pieces: the game, the rule set, the round and the direction
    of play (``short``: without the game's name); then trump, the stock and the dealer."""
    rules = view.rules
    arrow = "↺" if rules.direction == "counter-clockwise" else "↻"
    first: list[Text] = []
    if short:
        # Two lines at 40 columns: the list of seats is in the order of play, so the arrow
        # says the direction, and the dealer goes up beside it (trump, stock and points below).
        if view.round_index >= 0:
            first.append(Text(f"Round {view.round_index + 1}"))
        first.append(Text(f"{rules.name} {arrow}"))
        if view.dealer is not None:
            first.append(Text(f"dealer {short_name(names, view.dealer, view.seat)}"))
    else:
        first += [Text("Sobe e Desce", style="bold"), Text(f"{rules.name} rules")]
        if view.round_index >= 0:
            first.append(Text(f"round {view.round_index + 1}"))
        first.append(Text(f"play goes {rules.direction} {arrow}"))
    trump = Text("Trump ")
    if view.trump is None:
        trump.append("not chosen yet", style="dim")
    else:
        trump.append_text(suit_text(view.trump))
        if view.turned_card is not None:
            trump.append(" (turned up ").append_text(card_text(view.turned_card)).append(")")
    second = [trump]
    if view.trump is not None and rules.multiplier(view.trump) != 1:
        second.append(Text(f"points x{rules.multiplier(view.trump)}", style="bold"))
    if view.round_index >= 0:
        second.append(Text(f"stock {view.stock_count}"))
    if view.dealer is not None and not short:
        second.append(Text(f"dealer {short_name(names, view.dealer, view.seat)}"))
    return first, second


def _header_lines(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The header of the wide table: two lines of 80 cells."""
    return [_fit(_join(pieces)) for pieces in _header_pieces(view, names)]


def _compact_header(view: SeatView, names: Sequence[str], width: int, *, short: bool) -> list[Text]:
    first, second = _header_pieces(view, names, short=short)
    return _pack(first, width) + _pack(second, width)


def _join(pieces: Iterable[Text], sep: str = " · ") -> Text:
    out = Text()
    for i, piece in enumerate(pieces):
        out.append(sep if i else "").append_text(piece)
    return out


def _played_cards(view: SeatView) -> dict[int, Text]:
    """Each seat's card in the trick on show, bracketed (the trick's winner's reversed)."""
    trick = shown_trick(view)
    played: dict[int, Text] = {}
    if trick is not None:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            style = "bold reverse" if trick.winner == seat else "bold"
            played[seat] = Text("[").append_text(card_text(card, style)).append("]")
    return played


def _seat_rows(view: SeatView, names: Sequence[str], width: int, *, titles: bool) -> list[Text]:
    """The compact table: a row for each seat in the order of play (seat 0, 1, 2, 3) with its
    score, tricks won, cards in hand (when there is room), its card on the table and whether
    it sits out or how many cards it swapped; ``▶`` marks the seat to act."""
    human = view.seat
    played = _played_cards(view)
    labels = [short_name(names, seat, human) for seat in range(4)]
    name_width = max(6, *(cell_len(label) for label in labels))
    statuses = [_compact_status(view, seat) for seat in range(4)]
    status_width = max(cell_len(status) for status in statuses)
    with_cards = 2 + name_width + 6 + 7 + 6 + 6 + 2 + status_width <= width
    rows: list[Text] = []
    if titles:
        title = Text("  " + "player".ljust(name_width) + " score tricks", style="dim")
        title.append((" cards" if with_cards else "") + " table", style="dim")
        rows.append(title)
    for seat in range(4):
        to_act = view.to_act == seat and view.phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY)
        active = view.active[seat]
        row = Text("▶ " if to_act else "  ", style="bold")
        row.append(_ljust(labels[seat], name_width), style="bold")
        row.append(f"{view.scores[seat]:>6}")
        won = view.tricks_won[seat] if view.phase >= Phase.PLAY and active is True else ""
        row.append(f"{won:>7}")
        if with_cards:
            shows_cards = active is not False and view.round_index >= 0 and view.phase != Phase.DEAL
            row.append(f"{view.hand_sizes[seat] if shows_cards else '':>6}")
        on_table = played.get(seat)
        row.append(" " * (6 - (on_table.cell_len if on_table else 0)))
        if on_table is not None:
            row.append_text(on_table)
        if statuses[seat]:
            row.append("  " + statuses[seat], style="dim" if active is False else "")
        row.rstrip()
        rows.extend(_fold(row, width, 2))
    return rows


def _compact_status(view: SeatView, seat: int) -> str:
    active = view.active[seat]
    if active is False:
        return "sitting out"
    if active is True:
        count = view.discard_counts[seat]
        return "kept all" if not count else f"swapped {count}"
    if view.phase == Phase.EXCHANGE and view.to_act == seat:
        return "deciding…"
    return ""


def _table_area(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The three other seats around the cards on the table, the caption, and the person's seat."""
    human = view.seat
    where = seat_positions(view.rules, human)
    top = _seat_block(view, names, where["top"])
    left = _seat_block(view, names, where["left"])
    right = _seat_block(view, names, where["right"])
    trick = shown_trick(view)
    played = _played_cards(view)

    def on_table(seat: int) -> Text:
        return played.get(seat, Text(""))

    def your_line(room: int) -> Text:
        you = _seat_block(view, names, human, room)
        line = you[0].copy().append(" · ").append_text(you[1])
        if you[2].plain:
            line.append(" · ").append_text(you[2])
        return line

    # Your name in all the room the rest of your line leaves (cut only where it would not fit).
    whole = cell_len(names[human])
    bottom = your_line(whole)
    if bottom.cell_len > WIDTH:
        bottom = your_line(max(6, whole - (bottom.cell_len - WIDTH)))
    return [
        _place([_centre(top[0])]),
        _place([_centre(top[1])]),
        _place([_centre(top[2])]),
        _place([(0, left[0]), _centre(on_table(where["top"])), _right(right[0])]),
        _place([(0, left[1]), (30, on_table(where["left"])), (46, on_table(where["right"])), _right(right[1])]),
        _place([(0, left[2]), _centre(on_table(where["bottom"])), _right(right[2])]),
        _place([_centre(_caption(view, names, trick), 20, 40)]),
        _place([_centre(bottom)]),
    ]


def _hand_line(view: SeatView) -> Text:
    """The person's cards, numbered, the legal ones marked when it is their turn to play."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Play)} if view.is_my_turn else set()
    hand = Text("Your hand ", style="bold")
    if view.active[view.seat] is False:
        hand.append(" you sit out this round", style="dim")
    elif not view.hand:
        hand.append(" (no cards)", style="dim")
    for position, card in enumerate(view.hand, start=1):
        hand.append(f"  {position} ")
        if legal:
            hand.append_text(card_text(card, "bold underline" if card in legal else "dim"))
            hand.append("*" if card in legal else " ")
        else:
            hand.append_text(card_text(card))
    return hand


def _hand_pieces(view: SeatView) -> list[Text]:
    """The person's hand for the compact table: ``Your hand`` then one piece a card."""
    legal = {a.card for a in view.legal_actions if isinstance(a, Play)} if view.is_my_turn else set()
    pieces = [Text("Your hand", style="bold")]
    if view.active[view.seat] is False:
        pieces.append(Text(" you sit out this round", style="dim"))
    elif not view.hand:
        pieces.append(Text("(no cards)", style="dim"))
    for position, card in enumerate(view.hand, start=1):
        piece = Text(f"{position} ")
        if legal:
            piece.append_text(card_text(card, "bold underline" if card in legal else "dim"))
            piece.append("*" if card in legal else " ")
        else:
            piece.append_text(card_text(card))
        pieces.append(piece)
    return pieces


def default_guidance(view: SeatView, names: Sequence[str]) -> Text:
    """The line under the hand: the legal cards, or what is awaited."""
    return default_guidance_forms(view, names)[0] or Text("")


def default_guidance_forms(view: SeatView, names: Sequence[str]) -> list[Text | None]:
    """:func:`default_guidance`, then its shorter forms for a small window (the prompt says
    what to type: the reminder goes first)."""
    if view.is_my_turn and view.phase == Phase.PLAY:
        legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
        short = Text("* legal: ").append_text(cards_text(legal))
        return [short.copy().append("  — type a card (e.g. 7h) or its number"), short]
    if view.is_my_turn and view.phase == Phase.TRUMP:
        text = Text("Your 3 cards: name trump ")
        for i, suit in enumerate(Suit):
            text.append(", " if i else "").append(suit.letter + " ").append_text(Text(suit.symbol, _SUIT_STYLE[suit]))
        if view.rules.turn_up_allowed:
            text.append(", or turn up your next card")
        return [text, None]
    if view.to_act is not None and not view.is_my_turn:
        return [Text(f"Waiting for {short_name(names, view.to_act, view.seat)}…", style="dim")]
    return [None]


# -- events -------------------------------------------------------------------------------


def describe_event(event: Event, names: Sequence[str], human: int) -> Text:
    """One log line for an event."""
    seat = event.seat if event.seat is not None else -1
    who = short_name(names, seat, human) if seat >= 0 else ""
    if event.kind == "deal":
        chooser = event.chooser if event.chooser is not None else -1
        chooses = "you" if chooser == human else short_name(names, chooser, human)  # mid-sentence
        return Text(
            f"Round {event.round_index + 1}: {who} {_verb(seat, human, 'deal')}, "
            f"{chooses} {_verb(chooser, human, 'choose')} trump."
        )
    if event.kind == "trump":
        assert event.suit is not None
        if event.turned is not None:
            return (
                Text(f"{who} {_verb(seat, human, 'turn')} up ")
                .append_text(card_text(event.turned))
                .append(": ")
                .append_text(suit_text(event.suit))
                .append(" are trumps.")
            )
        return Text(f"{who} {_verb(seat, human, 'name')} ").append_text(suit_text(event.suit)).append(" as trump.")
    if event.kind == "exchange":
        if event.sit_out:
            return Text(f"{who} {_verb(seat, human, 'sit')} out.")
        if seat == human:
            if not event.discard:
                return Text("You play, keeping all your cards.")
            return (
                Text("You play: discard ")
                .append_text(cards_text(event.discard))
                .append(", draw ")
                .append_text(cards_text(event.drawn))
                .append(".")
            )
        if not event.count:
            return Text(f"{who} plays, keeping all five cards.")
        return Text(f"{who} plays and exchanges {event.count} card{'s' if event.count != 1 else ''}.")
    if event.kind == "play":
        assert event.card is not None
        return Text(f"{who} {_verb(seat, human, 'play')} ").append_text(card_text(event.card)).append(".")
    if event.kind == "trick":
        assert event.trick is not None
        card = event.trick.cards[event.trick.seats.index(seat)]
        return (
            Text(f"{who} {_verb(seat, human, 'win')} trick {event.trick_number} with ", style="bold")
            .append_text(card_text(card, "bold"))
            .append(".")
        )
    if event.kind == "round":
        return Text(f"Round {event.round_index + 1} is over.", style="bold")
    if event.kind == "match":
        winners = ", ".join(short_name(names, s, human) for s in event.winners)
        return Text(f"The match is over. Winner{'s' if len(event.winners) > 1 else ''}: {winners}.", style="bold")
    return Text(event.kind)


def _labelled(names: Sequence[str], seat: int, human: int | None, width: int) -> str:
    """A seat's name cut to ``width``, "(you)" after the person's own (unless it is "You")."""
    name = names[seat]
    return _cut(name, width) + (" (you)" if seat == human and name.casefold() != "you" else "")


def _row_label(names: Sequence[str], seat: int, human: int, column: int) -> str:
    """A seat's name for a summary's column of ``column`` cells (a space after it), only the
    person's row leaving room for "(you)"."""
    mine = seat == human and names[seat].casefold() != "you"
    return _labelled(names, seat, human, column - 1 - (6 if mine else 0))


def _names_column(names: Sequence[str], human: int) -> int:
    """The cells a summary's column of names would take for its longest name, "(you)" and a
    space after it: at least 22, at most 40."""
    return max(22, min(40, 1 + max(cell_len(_labelled(names, s, human, 40)) for s in range(4))))


def round_over_lines(
    event: Event, names: Sequence[str], human: int, next_dealer: int | None, width: int = WIDTH
) -> list[Text]:
    """The summary shown when a round is scored, in ``width`` columns."""
    title = Text(f"Round {event.round_index + 1} is over · trump ", style="bold")
    if event.suit is not None:
        title.append_text(suit_text(event.suit))
    lines = [*_fold(title, width), Text("")]
    # The columns: 22 cells for the names (more for a long name, as the width allows), then
    # 8, 9 and 8; narrower, 7, 7 and 6.
    tricks, change, score = (8, 9, 8) if width >= 47 else (7, 7, 6)
    name = max(10, min(_names_column(names, human), width - tricks - change - score))
    lines.append(Text(f"{'':<{name}}{'tricks':>{tricks}}{'change':>{change}}{'score':>{score}}", style="bold"))
    for seat in range(4):
        label = _row_label(names, seat, human, name)
        if event.active[seat]:
            row = (
                f"{_ljust(label, name)}{event.tricks_won[seat]:>{tricks}}"
                f"{event.deltas[seat]:>+{change}d}{event.scores[seat]:>{score}}"
            )
        else:
            row = f"{_ljust(label, name)}{'sat out':>{tricks}}{'':>{change}}{event.scores[seat]:>{score}}"
        lines.append(Text(row))
    lines.append(Text(""))
    notes: list[Text] = []
    players = [s for s in range(4) if event.active[s]]
    if not players:
        notes.append(Text("Nobody played: the round is void, no score changes."))
    elif len(players) == 1:
        notes.append(Text(f"{short_name(names, players[0], human)} played alone and took all 5 tricks."))
    sat = [short_name(names, s, human) for s in range(4) if not event.active[s]]
    if sat:
        notes.append(Text(f"Sat out: {', '.join(sat)}."))
    if event.multiplier != 1 and event.suit is not None:
        notes.append(Text(f"{event.suit.title} were trumps: every change counted x{event.multiplier}."))
    if next_dealer is not None:
        who = "you" if next_dealer == human else short_name(names, next_dealer, human)
        notes.append(Text(f"Next: round {event.round_index + 2}, {who} {_verb(next_dealer, human, 'deal')}."))
    return lines + [line for note in notes for line in _fold(note, width, 2)]


def match_over_lines(event: Event, names: Sequence[str], human: int, rounds: int, width: int = WIDTH) -> list[Text]:
    """The end of the match, in ``width`` columns: the winners, then the final scores and riscos."""
    winners = ", ".join(_labelled(names, s, human, 40) for s in event.winners)
    plural = "s" if len(event.winners) > 1 else ""
    lines = [
        *_fold(Text(f"The match is over after {rounds} round{'s' if rounds != 1 else ''}.", style="bold"), width),
        *_fold(Text(f"Winner{plural}: {winners}", style="bold"), width, 2),
    ]
    if human in event.winners:
        lines.append(Text("Well played: you won!", style="bold"))
    lines.append(Text(""))
    # The columns: up to 22 cells for the names, then 12 and 9; below 31 columns, 7 and 9;
    # wider when a number needs it (a resumed record may hold scores of a billion).
    shown = [risco_text(value) for value in event.riscos]
    score, riscos, title = (12, 9, "final score") if width >= 31 else (7, 9, "final")
    score = max(score, 1 + max(len(str(value)) for value in event.scores))
    riscos = max(riscos, 1 + max(len(text) for text in shown))
    name = max(6, min(_names_column(names, human), width - score - riscos))
    lines.append(Text(f"{'':<{name}}{title:>{score}}{'riscos':>{riscos}}", style="bold"))
    for seat in range(4):
        label = _row_label(names, seat, human, name)
        lines.append(Text(f"{_ljust(label, name)}{event.scores[seat]:>{score}}{shown[seat]:>{riscos}}"))
    return lines


# -- pages ----------------------------------------------------------------------------------


def _wrap(text: str, width: int = WIDTH, first: str = "• ", rest: str = "  ") -> list[str]:
    return textwrap.wrap(text, max(10, width - 2), initial_indent=first, subsequent_indent=rest)


_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def rules_lines(rules: Rules, width: int = WIDTH) -> list[Text]:
    """The rules of ``rules``, generated from its settings: at 80 columns in at most 22 lines."""
    bullets = [
        f"Play goes {rules.direction}: seats act in turn 0, 1, 2, 3; the deal passes to the next "
        f"seat. Start at {rules.start_score} points; a round that leaves a score at "
        f"{rules.target_score} or below ends the match, and those players win.",
        "40 cards (no 8, 9, 10); in each suit A 7 K J Q 6 5 4 3 2, high to low.",
        "The seat after the dealer sees 3 cards and names trump"
        + (
            ", or turns up the deck's 13th card, the first of their next two (its suit is trump; it stays in their hand)"
            if rules.turn_up_allowed
            else ""
        )
        + ". Everyone then gets 5 cards.",
    ]
    if rules.min_discard == rules.max_discard:
        swap = f"exactly {rules.min_discard}"
    else:
        swap = f"{rules.min_discard} to {rules.max_discard}"
    bullets.append(
        f"From the chooser on, each sits out (scores nothing) or plays, discarding {swap} cards and drawing as many."
    )
    musts = []
    if rules.all_play_suit is not None:
        musts.append(f"when {rules.all_play_suit.title} are trumps")
    n = rules.max_sit_outs_in_row
    if n == 0:
        musts.append("always (these rules allow no sitting out)")
    elif n == 1:
        musts.append("after sitting out a round")
    else:
        musts.append(f"after sitting out {_WORDS[n] if n < len(_WORDS) else n} rounds in a row")
    if rules.chooser_must_play:
        musts.append("the chooser")
    if rules.must_play_at_or_below is not None:
        musts.append(f"anyone with {rules.must_play_at_or_below} points or less")
    bullets.append("Must play: " + "; ".join(musts) + ".")
    if rules.must_lead_trump_ace:
        bullets.append("Leading: whoever holds the Ace of trumps must lead it; else lead anything.")
    if rules.must_beat_following:
        follow = "Following: follow suit, beating the winning card when you can."
    else:
        follow = "Following: follow suit (no need to beat)."
    if rules.must_undertrump:
        follow += " Void: play a trump, overtrumping when you can, else undertrumping; no trump: anything."
    else:
        follow += " Void: play a trump that beats the winning card if you have one; otherwise anything."
    bullets.append(follow)
    bullets.append("The highest trump wins the trick, else the highest card of the suit led; the winner leads next.")
    score = f"Scoring: each trick won -1; no trick +{rules.no_trick_penalty}"
    if rules.doubled_suit is not None:
        score += f"; {rules.doubled_suit.title} trumps count x{rules.doubled_multiplier}"
    score += ". A lone player takes all 5 tricks."
    bullets.append(score)
    bullets.append("Riscos at the end: each loser loses their final score; the winners share the total.")
    lines = [Text(f"Rules: {rules.name}", style="bold")]
    for bullet in bullets:
        lines.extend(Text(line) for line in _wrap(bullet, width))
    return lines


def _entries(entries: Sequence[tuple[str, str]], indent: int, width: int) -> list[Text]:
    """``label  text`` lines, the texts in a column ``indent`` cells in, wrapped under it; in
    too narrow a window each label on a line of its own."""
    lines: list[Text] = []
    for label, text in entries:
        if width - indent >= 24:
            lines.extend(_fold(Text(f"  {label}".ljust(indent) + text), width, indent))
        else:
            if label:
                lines.append(Text(f"  {label}"))
            lines.extend(_fold(Text("    " + text), width, 4))
    return lines


def help_lines(phase: Phase | None = None, rules: Rules | None = None, width: int = WIDTH) -> list[Text]:
    """How to answer, under ``rules`` (every answer any rule set takes when not given)."""
    turn = rules is None or rules.turn_up_allowed
    keep = rules is None or rules.min_discard == 0
    if rules is None:
        span = "the cards to discard"
    elif rules.min_discard == rules.max_discard:
        span = f"exactly {rules.min_discard} cards to discard"
    else:
        span = f"{rules.min_discard} to {rules.max_discard} cards to discard"
    answers = [
        ("Cards:", "rank then suit, e.g. 7h, KS, q♦ — or the card's number in your hand."),
        ("Ranks:", "A 7 K J Q 6 5 4 3 2, high to low."),
        ("Suits:", "S ♠  H ♥  D ♦  C ♣"),
        ("Trump:", "S, H, D, C (or spades, hearts…)" + (", or 'turn' to turn up your card." if turn else ".")),
        (
            "Exchange:",
            f"{span} ('2c 5h' or '1 4')"
            + (", 'keep' or 0 for none," if keep else ",")
            + " or 'sit' to sit out the round.",
        ),
        (
            "Play:",
            "one card ('7h' or '3'). Legal cards are marked * in your hand; "
            "a forced card is played for you, with the reason.",
        ),
    ]
    commands = [
        ("hint", "when you decide: what the strong bot would do, with expected points"),
        ("hint all", "every option the bot weighed, not only the best few"),
        ("rules", "the rules of this table (at any prompt)"),
        ("history", "the tricks of this round (at any prompt)"),
        ("help", "this page (at any prompt)"),
        ("quit", "leave, saving with --save (at any prompt; Ctrl-D and Ctrl-C too)"),
        ("Enter", "at a page: back to the table; an answer typed there is taken too"),
        ("← → ↑ ↓", "edit a line: Home, End, Backspace, Delete; ↑ ↓ your earlier answers"),
    ]
    return [
        Text("How to answer", style="bold"),
        *_entries(answers, 13, width),
        Text(""),
        Text("Commands", style="bold"),
        *_entries(commands, 12, width),
    ]


def history_lines(view: SeatView, names: Sequence[str], width: int = WIDTH) -> list[Text]:
    """The tricks of the round so far, one line each (at 80 columns they fit the notice area)."""
    tricks = [t for t in view.tricks if t.cards]
    if not tricks:
        return _fold(Text("No trick has been played yet this round."), width)
    entries = [Text(f"Tricks of round {view.round_index + 1}:", style="bold")]
    for number, trick in enumerate(view.tricks, start=1):
        if not trick.cards:
            continue
        line = Text(f"{number}. ")
        for i, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            line.append("  " if i else "").append(short_name(names, seat, view.seat) + " ").append_text(card_text(card))
        if trick.winner is not None:
            line.append(f"  → {short_name(names, trick.winner, view.seat)}")
        entries.append(line)
    return [line for entry in entries[-LOG_LINES:] for line in _fold(entry, width, 3)]


def _beyond_the_option(action: Action, note: str) -> str:
    """A bot's ``note`` less what the option beside it already says: the strong bot's
    ``discard 4`` after ``discard 2♠ J♥ J♦ 5♦`` read as a second option (``discard 4;
    -0.46 against the others``), and its ``sit out: the score stays`` says ``sit out`` twice."""
    if isinstance(action, Exchange):
        said = f"discard {len(action.discard)}"
    elif isinstance(action, SitOut):
        said = "sit out"
    else:
        return note
    head, colon, rest = note.partition(": ")
    if note == said:
        return ""
    return rest if colon and head == said else note


def hint_words(option: Any) -> str | None:
    """An option's tricks and risk of none in a player's words ("about 1.6 tricks, 8% risk of
    taking none"), or ``None`` when the bot does not tell them (and for sitting out)."""
    tricks, none = option.tricks, option.no_trick
    if tricks is None or none is None:
        return None
    if none >= 0.995:
        return "no trick, almost surely"
    words = "about 1 trick" if abs(tricks - 1) < 0.05 else f"about {tricks:.1f} tricks"
    return words if none < 0.005 else f"{words}, {none:.0%} risk of none"


def hint_lines(options: Sequence[Any], bot_name: str | None, width: int = WIDTH, *, every: bool = False) -> list[Text]:
    """The bot's options, best first, with the expected change of your score: the best few,
    as fit under the hand, and how many more (``hint all`` lists them); ``every``: all of them."""
    header = Text(f"Hint from the {bot_name or 'strong'} bot", style="bold")
    deltas = [option.expected_delta for option in options]
    if all(a <= b for a, b in itertools.pairwise(deltas)):
        header.append(" — expected change of your score (lower is better):")
    else:
        # The bot ranks by something else than the figure shown first (the strong bot: your
        # change against the others', each option's ranking): "lower is better" over a list
        # that is not in that order would make its best option look worse than the next.
        header.append(" — your expected change, best first against the others:")
    lines = _fold(header, width, 2)
    shown = list(options)[: LOG_LINES - 2] if len(options) > LOG_LINES - 1 and not every else list(options)
    # The figures in a column after the longest option (at most 28 cells in).
    column = min(28, 2 + max((action_text(option.action).cell_len + 2 for option in shown), default=0))
    folded = []
    for option in shown:
        line = Text("  ").append_text(action_text(option.action))
        pad = max(1, column - line.cell_len)
        line.append(" " * pad).append(f"{option.expected_delta:+.2f}")
        # In words, the bot's note, and the figure it ranks by ("about 1.6 tricks; the score
        # stays; +1.72 against the others").
        ranking = None if option.ranking is None else ranking_note(option.ranking)
        parts = (hint_words(option), _beyond_the_option(option.action, option.note), ranking)
        note = "; ".join(part for part in parts if part)
        if note:
            line.append("   " + note, style="dim")
        folded.append(_fold(line, width, 4))
    if not every:
        # As many options as fit the notice area under the hand (LOG_LINES + 2 lines, with the
        # line that says how many more): a note that wraps takes two.
        while len(folded) > 1 and len(lines) + sum(map(len, folded)) + (len(folded) < len(options)) > LOG_LINES + 2:
            folded.pop()
        shown = shown[: len(folded)]
    for option_lines in folded:
        lines.extend(option_lines)
    if len(shown) < len(options):
        more = Text(f"  … and {len(options) - len(shown)} more: 'hint all' lists them all", style="dim")
        lines.extend(_fold(more, width, 4))
    if not options:
        lines.append(Text("  (no options to show)"))
    return lines
