"""docs/protocol.md: every message type has a real example, and every example is valid."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sobedesce.bots.base import Option
from sobedesce.core import Card, Play
from sobedesce.server.protocol import MESSAGE_TYPES, hint_json, parse_message
from sobedesce.server.tables import Room, Seat

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
SERVER_TYPES = {
    "welcome",
    "created",
    "tables",
    "joined",
    "table",
    "snapshot",
    "update",
    "ack",
    "hint",
    "said",
    "rematch",
    "error",
    "left",
    "pong",
}


def examples() -> list[tuple[str, dict[str, object]]]:
    text = DOC.read_text(encoding="utf-8").split("## Examples", 1)[1]
    found = []
    for line in text.splitlines():
        match = re.match(r"^([→←]) (\{.*\})$", line)
        if match:
            found.append((match.group(1), json.loads(match.group(2))))
    return found


def test_every_message_type_has_an_example() -> None:
    sent = {m["type"] for d, m in examples() if d == "→"}
    received = {m["type"] for d, m in examples() if d == "←"}
    documented_elsewhere = {"leave", "act"}  # leave is quoted in prose; act below
    assert set(MESSAGE_TYPES) - sent - documented_elsewhere == set()
    assert any(m["type"] == "act" for d, m in examples() if d == "→")
    assert received == SERVER_TYPES


def test_every_client_example_is_a_valid_message() -> None:
    for direction, message in examples():
        if direction == "→":
            parse_message(json.dumps(message))


def test_no_server_example_shows_another_seats_cards() -> None:
    for direction, message in examples():
        if direction == "←" and message["type"] in ("update", "snapshot") and message.get("state"):
            state = message["state"]
            for event in message.get("events", []):
                if "drawn" in event:
                    assert event["seat"] == state["seat"], event


def test_the_hint_example_has_the_fields_the_server_sends() -> None:
    """A hint's options as documented: ``ranking`` the figure the bot ranks by (or ``null``),
    and a ``note`` that does not repeat it."""
    ranked = Option(Play(Card.parse("2C")), 4.756, "discard 2", 5.801, 0.04, 0.9555)
    plain = Option(Play(Card.parse("4D")), 1.0, "chosen at random")  # a bot without rankings
    made = hint_json("h1", 6, [ranked, plain])["options"]
    assert made == [
        {
            "action": {"kind": "play", "card": "2C"},
            "expected_delta": 4.76,
            "ranking": 5.8,
            "note": "discard 2",
            "tricks": 0.0,
            "no_trick": 0.96,
        },
        {
            "action": {"kind": "play", "card": "4D"},
            "expected_delta": 1.0,
            "ranking": None,
            "note": "chosen at random",
            "tricks": None,
            "no_trick": None,
        },
    ]
    hints = [m for d, m in examples() if d == "←" and m["type"] == "hint"]
    assert hints and all(set(o) == set(made[0]) for h in hints for o in h["options"])
    assert all(isinstance(o["ranking"], float) and "against" not in o["note"] for h in hints for o in h["options"])


def test_every_table_and_seat_in_the_examples_has_the_fields_the_server_sends() -> None:
    room = Room("t", "classic", False, None, [Seat("open")] * 4, None, "s", "open", None)
    fields = set(room.public()["seats"][0])
    table_fields = set(room.public())
    assert "at_rematch" in fields and "created_by" in table_fields
    found = 0
    for _direction, message in examples():
        tables = [message["table"]] if isinstance(message.get("table"), dict) else message.get("tables", [])
        for table in tables:
            # `invite`: in `created`, and for a person seated at a private table.
            assert set(table) - {"invite"} == table_fields, table
            for seat in table["seats"]:
                assert set(seat) == fields, seat
                found += 1
    assert found
