"""The worked examples of RECORD.md, replayed through the real command, output compared exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent / "examples"


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sobedesce", "replay", *args], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize("name", ["classic-match", "table-position"])
def test_json_summary_is_exactly_the_expected_one(name: str) -> None:
    done = replay(str(EXAMPLES / f"{name}.json"), "--json")
    assert done.returncode == 0, done.stderr
    expected = (EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8")
    assert done.stdout.rstrip("\n") == expected.rstrip("\n")


def test_illegal_example_exit_status_and_message() -> None:
    expected = (EXAMPLES / "classic-illegal.expected.txt").read_text(encoding="utf-8").splitlines()
    status, message = int(expected[0].removeprefix("exit status ")), expected[1]
    for args in ([], ["--json"]):
        done = replay(str(EXAMPLES / "classic-illegal.json"), *args)
        assert done.returncode == status
        assert done.stderr.strip() == message
        assert done.stdout == ""
