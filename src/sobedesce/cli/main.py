"""``sobedesce``: one command, with subcommands for each job."""

from __future__ import annotations

import argparse
import codecs
import importlib
import io
import os
import sys
from collections.abc import Sequence

# Each subcommand lives in its own module with ``register(subparsers)``; importing them
# lazily keeps ``sobedesce replay`` from loading the terminal or the bots.
SUBCOMMANDS = {
    "play": "sobedesce.cli.play",
    "demo": "sobedesce.cli.demo",
    "replay": "sobedesce.cli.replay",
    "arena": "sobedesce.cli.arena",
    "bench": "sobedesce.cli.bench",
    "serve": "sobedesce.cli.serve",
    "bot": "sobedesce.cli.bot",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sobedesce",
        description="Sobe e Desce, the Portuguese trick-taking game: play, replay, bench and pit bots.",
    )
    parser.add_argument("--version", action="version", version="%(prog)s " + _version())
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module_name in SUBCOMMANDS.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name == module_name:
                continue
            raise
        module.register(subparsers)
    return parser


# What an output that cannot encode the game's symbols shows instead: a suit's letter (the
# notation a person types), and plain stand-ins for the table's punctuation.
_PLAIN = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "·": "-",
    "↺": "",
    "↻": "",
    "─": "-",
    "━": "-",
    "│": "|",
    "▶": ">",
    "…": "...",
    "—": "-",
    "\u2013": "-",  # en dash
    "→": "->",
    "←": "<-",
    "Δ": "d",
    "\u00d7": "x",  # multiplication sign
    "≥": ">=",
    "≤": "<=",
    "±": "+/-",
    "✓": "ok",
}
PLAIN_ERRORS = "sobedesce-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    bad = error.object[error.start : error.end]
    return "".join(_PLAIN.get(char, "?") for char in bad), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def plain_output() -> None:
    """Let standard output and error write what their encoding cannot (``LANG=C``, a
    ``PYTHONIOENCODING=ascii``): the suits as their letters and the rest as plain stand-ins,
    rather than a ``UnicodeEncodeError`` half way through a screen or a summary."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):
            continue
        try:
            "♠♥♦♣·─▶…—→".encode(stream.encoding)
        except UnicodeEncodeError:
            stream.reconfigure(errors=PLAIN_ERRORS)
        except LookupError:
            continue


def _command_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of subcommand ``command``, else ``parser`` itself."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def _version() -> str:
    from sobedesce import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    plain_output()
    try:
        code = _main(argv)
    except SystemExit:
        # argparse's own exits (--help, --version, a usage error) print first, too.
        _flush_stdout()
        raise
    _flush_stdout()
    return code


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Said by the subcommand's parser, with its usage: `sobedesce play --bogus` shows the
        # options of `play`, not the list of subcommands.
        _command_parser(parser, getattr(args, "command", None)).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0


def _flush_stdout() -> None:
    """Write what standard output holds now, not at exit: a reader gone (``| head``) is then a
    ``BrokenPipeError`` caught here, not Python's 'Exception ignored' and exit status 120."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    """Standard output to nowhere: its reader has gone, and nothing more is written to it (what
    is left in its buffer included, which Python would try to write at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass  # not a file (captured), or already closed: nothing will be written to a pipe


if __name__ == "__main__":
    sys.exit(main())
