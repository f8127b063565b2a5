"""Plain-text descriptions of matches and rounds, shared by ``demo`` and ``replay``."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from sobedesce.core import Exchange, Match, Phase, Round, format_cards, risco_text


def _tricks(count: int) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


# A record's player names are printed with their control characters (escape sequences,
# newlines…) replaced, as at the terminal table (sobedesce.terminal.render.printable).
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


# Names that would take "play", not "plays": the terminal's own "You" above all.
_PRONOUNS = frozenset({"you", "i", "we", "they"})


def seat_name(match: Match, seat: int) -> str:
    """``Ana (seat 0)``; ``seat 0 (You)`` for a name that is a pronoun, so that the verb after
    it (``plays``, ``sits out``) agrees with "seat 0"."""
    if match.players is not None:
        name = _UNPRINTABLE.sub(chr(0xFFFD), match.players[seat])
        if " ".join(name.split()).casefold() in _PRONOUNS:
            return f"seat {seat} ({name})"
        return f"{name} (seat {seat})"
    return f"seat {seat}"


def describe_round(match: Match, number: int, current: Round) -> list[str]:
    """The story of one round: trump, who plays, exchanges, tricks, score changes."""
    lines = [f"Round {number}: dealer {seat_name(match, current.dealer)}, chooser {seat_name(match, current.chooser)}"]
    trump = current.trump
    if trump is None:
        lines.append("  waiting for the chooser to choose trump")
        return lines
    how = f"turned up {current.turned_card}" if current.turned else "named"
    lines.append(f"  trump {trump.symbol} {trump.title} ({how})")
    for index, action in enumerate(current.exchanges):
        seat = current.exchange_seat(index)
        if not isinstance(action, Exchange):
            lines.append(f"  {seat_name(match, seat)} sits out")
        else:
            count = current.discards[seat]
            detail = f"exchanges {count}: {format_cards(action.discard)}" if count else "keeps all five cards"
            lines.append(f"  {seat_name(match, seat)} plays, {detail}")
    if current.phase == Phase.EXCHANGE and current.to_act is not None:
        lines.append(f"  waiting for {seat_name(match, current.to_act)} to play or sit out")
        return lines
    if current.n_active == 0:
        lines.append("  nobody plays: the round is void")
    elif current.n_active == 1:
        lone = current.active.index(True)
        lines.append(f"  {seat_name(match, lone)} plays alone and takes all 5 tricks")
    for index, trick in enumerate(current.tricks):
        if not trick:
            continue
        leader = current.leaders[index]
        complete = len(trick) == current.n_active
        winner = current.trick_winner(index)
        tail = f" -> {seat_name(match, winner)}" if complete and winner is not None else ""
        lines.append(f"  trick {index + 1}: {format_cards(trick)} (led by seat {leader}){tail}")
    if current.deltas is not None:
        changes = ", ".join(
            f"{seat_name(match, s)} {'sat out' if not current.active[s] else f'{_tricks(current.tricks_won[s])} {current.deltas[s]:+d}'}"
            for s in range(4)
        )
        lines.append(f"  result: {changes}")
        after = [current.scores[s] + current.deltas[s] for s in range(4)]
        lines.append(f"  scores: {' '.join(f'{v:>3}' for v in after)}")
    return lines


def _setting(value: object) -> str:
    """A setting's value as a record writes it (true, null, 2, "C")."""
    return json.dumps(value)


def describe_summary(match: Match, result: Mapping[str, object]) -> str:
    rules = match.rules
    changed = rules.overrides()
    # A variant names what it changes from its preset ("table+custom" alone said nothing).
    settings = f" ({', '.join(f'{key}={_setting(value)}' for key, value in changed.items())})" if changed else ""
    lines = [f"Rules: {rules.name}{settings}"]
    for number, current in enumerate(match.rounds, start=1):
        lines.extend(describe_round(match, number, current))
    lines.append(f"Scores: {' '.join(str(s) for s in match.scores)}")
    if match.is_over:
        riscos = match.riscos() or []
        lines.append(
            "Winner"
            + ("s" if len(match.winners) > 1 else "")
            + ": "
            + ", ".join(seat_name(match, s) for s in match.winners)
        )
        lines.append("Riscos: " + " ".join(risco_text(r) for r in riscos))
    else:
        step = result.get("next")
        if isinstance(step, Mapping):
            if step["phase"] == "deal":
                who = "drawn at random" if step["seat"] is None else f"seat {step['seat']}"
                lines.append(f"Next: a new round is due, dealer {who}")
            else:
                who = seat_name(match, int(step["seat"]))
                legal = step["legal"]
                if step["phase"] == "trump":
                    lines.append(f"Next: {who} chooses trump: {' '.join(legal)}")
                elif step["phase"] == "exchange":
                    sit = "may sit out" if legal["may_sit_out"] else "must play"
                    lines.append(
                        f"Next: {who} decides: {sit}; to play, discards {legal['min_discard']} to {legal['max_discard']}"
                    )
                else:
                    lines.append(f"Next: {who} plays; legal cards: {' '.join(legal)}")
    return "\n".join(lines)
