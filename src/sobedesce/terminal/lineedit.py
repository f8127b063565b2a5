"""Editing the line being typed at a terminal: the keys in, what to write to the screen out.

The terminal's own (canonical) line editing has Backspace, Ctrl-U and Ctrl-W, but an arrow key
put ``^[[D`` into the answer.  :class:`LineEditor` is the editing of a terminal in
non-canonical mode (see :class:`~sobedesce.terminal.app.LineReader`): Left/Right, Home/End
(and Ctrl-A/E/B/F), Backspace and Delete at the cursor, Ctrl-U/K/W, and Up/Down (Ctrl-P/N) for
the earlier answers of the session.  It does no I/O: :meth:`LineEditor.begin` and
:meth:`LineEditor.feed` return the text to write, escape sequences included.

The prompt is written by the editor too, from the start of a line: knowing where it ends, the
editor follows a line that wraps at the window's edge (wide characters included), moving the
cursor only relatively, so that the table above the prompt is never touched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.cells import get_character_cell_size

__all__ = ["LineEditor"]

_CSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O[@-~])")
"""A whole escape sequence of a key: ``ESC [ params final`` or ``ESC O final``."""
_PARTIAL = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|O)?\Z")
"""The start of one, cut at the end of what was read so far: the rest is still to come."""
_FINAL_KEYS = {"A": "up", "B": "down", "C": "right", "D": "left", "H": "home", "F": "end"}
_TILDE_KEYS = {"1": "home", "7": "home", "4": "end", "8": "end", "3": "delete"}
_CONTROL_KEYS = {
    "\r": "enter",
    "\n": "enter",
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x04": "eof",
    "\x01": "home",
    "\x05": "end",
    "\x02": "left",
    "\x06": "right",
    "\x10": "up",
    "\x0e": "down",
    "\x15": "kill-before",
    "\x0b": "kill-after",
    "\x17": "kill-word",
}


def _key_of(sequence: str) -> str | None:
    """The key an escape sequence stands for (modifiers ignored: Ctrl-Left is Left), or
    ``None`` for one that edits nothing (a function key)."""
    final = sequence[-1]
    params = sequence[2:-1]
    if final == "~":
        return _TILDE_KEYS.get(params.split(";")[0])
    return _FINAL_KEYS.get(final)


def _width(char: str) -> int:
    return get_character_cell_size(char)


class LineEditor:
    """One line being edited, and the answers entered before it (``history``, oldest first:
    the reader appends each line entered).

    Positions on the screen are (row, column) from the start of the prompt's line; the cursor
    is never left past the last column (where a terminal would wrap only at the next
    character): it is taken to the next row's start, so that every move is from a known cell.
    """

    def __init__(self, history: list[str] | None = None) -> None:
        self.history: list[str] = history if history is not None else []
        self.text = ""
        self.cursor = 0
        self.prompt = ""
        self.width = 80
        self._at = (0, 0)  # where the terminal's cursor is
        self._recalled = 0  # the history entry shown: len(history) for the line being typed
        self._draft = ""  # what was typed before Up showed an earlier answer

    # -- the screen ---------------------------------------------------------------------

    def _layout(self, text: str) -> tuple[list[tuple[int, int]], bool]:
        """Where each character of ``text`` after the prompt starts, then where the next one
        would (the end); a character too wide for what is left of a row goes on the next.  And
        whether the whole ends exactly at the last column: the terminal's cursor then stays on
        that row until the next character."""
        row = col = 0
        spots: list[tuple[int, int]] = []
        for index, char in enumerate(self.prompt + text):
            width = _width(char)
            if col + width > self.width:
                row, col = row + 1, 0
            if index >= len(self.prompt):
                spots.append((row, col))
            col += width
        at_edge = col >= self.width
        spots.append((row + 1, 0) if at_edge else (row, col))
        return spots, at_edge

    def _move(self, to: tuple[int, int]) -> str:
        (row, col), (to_row, to_col) = self._at, to
        moves = ""
        if to_row < row:
            moves += f"\x1b[{row - to_row}A"
        elif to_row > row:
            moves += f"\x1b[{to_row - row}B"
        if to_col > col:
            moves += f"\x1b[{to_col - col}C"
        elif to_col < col:
            moves += f"\x1b[{col - to_col}D"
        self._at = to
        return moves

    def _written(self, spots: Sequence[tuple[int, int]], at_edge: bool) -> str:
        """After writing to the end: the cursor is at ``spots[-1]``; where the text ends at
        the last column, a space and a carriage return take it there (the space is wiped by the
        next redraw)."""
        self._at = spots[-1]
        return " \r" if at_edge else ""

    def _redraw(self, start: int) -> str:
        """Write the text from ``start`` on again (what comes before it is unchanged), then put
        the cursor back where it belongs."""
        spots, at_edge = self._layout(self.text)
        out = self._move(spots[start]) + "\x1b[J" + self.text[start:]
        out += self._written(spots, at_edge)
        return out + self._move(spots[self.cursor])

    def begin(self, prompt: str, width: int) -> str:
        """Start a line: the prompt (written from the start of a line, in a window ``width``
        columns wide) and what was being typed, if anything was kept."""
        self.prompt = "".join(char for char in prompt if _width(char) > 0 or char == " ")
        self.width = max(2, width)
        spots, at_edge = self._layout(self.text)
        out = self.prompt + self.text + self._written(spots, at_edge)
        return out + self._move(spots[self.cursor])

    def finish(self) -> str:
        """The cursor after the end of the line (to leave it, or after Ctrl-C)."""
        return self._move(self._layout(self.text)[0][-1])

    def reset(self) -> None:
        """Forget the line being typed (not the history)."""
        self.text, self.cursor, self._draft = "", 0, ""
        self._recalled = len(self.history)

    # -- the keys -----------------------------------------------------------------------

    def feed(self, keys: str) -> tuple[str, str | None, str]:
        """Take ``keys`` as typed: returns what to write, the line when Enter was pressed
        (``None`` before; ``"\\x04"`` alone for Ctrl-D on an empty line: the end of input),
        and the keys not taken yet (after Enter, or a sequence cut short)."""
        out = ""
        index = 0
        while index < len(keys):
            char = keys[index]
            if char == "\x1b":
                whole = _CSI.match(keys, index)
                if whole is None:
                    if _PARTIAL.match(keys, index):
                        return out, None, keys[index:]  # the rest of the sequence is to come
                    index += 1  # Esc alone (or Alt and a key): the key is taken by itself
                    continue
                index = whole.end()
                key = _key_of(whole.group())
            else:
                index += 1
                key = _CONTROL_KEYS.get(char)
                if key is None:
                    if char >= " " and _width(char) > 0:
                        out += self._insert(char)
                    continue
            if key is None:
                continue
            if key == "enter":
                line = self.text
                out += self.finish() + "\r\n"
                if line.strip() and (not self.history or self.history[-1] != line):
                    self.history.append(line)
                self.reset()
                return out, line, keys[index:]
            if key == "eof" and not self.text:
                return out, "\x04", keys[index:]
            out += self._edit(key)
        return out, None, ""

    def _insert(self, char: str) -> str:
        at_end = self.cursor == len(self.text)
        self.text = self.text[: self.cursor] + char + self.text[self.cursor :]
        self.cursor += 1
        if at_end:  # typed at the end, as mostly: written as it is
            return char + self._written(*self._layout(self.text))
        return self._redraw(self.cursor - 1)

    def _edit(self, key: str) -> str:
        text, cursor = self.text, self.cursor
        if key in ("backspace", "kill-before", "kill-word"):
            if key == "backspace":
                start = max(0, cursor - 1)
            elif key == "kill-before":
                start = 0
            else:  # the word before the cursor, and the spaces after it
                start = text[:cursor].rstrip(" ").rfind(" ") + 1
            self.text, self.cursor = text[:start] + text[cursor:], start
            return self._redraw(start) if start < cursor else ""
        if key in ("delete", "eof", "kill-after"):
            end = len(text) if key == "kill-after" else cursor + 1
            if cursor >= len(text):
                return ""
            self.text = text[:cursor] + text[end:]
            return self._redraw(cursor)
        if key in ("up", "down"):
            return self._recall(-1 if key == "up" else 1)
        moved = {"left": cursor - 1, "right": cursor + 1, "home": 0, "end": len(text)}[key]
        self.cursor = min(len(text), max(0, moved))
        return self._move(self._layout(text)[0][self.cursor])

    def _recall(self, step: int) -> str:
        """Show the earlier (``step`` -1) or later (+1) answer of the session; after the last,
        what was being typed."""
        recalled = self._recalled + step
        if not 0 <= recalled <= len(self.history):
            return ""
        if self._recalled == len(self.history):
            self._draft = self.text
        self._recalled = recalled
        self.text = self.history[recalled] if recalled < len(self.history) else self._draft
        self.cursor = len(self.text)
        return self._redraw(0)
