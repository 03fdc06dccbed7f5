"""`together:` moves that happen at once: every move inside takes its cards before any card lands."""
from __future__ import annotations

from .. import ir
from .context import Context, Scope
from .trees import statements

ALLOWED = (ir.MoveS, ir.LetS, ir.IfS, ir.ForS)
WORDS = {ir.ShuffleS: "shuffle", ir.DealS: "deal", ir.SetS: "set", ir.CallS: "call", ir.ExtraS: "extra turn",
         ir.EndS: "end game", ir.RevealS: "reveal", ir.WhileS: "while", ir.StepS: "step", ir.AnnounceS: "announce",
         ir.TellS: "tell"}


def together(cx: Context, path, scope: Scope, block) -> ir.Stmt:
    """The block under `together`, holding only moves and the let, if and for around them."""
    body = block(cx, path + ("together",), scope)
    for s in statements(body):
        if isinstance(s, ir.ChooseS):
            cx.error(s.pos, "a decision cannot stand inside together: its moves all happen at once", "statement",
                     "let each player choose first, moving the chosen cards into a zone of their own "
                     "(e.g. passing(p)), then move those zones on inside together")
        elif isinstance(s, ir.MoveS) and isinstance(s.dest, ir.ZoneRef) and s.dest.decl.alike:
            cx.error(s.pos, f"inside together, cards cannot go to zone '{s.dest.decl.name}', which is declared "
                     "alike", "statement", "move them there after the together block")
        elif not isinstance(s, ALLOWED):
            word = "together" if isinstance(s, ir.TogetherS) else WORDS.get(type(s), "this statement")
            cx.error(s.pos, f"inside together only move, let, if and for may stand, not {word}", "statement",
                     "do the rest before or after the together block")
    return ir.TogetherS(cx.pos(path), body)
