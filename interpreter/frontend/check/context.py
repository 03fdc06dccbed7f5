"""What one pass of the checker shares: the document, the declarations, the locals, the errors.

`Context` holds the state every part of the checker reads and fills in, with the helpers for
positions, errors and local names; `Scope` says what bare names denote at one place;
`Unresolved` unwinds a rule whose error has been reported.
"""
from __future__ import annotations

import re

from ...errors import Collector, Pos, did_you_mean
from ..loader import Document
from ..parser import DSLSyntaxError, parse
from .vocabulary import BUILTIN_NAMES, FUNCTIONS, KEYWORDS
from .words import line_col


class Unresolved(Exception):
    """Raised inside resolution after an error has been recorded; the node becomes `any`."""


class Scope:
    """What bare names may denote at one place in the rules."""

    def __init__(self, card: bool = False, fn_params: dict | None = None, in_trigger: bool = False):
        self.card = card
        self.fn_params = fn_params or {}
        self.in_trigger = in_trigger

    def with_card(self) -> "Scope":
        return Scope(True, self.fn_params, self.in_trigger)


class Context:
    """The state of one pass over the document: declarations, locals, and the errors found."""

    def __init__(self, doc: Document, overrides: dict | None = None, local_types: dict | None = None):
        self.doc = doc
        self.local_types = local_types or {}    # local name -> type, from a first pass over the whole file
        self.bound: dict = {}                   # local name -> set of types it is bound to in this pass
        self.slot_types: dict = {}              # slot of a card's 'for' variable -> type of its values
        self.var_types: dict = {}               # game variable -> the type of its initial value
        self.card_vars: set = set()             # game variables a rule sets to cards (bots' worlds follow them)
        self.data = doc.data
        self.err = Collector()
        self.overrides = dict(overrides or {})
        self.lo = self.hi = None                # the fewest and most players, once read
        self.params: dict = {}
        self.param_types: dict = {}
        self.zones: dict = {}
        self.vars: dict = {}
        self.functions: dict = {}
        self.fn_keys: dict = {}                 # function name -> its key as written, e.g. 'f(a, b)'
        self.fn_scopes: dict = {}               # function name -> {parameter: slot}
        self.proc_paths: dict = {}              # procedure name -> its path, e.g. ('procedures', 'give(p, n)')
        self.proc_params: dict = {}             # procedure name -> {parameter: slot}
        self.arg_seen: dict = {}                # 'fn.param' -> (type, pos) of the first call's argument
        self.in_params: tuple = ()              # (kind, name, parameters) of the function or procedure being read
        self.attrs: set = set()
        self.slots: dict = {}
        self.step_names: list = []
        self.reported: set = set()
        self.attr_types: dict = {}      # card attribute -> set of value types ('int', 'str', ...), None if unknown
        self.const_checks: list = []    # (expr, what, allowed local slots): worked out before the game starts
        self._texts: set | None = None
        self._binders: set | None = None
        self.play_order: tuple | None = None    # the hidden slots of who is out and the direction (play_order.py)
        self._part_choices: dict = {}           # name of a choose of parts -> its parts' names
        self.not_yet: dict = {}                 # a name bound only after the statement being read -> a hint

    # ---- positions and errors ----
    def pos(self, path) -> Pos:
        return self.doc.pos(path)

    def at(self, path, node) -> Pos:
        """The position of a syntax node inside the DSL text at path."""
        return self.doc.text_pos(path, *node.at)

    def find(self, path, node, pattern: str) -> Pos:
        """The position of group 1 of pattern in the DSL text at path, searched from node on."""
        text = self.get(path)
        if isinstance(text, str):
            lines = text.split("\n")
            line, col = node.at
            start = sum(len(t) + 1 for t in lines[:line]) + col
            m = re.compile(pattern).search(text, start)
            if m:
                return self.doc.text_pos(path, *line_col(text, m.start(1)))
        return self.at(path, node)

    def error(self, path_or_pos, message: str, code: str = "error", hint: str = "") -> None:
        pos = path_or_pos if isinstance(path_or_pos, Pos) else self.pos(path_or_pos)
        if (pos, message) in self.reported:
            return
        self.reported.add((pos, message))
        self.err.error(pos, message, code, hint)

    def suggest(self, name: str, candidates) -> str:
        return did_you_mean(name, candidates)

    # ---- the document ----
    def get(self, path, default=None):
        data = self.data
        for key in path:
            if isinstance(data, dict) and key in data:
                data = data[key]
            elif isinstance(data, list) and isinstance(key, int) and key < len(data):
                data = data[key]
            else:
                return default
        return data

    def parse(self, path, text: str, kind: str):
        """The syntax tree of the DSL text at path; a syntax error is reported and raises Unresolved."""
        try:
            return parse(text, kind)
        except DSLSyntaxError as exc:
            self.error(self.doc.text_pos(path, exc.line, exc.col), exc.message, "syntax", exc.hint)
            raise Unresolved from None

    def text_values(self) -> set:
        """Every text written in a list of the params, the cards' for lists and the zones' per lists."""
        if self._texts is None:
            lists = [self.get(("params",), {})]
            lists += [kind.get("for") for kind in (self.get(("cards",), {}) or {}).values() if isinstance(kind, dict)]
            lists += [zone.get("per") for zone in (self.get(("zones",), {}) or {}).values() if isinstance(zone, dict)]
            self._texts = set()
            todo = [v for v in lists if isinstance(v, (dict, list))]
            while todo:
                value = todo.pop()
                for item in (value.values() if isinstance(value, dict) else value):
                    if isinstance(item, (dict, list)):
                        todo.append(item)
                    elif isinstance(item, str) and isinstance(value, list):
                        self._texts.add(item)
        return self._texts

    # ---- local names ----
    def slot(self, name: str) -> int:
        """The local slot of a name bound by let, for, choose or a function parameter."""
        if name not in self.slots:
            self.slots[name] = len(self.slots)
        return self.slots[name]

    def bind(self, name: str, typ: str, pos: Pos) -> int:
        """The slot of a local bound here to a value of type typ (recorded for the type of its uses)."""
        if name in KEYWORDS or name in BUILTIN_NAMES or name in FUNCTIONS:
            what = "a word of the rules language" if name in KEYWORDS else "a built-in name"
            self.error(pos, f"'{name}' is {what} and cannot name a value of your own", "name",
                       f"pick another name, e.g. '{name}_choice'" if name in KEYWORDS else "pick another name")
            return self.slot("!" + name)    # a slot nothing refers to: the name keeps its built-in meaning
        if self.in_params and name in self.in_params[2]:
            kind, owner = self.in_params[:2]
            self.error(pos, f"'{name}' is a parameter of {kind} '{owner}'; a name bound by let, for or choose "
                       "must differ", "name", "pick another name")
            return self.slot("!" + name)
        taken = next((kind for kind, names in (("parameter", self.params), ("zone", self.zones),
                                               ("variable", self.vars), ("function", self.functions))
                      if name in names), None)
        if taken:
            self.error(pos, f"'{name}' already names a {taken}; a name bound by let, for or choose must differ",
                       "name", "pick another name")
            return self.slot("!" + name)
        self.bound.setdefault(name, set()).add(typ)
        return self.slot(name)

    def local_type(self, name: str) -> str:
        """The type of a local's uses: the one type every binding of the name gives it, else any."""
        return self.local_types.get(name, "any")

    def binders(self) -> set:
        """Every name the file binds with let, for, around, choose or a choice's option."""
        if self._binders is None:
            self._binders = set()
            self._collect_binders(self.data)
        return self._binders

    def parts_chosen(self, name: str) -> list | None:
        """The names of the parts of the choose of parts called `name` (None if there is none)."""
        self.binders()
        return self._part_choices.get(name)

    def _collect_binders(self, data) -> None:
        if isinstance(data, dict):
            if "choose" in data and isinstance(data.get("from"), dict):   # a choice of parts binds each part
                self._binders.update(str(k) for k in data["from"])
                self._part_choices[str(data["choose"])] = [str(k) for k in data["from"]]
            elif "choose" in data:
                self._binders.add(str(data["choose"]))
                for opt in (data.get("options") or {}):
                    self._binders.add(str(opt))
            if isinstance(data.get("for"), str):
                self._binders.add(data["for"].split(" in ")[0].strip())
            if isinstance(data.get("around"), str):
                self._binders.add(data["around"].strip())
            for value in data.values():
                self._collect_binders(value)
        elif isinstance(data, list):
            for value in data:
                self._collect_binders(value)
        elif isinstance(data, str) and data.lstrip().startswith("let "):
            self._binders.add(data.split("=")[0][4:].strip())
