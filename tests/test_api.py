"""The public API keeps its promises: ``__all__`` says what each package exports, the round
and the match are read through properties, and their methods show in ``help()``."""

from __future__ import annotations

import importlib
import inspect
import pydoc
import random
import re

import pytest

from sobedesce.cli.bench import engine_build
from sobedesce.core import Match, Phase, Round

PACKAGES = ["sobedesce.core", "sobedesce.bots", "sobedesce.arena", "sobedesce.table", "sobedesce.terminal"]


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_what_the_package_exports(name: str) -> None:
    package = importlib.import_module(name)
    listed = set(package.__all__)
    missing = sorted(n for n in listed if not hasattr(package, n))
    assert not missing, f"{name}.__all__ lists names it does not have: {missing}"
    public = {
        n
        for n, value in vars(package).items()
        if not n.startswith("_")
        and not (inspect.ismodule(value) and n not in listed)
        and getattr(value, "__module__", "") not in ("typing", "collections.abc", "__future__")
    }
    assert public <= listed, f"{name} exports names its __all__ does not list: {sorted(public - listed)}"


def test_every_module_all_names_exist() -> None:
    import pkgutil

    import sobedesce

    for info in pkgutil.walk_packages(sobedesce.__path__, "sobedesce."):
        if info.name.startswith(("sobedesce.integrations.", "sobedesce.server.migrations", "sobedesce.__main__")):
            continue  # optional extras; their own tests import them
        module = importlib.import_module(info.name)
        for n in getattr(module, "__all__", ()):
            assert hasattr(module, n), f"{info.name}.__all__ lists {n!r}, which it does not define"


def _round_in_play() -> tuple[Match, Round]:
    match = Match("classic")
    current = match.deal(rng=random.Random(4))
    while match.phase != Phase.PLAY:
        match.apply(match.legal_actions()[-1])  # a suit, then every seat plays
    return match, current


def test_round_and_match_are_read_only_and_agree_on_the_phase() -> None:
    match, current = _round_in_play()
    assert type(current.phase) is type(match.phase) is Phase
    assert current.phase == match.phase == Phase.PLAY
    for attribute in ("hands", "active", "tricks", "tricks_won", "scores", "phase", "to_act", "trump"):
        with pytest.raises(AttributeError):
            setattr(current, attribute, None)
    for attribute in ("scores", "rounds", "winners", "phase"):
        with pytest.raises(AttributeError):
            setattr(match, attribute, None)
    # A snapshot is a copy: changing it cannot change the round.
    hands = current.hands
    assert isinstance(hands, tuple)
    assert current.hands == hands and current.hands is not hands
    before = current.hands
    match.apply(match.legal_actions()[0])
    assert current.hands != before


def test_match_methods_show_in_help() -> None:
    compiled = engine_build() == "compiled"
    for method in ("apply", "legal_actions", "deal", "copy"):
        function = getattr(Match, method)
        assert inspect.isroutine(function), method
        if not compiled:  # compiled by mypyc, a method keeps its signature but not its docstring
            assert inspect.isfunction(function) and function.__doc__, method
    text = pydoc.render_doc(Match, renderer=pydoc.plaintext)
    assert re.search(r"apply\(self, (/, )?action", text) and re.search(r"legal_actions\(self(, /)?\)", text)
    # ... and the bound fast path answers exactly as the method does.
    match, _ = _round_in_play()
    assert list(match.legal_actions()) == list(Match.legal_actions(match))


def test_a_round_is_built_only_by_its_constructors() -> None:
    match, current = _round_in_play()
    from sobedesce.core import round_from_view, seat_view

    view = seat_view(match, current.to_act)
    hands = list(current.hands)
    rebuilt = round_from_view(view, hands, current.stock)
    assert rebuilt.to_act == current.to_act and rebuilt.legal_cards() == current.legal_cards()
    assert rebuilt.tricks == current.tricks and rebuilt.trump == current.trump and rebuilt.deck is None
