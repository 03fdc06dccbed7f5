"""Bot specs: a bot's name with its options, `NAME:KEY=VALUE,KEY=VALUE` (`automa:samples=8`).

A bot class declares its options in one place, `options = (Option(...), ...)`; each option's
default is the class attribute of the same name, which an instance given the option overrides.
In a list of seats (`--bots automa:samples=8,depth=4,greedy`) an item that starts with `KEY=`
continues the options of the bot before it: a bot's name never holds '='. A spec's canonical text
(the options in their declared order, values as typed) is what records and results store, so
`replay` and `--resume` rebuild the very bots; a plain name is its own canonical text.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

from ..errors import UsageError, did_you_mean

OPTION_ITEM = re.compile(r"\s*[A-Za-z_][\w-]*\s*=")     # `KEY=…`: an option, never a bot's name


class Option(NamedTuple):
    """One option of a bot: its name, kind (int, float or a tuple of choices), range and meaning."""

    name: str
    kind: object                # int, float, or a tuple of the words it may be
    doc: str
    lo: float | None = None
    hi: float | None = None

    def default(self, cls):
        """The class attribute of the option's name: what a bot not given the option uses."""
        return getattr(cls, self.name)

    def kind_text(self) -> str:
        """How the option is written: int 1..1000, float 0..60, or one of a|b."""
        if isinstance(self.kind, tuple):
            return "|".join(self.kind)
        span = "" if self.lo is None else f" {show_value(self.lo)}..{show_value(self.hi)}"
        return self.kind.__name__ + span

    def read(self, bot: str, text: str):
        """The value of `text` for this option, or a UsageError saying what the option takes."""
        value = parse_value(self.kind, text.strip())
        if value is None or (self.lo is not None and not self.lo <= value <= self.hi):
            hint = did_you_mean(text.strip(), self.kind) if isinstance(self.kind, tuple) else ""
            raise UsageError(f"bot {bot}: option {self.name}={text.strip()} is not {self.takes()}"
                             + (f"; {hint}" if hint else ""))
        return value

    def takes(self) -> str:
        """What values the option takes, in words."""
        if isinstance(self.kind, tuple):
            return "one of " + ", ".join(self.kind)
        what = "a whole number" if self.kind is int else "a number"
        return what if self.lo is None else f"{what} from {show_value(self.lo)} to {show_value(self.hi)}"


class Spec(NamedTuple):
    """A parsed bot spec: the bot's class, its options' values and the canonical text."""

    cls: type
    values: dict
    text: str


def parse_value(kind, text: str):
    """text as an int, a finite float or one of the choices; None when it is not one."""
    if isinstance(kind, tuple):
        return text if text in kind else None
    if kind is int:
        return int(text) if re.fullmatch(r"[+-]?[0-9]{1,12}", text) else None
    if not re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?", text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def show_value(value) -> str:
    """A value as a spec writes it (1.5, 8, greedy; a whole float as 2.0)."""
    return repr(value) if isinstance(value, float) else str(value)


def split_seats(text: str) -> list:
    """--bots NAME[:OPTIONS][,NAME…] as one spec a seat: `KEY=VALUE` items join the bot before them."""
    specs: list = []
    for item in text.split(","):
        if OPTION_ITEM.match(item) and specs:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def parse_spec(text: str, bots: dict) -> Spec:
    """A bot spec read against the known bots, or a UsageError with what was meant."""
    name, colon, rest = text.strip().partition(":")
    name = name.strip()
    if OPTION_ITEM.match(text):
        raise UsageError(f"'{text.strip()}' gives options before any bot: write NAME:KEY=VALUE (e.g. "
                         f"automa:samples=8); known bots: {known(bots)}")
    cls = bots.get(name)
    if cls is None:
        hint = did_you_mean(name, bots)
        raise UsageError(f"unknown bot '{name}'" + (f"; {hint}" if hint else "") + f" (known bots: {known(bots)})")
    values = read_options(name, cls, rest) if colon else {}
    return Spec(cls, values, with_options(name, cls, values))


def with_options(head: str, cls, values: dict) -> str:
    """A spec's canonical text: head, then the options given in their declared order."""
    canonical = ",".join(f"{o.name}={show_value(values[o.name])}" for o in cls.options if o.name in values)
    return head + (":" + canonical if canonical else "")


def read_options(name: str, cls, text: str) -> dict:
    """KEY=VALUE,KEY=VALUE of one bot, each checked against the options its class declares."""
    declared = {o.name: o for o in cls.options}
    values: dict = {}
    for item in text.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UsageError(f"bot {name}: '{item.strip()}' is not KEY=VALUE ({options_text(cls)})")
        option = declared_option(name, cls, key, declared)
        if key in values:
            raise UsageError(f"bot {name}: option {key} is given twice")
        values[key] = option.read(name, value)
    return values


def declared_option(name: str, cls, key: str, declared: dict | None = None) -> Option:
    """The option `key` of bot `name` (class cls), or a UsageError with what was meant."""
    declared = declared if declared is not None else {o.name: o for o in cls.options}
    option = declared.get(key)
    if option is None:
        hint = did_you_mean(key, declared)
        raise UsageError(f"bot {name} has no option '{key}'" + (f"; {hint}" if hint else "")
                         + f" ({options_text(cls)})")
    return option


def options_text(cls) -> str:
    """The options a bot takes, for a message."""
    names = [o.name for o in cls.options]
    return "its options: " + ", ".join(names) if names else "it takes no options"


def known(bots: dict) -> str:
    return ", ".join(sorted(bots))


def configured(spec: Spec, bot):
    """The bot with its spec's options set (on the instance: the class keeps the defaults)."""
    for key, value in spec.values.items():
        setattr(bot, key, value)
    return bot
