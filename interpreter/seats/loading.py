"""Users' bots: a class from a Python file, from a module, or from an installed package.

  path/to/mybot.py:Cautious[:KEY=VALUE,…]    the class Cautious of that file (a path: it has a / or ends in .py)
  package.module:Class[:KEY=VALUE,…]         the class of a module, imported as Python imports it
  NAME[:KEY=VALUE,…]                         an installed package's bot: an entry point NAME of the group
                                             `cardrules.bots` whose value is "package.module:Class"

A bot class derives from seat.Bot and defines choose(self, seat). Loading a file or a module runs
its code, so a spec from a record (untrusted input) is never loaded unless the user says so
(`play --resume … --trust-bots`); `is_code` tells such specs apart without loading anything.
What goes wrong while loading is a UsageError naming the spec, never a traceback.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import os
import sys
from typing import NamedTuple

from ..errors import UsageError, did_you_mean
from .player import one_line
from .seat import Bot
from .specs import Option

GROUP = "cardrules.bots"
_FILES: dict = {}           # (real path, mtime, size) -> module: a file is run once per process
_ENTRIES: dict = {}         # entry point name -> class
_POINTS: dict = {}          # path: sys.path when the entry points were looked up; found: them


class Source(NamedTuple):
    """Where a user's bot is: a file or a module, the class's name, the options text (None: none)."""

    kind: str               # "file" or "module"
    where: str              # the path or the module's dotted name, as given
    cls_name: str
    options: str | None


def source_of(text: str) -> Source | None:
    """The file or module a spec names, or None when the spec names a bot by its name."""
    head, _, rest = text.strip().partition(":")
    head = head.strip()
    if head.endswith(".py") or "/" in head or os.sep in head:
        kind = "file"
    elif "." in head:
        kind = "module"
    else:
        return None
    cls_name, colon, options = rest.partition(":")
    return Source(kind, head, cls_name.strip(), options if colon else None)


def is_code(text: str) -> bool:
    """Whether a spec names a file or a module (loading it would run that code)."""
    return source_of(text) is not None


def load_class(source: Source) -> type:
    """The bot class a Source names, checked; a UsageError says what is wrong."""
    label = f"{source.where}:{source.cls_name}"
    if not source.cls_name:
        raise UsageError(f"bot {source.where}: name its class after a colon, e.g. {source.where}:MyBot")
    module = load_file(source.where, label) if source.kind == "file" else load_module(source.where, label)
    cls = getattr(module, source.cls_name, None)
    if cls is None:
        bots = sorted(k for k, v in vars(module).items() if is_bot_class(v) and v is not Bot)
        hint = did_you_mean(source.cls_name, bots)
        raise UsageError(f"bot {label}: {source.where} has no class '{source.cls_name}'"
                         + (f"; {hint}" if hint else "") + f" (its bots: {', '.join(bots) or 'none'})")
    return checked_class(cls, label)


def load_file(path: str, label: str):
    """The module a Python file makes, run once per process (again when the file changed)."""
    try:
        real, info = os.path.realpath(path), os.stat(path)
    except OSError as exc:
        raise UsageError(f"bot {label}: cannot read {path}: {exc.strerror or exc}") from None
    key = (real, info.st_mtime_ns, info.st_size)
    if key not in _FILES:
        name = "cardrules_bot_" + hashlib.sha256(real.encode()).hexdigest()[:16]
        spec = importlib.util.spec_from_file_location(name, real)
        if spec is None or spec.loader is None:
            raise UsageError(f"bot {label}: {path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module      # what the file defines can find its module (dataclasses, pickle)
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            del sys.modules[name]
            raise UsageError(f"{path}:{exc.lineno or 0}:{exc.offset or 0}: {exc.msg} (loading bot {label})") from None
        except (Exception, SystemExit) as exc:
            del sys.modules[name]
            raise UsageError(f"bot {label}: running {path} raised {type(exc).__name__}: "
                             f"{one_line(str(exc))}") from None
        _FILES[key] = module
    return _FILES[key]


def load_module(dotted: str, label: str):
    """A module imported as Python imports it (installed, or on PYTHONPATH)."""
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as exc:
        raise UsageError(f"bot {label}: no module named '{exc.name}' (a module is imported from the "
                         "installed packages and PYTHONPATH; for a file give its path, e.g. "
                         "bots/mybot.py:MyBot)") from None
    except (Exception, SystemExit) as exc:
        raise UsageError(f"bot {label}: importing {dotted} raised {type(exc).__name__}: "
                         f"{one_line(str(exc))}") from None


def is_bot_class(x) -> bool:
    return isinstance(x, type) and issubclass(x, Bot)


def checked_class(cls, label: str) -> type:
    """cls if it is a bot class: derived from Bot, with choose(self, seat) and well-declared options."""
    if not is_bot_class(cls):
        raise UsageError(f"bot {label}: '{getattr(cls, '__name__', cls)}' is not a bot: a bot is a class "
                         "derived from interpreter.seats.Bot with a method choose(self, seat) (docs/bots.md)")
    if cls.choose is Bot.choose:
        raise UsageError(f"bot {label}: {cls.__name__} does not define choose(self, seat)")
    options = cls.options if isinstance(cls.options, (tuple, list)) else None
    if options is None or not all(isinstance(o, Option) for o in options):
        raise UsageError(f"bot {label}: {cls.__name__}.options must be a tuple of Option(...)")
    for o in options:
        if not hasattr(cls, o.name):
            raise UsageError(f"bot {label}: option {o.name} has no default (a class attribute {o.name} = …)")
    return cls


def entry_points() -> dict:
    """{name: entry point} of the installed packages' bots (group cardrules.bots); nothing is loaded.
    Looked up once per import path (a run makes a bot for every game)."""
    key = tuple(sys.path)
    if _POINTS.get("path") != key:
        try:
            found = {ep.name: ep for ep in importlib.metadata.entry_points(group=GROUP)}
        except Exception:               # a broken installed package's metadata: no bots from it
            found = {}
        _POINTS.update(path=key, found=found)
    return _POINTS["found"]


def load_entry(ep) -> type:
    """The bot class of an installed package's entry point, checked (loaded once per process)."""
    if ep.name not in _ENTRIES:
        label = f"{ep.name} (entry point {ep.value} of {GROUP})"
        try:
            cls = ep.load()
        except (Exception, SystemExit) as exc:
            raise UsageError(f"bot {label}: loading it raised {type(exc).__name__}: "
                             f"{one_line(str(exc))}") from None
        _ENTRIES[ep.name] = checked_class(cls, label)
    return _ENTRIES[ep.name]
