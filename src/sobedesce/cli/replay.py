"""``sobedesce replay FILE``: check a match record against the rules and summarise it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from sobedesce.core import Match, RecordFormatError, RecordRuleError, read_record, summary

from .show import describe_summary


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="check a match record and summarise it",
        description="Replay a match record, checking every decision against the rules. "
        "Exit status: 0 legal, 1 a rule is broken, 2 the file is malformed or cannot be read.",
    )
    parser.add_argument("file", help="the record (JSON); - reads standard input")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(run=run)


# A record holds one match: a few hundred bytes a round, so even a very long match is well
# under a megabyte.  Anything larger is not a record, and is not read whole into memory (a
# device such as /dev/zero never ends).
MAX_RECORD_BYTES = 64 * 1024 * 1024


class RecordFileError(RecordFormatError):
    """The record could not be read at all (no such file, a directory, no permission, a closed
    standard input): nothing in it was seen, so it is not called malformed."""


def _read_capped(stream: IO[bytes], name: str) -> str:
    data = stream.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise RecordFormatError(f"{name} is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB: not a match record")
    if not data.strip():
        # json would say "Expecting value at line 1, column 1", which reads as a broken file.
        raise RecordFormatError(f"{name} is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordFormatError(f"{name} is not UTF-8 text") from None


def load(path: str) -> Match:
    """Read and replay the record at ``path``; errors are the record module's, and
    :class:`RecordFileError` (a :class:`RecordFormatError`) when there is nothing to read."""
    if path == "-":
        stdin = sys.stdin  # None when the command was started with standard input closed (<&-)
        if stdin is None:
            raise RecordFileError("cannot read standard input: it is closed")
        try:
            text = _read_capped(stdin.buffer, "standard input")
        except OSError as error:
            raise RecordFileError(f"cannot read standard input: {error.strerror or error}") from None
        return read_record(text)
    if not path:
        raise RecordFileError("the file name is empty (- reads standard input)")
    try:
        with open(path, "rb") as stream:
            text = _read_capped(stream, path)
    except FileNotFoundError:
        raise RecordFileError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise RecordFileError(f"cannot read {path}: it is a directory, not a record") from None
    except OSError as error:
        raise RecordFileError(f"cannot read {path}: {error.strerror or error}") from None
    return read_record(text)


def run(args: argparse.Namespace) -> int:
    try:
        match = load(args.file)
    except RecordFileError as error:
        print(f"sobedesce replay: {error}", file=sys.stderr)
        return 2
    except RecordFormatError as error:
        print(f"sobedesce replay: malformed record: {error}", file=sys.stderr)
        return 2
    except RecordRuleError as error:
        print(str(error), file=sys.stderr)
        return 1
    result = summary(match)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(describe_summary(match, result))
    return 0
