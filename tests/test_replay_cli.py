"""``sobedesce replay`` end to end: golden records (tests/records/ and the shared examples)
through the real command and through core.record, illegal records, malformed files."""

from __future__ import annotations

import json
import os
import re
import sys
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
    # An int where the share is whole (before, the winners' was always a float: 20.0).
    assert [type(r) for r in got["riscos"] or ()] == [type(r) for r in expected["riscos"] or ()], got["riscos"]


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
    "player-name-too-long": json.dumps(_variant(players=["x" * 1001, "b", "c", "d"])),
    "no-version": json.dumps(_variant(version=_DELETE)),
    "no-rounds": json.dumps(_variant(rounds=_DELETE)),
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


@pytest.mark.parametrize(
    ("name", "message"),
    [
        # A name of megabytes, shown on most lines of the replay, made gigabytes of output.
        ("player-name-too-long", "players[0]: a name of 1,001 characters: at most 1,000"),
        # Said as missing, not as "version: must be 1, not null"; and no rounds was taken as none.
        ("no-version", "version: missing"),
        ("no-rounds", "rounds: missing"),
    ],
)
def test_what_a_malformed_record_lacks_or_has_too_much_of_is_named(name: str, message: str) -> None:
    with pytest.raises(RecordFormatError, match=re.escape(message)):
        read_record(MALFORMED[name])  # type: ignore[arg-type]
    players = ["x" * 1000, "b", "c", "d"]  # the longest name is taken
    assert read_record(json.dumps(_variant(players=players))).players == tuple(players)


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
    small.write_text("[" + " " * 998, encoding="utf-8")  # read whole, and found not JSON
    with pytest.raises(RecordFormatError, match="not JSON"):
        replay.load(str(small))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": "abc', "not JSON: the text ends early, in a string starting at line 1, column 7 \\(truncated\\?\\)"),
        ('{"version": 1,\n', "not JSON: the text ends early, at line 2, column 1 \\(truncated\\?\\)"),
        ('{"version": 1,\n}', "not JSON: Expecting property name enclosed in double quotes at line 2, column 1"),
    ],
)
def test_not_json_names_the_place_once(text: str, message: str) -> None:
    """json's own message may end in "at" (before, "starting at at line 1")."""
    with pytest.raises(RecordFormatError, match=f"^{message}$"):
        read_record(text)


def test_a_seat_named_you_is_written_in_good_english() -> None:
    """The terminal's records name the person "You": replay wrote "You (seat 0) plays,
    exchanges 3", "You (seat 0) sits out", "Next: You (seat 0) plays"."""
    data = next(
        data
        for data in (load_json(path) for path in LEGAL)
        if data.get("players") and any(r.get("exchanges") for r in data["rounds"])
    )
    data["players"] = ["You", "Bot 1 (hard)", "Bot 2 (hard)", "Bot 3 (hard)"]
    result = run_replay("-", stdin=json.dumps(data))
    assert result.returncode == 0, result.stderr
    assert "You (seat 0)" not in result.stdout
    assert re.search(r"seat 0 \(You\) (plays|sits out|chooses)", result.stdout), result.stdout
    assert "Bot 1 (hard) (seat 1)" in result.stdout


def test_a_trick_short_of_a_card_is_named_not_the_next_one() -> None:
    """A card taken out of trick 3 was reported as "round 5, trick 4: trick 3 is not
    complete (3 cards a trick)": which trick lacks a card, and why trick 4 is where it breaks
    (a record may end mid-trick), now read in one sentence."""
    data = next(
        data
        for data in (load_json(path) for path in LEGAL)
        if any(len(r.get("tricks", [])) >= 4 and all(r["tricks"][:4]) for r in data["rounds"])
    )
    number, entry = next(
        (n, r) for n, r in enumerate(data["rounds"], start=1) if len(r.get("tricks", [])) >= 4 and all(r["tricks"][:4])
    )
    size = len(entry["tricks"][2])
    entry["tricks"][2] = entry["tricks"][2][:-1]
    with pytest.raises(RecordRuleError) as caught:
        read_record(json.dumps(data))
    assert str(caught.value) == (
        f"round {number}, trick 4: begins before trick 3 is complete ({size - 1} of its {size} cards played)"
    )


def test_a_record_cut_off_is_said_to_end_early(tmp_path: Path) -> None:
    """``head -c 700 record.json``: "not JSON: Expecting value at line 63, column 2" said
    nothing of the file's end; wherever the cut falls, the message says the text ends early."""
    text = json.dumps(GOOD, indent=1)
    for size in range(1, len(text) - 1, 7):
        path = tmp_path / "trunc.json"
        path.write_text(text[:size], encoding="utf-8")
        result = run_replay(path) if size < 50 else None  # a few through the command, all through the reader
        if result is not None:
            assert result.returncode == 2 and "the text ends early" in result.stderr, result.stderr
        with pytest.raises(RecordFormatError, match=r"^not JSON: the text ends early, .*\(truncated\?\)$"):
            read_record(text[:size])


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


# -- a new user's bad input: numbers too large to score, files that cannot be read ------------------


def _overflowing_multiplier_record() -> str:
    """A finished match's record whose doubled suit's multiplier has hundreds of digits (the
    core's Rules refuse it now; a record could still say it): its riscos (a share of the
    losers' scores) could not be computed."""
    import random

    from sobedesce.core import Match, dumps_record

    rng = random.Random(1)
    match = Match("classic")
    while not match.is_over:
        match.deal(rng=rng)
        while match.current_seat is not None:
            match.apply(rng.choice(match.legal_actions()))
    data = json.loads(dumps_record(match))
    data["rules"] = {"preset": "classic", "doubled_multiplier": 10**400}
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (json.dumps(record([], scores=[0, 10**400, 1, 1])), "scores[1]"),
        (json.dumps(record([], scores=[-(10**30), 20, 20, 20])), "scores[0]"),
        (
            json.dumps(record([], rules={"preset": "classic", "start_score": 10**400, "target_score": 10})),
            "rules.start_score",
        ),
        ("overflowing multiplier", "rules.doubled_multiplier"),
    ],
    ids=["huge-score", "huge-negative-score", "huge-start-score", "huge-multiplier"],
)
def test_numbers_too_large_to_score_are_malformed(tmp_path: Path, text: str, where: str) -> None:
    """A score of 10**400 was read, then the riscos of the finished match (a float share of the
    losers' scores) ended the replay in an OverflowError traceback."""
    if text == "overflowing multiplier":
        text = _overflowing_multiplier_record()
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    for extra in ((), ("--json",)):
        result = run_replay(path, *extra)
        assert result.returncode == 2, (result.stdout, result.stderr[-2000:])
        assert "Traceback" not in result.stderr and result.stdout == ""
        message = result.stderr.strip()
        assert "\n" not in message and f"{where}: must be" in message, message
        assert len(message) < 200, message  # a number of 400 digits is not printed whole
    with pytest.raises(RecordFormatError, match=re.escape(where)):
        read_record(text)


def test_the_largest_numbers_a_record_may_hold_are_read() -> None:
    from sobedesce.core.record import MAX_NUMBER

    text = json.dumps(
        record([], scores=[MAX_NUMBER, -MAX_NUMBER, 0, 1], rules={"preset": "classic", "start_score": MAX_NUMBER})
    )
    got = summary(read_record(text))
    assert got["winners"] == [1, 2]
    assert got["riscos"] == [-MAX_NUMBER, (MAX_NUMBER + 1) / 2, (MAX_NUMBER + 1) / 2, -1]


def _replay_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    from sobedesce.cli.main import main

    code = main(["replay", *args])
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert len(captured.err.strip().splitlines()) == 1, captured.err
    return code, captured.err.strip()


@pytest.mark.parametrize("case", ["missing", "directory", "empty name", "unreadable"])
def test_a_file_that_cannot_be_read_is_not_called_malformed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    """Before: 'malformed record: no such file: x.json' (the record was never seen, let alone
    malformed), and for an empty name 'no such file: ' naming nothing."""
    from sobedesce.cli import replay

    path = {"missing": str(tmp_path / "nowhere.json"), "directory": str(tmp_path), "empty name": ""}.get(case, "")
    expected = {
        "missing": f"sobedesce replay: cannot read {path}: no such file",
        "directory": f"sobedesce replay: cannot read {path}: it is a directory, not a record",
        "empty name": "sobedesce replay: the file name is empty (- reads standard input)",
    }.get(case)
    if case == "unreadable":
        # Root reads a file whatever its mode: the refusal is made here, as the system makes it.
        path = str(tmp_path / "secret.json")

        def refuse(name: str, *args: object, **kwargs: object) -> object:
            raise PermissionError(13, "Permission denied", name)

        monkeypatch.setattr(replay, "open", refuse, raising=False)
        expected = f"sobedesce replay: cannot read {path}: Permission denied"
    code, message = _replay_in_process(capsys, path)
    assert code == 2
    assert message == expected
    assert "malformed" not in message


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "secret.json"
    path.write_text(json.dumps(GOOD), encoding="utf-8")
    path.chmod(0)
    result = run_replay(path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"sobedesce replay: cannot read {path}: Permission denied"


@pytest.mark.parametrize("content", ["", " \n\r\n\t"])
def test_an_empty_file_is_said_to_be_empty(tmp_path: Path, content: str) -> None:
    """Before: 'not JSON: Expecting value at line 1, column 1', which a new user reads as a
    broken file rather than an empty one."""
    path = tmp_path / "empty.json"
    path.write_text(content, encoding="utf-8")
    result = run_replay(path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"sobedesce replay: malformed record: {path} is empty"
    assert (
        run_replay("-", stdin=content).stderr.strip() == "sobedesce replay: malformed record: standard input is empty"
    )


def test_a_closed_standard_input_is_said_to_be_closed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sobedesce replay - <&-``: Python has no sys.stdin, and replay ended in an
    AttributeError traceback."""
    monkeypatch.setattr(sys, "stdin", None)
    code, message = _replay_in_process(capsys, "-")
    assert code == 2
    assert message == "sobedesce replay: cannot read standard input: it is closed"


def test_a_crlf_record_is_read() -> None:
    text = json.dumps(GOOD, indent=1).replace("\n", "\r\n")
    assert read_record(text).rounds[0].dealer == 3


# -- riscos printed in full; a preset's own values read as the preset ------------------------------


@pytest.mark.parametrize(
    ("scores", "riscos"),
    [
        ([0, 0, 0, 10], "+3.33 +3.33 +3.33 -10"),
        ([-5, 1_000_000_000, 999_999_999, 7], "+2000000006 -1000000000 -999999999 -7"),
        ([0, 11, 0, 4], "+7.50 -11 +7.50 -4"),
        ([0, 0, 0, 0], "+0 +0 +0 +0"),
    ],
    ids=["thirds", "billions", "halves", "all-win"],
)
def test_riscos_are_printed_in_full(tmp_path: Path, scores: list[int], riscos: str) -> None:
    """Printed with ``:+g``: '+3.33333 +3.33333 +3.33333 -10', and '+2e+09 -1e+09 -1e+09 -7' for
    riscos of +2000000006, -1000000000 and -999999999.  Whole ones are printed whole, a fractional
    share with two decimals; --json keeps the exact numbers."""
    path = tmp_path / "over.json"
    path.write_text(
        json.dumps({"format": "sobedesce-record", "version": 1, "scores": scores, "rounds": []}), encoding="utf-8"
    )
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    assert f"\nRiscos: {riscos}\n" in result.stdout, result.stdout
    exact = json.loads(run_replay(path, "--json").stdout)["riscos"]
    assert exact == summary(read_record(path.read_text(encoding="utf-8")))["riscos"]
    if scores[1] == 1_000_000_000:
        assert exact == [2_000_000_006, -1_000_000_000, -999_999_999, -7]
        assert all(type(r) is int for r in exact)


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "classic", "min_discard": 0},
        {"preset": "classic", "all_play_suit": "H"},
        {"preset": "classic", "all_play_suit": "h", "doubled_suit": "C", "must_play_at_or_below": 5},
        {"preset": "table", "min_discard": 1, "direction": "clockwise"},
    ],
    ids=["min_discard", "all_play_suit", "several", "table"],
)
def test_a_rules_object_repeating_its_presets_values_is_the_preset(tmp_path: Path, rules: dict[str, object]) -> None:
    """Before: 'Rules: classic+custom' with no override named (every setting is the preset's)."""
    path = tmp_path / "same.json"
    path.write_text(json.dumps(record([], rules=rules)), encoding="utf-8")
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"Rules: {rules['preset']}\n"), result.stdout


def test_a_real_override_beside_a_repeated_value_is_still_named(tmp_path: Path) -> None:
    path = tmp_path / "variant.json"
    path.write_text(
        json.dumps(record([], rules={"preset": "classic", "min_discard": 1, "all_play_suit": "H"})), encoding="utf-8"
    )
    result = run_replay(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Rules: classic+custom (min_discard=1)\n"), result.stdout
