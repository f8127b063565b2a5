"""``sobedesce``: one command, with subcommands for each job."""

from __future__ import annotations

import argparse
import importlib
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


def _version() -> str:
    from sobedesce import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
