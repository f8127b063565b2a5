"""Sobe e Desce: an exact, fast engine for the Portuguese trick-taking game, with bots,
match records and tables to play at."""

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__all__ = list(_core_all)
__version__ = "0.1.0"
