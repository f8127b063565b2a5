"""The build: pure Python by default; ``SOBEDESCE_COMPILE=1`` compiles the modules below with mypyc.

``pip install .`` and ``pip install -e .`` build the pure package and need no compiler.
``SOBEDESCE_COMPILE=1 pip wheel .`` builds a wheel whose listed modules are C extensions
compiled by mypyc from the same source (the ``.py`` files ship beside them, as black and
mypy ship theirs); the build backend in ``_build/`` then asks for mypy as a build requirement.
Everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_build"))
from sobedesce_build import compile_requested

# The one statement of what mypyc compiles: every module of the core but those listed as
# interpreted, as paths under src/.  Left interpreted: sobedesce/core/cards.py, because ``Card``
# subclasses ``int``: mypyc compiles no native subclass of a builtin, and making it a non-native
# class needs ``mypyc_attr`` from mypy_extensions, outside the standard library the core is
# limited to.  The compiled modules keep cards as plain ints and hand out the ``Card`` objects of
# the ``CARDS`` table.  (``match.py`` was left interpreted too, until a compiled match measured
# 7% fewer instructions a random round: a native method is found faster than the round's bound
# method in an instance dictionary.  What it costs: compiled methods carry no docstring.)
COMPILED_PACKAGES = ["sobedesce/core"]
INTERPRETED_MODULES = {"sobedesce/core/cards.py"}
# Outside the core, the bots' search: the play-outs (_sim), the exchange simulation (_eval) and the
# samplers and evaluators (_search), where a search bot spends its time (the strong bot decides
# about 2.4 times as fast compiled).  The bots themselves (strong.py, basic.py...) stay
# interpreted: they are thin, and plug-in bots subclass nothing of theirs.
COMPILED_MODULES = ["sobedesce/bots/_sim.py", "sobedesce/bots/_eval.py", "sobedesce/bots/_search.py"]


def compiled_modules() -> list[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    found = []
    for package in COMPILED_PACKAGES:
        for name in sorted(os.listdir(os.path.join(here, "src", package))):
            path = f"{package}/{name}"
            if name.endswith(".py") and path not in INTERPRETED_MODULES:
                found.append(path)
    return found + COMPILED_MODULES


def ext_modules() -> list[object]:
    if not compile_requested():
        return []
    try:
        from mypyc.build import mypycify  # only a compiled build needs mypy
    except ImportError:
        raise SystemExit(
            "SOBEDESCE_COMPILE=1 needs mypy (which contains mypyc) in the build environment: build with pip's "
            "default build isolation, or pip install 'mypy>=2.4,<3' first when using --no-build-isolation"
        ) from None

    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(here)  # mypy reads [tool.mypy] from ./pyproject.toml
    return mypycify(
        [os.path.join("src", path) for path in compiled_modules()],
        opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
        debug_level=os.environ.get("MYPYC_DEBUG_LEVEL", "1"),
    )


setup(ext_modules=ext_modules())
