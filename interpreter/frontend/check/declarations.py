"""Declarations of zones, variables, functions and procedures, which share one namespace with params."""
from __future__ import annotations

from .. import ir
from ..parser import DSLSyntaxError, parse
from .context import Context, Scope
from .params import check_scalar_items
from .resolve import value
from .statements import block
from .types import expect
from .vocabulary import BUILTIN_NAMES, FUNCTIONS, KEYWORDS


def declare_zones(cx: Context) -> None:
    for i, (name, spec) in enumerate((cx.get(("zones",), {}) or {}).items()):
        path = ("zones", name)
        check_new_name(cx, name, path, "zone")
        spec = spec or {}
        per_player = spec.get("owner", "table") == "each"
        visible = spec.get("visible", "owner" if per_player else "everyone")
        if visible in ("owner", "others") and not per_player:
            whom = "to see it" if visible == "owner" else "to hide it from"
            cx.error(path + ("visible",), f"zone '{name}' belongs to the table, so it has no owner {whom}",
                     "zone", "use visible: everyone or nobody, or owner: each")
        cx.zones[name] = ir.ZoneDecl(name, i, per_player, spec.get("per"), visible, [], cx.pos(path),
                                     spec.get("alike") is True)


def finish_zone(cx: Context, decl: ir.ZoneDecl) -> None:
    """A zone's index list (a family's 'per') and its on_empty trigger, once every name is declared."""
    path = ("zones", decl.name)
    if decl.per is not None:
        decl.per = value(cx, path + ("per",), Scope())
        expect(cx, decl.per, {"list"}, "the index list of a zone family",
               "give a list, or the name of a param holding one, e.g. per: suits")
        cx.const_checks.append((decl.per, "the index list of a zone family", set()))
        check_scalar_items(cx, path + ("per",), f"the values of zone family '{decl.name}'", unique=True)
    decl.on_empty = block(cx, path + ("on_empty",), Scope(in_trigger=True))


def declare_vars(cx: Context) -> None:
    for i, (name, spec) in enumerate((cx.get(("vars",), {}) or {}).items()):
        path = ("vars", name)
        check_new_name(cx, name, path, "variable")
        spec = spec if isinstance(spec, dict) else {"initial": spec}
        cx.vars[name] = ir.VarDecl(name, i, spec.get("owner", "table") == "each", None, cx.pos(path))


def signatures(cx: Context, section: str, like: str):
    """(key, path, signature) of each key of a section that reads as a name with parameters; a key
    that does not is an error at the key."""
    for key in (cx.get((section,), {}) or {}):
        path = (section, key)
        try:
            yield key, path, parse(str(key), "sig")
        except DSLSyntaxError:
            cx.error(cx.doc.key_pos(path), f"'{key}' is not {like}", "syntax",
                     "parameters are names separated by commas")


def declare_functions(cx: Context) -> None:
    """Each function's name and parameters (from its key, e.g. 'f(a, b)'); bodies are read later."""
    for key, path, sig in signatures(cx, "functions", "a function name like f or f(a, b)"):
        if sig.name in cx.functions:
            cx.error(cx.doc.key_pos(path), f"function '{sig.name}' is declared twice", "name",
                     f"the first is '{cx.fn_keys[sig.name]}'; give each function its own name")
            continue
        check_new_name(cx, sig.name, path, "function")
        scope = typed_params(cx, sig)
        cx.fn_keys[sig.name], cx.fn_scopes[sig.name] = key, scope
        cx.functions[sig.name] = ir.FunctionDecl(sig.name, list(scope.values()), None, cx.pos(path))


def declare_procedures(cx: Context) -> None:
    """Each procedure's name and parameters (from its key, e.g. 'give(p, n)'); bodies are read later."""
    for key, path, sig in signatures(cx, "procedures", "a procedure name like tidy or give(p, n)"):
        if sig.name in cx.proc_paths:
            cx.error(cx.doc.key_pos(path), f"procedure '{sig.name}' is declared twice", "name",
                     "give each procedure its own name")
            continue
        check_new_name(cx, sig.name, path, "procedure")
        cx.proc_paths[sig.name] = path
        cx.proc_params[sig.name] = typed_params(cx, sig)


def typed_params(cx: Context, sig) -> dict:
    """{parameter: slot} of a function or procedure; each slot typed by what its calls pass (learnt
    by the checker's first passes, see calls.check_argument), 'any' while nothing calls it."""
    scope = {p: cx.slot(f"{sig.name}.{p}") for p in sig.params}
    for p, slot in scope.items():
        cx.slot_types[slot] = cx.local_types.get(f"{sig.name}.{p}", "any")
    return scope


def check_new_name(cx: Context, name: str, path, what: str) -> None:
    """Zones, params, vars and functions share one namespace."""
    taken = {"parameter": cx.params, "zone": cx.zones, "variable": cx.vars, "function": cx.functions}
    for kind, names in taken.items():
        if name in names and kind != what:
            cx.error(cx.doc.key_pos(path), f"'{name}' names both a {kind} and a {what}", "name",
                     "give each its own name")
    if name in KEYWORDS or name in BUILTIN_NAMES or name in FUNCTIONS:
        cx.error(cx.doc.key_pos(path), f"'{name}' is a reserved word and cannot name a {what}", "name",
                 "pick another name")
