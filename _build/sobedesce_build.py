"""The in-tree build backend: setuptools', plus mypy as a build requirement when compiling.

``[build-system].requires`` in pyproject.toml is static, so a compiled build's extra need
(mypy, which contains mypyc) is declared here, by the PEP 517 hook meant for it.  Set
``SOBEDESCE_COMPILE=1`` to compile (see setup.py); unset, this is setuptools' backend as is.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools defines)

ENV = "SOBEDESCE_COMPILE"
# mypyc comes with mypy; the same range as the mypy that checks the core in CI.
COMPILE_REQUIRES = ["mypy>=2.4,<3"]


def compile_requested() -> bool:
    return os.environ.get(ENV, "").strip().lower() not in ("", "0", "false", "no")


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    if not compile_requested():
        return _setuptools.get_requires_for_build_wheel(config_settings)  # type: ignore[arg-type]
    # setuptools' own hook would run setup.py, which imports mypyc when compiling, before
    # mypy is installed; setup.py declares no setup_requires for it to find anyway.  "wheel"
    # is what setuptools < 70.1 needs for bdist_wheel.
    return ["wheel", *COMPILE_REQUIRES]
