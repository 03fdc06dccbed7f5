"""Parse DSL strings with the lark grammar into syntax nodes (see syntax.py)."""
from __future__ import annotations

import functools
import os

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from . import syntax as S
from ..errors import closest

GRAMMAR = os.path.join(os.path.dirname(__file__), "grammar.lark")
MAX_NESTING = 100   # deeper than any rule needs; deeper still would overflow the stages after parsing
_LEVEL, _CHAINS = 3, ("binop", "and_", "or_")    # a level costs 3 links of a flat chain of these
MAX_RULE_CHARS = 10_000     # the longest shipped rule has a few hundred; parsing time grows with length
START = {"expr": "start_expr", "stmt": "start_stmt", "for": "start_for", "sig": "start_sig"}


class DSLSyntaxError(Exception):
    """A syntax error inside one DSL string; line and col are 0-based within it."""

    def __init__(self, line: int, col: int, message: str, hint: str = ""):
        super().__init__(message)
        self.line, self.col, self.message, self.hint = line, col, message, hint


@functools.lru_cache(maxsize=None)
def _lark() -> Lark:
    with open(GRAMMAR, encoding="utf-8") as fh:
        return Lark(fh.read(), parser="lalr", propagate_positions=True,
                    start=list(START.values()), maybe_placeholders=True)


def _at(meta) -> tuple:
    return (meta.line - 1, meta.column - 1) if not meta.empty else (0, 0)


def _tok_at(tok: Token) -> tuple:
    return (tok.line - 1, tok.column - 1)


@v_args(meta=True, inline=True)
class _ToNodes(Transformer):
    """Each method builds the node of the grammar rule it is named after."""

    def start_expr(self, meta, e):
        return e

    start_stmt = start_expr

    def start_for(self, meta, var, iterable):
        return S.ForHead(str(var), iterable, at=_at(meta))

    def start_sig(self, meta, name, *params):
        return S.Signature(str(name), tuple(str(p) for p in params if p is not None), at=_at(meta))

    # statements
    def move(self, meta, cards, dest):
        return S.Move(cards, dest, at=_at(meta))

    def shuffle(self, meta, zone):
        return S.Shuffle(zone, at=_at(meta))

    def deal(self, meta, count, source, dest, starting):
        return S.Deal(count, source, str(dest), starting, at=_at(meta))

    def let(self, meta, name, value):
        return S.Let(str(name), value, at=_at(meta))

    def set(self, meta, name, owner, items, value):
        return S.SetVar(str(name), owner, value, items, at=_at(meta))

    def set_items(self, meta, *items):
        return tuple(items)

    def extra_turn(self, meta):
        return S.ExtraTurn(at=_at(meta))

    def call(self, meta, name, args):
        return S.CallProc(str(name), tuple(args or ()), at=_at(meta))

    def reveal(self, meta, cards, seats):
        return S.Reveal(cards, seats, at=_at(meta))

    def end_game(self, meta):
        return S.EndGame(at=_at(meta))

    def eliminate(self, meta, seat):
        return S.Eliminate(seat, False, at=_at(meta))

    def restore(self, meta, seat):
        return S.Eliminate(seat, True, at=_at(meta))

    def reverse_play(self, meta):
        return S.Reverse(at=_at(meta))

    def announce_none(self, meta, cards):
        return S.AnnounceNone(cards, at=_at(meta))

    def tell(self, meta, seats, cards):
        return S.Tell(seats, cards, at=_at(meta))

    # expressions
    def where(self, meta, cards, cond):
        return S.Where(cards, cond, at=_at(meta))

    def top(self, meta, count, cards):
        return S.Top(count, cards, False, at=_at(meta))

    def bottom(self, meta, count, cards):
        return S.Top(count, cards, True, at=_at(meta))

    def ifexpr(self, meta, cond, then, orelse):
        return S.IfExpr(cond, then, orelse, at=_at(meta))

    def or_(self, meta, left, right):
        return S.BoolOp("or", left, right, at=_at(meta))

    def and_(self, meta, left, right):
        return S.BoolOp("and", left, right, at=_at(meta))

    def not_(self, meta, operand):
        return S.Not(operand, at=_at(meta))

    def compare(self, meta, left, op, right):
        return S.Compare(str(op), left, right, at=_at(meta))

    def in_(self, meta, left, right):
        return S.In(left, right, False, at=_at(meta))

    def not_in(self, meta, left, right):
        return S.In(left, right, True, at=_at(meta))

    def binop(self, meta, left, op, right):
        return S.BinOp(str(op), left, right, at=_at(meta))

    def neg_(self, meta, operand):
        if isinstance(operand, S.Num):
            return S.Num(-operand.value, at=_at(meta))
        return S.Neg(operand, at=_at(meta))

    def attr(self, meta, obj, name):
        return S.Attr(obj, str(name), at=_at(meta))

    def index(self, meta, obj, idx):
        return S.Index(obj, idx, at=_at(meta))

    def call_expr(self, meta, fn, args):
        return S.Call(str(fn), tuple(args or ()), at=_at(meta))

    def args(self, meta, *items):
        return list(items)

    def generator(self, meta, expr, var, iterable, cond):
        return [S.Gen(expr, str(var), iterable, cond, at=_at(meta))]

    def ranked(self, meta, expr, var, iterable, cond, key):
        return [S.Gen(expr, str(var), iterable, cond, key, at=_at(meta))]

    def number(self, meta, tok):
        return S.Num(int(tok), at=_tok_at(tok))

    def string(self, meta, tok):
        return S.Str(str(tok)[1:-1], at=_tok_at(tok))

    def true(self, meta):
        return S.Bool(True, at=_at(meta))

    def false(self, meta):
        return S.Bool(False, at=_at(meta))

    def name(self, meta, tok):
        return S.Name(str(tok), at=_tok_at(tok))

    def list_(self, meta, *items):
        return S.ListExpr(tuple(i for i in items if i is not None), at=_at(meta))


# ---- syntax errors in words a game designer understands ------------------------------------------

_SYMBOLS = {"LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "COMMA": ",", "DOT": ".", "EQUAL": "=",
            "MINUS": "-"}
_WORDS = {"NAME": "a name", "NUMBER": "a number", "STRING": "a quoted text", "COMPOP": "a comparison",
          "ADDOP": "'+' or '-'", "MULOP": "'*', '/' or '%'", "$END": "the end of the text"}
# Tokens that can start a value, and tokens that can end one.
_STARTS_VALUE = {"NAME", "NUMBER", "STRING", "LPAR", "LSQB", "MINUS", "_TRUE", "_FALSE", "_NOT", "_IF", "_TOP",
                 "_BOTTOM"}
_ENDS_VALUE = {"NAME", "NUMBER", "STRING", "RPAR", "RSQB", "_TRUE", "_FALSE"}
_STATEMENTS = ("_MOVE", "_SHUFFLE", "_DEAL", "_LET", "_SET", "_EXTRA", "_CALL", "_END", "_REVEAL", "_ANNOUNCE",
               "_ELIMINATE", "_RESTORE", "_REVERSE", "_TELL")
# The written form of each construct, by the keyword that opens it.
_FORMS = {"_MOVE": "move CARDS to ZONE", "_SHUFFLE": "shuffle ZONE",
          "_DEAL": "deal COUNT from ZONE to ZONE [starting PLAYER]", "_LET": "let NAME = VALUE",
          "_SET": "set NAME[(PLAYER)] = VALUE", "_EXTRA": "extra turn", "_CALL": "call PROCEDURE[(VALUES)]",
          "_REVEAL": "reveal CARDS to PLAYERS", "_END": "end game", "_ELIMINATE": "eliminate PLAYER",
          "_RESTORE": "restore PLAYER", "_REVERSE": "reverse", "_TOP": "top [COUNT] of CARDS",
          "_BOTTOM": "bottom [COUNT] of CARDS",
          "_IF": "if CONDITION then VALUE else VALUE", "_FOR": "VALUE for NAME in LIST [if CONDITION]",
          "_ANNOUNCE": "announce none of ZONE where CONDITION", "_TELL": "tell PLAYERS about CARDS where CONDITION"}
# Which opening keywords a structural token belongs to.
_OPENERS = {"_TO": ("_MOVE", "_DEAL", "_REVEAL"), "_FROM": ("_DEAL",), "_STARTING": ("_DEAL",), "EQUAL": ("_LET", "_SET"),
            "_TURN": ("_EXTRA",), "_GAME": ("_END",), "_OF": ("_TOP", "_BOTTOM", "_ANNOUNCE"),
            "_NONE": ("_ANNOUNCE",), "_THEN": ("_IF",), "_ABOUT": ("_TELL",),
            "_ELSE": ("_IF",), "_IN": ("_FOR",)}
_CLOSES = {"RPAR": "LPAR", "RSQB": "LSQB"}
_KEYWORDS = {"_MOVE", "_TO", "_SHUFFLE", "_DEAL", "_FROM", "_STARTING", "_LET", "_SET", "_EXTRA", "_TURN", "_CALL",
             "_END", "_GAME", "_REVEAL", "_WHERE", "_TOP", "_BOTTOM", "_OF", "_IF", "_THEN", "_ELSE", "_OR", "_AND",
             "_NOT", "_IN", "_FOR", "_TRUE", "_FALSE", "_ELIMINATE", "_RESTORE", "_REVERSE", "_ANNOUNCE", "_NONE",
             "_TELL", "_ABOUT"}
_OPERATOR_WORDS = ("_WHERE", "_AND", "_OR", "_IN", "_OF")
_ORDER = ["_TO", "_FROM", "_OF", "_THEN", "_ELSE", "EQUAL", "_IN", "_FOR", "_STARTING", "_TURN", "_GAME", "RPAR",
          "RSQB", "COMMA", "_NONE", "_ABOUT"]
_VALUE_HINT = "a value is a name, a number, a quoted text, a list [...] or an expression in (...)"
_CHAR_HINTS = {"!": "write 'not' to negate, or '!=' for 'is not equal to'", "&": "write 'and'", "|": "write 'or'",
               "≥": "write '>='", "≤": "write '<='", "≠": "write '!='", "×": "write '*'", "÷": "write '/'",
               "’": "quote texts with ' or \"", "‘": "quote texts with ' or \"", "“": "quote texts with ' or \"",
               "”": "quote texts with ' or \"",
               "=": "write '==' to compare", "'": "a quoted text must end on the same line with the same quote",
               '"': "a quoted text must end on the same line with the same quote"}
_KIND = {"expr": "expression", "stmt": "statement", "for": "loop head", "sig": "function name"}


def _word(term: str) -> str:
    """How a terminal is written, for a message: 'to', ')', a name."""
    if term in _WORDS:
        return _WORDS[term]
    if term in _SYMBOLS:
        return f"'{_SYMBOLS[term]}'"
    if term.startswith("_") and term[1:].isalpha():
        return f"'{term[1:].lower()}'"
    return term


def _show(tok) -> str:
    """A token as a message shows it: 'to', 'hand', a quoted text as written, the end of the text."""
    if tok.type == "$END":
        return "the end of the text"
    return str(tok) if tok.type == "STRING" else f"'{tok}'"


def _either(words: list) -> str:
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _describe(expected) -> str:
    """A short list of what fits here: the keywords or brackets the construct needs, else 'a value'."""
    structural = [t for t in _ORDER if t in expected]
    if structural:
        return _either([_word(t) for t in structural])
    if expected and set(expected) <= _STARTS_VALUE:
        return "a value"
    if "$END" in expected:
        return "an operator or the end of the text"
    return _either(sorted({_word(t) for t in expected})[:6])


def _offset_pos(text: str, offset: int) -> tuple:
    """0-based (line, col) of a character offset."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def _end_pos(text: str) -> tuple:
    """Just after the last character that is not a space or a comment."""
    code = [line.split("#", 1)[0] if "'" not in line and '"' not in line else line for line in text.split("\n")]
    stripped = "\n".join(code).rstrip()
    return _offset_pos(text, len(stripped))


class _Syntax:
    """Works out what went wrong in one DSL string by replaying the parse token by token."""

    def __init__(self, text: str, kind: str):
        self.text, self.kind = text, kind
        self.tokens: list = []      # the tokens read before the bad one, then the bad one
        self.state = None           # the parser just before the bad token

    def error(self) -> DSLSyntaxError:
        ip = _lark().parse_interactive(self.text, start=START[self.kind])
        pending = None
        try:
            for tok in ip.iter_parse():             # yields each token before feeding it
                pending = (tok, ip.copy())
                self.tokens.append(tok)
            pending = (Token("$END", "", len(self.text), *self._eof_linecol()), ip.copy())
            self.tokens.append(pending[0])
            ip.feed_eof()
        except UnexpectedCharacters as exc:
            self.state = ip
            return self.bad_character(exc)
        except UnexpectedToken as exc:
            if pending is not None and (exc.token is pending[0] or pending[0].type == "$END"):
                self.state = pending[1]             # the parser refused the token it was fed
            else:
                self.state = ip                     # the lexer found a token that cannot come next
                self.tokens.append(exc.token)
            return self.bad_token(self.tokens[-1])
        return DSLSyntaxError(0, 0, f"this {_KIND[self.kind]} is not valid")   # not reached: the parse failed before

    def _eof_linecol(self) -> tuple:
        line, col = _end_pos(self.text)
        return line + 1, col + 1

    def at(self, tok) -> tuple:
        if tok.type == "$END":
            return _end_pos(self.text)
        return tok.line - 1, tok.column - 1

    def bad_character(self, exc: UnexpectedCharacters) -> DSLSyntaxError:
        ch = self.text[exc.pos_in_stream] if exc.pos_in_stream < len(self.text) else "?"
        line, col = _offset_pos(self.text, exc.pos_in_stream)
        if ch in "'\"":
            return DSLSyntaxError(line, col, f"this quoted text has no closing {ch}", _CHAR_HINTS[ch])
        hint = _CHAR_HINTS.get(ch, "names use letters, digits and _; texts are quoted with ' or \"")
        return DSLSyntaxError(line, col, f"unexpected character '{ch}'", hint)

    def bad_token(self, tok) -> DSLSyntaxError:
        expected = self.state.accepts()
        prev = self.tokens[-2] if len(self.tokens) >= 2 else None
        line, col = self.at(tok)
        kind = _KIND[self.kind]
        if prev is not None and prev.type == "_NOT" and expected == {"_IN"}:
            return DSLSyntaxError(line, col, f"expected 'in' after 'not', not {_show(tok)}",
                                  "'x not in list' tests membership; to negate a condition, write not before it")
        if "_IN" in expected and len(expected) > 1 and self.kind != "for" and self.opener("_IN") is None:
            expected = expected - {"_IN"}           # 'in' here is the operator (x in list), not a loop's
        for check in (self.statement_start, self.nothing_after, self.generator, self.double_equal, self.deal_to_player,
                      self.misspelt_keyword, self.misspelt_previous, self.comparison, self.missing_value,
                      self.stray_closer, self.unclosed, self.missing_keyword, self.two_values):
            found = check(tok, prev, expected, line, col)
            if found is not None:
                return found
        return DSLSyntaxError(line, col, f"unexpected {_show(tok)} in this {kind}", f"expected {_describe(expected)}")

    # -- one method per common mistake; each returns an error or None --
    def statement_start(self, tok, prev, expected, line, col):
        if self.kind != "stmt" or prev is not None:
            return None
        forms = "move, shuffle, deal, let, set, extra turn, call, reveal, announce, tell, end game, eliminate, restore or reverse"
        if tok.type == "$END":
            return DSLSyntaxError(line, col, "the statement is empty", f"a statement starts with {forms}")
        close = closest(str(tok), [t[1:].lower() for t in _STATEMENTS])
        hint = f"did you mean '{close}'?" if close else f"a statement starts with {forms}"
        if tok.type in _STARTS_VALUE and not close:
            hint += "; a value on its own does nothing"
        return DSLSyntaxError(line, col, f"a statement cannot start with {_show(tok)}", hint)

    def nothing_after(self, tok, prev, expected, line, col):
        """Something after a statement that is complete in its words: reverse, extra turn, end game."""
        if self.kind != "stmt" or prev is None or prev.type not in ("_REVERSE", "_TURN", "_GAME") \
                or expected != {"$END"}:
            return None
        words = {"_REVERSE": "reverse", "_TURN": "extra turn", "_GAME": "end game"}[prev.type]
        return DSLSyntaxError(line, col, f"'{words}' takes nothing after it", f"write {words} alone")

    def misspelt_keyword(self, tok, prev, expected, line, col):
        if tok.type != "NAME":
            return None
        keywords = [t for t in _ORDER if t in expected and t.startswith("_")]
        close = closest(str(tok), [t[1:].lower() for t in keywords])
        if close:
            term = "_" + close.upper()
            return DSLSyntaxError(line, col, f"{self.context(term)} expects '{close}' here, not '{tok}'",
                                  f"did you mean '{close}'?")
        close = closest(str(tok), [t[1:].lower() for t in _OPERATOR_WORDS if t in expected and
                                   t[1].lower() == str(tok)[:1].lower()])   # not 'hand' for 'and'
        if close and prev is not None:      # 'hand whre icons == 2', 'a adn b'
            return DSLSyntaxError(line, col, f"expected an operator between {_show(prev)} and '{tok}'",
                                  f"did you mean '{close}'?")
        return None

    def misspelt_previous(self, tok, prev, expected, line, col):
        """A keyword misspelt just before the bad token, read as a name: 'move tpo of draw to hand'."""
        if prev is None or prev.type != "NAME" or len(prev) < 3:
            return None
        accepted = self.before_prev_accepts()
        close = closest(str(prev), [t[1:].lower() for t in _KEYWORDS if t in accepted and
                                    t[1].lower() == str(prev)[:1].lower()])
        if close is None or close == str(prev):
            return None
        pline, pcol = self.at(prev)
        return DSLSyntaxError(pline, pcol, f"'{prev}' is read as a name, so {_show(tok)} cannot follow it",
                              f"did you mean '{close}'?")

    def deal_to_player(self, tok, prev, expected, line, col):
        """'deal 3 from draw to hand(p)': deal names the per-player zone bare; every player gets cards."""
        if tok.type != "LPAR" or self.tokens[0].type != "_DEAL" or len(self.tokens) < 3 \
                or self.tokens[-3].type != "_TO" or prev.type != "NAME":
            return None
        return DSLSyntaxError(line, col, f"deal gives cards to every player, each into their own '{prev}': "
                              f"write the zone without (...)", f"it is written deal COUNT from ZONE to {prev}; "
                              f"to give cards to one player, write move top N of ... to {prev}(...)")

    def generator(self, tok, prev, expected, line, col):
        """A generator where none may stand, or one written out of order."""
        if tok.type != "_FOR" or self.kind == "for":
            return self.by_without_for(tok, line, col) or self.generator_order(tok, line, col)
        return DSLSyntaxError(line, col, "'... for NAME in LIST' can only stand as the argument of count, sum, min, "
                              "max, any, all, highest or lowest", "e.g. sum(v for v in values if v > 0)")

    def by_without_for(self, tok, line, col):
        """'highest(p in seats by ...)': the items are named as in any generator, with 'for'."""
        if tok.type != "_BY" or any(t.type == "_FOR" for t in self.tokens[:-1]):
            return None
        return DSLSyntaxError(line, col, "'by' ends a generator: write ITEM for NAME in LIST by NUMBER",
                              "e.g. highest(p for p in seats by count(won(p)))")

    def generator_order(self, tok, line, col):
        """A filtered list without brackets in a generator, or its 'if' after 'by'."""
        kinds = [t.type for t in self.tokens[:-1]]
        if "_FOR" not in kinds:
            return None
        if tok.type == "_WHERE":
            return DSLSyntaxError(line, col, "inside a generator, a 'where' needs brackets around the cards it "
                                  "filters", "e.g. count(c for c in (hand where colour == 'red') if c.value > 1)")
        if tok.type == "_IF" and "_BY" in kinds[len(kinds) - kinds[::-1].index("_FOR"):]:
            return DSLSyntaxError(line, col, "'if' comes before 'by' in a generator",
                                  "it is written ITEM for NAME in LIST if CONDITION by NUMBER")
        return None

    def double_equal(self, tok, prev, expected, line, col):
        if tok.type == "EQUAL" and prev is not None and prev.type == "EQUAL" and prev.end_pos == tok.start_pos:
            pline, pcol = self.at(prev)
            return DSLSyntaxError(pline, pcol, "'==' compares; a statement sets a value with a single '='",
                                  f"it is written {_FORMS[self.opener('EQUAL') or '_SET']}")
        return None

    def two_values(self, tok, prev, expected, line, col):
        if tok.type not in _STARTS_VALUE or prev is None or prev.type not in _ENDS_VALUE:
            return None
        if prev.type == "NAME" and "_" + str(prev).upper() in _KEYWORDS:
            pline, pcol = self.at(prev)
            return DSLSyntaxError(pline, pcol, f"'{prev}' is a keyword and cannot stand here",
                                  f"expected {_describe(self.before_prev_accepts())}")
        end = f"; or end the {_KIND[self.kind]} after {_show(prev)}" if "$END" in expected else ""
        hint = "did you mean '*'? (multiply with *)" if str(tok) in ("x", "X") and tok.type == "NAME" else \
            "did you mean '=='? (compare with ==)" if str(tok) == "is" and tok.type == "NAME" else \
            f"join two values with an operator such as +, == or and{end}"
        return DSLSyntaxError(line, col, f"expected an operator between {_show(prev)} and {_show(tok)}", hint)

    def before_prev_accepts(self) -> set:
        """What the parser accepted where the token before the bad one stands."""
        ip = _lark().parse_interactive(self.text, start=START[self.kind])
        for tok in ip.iter_parse():
            if tok is self.tokens[-2] or (tok.start_pos == self.tokens[-2].start_pos):
                return ip.accepts()
        return set()

    def comparison(self, tok, prev, expected, line, col):
        if tok.type == "EQUAL" and "COMPOP" in expected:
            after = self.text[tok.end_pos:tok.end_pos + 1]
            if after and after in "<>":     # '=>' and '=<' for '>=' and '<='
                return DSLSyntaxError(line, col, f"'={after}' is not an operator; the '=' comes second",
                                      f"did you mean '{after}='?")
            return DSLSyntaxError(line, col, "'=' does not compare; write '==' to test whether two values are equal",
                                  "did you mean '=='?")
        return None

    def missing_value(self, tok, prev, expected, line, col):
        if not expected or not set(expected) <= _STARTS_VALUE:
            return None
        if prev is None:
            what = "is empty" if tok.type == "$END" else f"cannot start with {_show(tok)}"
            return DSLSyntaxError(line, col, f"the {_KIND[self.kind]} {what}", f"expected a value: {_VALUE_HINT}")
        found = "the text ends" if tok.type == "$END" else f"found {_show(tok)}"
        if expected == {"NAME"}:
            what = {"_CALL": "the name of a procedure", "DOT": "the name of an attribute"}.get(prev.type, "a name")
            return DSLSyntaxError(line, col, f"expected {what} after {_show(prev)}, but {found}",
                                  "names use letters, digits and _, and do not start with a digit")
        return DSLSyntaxError(line, col, f"expected a value after {_show(prev)}, but {found}", _VALUE_HINT)

    def stray_closer(self, tok, prev, expected, line, col):
        if tok.type not in _CLOSES or tok.type in expected:
            return None
        opened = self.open_brackets()
        if not opened:
            return DSLSyntaxError(line, col, f"'{tok}' has no matching '{_SYMBOLS[_CLOSES[tok.type]]}'",
                                  "remove it, or add the opening bracket it closes")
        want = "RPAR" if opened[-1].type == "LPAR" else "RSQB"
        if want in expected:
            return DSLSyntaxError(line, col, f"'{tok}' does not match the '{opened[-1]}' it would close",
                                  f"close it with '{_SYMBOLS[want]}'")
        return None

    def unclosed(self, tok, prev, expected, line, col):
        if tok.type != "$END":
            return None
        opened = self.open_brackets()
        if not opened:
            return None
        bracket = opened[-1]
        close = _SYMBOLS["RPAR" if bracket.type == "LPAR" else "RSQB"]
        i = self.tokens.index(bracket)
        after = f" after '{self.tokens[i - 1]}'" if i > 0 and self.tokens[i - 1].type == "NAME" else ""
        where = f"the '{bracket}'{after}"
        return DSLSyntaxError(line, col, f"missing '{close}': {where} is never closed",
                              f"add '{close}' where it ends")

    def missing_keyword(self, tok, prev, expected, line, col):
        structural = [t for t in _ORDER if t in expected and t in _OPENERS]
        if not structural:
            return None
        words = _either([_word(t) for t in structural])
        context = self.context(structural[0])
        if tok.type == "$END":
            return DSLSyntaxError(line, col, f"{context} ends too early: expected {words}", self.written(structural[0]))
        return DSLSyntaxError(line, col, f"{context} expects {words} here, not {_show(tok)}",
                              self.written(structural[0]))

    # -- helpers --
    def open_brackets(self) -> list:
        """The brackets opened before the bad token and not closed yet."""
        stack = []
        for tok in self.tokens[:-1]:
            if tok.type in ("LPAR", "LSQB"):
                stack.append(tok)
            elif tok.type in _CLOSES and stack:
                stack.pop()
        return stack

    def opener(self, term: str):
        """The keyword that opened the construct needing term, e.g. 'move' for 'to'."""
        for tok in reversed(self.tokens[:-1]):
            if tok.type in _OPENERS.get(term, ()):
                return tok.type
        return None

    def context(self, term: str) -> str:
        """'the statement move CARDS to ZONE', or 'this expression' when no form applies."""
        opener = self.opener(term)
        if term == "_IN" and self.kind == "for":
            return "a loop head 'NAME in LIST'"
        if opener is None:
            return f"this {_KIND[self.kind]}"
        if opener in _STATEMENTS:
            return f"the statement '{_FORMS[opener]}'"
        return f"'{_FORMS[opener]}'"

    def written(self, term: str) -> str:
        opener = self.opener(term)
        if term == "_IN" and self.kind == "for":
            return "a loop head is written like s in suits"
        return f"it is written {_FORMS[opener]}" if opener else f"add {_word(term)} here"


def parse(text: str, kind: str = "expr"):
    """Parse one DSL string: kind is expr, stmt, for (`x in list`) or sig (`f(a, b)`).
    Results and errors are both remembered (the checker reads every rule in several passes)."""
    found = _parse_cached(text, kind)
    if isinstance(found, DSLSyntaxError):
        raise DSLSyntaxError(found.line, found.col, found.message, found.hint)
    return found


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str, kind: str):
    try:
        return _parse(text, kind)
    except DSLSyntaxError as exc:
        return exc


def _parse(text: str, kind: str):
    if len(text) > MAX_RULE_CHARS:
        raise DSLSyntaxError(0, 0, f"this {_KIND[kind]} is {len(text):,} characters long, more than a rule may be "
                             f"({MAX_RULE_CHARS:,})", "split it up with let, or into functions")
    try:
        tree = _lark().parse(text, start=START[kind])
    except UnexpectedInput as exc:
        try:
            error = _Syntax(text, kind).error()
        except Exception:       # the friendly analysis must never hide the error itself
            line, col = (exc.line - 1, exc.column - 1) if getattr(exc, "line", -1) > 0 else _end_pos(text)
            error = DSLSyntaxError(line, col, f"this {_KIND[kind]} is not valid here", str(exc).split("\n")[0])
        raise error from None
    _check_nesting(tree, kind)
    return _ToNodes().transform(tree)


def _check_nesting(tree, kind: str) -> None:
    """Refuse a tree nested deeper than MAX_NESTING (walked without recursion)."""
    # a link of a flat chain of one operator (a + b - c ..., a and b and ...) counts a third of a
    # level: the compiled code keeps such a chain flat, so only the stages before it see its depth
    todo = [(tree, _LEVEL)]
    while todo:
        node, cost = todo.pop()
        if cost > MAX_NESTING * _LEVEL:
            line, col = _at(node.meta)
            raise DSLSyntaxError(line, col, f"this {_KIND[kind]} is nested too deeply (more than {MAX_NESTING} "
                                 "levels; each term of a chain such as a + b + c counts a third of a level)",
                                 "split it up with let, or into functions")
        for child in node.children:
            if isinstance(child, Tree):
                link = child is node.children[0] and child.data == node.data and node.data in _CHAINS
                todo.append((child, cost + (1 if link else _LEVEL)))
