"""Name resolution: what a bare name in the rules denotes, and the errors for names that are not known.

In order: a function's parameter or a card's 'for' variable, a card attribute (inside a where),
a local, a variable, a parameter, a zone, a built-in, a function without parameters; a local
bound further down the file is still a local.
"""
from __future__ import annotations

from .. import ir
from .. import syntax as S
from ...errors import Pos
from .context import Context, Scope, Unresolved
from .resolve import resolver
from .types import attr_type, constant_values
from .vocabulary import BUILTIN_NAMES, KEYWORDS
from .words import show, unknown_name_hint


@resolver(S.Name)
def bare_name(cx: Context, node, pos, path, scope: Scope):
    """A bare name, or the error that says what is wrong with it."""
    name = node.id
    if name in scope.fn_params:
        slot = scope.fn_params[name]
        return ir.Local(pos, cx.slot_types.get(slot, "any"), slot, name)
    if scope.card and name in cx.attrs:
        return ir.CardAttr(pos, attr_type(cx, name), name)
    if name in cx.slots and "." not in name:
        return ir.Local(pos, cx.local_type(name), cx.slots[name], name)
    if name in cx.vars:
        decl = cx.vars[name]
        return ir.Var(pos, cx.var_types.get(name, "any"), decl, None)
    if name in cx.params:
        return ir.Param(pos, cx.param_types[name], name)
    if name in cx.zones:
        decl = cx.zones[name]
        if decl.per is not None:
            family_without_index(cx, decl, pos)
            raise Unresolved
        return ir.ZoneRef(pos, "zone", decl, None, None)
    if name in BUILTIN_NAMES:
        return ir.Builtin(pos, BUILTIN_NAMES[name], name)
    if name in cx.functions and not cx.functions[name].params:
        return ir.UserCall(pos, "any", cx.functions[name], ())
    if name in cx.attrs:
        attribute_outside_card(cx, name, pos, scope)
        raise Unresolved
    late = late_local(cx, name, path)
    if late is not None:
        return ir.Local(pos, cx.local_type(name), late, name)
    unknown_name(cx, name, pos, path, scope)
    raise Unresolved


def attribute_outside_card(cx: Context, name: str, pos: Pos, scope: Scope) -> None:
    """Report a card attribute named where no card is at hand."""
    values = list(cx.params) + list(cx.zones) + list(cx.vars) + list(scope.fn_params)
    close = cx.suggest(name, [k for k in values if k != name])
    cx.error(pos, f"'{name}' is a card attribute, usable only inside a where condition or after a '.'",
             "name", f"{close} (a card's {name} is read as e.g. first(cards).{name})" if close
             else f"e.g. first(cards).{name}")


def unknown_name(cx: Context, name: str, pos: Pos, path, scope: Scope) -> None:
    """Report a keyword, or a name nothing declares (with a hint), where a value should stand."""
    if name in KEYWORDS:
        cx.error(pos, f"'{name}' is a keyword and cannot stand here", "syntax",
                 "a value was expected: a name, a number, a quoted text, a list [...] or (...)")
        return
    known = list(cx.params) + list(cx.zones) + list(cx.vars) + list(cx.slots) + list(BUILTIN_NAMES)
    known += list(cx.functions) + list(scope.fn_params) + (list(cx.attrs) if scope.card else [])
    known += ["true", "false"]
    if name in cx.not_yet:
        hint = cx.not_yet[name]
    elif name in cx.text_values():      # suit == red, for the text 'red' of a param's list
        hint = f"to mean the text '{name}', quote it: '{name}'"
    elif cx.parts_chosen(name) is not None:
        hint = f"choose '{name}' chooses parts, each bound to its own name: {', '.join(cx.parts_chosen(name))}"
    else:
        hint = cx.suggest(name, [k for k in known if "." not in k and "!" not in k]) or \
            unknown_name_hint(name, path)
    cx.error(pos, f"unknown name '{name}'", "name", hint)


def family_without_index(cx: Context, decl: ir.ZoneDecl, pos: Pos) -> None:
    """A zone family named without saying which of its zones."""
    values = constant_values(cx, cx.get(("zones", decl.name, "per")))
    example = show(values[0]) if values else "..."
    owner = "(p)" if decl.per_player else ""
    cx.error(pos, f"'{decl.name}' is a family of zones, one per value of its 'per' list; say which one",
             "zone", f"e.g. {decl.name}{owner}[{example}], or {decl.name}{owner}[m] inside a for loop over them")


def late_local(cx: Context, name: str, path) -> int | None:
    """A local bound later in the file (e.g. by a choose in a later step) is still a local."""
    if name in cx.binders():
        return cx.slot(name)
    return None
