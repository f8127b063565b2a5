"""The core imports only the standard library and nothing else of ``sobedesce``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "src" / "sobedesce" / "core"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_core_imports_only_the_standard_library() -> None:
    files = sorted(CORE.glob("*.py"))
    assert files, "the core package was not found"
    for path in files:
        outside = {
            name for name in imported_modules(path) if name not in sys.stdlib_module_names and name != "__future__"
        }
        assert not outside, f"{path.name} imports {sorted(outside)}"


def test_core_uses_only_relative_imports_of_itself() -> None:
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"{path.name} reaches outside the core: from {'.' * node.level}{node.module}"


ROOT = CORE.parent


def rooms_imported(room: str) -> set[str]:
    """The rooms of ``sobedesce`` that the files of ``room`` import."""
    found: set[str] = set()
    for path in sorted((ROOT / room).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                parts = node.module.split(".")
                if parts[0] == "sobedesce" and len(parts) > 1:
                    found.add(parts[1])
            elif isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
                found.add(node.module.split(".")[0])
    return found - {room}


def test_frontends_share_the_table_driver_and_never_import_each_other() -> None:
    assert "table" in rooms_imported("terminal")
    assert "table" in rooms_imported("server")
    assert "server" not in rooms_imported("terminal")
    assert "terminal" not in rooms_imported("server")
    assert rooms_imported("table") <= {"core", "bots"}
