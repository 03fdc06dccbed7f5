"""Load a ruleset's YAML into plain data plus a map from every path to file:line:col."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import Collector, Diagnostic, Pos, RulesetError

Path = tuple  # a document path: keys and list indexes from the root

MAX_DEPTH = 60          # deeper nesting than any ruleset needs; stops hostile files early
MAX_NODES = 200_000


@dataclass
class Scalar:
    """Where a scalar's text starts and how it was written (for positions inside DSL text)."""

    pos: Pos
    style: str | None   # None plain, '"' or "'" quoted, '|' literal, '>' folded
    indent: int = 0     # block scalars: the column (0-based) their lines start at
    src: str = ""       # the scalar's text as written in the file, quotes and line breaks included
    value: str = ""     # the string it stands for
    _offsets: list | None = field(default=None, repr=False, compare=False)

    def source_offset(self, k: int) -> int | None:
        """Where character k of the value was written, as an offset into src (None if unknown)."""
        if self._offsets is None:
            self._offsets = _align(self.value, self.src, self.style == '"')
        offsets = self._offsets
        if not offsets:
            return None
        if k < len(offsets):
            return offsets[k]
        return offsets[-1] + 1 + (k - len(offsets))   # just past the end of the text

    def source_pos(self, k: int) -> Pos | None:
        """The file position of character k of the value."""
        off = self.source_offset(k)
        if off is None:
            return None
        before = self.src[:off]
        newlines = before.count("\n")
        if not newlines:
            return Pos(self.pos.file, self.pos.line, self.pos.col + off)
        return Pos(self.pos.file, self.pos.line + newlines, off - before.rfind("\n"))


def _align(value: str, src: str, escapes: bool = False) -> list:
    """For each character of a scalar's value, its offset in the source text (empty if they differ).

    The value is a subsequence of the source except where YAML folds line breaks and indentation
    into one space or newline, drops quotes, or reads an escape; a space or newline of the value
    therefore matches any whitespace of the source, and an escape (double quotes) stands for the
    one character it makes.
    """
    out, s, n = [], 0, len(src)
    for ch in value:
        while s < n:
            if escapes and src[s] == "\\":
                if s + 1 < n and src[s + 1] in "\r\n":
                    s += 2                          # an escaped line break makes nothing
                    continue
                out.append(s)
                s += _ESCAPE_LEN.get(src[s + 1:s + 2], 2)
                break
            if src[s] == ch or (ch in " \n" and src[s] in " \t\r\n"):
                out.append(s)
                s += 1
                break
            s += 1
        else:
            return []
    return out


_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}


@dataclass
class Document:
    """A loaded ruleset: plain data plus source positions by path."""

    data: Any
    file: str
    values: dict = field(default_factory=dict)   # path -> Scalar (value node start)
    keys: dict = field(default_factory=dict)     # path -> Pos of the mapping key
    sources: list = field(default_factory=list)  # every file read, base files first

    def pos(self, path: Path) -> Pos:
        """The position of the value at path, else of its nearest ancestor."""
        path = tuple(path)
        while path:
            if path in self.values:
                return self.values[path].pos
            path = path[:-1]
        return self.values.get((), Scalar(Pos(self.file, 1, 1), None)).pos

    def key_pos(self, path: Path) -> Pos:
        """The position of the key naming path (the value's position for list items)."""
        path = tuple(path)
        return self.keys.get(path) or self.pos(path)

    def text_pos(self, path: Path, line: int, col: int) -> Pos:
        """Position of 0-based (line, col) inside the scalar string at path."""
        sc = self.values.get(tuple(path))
        if sc is None:
            return self.pos(path)
        if sc.src and sc.value:
            lines = sc.value.split("\n")
            k = sum(len(text) + 1 for text in lines[:line]) + col
            exact = sc.source_pos(k)
            if exact is not None:
                return exact
        base = sc.pos
        if sc.style in ("|", ">"):
            return Pos(base.file, base.line + 1 + line, sc.indent + 1 + col)
        if line == 0:
            shift = 1 if sc.style in ('"', "'") else 0
            return Pos(base.file, base.line, base.col + shift + col)
        return Pos(base.file, base.line + line, col + 1)


class _Loader(yaml.SafeLoader):
    """SafeLoader: no Python object tags can be constructed."""


def _yaml_error(file: str, exc: yaml.YAMLError) -> Diagnostic:
    """A YAML syntax error as a positioned diagnostic."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    msg = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    return Diagnostic(Pos(file, line, col), msg, "yaml-syntax",
                      "check indentation, colons and quotes on this line or the one before")


class _Builder:
    """Turns a composed YAML node tree into plain data, recording positions."""

    def __init__(self, file: str, doc: Document, errors: Collector):
        self.file, self.doc, self.errors = file, doc, errors
        self.count = 0

    def pos(self, node) -> Pos:
        return Pos(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def build(self, node, path: Path, depth: int = 0) -> Any:
        self.count += 1
        if depth > MAX_DEPTH or self.count > MAX_NODES:
            raise RulesetError([Diagnostic(self.pos(node), "the file is nested too deeply or is too large",
                                           "too-large", "a ruleset needs far less")])
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        indent = 0
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            indent = self._block_indent(node)
        scalar = Scalar(self.pos(node), getattr(node, "style", None), indent)
        self.doc.values[path] = scalar
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        value = _Loader.construct_scalar_value(node)
        if isinstance(value, str) and node.start_mark.buffer is not None:
            scalar.src = node.start_mark.buffer[node.start_mark.index:node.end_mark.index]
            scalar.value = value
        return value

    def _block_indent(self, node) -> int:
        """Column at which a block scalar's text lines begin."""
        buf = node.start_mark.buffer or ""
        idx = node.start_mark.index
        nl = buf.find("\n", idx)
        if nl < 0:
            return node.start_mark.column
        rest = buf[nl + 1:]
        for line in rest.split("\n"):
            if line.strip():
                return len(line) - len(line.lstrip(" "))
        return node.start_mark.column

    def mapping(self, node, path: Path, depth: int) -> dict:
        self.doc.values[path] = Scalar(self.pos(node), None)
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.errors.error(self.pos(key_node), "a key must be a plain name", "bad-key")
                continue
            key = _Loader.construct_scalar_value(key_node)
            key = key if isinstance(key, (str, int)) else str(key)
            if key in out:
                first = self.doc.keys[path + (key,)]
                self.errors.error(self.pos(key_node), f"duplicate key '{key}' (first defined at line {first.line})",
                                  "duplicate-key", "remove one of them or rename it")
                continue
            self.doc.keys[path + (key,)] = self.pos(key_node)
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out


def _construct_scalar_value(node):
    """Resolve a scalar node to int/float/bool/None/str with the safe loader's rules."""
    loader = _Loader("")
    return loader.construct_object(node)


_Loader.construct_scalar_value = staticmethod(_construct_scalar_value)


def _read(file: str) -> str:
    try:
        with open(file, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        from .errors import UsageError
        raise UsageError(f"{file}: cannot read the file: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        from .errors import UsageError
        raise UsageError(f"{file}: the file is not UTF-8 text") from None


def _load_one(file: str) -> Document:
    """Load a single YAML file, without following extends."""
    text = _read(file)
    doc = Document(None, file, sources=[file])
    errors = Collector()
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise RulesetError([_yaml_error(file, exc)]) from None
    if node is None:
        raise RulesetError([Diagnostic(Pos(file, 1, 1), "the file is empty", "empty",
                                       "a ruleset needs at least name, players, zones and turn")])
    doc.data = _Builder(file, doc, errors).build(node, ())
    errors.raise_if_any()
    return doc


def _merge(base: Document, top: Document, into: Document, path: Path = ()) -> Any:
    """Deep-merge top over base (mappings merge, everything else replaces)."""
    b, t = _get(base.data, path), _get(top.data, path)
    if isinstance(b, dict) and isinstance(t, dict):
        into.values[path] = top.values.get(path) or base.values.get(path)
        out = {}
        for key in list(b) + [k for k in t if k not in b]:
            if key in t:
                out[key] = _merge(base, top, into, path + (key,)) if key in b else _copy(top, into, path + (key,))
                into.keys[path + (key,)] = top.keys.get(path + (key,))
            else:
                out[key] = _copy(base, into, path + (key,))
                into.keys[path + (key,)] = base.keys.get(path + (key,))
        return out
    return _copy(top, into, path)


def _copy(src: Document, into: Document, path: Path) -> Any:
    """Copy the subtree at path from src, with its positions."""
    n = len(path)
    for p, sc in src.values.items():
        if p[:n] == path:
            into.values[p] = sc
    for p, pos in src.keys.items():
        if p[:n] == path and len(p) > n:
            into.keys[p] = pos
    return _get(src.data, path)


def _get(data, path: Path):
    for key in path:
        data = data[key]
    return data


def load(file: str, _seen: tuple = ()) -> Document:
    """Load a ruleset file, following `extends:` to its base (relative to the file)."""
    doc = _load_one(file)
    base_name = doc.data.get("extends") if isinstance(doc.data, dict) else None
    if base_name is None:
        return doc
    pos = doc.pos(("extends",))
    if not isinstance(base_name, str):
        raise RulesetError([Diagnostic(pos, "extends must name a ruleset file", "bad-extends")])
    base_file = os.path.normpath(os.path.join(os.path.dirname(file), base_name))
    if os.path.abspath(base_file) in _seen + (os.path.abspath(file),):
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}' leads back to this file", "bad-extends",
                                       "a variant extends a base; the base must not extend the variant")])
    if not os.path.isfile(base_file):
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}': no such file beside {os.path.basename(file)}",
                                       "bad-extends", "name the base ruleset relative to this file")])
    base = load(base_file, _seen + (os.path.abspath(file),))
    merged = Document(None, file, sources=base.sources + [file])
    merged.data = _merge(base, doc, merged)
    merged.data.pop("extends", None)
    return merged
