"""Bots: each gets only a seat's view and an injected random generator.

>>> make_bot("random").name
'random'
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import math
import re
from collections.abc import Callable
from typing import Any

from .base import Bot, Option
from .basic import BasicBot
from .beginner import BeginnerBot
from .oracle import OracleSeat
from .random_bot import RandomBot
from .strong import StrongBot

__all__ = [
    "BOTS",
    "ENTRY_POINT_GROUP",
    "LAZY_BOTS",
    "LEVELS",
    "LEVEL_DEADLINE",
    "BasicBot",
    "BeginnerBot",
    "Bot",
    "Option",
    "OracleSeat",
    "RandomBot",
    "StrongBot",
    "bot_key",
    "make_bot",
]

ENTRY_POINT_GROUP = "sobedesce.bots"
"""Installed packages register bots under this entry point group: ``name = "pkg.module:Class"``."""

# Bots that live outside ``sobedesce.bots`` and need an optional extra: name ->
# (module, attribute, extra).  Imported only when asked for.
LAZY_BOTS: dict[str, tuple[str, str, str]] = {
    "openspiel-ismcts": ("sobedesce.integrations.openspiel", "ISMCTSPeer", "openspiel"),
}

# ``package.module:ClassName``: a (dotted) module path, a colon, a class name starting with a
# capital letter; settings may follow.  A built-in bot's settings always hold ``=``, which a
# class name cannot, so ``strong:play_samples=100`` is never read as a class.
_CLASS_SPEC = re.compile(r"^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([A-Z]\w*)\s*(?::(.*))?$", re.S)
# ``package.module:className``: a class name that starts in lower case, which is no setting
# either (it has no ``=``); refused with a word on the capital (:func:`_find_factory`).
_LOWER_CLASS = re.compile(r"^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*):([a-z]\w*)\s*(?::.*)?$", re.S)

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "basic": BasicBot,
    "strong": StrongBot,
}

LEVEL_DEADLINE = 0.8
"""Seconds per decision, by the clock, for the levels a table offers (``deadline``)."""

# Difficulty levels offered to people at a table, mapped onto bots and settings, each clearly
# stronger than the one below in the duplicate arena (docs/bots.md, "The ladder").  A level's
# ``deadline`` is dropped when a bot is made with ``timed=False`` (its sample budget alone
# then decides, reproducibly by seed).  ``hard`` was ``strong`` at a small budget, which played
# no better than ``basic`` (+0.04 [-0.15, +0.24] a round over 400 deals) for 0.8 s a decision.
LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("beginner", {}),
    "hard": ("basic", {}),
    "expert": ("strong", {"deadline": LEVEL_DEADLINE}),
}


def make_bot(name: str, *, timed: bool = True, **settings: Any) -> Bot:
    """A bot by name (``random``, ``basic``, ``strong``, ``openspiel-ismcts``, a plug-in's) or
    level (``easy``…).  The ``oracle`` is not a bot (it sees every card): the arena seats it
    by that name; :class:`OracleSeat` builds one for direct use.

    A level's bot keeps a deadline by the clock (``LEVEL_DEADLINE``); with ``timed=False``
    it plays at its sample budget only, so that its decisions depend on the seed alone (the
    arena's default, and the terminal's with ``--seed``).  A ``deadline`` written in the name
    or passed as a setting is always kept.

    >>> make_bot("expert").deadline, make_bot("expert", timed=False).deadline
    (0.8, None)

    Settings can also follow the name, each after a colon, so that one text names a tuned
    bot wherever a bot name is taken (the arena's ``--bots``):

    >>> make_bot("strong:play_samples=100:rivalry=0.5").play_samples
    100
    >>> make_bot("strong:samples=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bot 'strong' has no setting 'samples' (its settings: play_samples, exchange_samples, ...)
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot name is a string (like 'basic' or 'package.module:ClassName'), not {name!r}")
    spec = _CLASS_SPEC.match(name)
    if spec is not None and spec.group(2)[:1].isupper():
        key = f"{spec.group(1)}:{spec.group(2)}"
        # A plug-in's settings keep their spelling: its keyword arguments and string values are
        # its own (``maxDepth=3``, ``mode=Fast``); true, false and none are read in any case.
        pairs = spec.group(3).split(":") if spec.group(3) else []
        factory = _import_class(spec.group(1), spec.group(2), name)
    else:
        key, *pairs = name.strip().split(":")
        key = key.strip().lower()
        if _built_in(key):
            pairs = [pair.lower() for pair in pairs]
        if key == OracleSeat.name:
            raise ValueError(
                "the oracle is not a bot: it sees every card, so it plays from the whole match, never "
                "from a view; the arena seats it by the name 'oracle', and OracleSeat() builds one"
            )
        if key in LEVELS:
            key, defaults = LEVELS[key]
            if not timed:
                defaults = {k: v for k, v in defaults.items() if k != "deadline"}
            settings = {**defaults, **settings}
        factory = _find_factory(key, name)
    return _build(factory, key, name, pairs, settings)


def bot_key(name: str) -> str:
    """A bot name as the arena keeps it: lower case, except a plug-in's settings (and a
    ``module:ClassName``), which keep their own spelling."""
    if not isinstance(name, str):
        raise TypeError(f"a bot name is a string (like 'basic' or 'package.module:ClassName'), not {name!r}")
    spec = _CLASS_SPEC.match(name)
    if spec is not None and spec.group(2)[:1].isupper():
        rest = f":{spec.group(3)}" if spec.group(3) else ""
        return f"{spec.group(1)}:{spec.group(2)}{rest}".strip()
    head, sep, rest = name.strip().partition(":")
    head = head.strip().lower()
    # A built-in bot's settings are read in any case; a plug-in's (by entry point) are its own.
    return f"{head}{sep}{rest.lower() if _built_in(head) else rest}"


def _built_in(key: str) -> bool:
    """Whether ``key`` (lower case) names a bot or level of this package, not a plug-in."""
    return key in BOTS or key in LEVELS or key in LAZY_BOTS or key == OracleSeat.name


def _find_factory(key: str, name: str) -> Callable[..., Any]:
    if key in BOTS:
        return BOTS[key]
    if key in LAZY_BOTS:
        module_name, attribute, extra = LAZY_BOTS[key]
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            raise ValueError(
                f"bot {key!r} needs an optional extra ({error}): pip install 'sobe-e-desce[{extra}]'"
            ) from None
        factory: Callable[..., Any] = getattr(module, attribute)
        return factory
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name.lower() == key:
            try:
                loaded = entry.load()
            except Exception as error:
                raise ValueError(
                    f"bot {key!r} (entry point {entry.value!r} of group {ENTRY_POINT_GROUP!r}) cannot be loaded: "
                    f"{type(error).__name__}: {error}"
                ) from None
            return _checked_class(loaded, f"{key!r} (entry point {entry.value!r})")
    plugins = sorted(entry.name for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    known = ", ".join([*BOTS, *LEVELS, *LAZY_BOTS, *plugins])
    lowered = _LOWER_CLASS.match(name)
    if lowered is not None:
        # ``rbot:greedyBot``: most likely a class whose name lost its capital (a word with no
        # ``=`` cannot be a setting); said first, the known names after it.
        module_name, lower = lowered.group(1), lowered.group(2)
        capital = f"{lower[:1].upper()}{lower[1:]}"
        # Suggested only when the module has it (``os:getcwd`` has no ``os:Getcwd`` to offer).
        try:
            offered = hasattr(importlib.import_module(module_name), capital)
        except Exception:
            offered = False
        meant = f" ({module_name + ':' + capital!r}?)" if offered else ""
        raise ValueError(
            f"unknown bot {name!r}: a class name after the colon starts with a capital{meant};"
            f" the known bots: {known}; in the arena also oracle"
        )
    raise ValueError(f"unknown bot {name!r} (known: {known}; in the arena also oracle; or package.module:ClassName)")


def _import_class(module_name: str, class_name: str, name: str) -> Callable[..., Any]:
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise ValueError(
            f"bot {name!r}: cannot import module {module_name!r}: {type(error).__name__}: {error}"
            f"{_import_hint(module_name, error)}"
        ) from None
    if not hasattr(module, class_name):
        raise ValueError(f"bot {name!r}: module {module_name!r} has no {class_name!r}")
    return _checked_class(getattr(module, class_name), repr(f"{module_name}:{class_name}"))


def _import_hint(module_name: str, error: Exception) -> str:
    """Where Python looks for a plug-in's module, when it is the module itself (or the top
    package of its path) that was not found, not something it imports."""
    top, dot, _ = module_name.partition(".")
    if not isinstance(error, ModuleNotFoundError) or error.name != top:
        return ""
    where = f"a {top}/ package" if dot else f"{top}.py"
    return (
        f"; the module must be installed or on PYTHONPATH (with {where} in the current directory:"
        " PYTHONPATH=. sobedesce ...)"
    )


def _checked_class(factory: Any, label: str) -> Callable[..., Any]:
    """The bot protocol, checked on the class before any game: a ``name`` and callable
    ``act`` and ``explain`` (docs/bots.md).  A ``name`` the class does not hold (one its
    ``__init__`` sets, or a property) is checked on the bot once made (:func:`_build`)."""
    if not callable(factory):
        raise ValueError(f"bot {label} is not a class or a factory (it is {type(factory).__name__})")
    missing = [attr for attr in ("act", "explain") if not callable(getattr(factory, attr, None))]
    declared = inspect.getattr_static(factory, "name", None) if isinstance(factory, type) else None
    if declared is not None and not isinstance(declared, str | property):
        missing.insert(0, "name (a string)")
    if missing:
        raise ValueError(
            f"bot {label} breaks the bot protocol: it lacks {', '.join(missing)} "
            "(a bot has a name, act(view, rng) and explain(view, rng); see docs/bots.md)"
        )
    return factory  # type: ignore[no-any-return]


def _build(factory: Callable[..., Any], key: str, name: str, pairs: list[str], settings: dict[str, Any]) -> Bot:
    parameters = inspect.signature(factory).parameters
    written: set[str] = set()
    for pair in pairs:
        setting, sep, text = pair.partition("=")
        setting = setting.strip()
        if not sep or not setting:
            raise ValueError(f"bad bot setting {pair!r} in {name!r}: write name:setting=value")
        if setting in written:
            # Before, the last one was taken silently: one of the two was not what was meant.
            raise ValueError(f"bad settings for bot {key!r}: {setting} is set twice in {name!r}; set it once")
        written.add(setting)
        value = _value(text.strip())
        default = parameters[setting].default if setting in parameters else None
        if setting in parameters and not _same_kind(value, default):
            raise ValueError(f"bad settings for bot {key!r}: {setting}={text.strip()} (expected {_expected(default)})")
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)  # ``w=3`` for a float setting: 3.0, as its default's kind says
        settings[setting] = value
    for setting in settings:
        if setting not in parameters:
            known = ", ".join(parameters) or "none"
            raise ValueError(f"bot {key!r} has no setting {setting!r} (its settings: {known})")
    try:
        bot: Bot = factory(**settings)
    except (TypeError, ValueError) as error:
        if not settings:
            # No setting to blame: the constructor itself fails.
            raise ValueError(f"bot {key!r} cannot be made: {type(error).__name__}: {error}") from None
        raise ValueError(f"bad settings for bot {key!r}: {error}") from None
    except Exception as error:
        if factory in BOTS.values():
            raise
        # A plug-in that fails to start is refused as one that fails to import is (the arena
        # exits with status 2 and a message naming it, not a traceback).
        raise ValueError(f"bot {key!r} cannot be made: {type(error).__name__}: {error}") from None
    if factory not in BOTS.values():
        _checked_class(type(bot) if not isinstance(factory, type) else factory, repr(key))
        if not isinstance(getattr(bot, "name", None), str):
            raise ValueError(
                f"bot {key!r} breaks the bot protocol: it lacks name (a string) "
                "(a bot has a name, act(view, rng) and explain(view, rng); see docs/bots.md)"
            )
    return bot


def _same_kind(value: Any, default: Any) -> bool:
    """Whether a setting read from text fits the kind of its default."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float)) and (isinstance(default, float) or isinstance(value, int))
    if default is None:
        return value is None or isinstance(value, (int, float))
    return isinstance(value, type(default))


def _expected(default: Any) -> str:
    """What a setting of this default's kind takes, in words, for a refusal."""
    if isinstance(default, bool):
        return "true or false"
    if default is None:
        return "none or a number"
    return f"a value like {default!r}"


def _value(text: str) -> Any:
    word = text.lower()
    if word in ("true", "false"):
        return word == "true"
    if word == "none":
        return None
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        # nan and inf are not numbers a setting can mean: kept as words, refused as such.
        return number if math.isfinite(number) else text
    return text
