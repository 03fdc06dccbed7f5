"""Load a ruleset's YAML into plain data plus a map from every path to file:line:col."""
from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..errors import Collector, Diagnostic, Pos, RulesetError
from .reading import decode, read_bytes

Path = tuple  # a document path: keys and list indexes from the root

MAX_DEPTH = 60              # deeper nesting than any ruleset needs; stops hostile files early
MAX_NODES = 50_000          # values in a file once its aliases are expanded (a ruleset has a few thousand)
MAX_FILE_BYTES = 500_000    # a ruleset is a few tens of kilobytes (and YAML is read at some 100 kB a second)
PLAIN_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
_ROW_KEY = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")   # a by_players key: 3 or 3-5


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
    raw: list = field(default_factory=list)      # the bytes of each of those files, as read (for its sha256)
    added: dict = field(default_factory=dict)    # path -> base file: keys a variant adds that its base lacks

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


class _TooDeep(Exception):
    """The YAML scanner went deeper than MAX_DEPTH levels of lists and mappings."""

    def __init__(self, mark):
        super().__init__("too deep")
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """SafeLoader: no Python object tags can be constructed; nesting is bounded while scanning
    (the composer recurses once per level, and very deep flow nesting scans in quadratic time)."""

    def fetch_flow_collection_start(self, TokenClass):
        if self.flow_level + len(self.indents) >= MAX_DEPTH:
            raise _TooDeep(self.get_mark())
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column):
        added = super().add_indent(column)
        if added and self.flow_level + len(self.indents) > MAX_DEPTH:
            raise _TooDeep(self.get_mark())
        return added


def _yaml_error(file: str, exc: yaml.YAMLError, text: str = "") -> Diagnostic:
    """A YAML syntax error as a positioned diagnostic, in words for the common mistakes."""
    problem_mark = getattr(exc, "problem_mark", None)
    context_mark = getattr(exc, "context_mark", None)
    mark = problem_mark or context_mark
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None) or ""
    message, hint = f"YAML syntax error: {problem}" + (f" ({context})" if context else ""), \
        "check indentation, colons and quotes on this line or the one before"
    if "'\\t'" in problem:
        message, hint = "YAML syntax error: a tab character; YAML indents with spaces only", \
            "replace the tab with spaces"
    elif context.startswith("while parsing a flow") and context_mark is not None:
        mark, message, hint = _flow_error(problem, context, context_mark, problem_mark, text)
    elif "quoted scalar" in context and context_mark is not None:
        mark = context_mark
        message, hint = "YAML syntax error: this quoted text is never closed", \
            "end it with the same quote it starts with, on the same line"
    elif problem.startswith("expected <block end>") and problem_mark is not None \
            and _open_quote(text, problem_mark.line) is not None:
        mark = _open_quote(text, problem_mark.line)
        message, hint = "YAML syntax error: this quoted text is not closed on its line", \
            "end it with the same quote it starts with; an open quote swallows the lines after it"
    elif problem.startswith("expected <block end>"):
        message, hint = "YAML syntax error: this line is indented differently from the lines before it", \
            "entries of one mapping or list must start in the same column"
    elif problem == "mapping values are not allowed here" and problem_mark is not None \
            and _colonless_line(text, problem_mark) is not None:
        mark = _colonless_line(text, problem_mark)
        message, hint = _missing_colon(text, mark)
    elif problem == "mapping values are not allowed here" and problem_mark is not None \
            and _over_indented(text, problem_mark) is not None:
        mark, above, column = _over_indented(text, problem_mark)
        message = "YAML syntax error: this key is indented more than the ones above it"
        hint = f"start it in the same column as '{above}' (column {column}), as keys of one mapping are"
    elif problem == "mapping values are not allowed here":
        message, hint = "YAML syntax error: a second ':' on this line", \
            "put one key: value on each line, and quote a value that contains ': '"
    elif problem == "could not find expected ':'" and context_mark is not None \
            and context == "while scanning a simple key":
        mark = context_mark
        message, hint = _missing_colon(text, mark)
    elif "another document" in problem:
        message, hint = "YAML syntax error: a second document in the file ('---')", \
            "a ruleset is one YAML document: remove the '---' line and join the parts"
    elif problem == "could not find expected ':'":
        message, hint = "YAML syntax error: a line without 'key: value' inside a mapping", \
            "write key: value, start a list item with '- ', or join the line to the one before"
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    return Diagnostic(Pos(file, line, col), message, "yaml-syntax", hint)


def _flow_error(problem: str, context: str, context_mark, problem_mark, text: str) -> tuple:
    """(mark, message, hint) for a mistake inside a [...] list or {...} mapping written on a line."""
    if problem_mark is not None and problem_mark.line == context_mark.line and _found(problem) in ("'['", "'{'"):
        # [move pile[f] to hand]: a bracket inside an unquoted item of a [...] list
        inside = "[...] list" if "sequence" in context else "{...} mapping"
        row = text.split("\n")[context_mark.line] if text else ""
        item = row[context_mark.column + 1:row.rfind("]")].strip() if "sequence" in context else ""
        example = f'["{item}"]' if item and "," not in item and '"' not in item else '["move top of draw to pile[c]"]'
        return (problem_mark, f"YAML syntax error: unexpected {_found(problem)} inside this {inside}",
                f"quote each item that holds brackets or ': ', e.g. {example}")
    bracket = "[" if "sequence" in context else "{"
    closer = "]" if bracket == "[" else "}"
    where = f"line {problem_mark.line + 1}" if problem_mark else "the end of the file"
    return (context_mark, f"YAML syntax error: this '{bracket}' is never closed (found {_found(problem)} on {where})",
            f"add '{closer}' at the end of the {'list' if bracket == '[' else 'mapping'}")


def _code(line: str) -> str:
    """A line without its comment (a ' #' outside quotes)."""
    quote = None
    for i, ch in enumerate(line):
        if quote is None and ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
        if quote is None and ch in "'\"":
            quote = ch
        elif ch == quote:
            quote = None
    return line


def _has_colon(code: str) -> bool:
    """Whether a line holds a 'key:' (a ':' at its end or before a space)."""
    return any(code[i] == ":" and (i + 1 == len(code) or code[i + 1] in " \t") for i in range(len(code)))


def _key_line_above(lines: list, mark):
    """The last line with code above the mark's, when the mark is at its line's first ':'; else None."""
    if mark.line >= len(lines) or _has_colon(_code(lines[mark.line])[:mark.column]):
        return None
    n = mark.line - 1
    while n >= 0 and not _code(lines[n]).strip():
        n -= 1
    return n if n >= 0 else None


def _colonless_line(text: str, mark):
    """For "mapping values are not allowed here" on a line whose first 'key:' is the bad one: the
    line before it, with no ':' at all, whose words the scanner read on into this key (a missing
    ':' there, as in '- step collect' above 'do: [...]'). None if the mistake is not that."""
    lines = text.split("\n")
    n = _key_line_above(lines, mark)
    if n is None:
        return None
    code = _code(lines[n])
    if _has_colon(code) or code.rstrip().endswith((",", "[", "{")) or any(q in code for q in "'\"[{"):
        return None
    start = len(code) - len(code.lstrip(" -"))
    return _Mark(n, start)


def _over_indented(text: str, mark):
    """For "mapping values are not allowed here" at the first ':' of a line indented more than the
    'key: value' line above it (YAML read the line on into that value): the key's start, the key
    above and its column. None if the mistake is not that."""
    lines = text.split("\n")
    n = _key_line_above(lines, mark)
    if n is None:
        return None
    row, above = lines[mark.line], _code(lines[n])
    indent, above_indent = len(row) - len(row.lstrip(" ")), len(above) - len(above.lstrip(" -"))
    key, colon, value = above[above_indent:].partition(": ")
    if not colon or not value.strip() or value.strip()[0] in "[{|>'\"" or indent <= above_indent:
        return None
    return _Mark(mark.line, indent), key.strip(), above_indent + 1


def _missing_colon(text: str, mark) -> tuple:
    """Message and hint for a key on this line written without its ':' ('threshold 4')."""
    lines = text.split("\n")
    code = _code(lines[mark.line] if mark.line < len(lines) else "")[mark.column:].rstrip()
    n = mark.line - 1
    while 0 <= n < len(lines) and not _code(lines[n]).strip():
        n -= 1
    above = _code(lines[n]) if n >= 0 else ""
    if above[mark.column:mark.column + 2] == "- " and not above[:mark.column].strip():
        return ("YAML syntax error: this line stands in a list but does not start with '- '",
                f"did you mean '- {code}'? every item of a list starts with '- '")
    key, _, rest = code.partition(" ")
    if key and rest.strip() and not key.endswith(":"):
        return (f"YAML syntax error: missing ':' after '{key}'",
                f"did you mean '{key}: {rest.strip()}'? a key is followed by ': ' and its value")
    return ("YAML syntax error: a line without 'key: value' inside a mapping",
            "write key: value, start a list item with '- ', or join the line to the one before")


class _Mark:
    """A 0-based line and column, like a yaml Mark."""

    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


def _open_quote(text: str, before: int):
    """The opening quote of a quoted text left open on one of the lines just before line `before`."""
    lines = text.split("\n")
    for n in range(before - 1, max(-1, before - 30), -1):
        line = lines[n] if n < len(lines) else ""
        quote, start, i = None, 0, 0
        while i < len(line):
            ch = line[i]
            if quote is None and ch == "#" and (i == 0 or line[i - 1] in " \t"):
                break
            if quote is None and ch in "'\"" and (i == 0 or line[i - 1] in " \t[{,:-"):
                quote, start = ch, i
            elif quote == '"' and ch == "\\":
                i += 1
            elif quote == "'" and ch == "'" and line[i + 1:i + 2] == "'":
                i += 1
            elif ch == quote:
                quote = None
            i += 1
        if quote is not None:
            return _Mark(n, start)
    return None


def _found(problem: str) -> str:
    """What a YAML parser found instead, from its message ("expected ',' or ']', but got ':'")."""
    found = problem.rsplit("but got ", 1)[-1] if "but got " in problem else "something else"
    return "the end of the file" if found == "'<stream end>'" else found


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
        if not isinstance(node, yaml.ScalarNode) and node.tag not in PLAIN_TAGS:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.errors.error(self.pos(node), f"the YAML tag '{tag}' is not allowed in a ruleset", "yaml-tag",
                              "remove the tag: a ruleset holds plain numbers, words, lists and mappings")
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        indent = 0
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            indent = self._block_indent(node)
        scalar = Scalar(self.pos(node), getattr(node, "style", None), indent)
        self.doc.values[path] = scalar
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        try:
            value = _Loader.construct_scalar_value(node)
        except yaml.YAMLError:
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.errors.error(self.pos(node), f"the YAML tag '{tag}' is not allowed in a ruleset", "yaml-tag",
                              "remove the tag: a ruleset holds plain numbers, words, lists and mappings")
            value = node.value
        except (ValueError, TypeError, AttributeError, OverflowError):
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.errors.error(self.pos(node), f"'{node.value}' is not a valid {tag}", "yaml-tag",
                              f"remove the tag {tag}, or write a value that fits it")
            value = node.value
        if not isinstance(value, (str, int, float, bool, type(None))):
            value = str(node.value)     # dates, binary and other YAML types are read as their text
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
                self.errors.error(self.pos(key_node), "a key must be a plain name", "bad-key",
                                  "write the key as a word, not as a list or mapping")
                continue
            try:
                key = _Loader.construct_scalar_value(key_node)
            except (yaml.YAMLError, ValueError, TypeError, AttributeError, OverflowError):
                key = key_node.value
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                key = key_node.value    # `on:`, `no:` or `null:` name things; only numbers stay numbers (by_players)
            if key in out:
                first = self.doc.keys[path + (key,)]
                self.errors.error(self.pos(key_node), f"duplicate key '{key}' (first defined at line {first.line})",
                                  "duplicate-key", "remove one of them or rename it")
                continue
            self.doc.keys[path + (key,)] = self.pos(key_node)
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out


_CONSTRUCTOR = _Loader("")


def _construct_scalar_value(node):
    """Resolve a scalar node to int/float/bool/None/str with the safe loader's rules (no Python objects:
    an unknown tag such as !!python/object raises a YAMLError)."""
    _CONSTRUCTOR.constructed_objects.clear()
    _CONSTRUCTOR.recursive_objects.clear()
    return _CONSTRUCTOR.construct_object(node)


_Loader.construct_scalar_value = staticmethod(_construct_scalar_value)


def _nbsp_in_indent(file: str, text: str) -> None:
    """Refuse a no-break space (U+00A0) in a line's indentation, where it looks like a space but YAML
    reads it as text (the line's key then starts with it): one error per such line."""
    found = []
    for n, line in enumerate(text.split("\n"), 1):
        lead = line[:len(line) - len(line.lstrip(" \t\u00a0"))]
        if "\u00a0" in lead:
            found.append(Diagnostic(Pos(file, n, lead.index("\u00a0") + 1), "a no-break space (U+00A0) in the "
                                    "indentation of this line: YAML indents with plain spaces only", "yaml-syntax",
                                    "replace it with a plain space (an editor or a copy from a web page put it here)"))
    if found:
        raise RulesetError(found)


def _compose(file: str, text: str):
    """The YAML node tree of text (None when empty), its nesting and alias expansion bounded."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise RulesetError([_yaml_error(file, exc, text)]) from None
    except _TooDeep as exc:
        raise RulesetError([_too_deep(file, exc.mark)]) from None
    except RecursionError:      # not reached (the scanner bounds the nesting); the composer recurses
        raise RulesetError([_too_deep(file, None)]) from None
    if node is not None:
        _check_size(file, node)
    return node


def _load_one(file: str, texts: dict | None = None) -> Document:
    """Load a single YAML file, without following extends (its bytes from `texts` when given)."""
    raw = read_bytes(file, MAX_FILE_BYTES) if texts is None else texts[file]
    text = decode(file, raw)
    doc = Document(None, file, sources=[file], raw=[raw])
    _nbsp_in_indent(file, text)
    node = _compose(file, text)
    if node is None:
        raise RulesetError([Diagnostic(Pos(file, 1, 1), "the file is empty", "empty",
                                       "a ruleset needs at least name, players, zones and turn")])
    errors = Collector()
    doc.data = _Builder(file, doc, errors).build(node, ())
    errors.raise_if_any()
    return doc


def load_value(text: str, where: str = "--set", col: int = 1) -> Any:
    """A value written as YAML outside a file (the VALUE of --set NAME=VALUE, which starts at column
    col of the option) as plain data, through the same guards as a file; else a RulesetError at
    where:LINE:COL."""
    try:
        if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise RulesetError([Diagnostic(Pos(where, 1, 1), f"the value is too large (more than "
                                           f"{MAX_FILE_BYTES:,} bytes)", "too-large", "give a short value")])
        _nbsp_in_indent(where, text)
        node = _compose(where, text)
        if node is None:
            return None
        errors = Collector()
        value = _Builder(where, Document(None, where), errors).build(node, ())
        errors.raise_if_any()
        return value
    except RulesetError as exc:
        raise RulesetError([_shifted(d, col - 1) for d in exc.diagnostics]) from None


def _shifted(d: Diagnostic, cols: int) -> Diagnostic:
    """d moved right by cols columns on its first line (for a value that starts inside a longer text)."""
    if d.pos.line != 1:
        return d
    return Diagnostic(Pos(d.pos.file, 1, d.pos.col + cols), d.message, d.code, d.hint, d.severity)


def _mark_pos(file: str, mark) -> Pos:
    return Pos(file, mark.line + 1, mark.column + 1)


def _too_deep(file: str, mark) -> Diagnostic:
    pos = _mark_pos(file, mark) if mark is not None else Pos(file, 1, 1)
    return Diagnostic(pos, f"lists and mappings are nested too deeply here (more than {MAX_DEPTH} levels)",
                      "too-large", "a ruleset needs far less nesting")


def _check_size(file: str, root) -> None:
    """Refuse a node graph nested too deeply, too large once its aliases (*name) are expanded (a
    "billion laughs" file), or with an alias inside itself; walked without recursion, each node once."""
    size: dict = {}         # id(node) -> its size with aliases expanded
    open_: set = set()      # the nodes on the path from the root (an alias to one of them is a cycle)
    todo = [(root, 0, False)]
    while todo:
        node, depth, done = todo.pop()
        key = id(node)
        kids = [] if isinstance(node, yaml.ScalarNode) else \
            [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else node.value
        if done:
            open_.discard(key)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            if size[key] > MAX_NODES:
                raise RulesetError([Diagnostic(
                    _mark_pos(file, node.start_mark), f"the file is too large: this part holds more than "
                    f"{MAX_NODES:,} values once its aliases (*name) are expanded", "too-large",
                    "a ruleset needs far less; write the values out, or use fewer aliases")])
            continue
        if key in size:
            continue
        if key in open_:
            raise RulesetError([Diagnostic(_mark_pos(file, node.start_mark), "an alias (*name) inside the very "
                                           "value it names: it would never end", "too-large",
                                           "an alias may only repeat a value defined before it, outside it")])
        if depth > MAX_DEPTH:
            raise RulesetError([_too_deep(file, node.start_mark)])
        open_.add(key)
        todo.append((node, depth, True))
        todo.extend((k, depth + 1, False) for k in kids if id(k) not in size)


def _merge(base: Document, top: Document, into: Document, path: Path = ()) -> Any:
    """Deep-merge top over base: mappings merge key by key, by_players tables row by row (see _merge_rows);
    everything else replaces. Keys top adds that base lacks are noted in into.added."""
    b, t = _get(base.data, path), _get(top.data, path)
    if isinstance(b, dict) and isinstance(t, dict) and path[-1:] == ("by_players",):
        return _merge_rows(base, top, into, path)
    if isinstance(b, dict) and isinstance(t, dict):
        into.values[path] = top.values.get(path) or base.values.get(path)
        out = {}
        for key in list(b) + [k for k in t if k not in b]:
            if key in t:
                out[key] = _merge(base, top, into, path + (key,)) if key in b else _copy(top, into, path + (key,))
                into.keys[path + (key,)] = top.keys.get(path + (key,))
                if key not in b:
                    into.added[path + (key,)] = base.file
            else:
                out[key] = _copy(base, into, path + (key,))
                into.keys[path + (key,)] = base.keys.get(path + (key,))
        return out
    return _copy(top, into, path)


def _interval(key) -> tuple | None:
    """The player counts a by_players key stands for, as (first, last): 3 gives (3, 3), 3-5 gives
    (3, 5); None for a key that is neither (or an empty range)."""
    m = _ROW_KEY.match(str(key))
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2) or m.group(1))
    return (a, b) if a <= b else None


def _row_key(a: int, b: int):
    """The by_players key for counts a..b, written the way YAML reads it (3 is a number, 3-4 a text)."""
    return a if a == b else f"{a}-{b}"


def _minus(span: tuple, taken: list) -> list:
    """The parts of the interval span that none of the intervals taken covers, in order."""
    parts, start = [], span[0]
    for a, b in sorted(taken):
        if b < start or a > span[1]:
            continue
        if a > start:
            parts.append((start, a - 1))
        start = max(start, b + 1)
    if start <= span[1]:
        parts.append((start, span[1]))
    return parts


def _merge_rows(base: Document, top: Document, into: Document, path: Path) -> dict:
    """A variant's by_players rows replace the base's rows for exactly their player counts: a base
    range they overlap keeps its other counts (base 3-5 under a variant's 4 gives 3, 4 and 5), each
    part with the base row's positions. Keys that are not counts are kept, for the checker to report."""
    b, t = _get(base.data, path), _get(top.data, path)
    into.values[path] = top.values.get(path) or base.values.get(path)
    taken = [span for span in map(_interval, t) if span is not None]
    out: dict = {}
    for key in b:
        span = _interval(key)
        parts = [span] if span is None else _minus(span, taken)
        for part in parts:
            new = key if part is None or part == span else _row_key(*part)
            if new not in t:
                out[new] = _copy_as(base, into, path + (key,), path + (new,))
    for key in t:
        out[key] = _copy(top, into, path + (key,))
        into.keys[path + (key,)] = top.keys.get(path + (key,))
    return out


def _copy_as(src: Document, into: Document, path: Path, new: Path) -> Any:
    """Copy the subtree at path from src to the path new, with its positions (a split row keeps its own)."""
    n = len(path)
    for p, sc in src.values.items():
        if p[:n] == path:
            into.values[new + p[n:]] = sc
    for p, pos in src.keys.items():
        if p[:n] == path:
            into.keys[new + p[n:]] = pos
    return _get(src.data, path)


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


def load(file: str, _seen: tuple = (), _root: str | None = None, texts: dict | None = None) -> Document:
    """Load a ruleset file, following `extends:` to its base (relative to the file).

    A base must lie beside the file the user named or in a folder below it (`_root`): a ruleset
    cannot make cardrules read any other file. With `texts` ({path: bytes}, the `sources` and `raw`
    of a Document loaded before), the files are read from there: a worker needs no shared disk."""
    root = _root or os.path.realpath(os.path.dirname(os.path.abspath(file)))
    doc = _load_one(file, texts)
    base_name = doc.data.get("extends") if isinstance(doc.data, dict) else None
    if base_name is None:
        return doc
    pos = doc.pos(("extends",))
    if texts is not None:        # loaded and checked from the disk before: the same files again
        base_file = os.path.normpath(os.path.join(os.path.dirname(file), base_name))
        return _extended(file, doc, load(base_file, _seen, root, texts), pos, base_name)
    if not isinstance(base_name, str) or not base_name.strip():
        raise RulesetError([Diagnostic(pos, "extends must name a ruleset file", "bad-extends",
                                       "e.g. extends: base.yaml, relative to this file")])
    base_file = os.path.normpath(os.path.join(os.path.dirname(file), base_name.replace("\0", "")))
    real = os.path.realpath(base_file)
    if "\0" in base_name or os.path.isabs(base_name) or os.path.commonpath([root, real]) != root:
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}' points outside the ruleset's folder",
                                       "bad-extends", "a base ruleset must lie beside the ruleset you named, "
                                       "or in a folder below it; name it relative to this file")])
    if os.path.abspath(base_file) in _seen + (os.path.abspath(file),):
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}' leads back to this file", "bad-extends",
                                       "a variant extends a base; the base must not extend the variant")])
    if os.path.exists(base_file) and not os.path.isfile(base_file):
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}' is not a file (a folder, pipe or device)",
                                       "bad-extends", "name the base ruleset file, such as base.yaml")])
    if not os.path.isfile(base_file):
        try:
            names = sorted(n for n in os.listdir(os.path.dirname(base_file) or ".") if n.endswith((".yaml", ".yml")))
        except OSError:
            names = []
        close = difflib.get_close_matches(os.path.basename(base_file), names, n=1, cutoff=0.6)
        hint = f"did you mean '{os.path.join(os.path.dirname(base_name), close[0])}'?" if close else \
            "name the base ruleset relative to this file"
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}': no such file beside {os.path.basename(file)}",
                                       "bad-extends", hint)])
    return _extended(file, doc, load(base_file, _seen + (os.path.abspath(file),), root), pos, base_name)


def _extended(file: str, doc: Document, base: Document, pos: Pos, base_name: str) -> Document:
    """A ruleset merged onto the base it extends."""
    if not isinstance(base.data, dict):
        raise RulesetError([Diagnostic(pos, f"extends '{base_name}': that file is not a ruleset (a mapping of keys)",
                                       "bad-extends", "name the base ruleset file, such as base.yaml")])
    merged = Document(None, file, sources=base.sources + [file], raw=base.raw + doc.raw, added=dict(base.added))
    merged.data = _merge(base, doc, merged)
    merged.data.pop("extends", None)
    return merged
