"""docs/protocol.md: every message type has a real example, and every example is valid."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sobedesce.server.protocol import MESSAGE_TYPES, parse_message

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
