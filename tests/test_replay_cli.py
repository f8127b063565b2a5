"""``sobedesce replay`` end to end: golden records (tests/records/ and the shared examples)
through the real command and through core.record, illegal records, malformed files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import RECORDS, RuleBreak, load_json, record, ref_replay, round_entry, run_replay
from sobedesce.core import RecordFormatError, RecordRuleError, read_record, summary

EXAMPLES = Path(__file__).parent / "examples"
LEGAL = sorted(
    p for p in RECORDS.glob("*.json") if ".expected" not in p.name and (RECORDS / f"{p.stem}.expected.json").exists()
)
ILLEGAL = sorted(
    p
    for p in RECORDS.glob("*.json")
    if ".expected" not in p.name and (RECORDS / f"{p.stem}.expected-error.json").exists()
)


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


def test_every_golden_record_has_an_expectation() -> None:
    records = [p for p in RECORDS.glob("*.json") if ".expected" not in p.name]
    assert len(records) >= 60
    assert sorted(records) == sorted(LEGAL + ILLEGAL)


def _numbers_equal(got: object, expected: object) -> bool:
    """JSON equality where 18 and 18.0 are the same number (riscos may be fractions)."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return got is expected
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return float(got) == float(expected)
    if isinstance(expected, list) and isinstance(got, list):
        return len(got) == len(expected) and all(_numbers_equal(g, e) for g, e in zip(got, expected, strict=True))
    if isinstance(expected, dict) and isinstance(got, dict):
        return got.keys() == expected.keys() and all(_numbers_equal(got[k], expected[k]) for k in expected)
    return got == expected


# -- legal records ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LEGAL, ids=_ids(LEGAL))
def test_golden_record_cli_json(path: Path) -> None:
    expected = load_json(RECORDS / f"{path.stem}.expected.json")
    result = run_replay(path, "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    got = json.loads(result.stdout)
    assert _numbers_equal(got, expected), json.dumps(got)


@pytest.mark.parametrize("path", LEGAL, ids=_ids(LEGAL))
def test_golden_record_core_summary(path: Path) -> None:
    expected = load_json(RECORDS / f"{path.stem}.expected.json")
    got = summary(read_record(path.read_text(encoding="utf-8")))
    assert _numbers_equal(json.loads(json.dumps(got)), expected)


@pytest.mark.parametrize("path", LEGAL, ids=_ids(LEGAL))
def test_golden_expectation_agrees_with_reference_model(path: Path) -> None:
    """Cross-check of the hand-worked expectations against tests/helpers.py's model."""
    expected = load_json(RECORDS / f"{path.stem}.expected.json")
    model = ref_replay(load_json(path))
    assert model.scores == expected["scores"]
    assert model.winners == expected["winners"]
    done = [r for r in model.rounds if r.phase == "over"]
    for ref_round, entry in zip(done, expected["rounds"], strict=False):  # type: ignore[call-overload]
        assert entry["active"] == [a for a in ref_round.active]
    current = model.rounds[-1] if model.rounds else None
    nxt = expected["next"]
    if current is not None and current.phase == "play":
        assert nxt["phase"] == "play" and nxt["seat"] == current.to_act  # type: ignore[index]
        assert set(nxt["legal"]) == current.legal()  # type: ignore[index]


@pytest.mark.parametrize("path", LEGAL, ids=_ids(LEGAL))
def test_golden_record_text_summary(path: Path) -> None:
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert "Traceback" not in result.stderr


# -- illegal records ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ILLEGAL, ids=_ids(ILLEGAL))
def test_illegal_record_cli(path: Path) -> None:
    expected = load_json(RECORDS / f"{path.stem}.expected-error.json")
    result = run_replay(path, "--json")
    assert result.returncode == expected["exit"], (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    message = result.stderr.strip()
    assert "\n" not in message, message
    assert re.search(str(expected["pattern"]), message), message


@pytest.mark.parametrize("path", ILLEGAL, ids=_ids(ILLEGAL))
def test_illegal_record_core(path: Path) -> None:
    expected = load_json(RECORDS / f"{path.stem}.expected-error.json")
    with pytest.raises(RecordRuleError) as caught:
        read_record(path.read_text(encoding="utf-8"))
    assert re.search(str(expected["pattern"]), str(caught.value)), str(caught.value)


@pytest.mark.parametrize("path", ILLEGAL, ids=_ids(ILLEGAL))
def test_illegal_record_rejected_by_reference_model(path: Path) -> None:
    with pytest.raises((RuleBreak, AssertionError)):
        ref_replay(load_json(path))


# -- the shared examples ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic-match", "table-position"])
def test_shared_example_summary(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    result = run_replay(EXAMPLES / f"{name}.json", "--json")
    assert result.returncode == 0, result.stderr
    assert _numbers_equal(json.loads(result.stdout), expected)
    model = ref_replay(json.loads((EXAMPLES / f"{name}.json").read_text()))
    assert model.scores == expected["scores"]


def test_shared_example_illegal() -> None:
    lines = (EXAMPLES / "classic-illegal.expected.txt").read_text().strip().splitlines()
    result = run_replay(EXAMPLES / "classic-illegal.json")
    assert f"exit status {result.returncode}" == lines[0]
    assert result.stderr.strip() == lines[1]


def test_classic_match_example_riscos_sum_to_zero() -> None:
    got = summary(read_record((EXAMPLES / "classic-match.json").read_text()))
    assert sum(got["riscos"]) == 0  # type: ignore[arg-type]


def test_replay_reads_standard_input() -> None:
    text = (RECORDS / "classic-shared-win.json").read_text()
    result = run_replay("-", "--json", stdin=text)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == [0, 1]


# -- malformed files --------------------------------------------------------------------------------

GOOD = record([round_entry(3, [r + s for s in "SHDC" for r in "A7KJQ65432"], "S", [(0, [])])])


def _variant(**changes: object) -> dict[str, object]:
    data = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("round_"):
            data["rounds"][0][key[6:]] = value
        elif value is _DELETE:
            del data[key]
        else:
            data[key] = value
    return data


_DELETE = object()
DECK = GOOD["rounds"][0]["deck"]  # type: ignore[index]

MALFORMED: dict[str, str | bytes] = {
    "not-json": "{this is not json",
    "empty-file": "",
    "json-array": "[1, 2, 3]",
    "json-string": '"sobedesce-record"',
    "wrong-format": json.dumps(_variant(format="pgn")),
    "no-format": json.dumps(_variant(format=_DELETE)),
    "wrong-version": json.dumps(_variant(version=2)),
    "version-as-text": json.dumps(_variant(version="1")),
    "version-as-float": json.dumps(_variant(version=1.0)),
    "byte-order-mark": "\ufeff" + json.dumps(GOOD),
    "unknown-preset": json.dumps(_variant(rules="bisca")),
    "unknown-preset-in-object": json.dumps(_variant(rules={"preset": "bisca"})),
    "unknown-rules-setting": json.dumps(_variant(rules={"preset": "classic", "jokers": True})),
    "rules-wrong-type": json.dumps(_variant(rules=5)),
    "rules-setting-wrong-type": json.dumps(_variant(rules={"preset": "table", "min_discard": "one"})),
    "unknown-top-field": json.dumps(_variant(comment="hello")),
    "unknown-round-field": json.dumps(_variant(round_seed=5)),
    "players-three": json.dumps(_variant(players=["a", "b", "c"])),
    "players-not-strings": json.dumps(_variant(players=[1, 2, 3, 4])),
    "scores-wrong-length": json.dumps(_variant(scores=[20, 20, 20])),
    "scores-text": json.dumps(_variant(scores=["20", 20, 20, 20])),
    "sat-out-negative": json.dumps(_variant(sat_out_before=[0, -1, 0, 0])),
    "sat-out-beyond-the-limit": json.dumps(_variant(sat_out_before=[0, 3, 0, 0])),
    "rounds-not-list": json.dumps(_variant(rounds={"dealer": 3})),
    "dealer-text": json.dumps(_variant(round_dealer="3")),
    "dealer-out-of-range": json.dumps(_variant(round_dealer=4)),
    "dealer-missing": json.dumps(_variant(round_dealer=None)),
    "deck-not-list": json.dumps(_variant(round_deck=" ".join(DECK))),
    "deck-bad-card-10H": json.dumps(_variant(round_deck=["10H", *DECK[1:]])),
    "deck-bad-card-8S": json.dumps(_variant(round_deck=["8S", *DECK[1:]])),
    "deck-card-number": json.dumps(_variant(round_deck=[7, *DECK[1:]])),
    "trump-unknown": json.dumps(_variant(round_trump="X")),
    "trump-number": json.dumps(_variant(round_trump=3)),
    "exchange-not-object": json.dumps(_variant(round_exchanges=["sit out"])),
    "exchange-no-seat": json.dumps(_variant(round_exchanges=[{"discard": []}])),
    "exchange-seat-text": json.dumps(_variant(round_exchanges=[{"seat": "0", "discard": []}])),
    "exchange-discard-text": json.dumps(_variant(round_exchanges=[{"seat": 0, "discard": "2S"}])),
    "exchange-bad-card": json.dumps(_variant(round_exchanges=[{"seat": 0, "discard": ["ZZ"]}])),
    "exchange-sit-out-text": json.dumps(_variant(round_exchanges=[{"seat": 0, "sit_out": "yes"}])),
    "exchange-unknown-field": json.dumps(_variant(round_exchanges=[{"seat": 0, "discard": [], "draw": []}])),
    "tricks-not-lists": json.dumps(_variant(round_tricks=["AS"])),
    "trick-bad-card": json.dumps(_variant(round_tricks=[["1S"]])),
    "not-utf8": b'{"format": "sobedesce-record", "version": 1, "players": ["\xff\xfe", "b", "c", "d"], "rounds": []}',
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_file(tmp_path: Path, name: str) -> None:
    content = MALFORMED[name]
    path = tmp_path / f"{name}.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    result = run_replay(path, "--json")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    message = result.stderr.strip()
    assert message and "\n" not in message, message


@pytest.mark.parametrize("name", sorted(n for n, c in MALFORMED.items() if isinstance(c, str)))
def test_malformed_text_raises_format_error(name: str) -> None:
    with pytest.raises(RecordFormatError):
        read_record(MALFORMED[name])  # type: ignore[arg-type]


def test_good_base_of_malformed_variants_is_legal(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(GOOD))
    assert run_replay(path, "--json").returncode == 0


def test_missing_file(tmp_path: Path) -> None:
    result = run_replay(tmp_path / "nowhere.json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "nowhere.json" in result.stderr
    assert result.stderr.strip().count("\n") == 0


def test_directory_instead_of_file(tmp_path: Path) -> None:
    result = run_replay(tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


# -- inputs that once crashed the reader: nested JSON, huge numbers, non-UTF-8 stdin ----------

DEEP = "[" * 100_000 + "]" * 100_000
HUGE_NUMBER = '{"format": "sobedesce-record", "version": 1, "rounds": [{"dealer": ' + "9" * 5000 + ', "deck": []}]}'
NOT_UTF8 = b'{"format": "sobedesce-record", "version": 1, "players": ["\xff", "b", "c", "d"], "rounds": []}'


def test_deeply_nested_json_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    result = run_replay(path, "--json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_deeply_nested_json_raises_format_error() -> None:
    with pytest.raises(RecordFormatError):
        read_record(DEEP)


def test_huge_number_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(HUGE_NUMBER)
    result = run_replay(path, "--json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_huge_number_raises_format_error() -> None:
    with pytest.raises(RecordFormatError, match="thousands of digits"):
        read_record(HUGE_NUMBER)


def test_a_byte_order_mark_and_a_float_version_are_named() -> None:
    with pytest.raises(RecordFormatError, match="byte order mark"):
        read_record(MALFORMED["byte-order-mark"])  # type: ignore[arg-type]
    with pytest.raises(RecordFormatError, match=r"must be 1, not 1\.0"):
        read_record(MALFORMED["version-as-float"])  # type: ignore[arg-type]


def test_not_utf8_file_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(NOT_UTF8)
    result = run_replay(path, "--json")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_not_utf8_stdin_strict_locale_is_malformed() -> None:
    result = run_replay("-", "--json", stdin=NOT_UTF8, env={"PYTHONIOENCODING": "utf-8:strict"})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_not_utf8_stdin_is_malformed() -> None:
    result = run_replay("-", "--json", stdin=NOT_UTF8, env={"PYTHONIOENCODING": "utf-8:surrogateescape"})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_a_file_larger_than_any_record_is_refused_without_reading_it_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A device that never ends (/dev/zero) or a huge file is not read into memory whole."""
    from sobedesce.cli import replay

    monkeypatch.setattr(replay, "MAX_RECORD_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 1001, encoding="utf-8")
    for path in (str(big), "/dev/zero"):
        with pytest.raises(RecordFormatError, match="larger than"):
            replay.load(path)
    small = tmp_path / "small.json"
    small.write_text(" " * 999, encoding="utf-8")
    with pytest.raises(RecordFormatError, match="not JSON"):
        replay.load(str(small))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": "abc', "not JSON: Unterminated string starting at line 1, column 7"),
        ('{"version": 1,\n', "not JSON: Expecting property name enclosed in double quotes at line 2, column 1"),
    ],
)
def test_not_json_names_the_place_once(text: str, message: str) -> None:
    """json's own message may end in "at" (before, "starting at at line 1")."""
    with pytest.raises(RecordFormatError, match=f"^{message}$"):
        read_record(text)


def test_a_variants_settings_are_named(tmp_path: Path) -> None:
    """Before, a variant of a preset was shown as 'Rules: table+custom', its settings unsaid."""
    import random

    from sobedesce.core import Match, Rules, dumps_record

    path = tmp_path / "variant.json"
    match = Match(Rules.from_spec({"preset": "table", "min_discard": 2, "no_trick_penalty": 4}))
    match.deal(rng=random.Random(1))
    path.write_text(dumps_record(match), encoding="utf-8")
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    assert "Rules: table+custom (min_discard=2, no_trick_penalty=4)" in result.stdout
    plain = tmp_path / "plain.json"
    plain.write_text(dumps_record(Match("table")), encoding="utf-8")
    assert "Rules: table\n" in run_replay(plain).stdout
