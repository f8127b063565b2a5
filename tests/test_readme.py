"""The README's Python examples run as written (doctest)."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_readme_starts_with_the_two_set_up_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```bash") + 1 : lines.index("```bash") + 3]
    assert block[0].endswith("sobedesce serve")
    assert block[1].endswith("-m pytest")
    assert "\n".join(lines[:12]).count("```bash") == 1


def test_readme_names_each_action_by_its_fields() -> None:
    """The README listed ``Exchange(cards)``, but the field is ``discard``: each action the
    README and docs/bots.md list as ``Type(field)`` must name its real fields."""
    import dataclasses
    import re

    import sobedesce.core as core

    docs = [README, README.parent / "docs" / "bots.md"]
    text = "\n".join(path.read_text(encoding="utf-8") for path in docs)
    listed = re.findall(r"`(NameTrump|TurnUp|SitOut|Exchange|Play)\(([a-z_]*)\)`", text)
    assert {kind for kind, _ in listed} == {"NameTrump", "TurnUp", "SitOut", "Exchange", "Play"}
    for kind, field in listed:
        real = [f.name for f in dataclasses.fields(getattr(core, kind)) if f.init]
        assert ([field] if field else []) == real, (kind, field, real)
