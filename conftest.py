"""Root pytest configuration: the doctests of an integration run only when its optional extra
is installed (``[rl]`` for PettingZoo, ``[openspiel]`` for OpenSpiel); without it the module is
reported as skipped, with the extra to install, instead of failing to import."""

from __future__ import annotations

import importlib.util
from collections.abc import Generator
from pathlib import Path
from typing import NoReturn

import pytest

_INTEGRATIONS = Path(__file__).resolve().parent / "src" / "sobedesce" / "integrations"

# Module file -> why its doctests cannot run in this environment.
NEEDS_EXTRA: dict[Path, str] = {}
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    NEEDS_EXTRA[_INTEGRATIONS / "pettingzoo.py"] = (
        "doctests of sobedesce.integrations.pettingzoo: needs the [rl] extra: pip install -e '.[rl]'"
    )
if importlib.util.find_spec("pyspiel") is None:
    NEEDS_EXTRA[_INTEGRATIONS / "openspiel.py"] = (
        "doctests of sobedesce.integrations.openspiel: needs the [openspiel] extra: pip install -e '.[openspiel]'"
    )


class _NeedsExtra(pytest.File):
    """A module whose doctests need an extra that is not installed: one skip, with the reason."""

    def collect(self) -> NoReturn:
        pytest.skip(NEEDS_EXTRA[self.path])


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    collected = yield
    if file_path in NEEDS_EXTRA:
        return [_NeedsExtra.from_parent(parent, path=file_path)]
    return collected
