"""Every bot by name, and making one from a spec: ours, installed packages' and users' files.

`BOTS` holds the bots that come with cardrules; `known()` adds the installed packages' bots (entry
points of the group cardrules.bots, loaded when first named). `make_bot(spec, seed)` gives the
Player a caller plays with (player.py); `parse_bot(spec)` checks a spec and gives its canonical
text; `for_game` adds the options a ruleset gives the bot. A spec naming a file or a module
(loading.py) loads that code: callers reading a spec from a record check `is_code` first.
"""
from __future__ import annotations

from collections.abc import Mapping

from ..errors import BotError, Diagnostic, UsageError, did_you_mean
from .bots import AutomaBot, GreedyBot, MemoryBot, RandomBot
from .ismcts import IsmctsBot
from .loading import entry_points, is_code, load_class, load_entry, one_line, source_of  # noqa: F401
from .player import Player
from .specs import Spec, configured, declared_option, parse_spec, read_options, with_options

BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot, AutomaBot, MemoryBot, IsmctsBot)}


def register(cls) -> type:
    """Add a bot class to BOTS: a bot of ours, trusted to answer a legal move."""
    BOTS[cls.name] = cls
    return cls


class Known(Mapping):
    """BOTS and the installed packages' bots by name (ours first); an installed one is loaded when
    first looked up."""

    def __init__(self):
        self.entries = {n: ep for n, ep in entry_points().items() if n not in BOTS}

    def __getitem__(self, name):
        if name in BOTS:
            return BOTS[name]
        return load_entry(self.entries[name])

    def __iter__(self):
        return iter(list(BOTS) + sorted(self.entries))

    def __len__(self) -> int:
        return len(BOTS) + len(self.entries)


def is_known_name(text: str) -> bool:
    """Whether a spec names a bot by a name we know (ours or an installed package's), loading nothing."""
    name = text.strip().partition(":")[0].strip()
    return name in BOTS or name in entry_points()


def parse_bot(spec: str) -> Spec:
    """The parsed spec (class, option values, canonical text), or UsageError with "did you mean"."""
    source = source_of(spec)
    if source is None:
        return parse_spec(spec, BOTS if spec.strip().partition(":")[0].strip() in BOTS else Known())
    cls = load_class(source)
    label = f"{source.where}:{source.cls_name}"
    values = read_options(label, cls, source.options) if source.options is not None else {}
    return Spec(cls, values, with_options(label, cls, values))


def ruleset_options(given: dict) -> tuple:
    """A ruleset's bots.options as the frontend read them ({bot: (place, {option: (text, key place,
    value place)})}) checked against our bots: ({bot: {option: value}}, [Diagnostic])."""
    values, problems = {}, []
    for name, (where, options) in given.items():
        cls = BOTS.get(name)
        if cls is None:
            hint = did_you_mean(name, BOTS)
            problems.append(Diagnostic(where, f"bots.options: unknown bot '{name}'", "error",
                                       (hint + " " if hint else "") + "A ruleset gives options to the bots of "
                                       f"cardrules: {', '.join(sorted(BOTS))}."))
            continue
        values[name] = option_values(name, cls, options, problems)
    return values, problems


def option_values(name: str, cls, options: dict, problems: list) -> dict:
    """One bot's options from a ruleset, each one it declares (specs.declared_option) with a value
    it accepts (Option.read); what is wrong goes to problems, at the key or the value."""
    out = {}
    for key, (text, key_at, value_at) in options.items():
        try:
            option = declared_option(name, cls, key)
        except UsageError as exc:
            problems.append(Diagnostic(key_at, f"bots.options: {exc}"))
            continue
        try:
            out[key] = option.read(name, text)
        except UsageError as exc:
            problems.append(Diagnostic(value_at, f"bots.options: {exc}"))
    return out


def for_game(text: str, options: dict) -> str:
    """A canonical spec with the options a ruleset gives its bot (bots.options: {name: {option:
    value}}) where the spec gives none: what the bot plays that game with, written out in full."""
    given = options.get(text.partition(":")[0])
    if not given:
        return text
    parsed = parse_bot(text)
    return with_options(parsed.cls.name, parsed.cls, {**given, **parsed.values})


def make_bot(spec: str, seed: int = 0) -> Player:
    """The Player of a bot by name or spec (`NAME`, `NAME:KEY=VALUE,…`, `path/file.py:Class[:…]`,
    `package.module:Class[:…]`) seeded with seed; a bad spec raises UsageError."""
    cls = BOTS.get(spec)
    if cls is not None:                 # a plain name: no parsing
        return Player(cls(seed), spec)
    parsed = parse_bot(spec)
    ours = BOTS.get(parsed.cls.name) is parsed.cls
    if ours:
        return Player(configured(parsed, parsed.cls(seed)), parsed.text)
    try:
        bot = configured(parsed, parsed.cls(seed))
    except Exception as exc:
        raise BotError(f"bot {parsed.text}: making it raised {type(exc).__name__}: {one_line(str(exc))} "
                       "(a bot is made as Class(seed))") from None
    return Player(bot, parsed.text, builtin=False)


def listing() -> list:
    """[(name, class or the UsageError loading it)]: ours, then the installed packages' bots."""
    out = [(name, BOTS[name]) for name in sorted(BOTS)]
    known = Known()
    for name in sorted(known.entries):
        try:
            out.append((name, known[name]))
        except UsageError as exc:
            out.append((name, exc))
    return out
