"""Drawing the table for a terminal: pure functions from a seat's view to lines of rich text.

Everything drawn comes from one :class:`~sobedesce.core.SeatView` (and public events), so no
hidden card can reach the screen.  Every screen fits an 80x24 terminal: the functions return
at most 22 lines of at most 80 cells, leaving a line for the prompt and one for the answer.
Colour is only a help: without it, legal cards carry a ``*`` and suits their symbols.
"""

from __future__ import annotations

import functools
import io
import itertools
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

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
    sorted_cards,
)
from sobedesce.table import Event

__all__ = [
    "LOG_LINES",
    "MAX_LINES",
    "WIDTH",
    "action_text",
    "card_text",
    "cards_text",
    "describe_event",
    "help_lines",
    "hint_lines",
    "history_lines",
    "match_over_lines",
    "print_lines",
    "printable",
    "round_over_lines",
    "rules_lines",
    "seat_positions",
    "short_name",
    "suit_text",
    "table_lines",
]

WIDTH = 80
MAX_LINES = 22
"""Lines a screen may use above the prompt (24 rows: the prompt and the typed answer)."""
LOG_LINES = 6
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
    return text if len(text) <= width else text[: width - 1] + "…"


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


@functools.cache
def _measuring_console() -> Console:
    return Console(file=io.StringIO(), width=WIDTH)


def _fold(text: Text | str, width: int = WIDTH) -> list[Text]:
    """``text`` wrapped at spaces into lines of at most ``width`` cells: nothing is cut."""
    text = Text(text) if isinstance(text, str) else text
    if text.cell_len <= width:
        return [text]
    lines = list(text.wrap(_measuring_console(), width, overflow="fold"))
    for line in lines:
        line.rstrip()
    return lines


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
    for line in lines:
        console.print(line, overflow="crop", no_wrap=True, crop=True, highlight=False, markup=False, emoji=False)


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


def _seat_block(view: SeatView, names: Sequence[str], seat: int) -> tuple[Text, Text, Text]:
    to_act = view.to_act == seat and view.phase in (Phase.TRUMP, Phase.EXCHANGE, Phase.PLAY)
    name = Text("▶ " if to_act else "", style="bold")
    label = _labelled(names, seat, view.seat, 14)
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
        return Text(f"{who}: play or sit out?")
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


def table_lines(
    view: SeatView,
    names: Sequence[str],
    *,
    log: Sequence[Text | str] = (),
    notice: Sequence[Text | str] = (),
    guidance: Text | str | None = None,
    message: Text | str | None = None,
) -> list[Text]:
    """The whole screen above the prompt: header, the four seats around the trick, the
    person's hand, a guidance line, then ``notice`` (a hint, the history…) or the latest
    ``log`` lines, then ``message`` (e.g. why an input was refused).  The guidance and the
    message are wrapped, never cut: when they take more lines, fewer log lines show."""
    lines = _header_lines(view, names)
    lines.append(Text("─" * WIDTH, style="dim"))
    lines.extend(_table_area(view, names))
    lines.append(Text("─" * WIDTH, style="dim"))
    lines.append(_fit(_hand_line(view)))
    if guidance is None:
        guidance = default_guidance(view, names)
    said = _fold(guidance)
    if isinstance(message, str):
        message = Text(message, style="bold")
    said_after = _fold(message) if message else []
    rows = max(0, min(LOG_LINES, MAX_LINES - len(lines) - len(said) - len(said_after)))
    lines.extend(said)
    area = list(notice)[:rows] if notice else list(log)[max(0, len(log) - rows) :]
    for entry in area:
        lines.append(_fit(Text(entry) if isinstance(entry, str) else entry))
    for _ in range(rows - len(area)):
        lines.append(Text(""))
    lines.extend(said_after)
    return lines


def _header_lines(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The rule set, the round and the direction of play; then trump, the stock and the dealer."""
    rules = view.rules
    arrow = "↺" if rules.direction == "counter-clockwise" else "↻"
    header = Text("Sobe e Desce", style="bold")
    header.append(f" · {rules.name} rules")
    if view.round_index >= 0:
        header.append(f" · round {view.round_index + 1}")
    header.append(f" · play goes {rules.direction} {arrow}")
    second = Text("Trump ")
    if view.trump is None:
        second.append("not chosen yet", style="dim")
    else:
        second.append_text(suit_text(view.trump))
        if view.turned_card is not None:
            second.append(" (turned up ").append_text(card_text(view.turned_card)).append(")")
        multiplier = rules.multiplier(view.trump)
        if multiplier != 1:
            second.append(f" · points x{multiplier}", style="bold")
    if view.round_index >= 0:
        second.append(f" · stock {view.stock_count}")
    if view.dealer is not None:
        second.append(f" · dealer {short_name(names, view.dealer, view.seat)}")
    return [_fit(header), _fit(second)]


def _table_area(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The three other seats around the cards on the table, the caption, and the person's seat."""
    human = view.seat
    where = seat_positions(view.rules, human)
    top = _seat_block(view, names, where["top"])
    left = _seat_block(view, names, where["left"])
    right = _seat_block(view, names, where["right"])
    trick = shown_trick(view)
    played: dict[int, Text] = {}
    if trick is not None:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            style = "bold reverse" if trick.winner == seat else "bold"
            played[seat] = Text("[").append_text(card_text(card, style)).append("]")

    def on_table(seat: int) -> Text:
        return played.get(seat, Text(""))

    you = _seat_block(view, names, human)
    bottom = you[0].copy().append(" · ").append_text(you[1])
    if you[2].plain:
        bottom.append(" · ").append_text(you[2])
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


def default_guidance(view: SeatView, names: Sequence[str]) -> Text:
    """The line under the hand: the legal cards, or what is awaited."""
    if view.is_my_turn and view.phase == Phase.PLAY:
        legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
        return Text("* legal: ").append_text(cards_text(legal)).append("  — type a card (e.g. 7h) or its number")
    if view.is_my_turn and view.phase == Phase.TRUMP:
        text = Text("Your 3 cards: name trump ")
        for i, suit in enumerate(Suit):
            text.append(", " if i else "").append(suit.letter + " ").append_text(Text(suit.symbol, _SUIT_STYLE[suit]))
        if view.rules.turn_up_allowed:
            text.append(", or turn up your next card")
        return text
    if view.to_act is not None and not view.is_my_turn:
        return Text(f"Waiting for {short_name(names, view.to_act, view.seat)}…", style="dim")
    return Text("")


# -- events -------------------------------------------------------------------------------


def describe_event(event: Event, names: Sequence[str], human: int) -> Text:
    """One log line for an event."""
    seat = event.seat if event.seat is not None else -1
    who = short_name(names, seat, human) if seat >= 0 else ""
    if event.kind == "deal":
        chooser = event.chooser if event.chooser is not None else -1
        return Text(
            f"Round {event.round_index + 1}: {who} {_verb(seat, human, 'deal')}, "
            f"{short_name(names, chooser, human)} {_verb(chooser, human, 'choose')} trump."
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


def round_over_lines(event: Event, names: Sequence[str], human: int, next_dealer: int | None) -> list[Text]:
    """The summary shown when a round is scored."""
    lines = [Text(f"Round {event.round_index + 1} is over · trump ", style="bold")]
    if event.suit is not None:
        lines[0].append_text(suit_text(event.suit))
    lines.append(Text(""))
    lines.append(Text(f"{'':<22}{'tricks':>8}{'change':>9}{'score':>8}", style="bold"))
    for seat in range(4):
        label = _labelled(names, seat, human, 15)
        if event.active[seat]:
            row = f"{label:<22}{event.tricks_won[seat]:>8}{event.deltas[seat]:>+9d}{event.scores[seat]:>8}"
        else:
            row = f"{label:<22}{'sat out':>8}{'':>9}{event.scores[seat]:>8}"
        lines.append(Text(row))
    lines.append(Text(""))
    players = [s for s in range(4) if event.active[s]]
    if not players:
        lines.append(Text("Nobody played: the round is void, no score changes."))
    elif len(players) == 1:
        lines.append(Text(f"{short_name(names, players[0], human)} played alone and took all 5 tricks."))
    sat = [short_name(names, s, human) for s in range(4) if not event.active[s]]
    if sat:
        lines.append(Text(f"Sat out: {', '.join(sat)}."))
    if event.multiplier != 1 and event.suit is not None:
        lines.append(Text(f"{event.suit.title} were trumps: every change counted x{event.multiplier}."))
    if next_dealer is not None:
        who = "you" if next_dealer == human else short_name(names, next_dealer, human)
        lines.append(Text(f"Next: round {event.round_index + 2}, {who} {_verb(next_dealer, human, 'deal')}."))
    return lines


def match_over_lines(event: Event, names: Sequence[str], human: int, rounds: int) -> list[Text]:
    winners = ", ".join(_labelled(names, s, human, 20) for s in event.winners)
    plural = "s" if len(event.winners) > 1 else ""
    lines = [
        Text(f"The match is over after {rounds} round{'s' if rounds != 1 else ''}.", style="bold"),
        Text(""),
        Text(f"Winner{plural}: {winners}", style="bold"),
        Text(""),
        Text(f"{'':<22}{'final score':>12}{'riscos':>9}", style="bold"),
    ]
    for seat in range(4):
        label = _labelled(names, seat, human, 15)
        lines.append(Text(f"{label:<22}{event.scores[seat]:>12}{event.riscos[seat]:>+9g}"))
    lines.append(Text(""))
    if human in event.winners:
        lines.append(Text("Well played: you won!", style="bold"))
    return lines


# -- pages ----------------------------------------------------------------------------------


def _wrap(text: str, first: str = "• ", rest: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH - 2, initial_indent=first, subsequent_indent=rest)


_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def rules_lines(rules: Rules) -> list[Text]:
    """The rules of ``rules``, generated from its settings, in at most 22 lines."""
    bullets = [
        f"Play goes {rules.direction}: seats act in turn 0, 1, 2, 3; the deal passes to the next "
        f"seat. Start at {rules.start_score} points; a round that leaves a score at "
        f"{rules.target_score} or below ends the match, and those players win.",
        "40 cards (no 8, 9, 10); in each suit A 7 K J Q 6 5 4 3 2, high to low.",
        "The seat after the dealer sees 3 cards and names trump"
        + (", or turns up their 13th card (its suit is trump; it stays in their hand)" if rules.turn_up_allowed else "")
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
        lines.extend(Text(line) for line in _wrap(bullet))
    return lines


def help_lines(phase: Phase | None = None, rules: Rules | None = None) -> list[Text]:
    """How to answer, under ``rules`` (every answer any rule set takes when not given)."""
    turn = rules is None or rules.turn_up_allowed
    keep = rules is None or rules.min_discard == 0
    if rules is None:
        span = "the cards to discard"
    elif rules.min_discard == rules.max_discard:
        span = f"exactly {rules.min_discard} cards to discard"
    else:
        span = f"{rules.min_discard} to {rules.max_discard} cards to discard"
    trump = "  Trump:     S, H, D, C (or spades, hearts…)" + (", or 'turn' to turn up your card." if turn else ".")
    exchange = f"  Exchange:  {span} ('2c 5h' or '1 4')" + (", 'keep' or 0 for none," if keep else ",")
    lines = [
        Text("How to answer", style="bold"),
        Text("  Cards: rank then suit, e.g. 7h, KS, q♦ — or the card's number in your hand."),
        Text("  Ranks, high to low: A 7 K J Q 6 5 4 3 2.  Suits: S ♠  H ♥  D ♦  C ♣"),
        Text(trump),
        Text(exchange),
        Text("             or 'sit' to sit out the round."),
        Text("  Play:      one card ('7h' or '3'). Legal cards are marked * in your hand;"),
        Text("             a forced card is played for you, with the reason."),
        Text(""),
        Text("Commands", style="bold"),
        Text("  hint      when you decide: what the strong bot would do, with expected points"),
        Text("  rules     the rules of this table (at any prompt)"),
        Text("  history   the tricks of this round (at any prompt)"),
        Text("  help      this page (at any prompt)"),
        Text("  quit      leave, saving with --save (at any prompt; Ctrl-D and Ctrl-C too)"),
    ]
    return lines


def history_lines(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The tricks of the round so far, one line each (fits the notice area)."""
    tricks = [t for t in view.tricks if t.cards]
    if not tricks:
        return [Text("No trick has been played yet this round.")]
    lines = [Text(f"Tricks of round {view.round_index + 1}:", style="bold")]
    for number, trick in enumerate(view.tricks, start=1):
        if not trick.cards:
            continue
        line = Text(f"{number}. ")
        for i, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
            line.append("  " if i else "").append(short_name(names, seat, view.seat) + " ").append_text(card_text(card))
        if trick.winner is not None:
            line.append(f"  → {short_name(names, trick.winner, view.seat)}")
        lines.append(line)
    return lines[-LOG_LINES:]


def hint_lines(options: Sequence[Any], bot_name: str | None) -> list[Text]:
    """The bot's options, best first, with the expected change of your score."""
    header = Text(f"Hint from the {bot_name or 'strong'} bot", style="bold")
    deltas = [option.expected_delta for option in options]
    if all(a <= b for a, b in itertools.pairwise(deltas)):
        header.append(" — expected change of your score (lower is better):")
    else:
        # The bot ranks by something else than the figure shown first (the strong bot: your
        # change against the others', in each option's note): "lower is better" over a list
        # that is not in that order would make its best option look worse than the next.
        header.append(" — your expected change, best first against the others:")
    lines = [_fit(header)]
    shown = list(options)[: LOG_LINES - 2] if len(options) > LOG_LINES - 1 else list(options)
    for option in shown:
        line = Text("  ").append_text(action_text(option.action))
        pad = max(1, 28 - line.cell_len)
        line.append(" " * pad).append(f"{option.expected_delta:+.2f}")
        if option.note:
            line.append("   " + option.note, style="dim")
        lines.append(_fit(line))
    if len(shown) < len(options):
        lines.append(Text(f"  … and {len(options) - len(shown)} more", style="dim"))
    if not options:
        lines.append(Text("  (no options to show)"))
    return lines
