"""No recursion: procedures and functions may call each other, but never themselves, directly or not."""
from __future__ import annotations

from .. import ir
from .context import Context
from .trees import exprs, statements
from .words import either


def check_recursion(cx: Context, procedures: dict) -> None:
    """Procedures may call each other but not themselves, directly or through others."""
    calls = {name: [(s.name, s.pos) for s in statements(body) if isinstance(s, ir.CallS) and s.name in procedures]
             for name, body in procedures.items()}
    for cycle, pos in cycles(calls):
        through = f" through {either([repr(n) for n in cycle[1:-1]])} ({' -> '.join(cycle)})" \
            if len(cycle) > 2 else ""
        cx.error(pos, f"procedure '{cycle[0]}' calls itself{through}", "recursion",
                 "rules have no recursion; repeat statements with a while loop instead")


def check_function_recursion(cx: Context) -> None:
    """Functions may use each other but not themselves, directly or through others."""
    calls = {name: [(e.fn.name, e.pos) for e in exprs(fn.body) if isinstance(e, ir.UserCall)]
             for name, fn in cx.functions.items() if fn.body is not None}
    for cycle, pos in cycles(calls):
        through = f" through {either([repr(n) for n in cycle[1:-1]])} ({' -> '.join(cycle)})" \
            if len(cycle) > 2 else ""
        cx.error(pos, f"function '{cycle[0]}' calls itself{through}", "recursion",
                 "rules have no recursion; count, sum, min, max, any and all go over lists instead")
        for name in cycle:
            cx.functions[name].body = ir.Lit(pos, "any", None)    # so nothing runs it


def cycles(calls: dict):
    """Each cycle of a call graph {name: [(callee, pos)]} once: (names from first to first again, first call's pos)."""
    reported: set = set()
    for start in calls:
        path: list = []

        def visit(name, pos):
            if name in [n for n, _ in path]:
                i = [n for n, _ in path].index(name)
                cycle = path[i:]
                key = frozenset(n for n, _ in cycle)
                if key not in reported and cycle[0][0] == start:
                    reported.add(key)
                    names = [n for n, _ in cycle] + [name]
                    return names, (cycle[1][1] if len(cycle) > 1 else pos)
                return None
            path.append((name, pos))
            try:
                for callee, cpos in calls.get(name, ()):
                    if callee in calls:
                        found = visit(callee, cpos)
                        if found:
                            return found
            finally:
                path.pop()
            return None

        found = visit(start, None)
        if found:
            yield found
