"""How the flow lays out its ops (compiler/flow.py): fewer calls per turn, the same game."""
from __future__ import annotations

from interpreter.compiler.flow import MAX_THREADED_LINES, thread_jumps
from interpreter.compiler.statements import Line


def lines(*texts, pos=None) -> list:
    return [Line(t, pos) for t in texts]


def test_an_op_that_jumps_to_a_short_op_ends_with_that_ops_lines():
    ops = [lines("V[1] = 2", "return 1", pos="a"), lines("return 7 if V[1] else 8", pos="b")]
    out = thread_jumps(ops)
    assert out[0] == ["V[1] = 2", "return 7 if V[1] else 8"]
    assert [line.pos for line in out[0]] == ["a", "b"]      # each line still names its own rule
    assert out[1] == ops[1]


def test_a_jump_to_itself_a_long_op_or_a_function_op_stays_a_jump():
    long = lines(*[f"V[{k}] = {k}" for k in range(MAX_THREADED_LINES)], "return 0")
    ops = [lines("return 0"), lines("return 2"), long, lines("return 4"), None]
    out = thread_jumps(ops)
    assert out[0] == ["return 0"]           # a loop on itself
    assert out[1] == ["return 2"]           # the target is too long to copy
    assert out[3] == ["return 4"]           # op 4 is not generated text (e.g. a pause at a decision)


def test_threading_is_one_level_deep():
    ops = [lines("return 1"), lines("V[0] = 1", "return 2"), lines("return -1")]
    assert thread_jumps(ops)[0] == ["V[0] = 1", "return 2"]


def test_a_two_way_jump_takes_in_the_lines_of_a_short_branch():
    ops = [lines("return 1 if (V[0] if V[2] else 3) else 2", pos="t"), lines("V[1] = 1", "return -1", pos="a"),
           lines(*[f"V[{k}] = {k}" for k in range(MAX_THREADED_LINES)], "return -1")]
    assert thread_jumps(ops)[0] == ["if (V[0] if V[2] else 3):", "    V[1] = 1", "    return -1", "return 2"]
    ops[1], ops[2] = ops[2], ops[1]       # the then-branch long, the else-branch short
    assert thread_jumps(ops)[0] == ["if not ((V[0] if V[2] else 3)):", "    V[1] = 1", "    return -1", "return 1"]
