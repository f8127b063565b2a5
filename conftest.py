"""Root pytest configuration: the doctests of an integration are collected only when its
optional extra is installed (``[rl]`` for PettingZoo, ``[openspiel]`` for OpenSpiel)."""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = []
if importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("numpy") is None:
    collect_ignore.append("src/sobedesce/integrations/pettingzoo.py")
if importlib.util.find_spec("pyspiel") is None:
    collect_ignore.append("src/sobedesce/integrations/openspiel.py")
