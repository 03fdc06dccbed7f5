"""How the flow lays out its ops (compiler/flow.py): fewer calls per turn, the same game."""
from __future__ import annotations

from helpers import do
from interpreter.compiler.flow import (MAX_OP_LINES, MAX_THREADED_LINES, drop_repeated_checks, share_end_test,
                                       skip_jumps, take_in_turn_start, thread_jumps)
from interpreter.compiler.statements import Line
from language_helpers import make, names, var, write  # noqa: F401  (fixtures)


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


def test_threading_follows_jumps_as_deep_as_they_go_but_never_into_a_loop_back():
    ops = [lines("V[0] = 0", "return 1"), lines("V[0] = 1", "return 2"), lines("V[1] = 2", "return 1")]
    out = thread_jumps(ops)
    assert out[0] == ["V[0] = 0", "V[0] = 1", "V[1] = 2", "return 1"]     # 0 -> 1 -> 2, then 1 again: a jump
    assert out[1] == ["V[0] = 1", "V[1] = 2", "return 1"]                  # a loop keeps its jump back


def test_a_guard_that_jumps_on_any_line_takes_in_a_short_op_as_its_block():
    ops = [lines("if V[0]: return 1", "    V[2] = 3", "return 2", pos="g"), lines("V[1] = 1", "return -1", pos="a"),
           lines("return -1", pos="b")]
    out = thread_jumps(ops)
    assert out[0] == ["if V[0]:", "    V[1] = 1", "    return -1", "    V[2] = 3", "return -1"]
    assert [line.pos for line in out[0]] == ["g", "a", "a", "g", "b"]


def test_an_op_taking_in_others_stops_at_its_size_limit():
    from interpreter.compiler.flow import MAX_OP_LINES
    big = lines(*[f"if V[{k}]: return 1" for k in range(MAX_OP_LINES)])
    ops = [big + lines("return -1"), lines("V[1] = 1", "return -1")]
    out = thread_jumps(ops)
    assert out[0][:3] == ["if V[0]:", "    V[1] = 1", "    return -1"]       # taken in while it is short
    taken = sum(line.startswith("if V[") and line.endswith(":") for line in out[0])
    assert taken == MAX_OP_LINES // 3 + 1       # 3 lines each, while the op is not past the limit
    assert out[0][-2:] == [f"if V[{MAX_OP_LINES - 1}]: return 1", "return -1"]     # then the jumps stay


def test_a_two_way_jump_takes_in_the_lines_of_a_short_branch():
    ops = [lines("return 1 if (V[0] if V[2] else 3) else 2", pos="t"), lines("V[1] = 1", "return -1", pos="a"),
           lines(*[f"V[{k}] = {k}" for k in range(MAX_THREADED_LINES)], "return -1")]
    assert thread_jumps(ops)[0] == ["if (V[0] if V[2] else 3):", "    V[1] = 1", "    return -1", "return 2"]
    ops[1], ops[2] = ops[2], ops[1]       # the then-branch long, the else-branch short
    assert thread_jumps(ops)[0] == ["if not ((V[0] if V[2] else 3)):", "    V[1] = 1", "    return -1", "return 1"]


CHIPS = """
    name: chips
    players: {min: 2, max: 2}
    cards:
      chip: {count: 3, start: bank}
    zones:
      bank: {visible: everyone}
      box: {visible: everyone}
    vars:
"""
PAUSES = CHIPS + """
      took: {initial: 0}
    turn:
      steps:
        - step: play
          do:
            - call pick
            - choose: what
              by: next(current)
              options:
                take:
                  do: ["move top of bank to box", "set took = took + 1"]
                wait: {}
            - call pick
    procedures:
      pick:
        - choose: n
          from: [1, 2]
    end: {when: "count(bank) == 0"}
    score: took
"""


def test_a_pause_at_a_decision_and_a_call_of_a_procedure_are_lines_of_the_op_before_them(make):
    p = make(PAUSES)
    assert all(op.__name__.startswith("op_") for op in p.code)      # generated text, no closures between
    st = p.new_state(0)
    assert st.pending.name == "n" and st.decider == 0
    do(p, st, "n: 2")
    assert st.pending.name == "what" and st.decider == 1           # `by` worked out in the pause
    do(p, st, "take")
    assert st.pending.name == "n"                                  # the second call of pick
    do(p, st, "n: 1")
    assert st.pending.name == "n" and st.turn == 2 and var(p, st, "took") == 1


def test_a_chosen_option_enters_its_block_without_a_dispatch_op(make):
    p = make(PAUSES)
    st = p.new_state(0)
    do(p, st, "n: 1")
    dec = st.pending
    assert dec.options[1][0] == "wait" and dec.starts is not None
    dec.bind(st, (1, None))
    assert st.pc == dec.starts[1]           # the move goes on in wait's block
    p.apply(st, (1, None))
    assert st.pending.name == "n" and var(p, st, "took") == 0


def test_a_program_counting_coverage_dispatches_options_in_an_op_that_counts_them(write):
    from interpreter.compiler.game import load_game
    p = load_game(write(PAUSES)).program(2, coverage=True)
    st = p.new_state(0)
    do(p, st, "n: 1")
    assert st.pending.starts is None
    do(p, st, "take")
    assert var(p, st, "took") == 1


def test_a_jump_to_an_op_that_only_jumps_goes_where_that_chain_of_jumps_ends():
    ops = [lines("V[0] = 1", "return 1", pos="a"), lines("return 2"), lines("return 4"),
           lines("return 5 if V[0] else 1", pos="f"), lines(*[f"V[{k}] = {k}" for k in range(MAX_THREADED_LINES)], "return -1"),
           lines("return 5")]
    out = skip_jumps(ops)
    assert out[0] == ["V[0] = 1", "return 4"] and out[0][-1].pos == "a"    # 1 -> 2 -> 4
    assert out[3] == ["return 5 if V[0] else 4"]       # both ends of a fork; 5 jumps to itself and stays
    assert out[5] == ["return 5"]
    assert thread_jumps(ops)[0] == out[0]               # op 4 is too long to take in


def test_a_two_way_jump_takes_in_the_lines_of_both_branches_when_both_are_short():
    ops = [lines("return 1 if V[2] else 2", pos="t"), lines("V[1] = 1", "return -1", pos="a"),
           lines("V[1] = 2", "return -1", pos="b")]
    out = thread_jumps(ops)
    assert out[0] == ["if V[2]:", "    V[1] = 1", "    return -1", "V[1] = 2", "return -1"]
    assert [line.pos for line in out[0]] == ["t", "a", "a", "b", "b"]


def test_a_for_loop_over_values_known_before_the_game_goes_over_a_constant_not_a_list_made_each_time(make):
    p = make(PAUSES.replace('        - step: play\n          do:\n',
                            '        - step: play\n          do:\n            - for: k in [1, 2, 3]\n'
                            '              do: ["set took = took + k"]\n'))
    assert "in list(" not in p.source and "for _i" in p.source
    st = p.new_state(0)
    assert var(p, st, "took") == 6          # each value once, in order


def test_an_end_check_followed_at_once_by_an_if_on_the_same_condition_works_it_out_once():
    names = iter(["_e1", "_e2"])
    ops = lines("if not st.ending and (V[1] > 2): st.ending = True", pos="end") + \
        lines("if (V[1] > 2):", "    V[2] = 1", pos="if") + \
        lines("if not st.ending and (V[1] > 2): st.ending = True", "V[3] = 0", "if (V[1] > 2):", pos="x")
    out = share_end_test(ops, lambda stem: next(names))
    assert out == ["if st.ending: _e1 = (V[1] > 2)", "elif (_e1 := (V[1] > 2)): st.ending = True", "if _e1:",
                   "    V[2] = 1",
                   # a line between the two: each works it out as before
                   "if not st.ending and (V[1] > 2): st.ending = True", "V[3] = 0", "if (V[1] > 2):"]
    # worked out on the check's line while the game goes on, on the if's line once it is ending (for errors)
    assert [line.pos for line in out[:4]] == ["if", "end", "if", "if"]


FINISHING = CHIPS + """
      shown: {initial: 0}
    turn:
      steps:
        - step: take
          do: ["move top of bank to box"]
        - step: show
          do:
            - if: count(bank) == 0
              then: ["set shown = shown + 1"]
        - step: wait
          do: [{choose: go, options: {ok: {}}}]
    end: {when: "count(bank) == 0", finish: [show]}
    score: shown
"""


def test_a_finishing_step_that_asks_what_the_end_asks_still_acts_once_when_the_game_ends(make):
    p = make(FINISHING)
    assert p.source.count("elif (_e") >= 1          # the end check and the step's if share the test
    st = p.new_state(0)                             # turn 1 took the first chip
    do(p, st, "ok")
    assert not st.over and var(p, st, "shown") == 0
    do(p, st, "ok")
    assert st.over and var(p, st, "shown") == 1       # the third chip: the end, and the step acts


CHECK = "if not st.ending and (V[1] > 2): st.ending = True"


def test_an_end_check_after_another_with_nothing_between_that_may_change_it_is_left_out():
    ops = lines(CHECK, "st.turn += 1", pos="end") + lines("V[4] = 1", pos="let") + lines(CHECK, "return -1", pos="end")
    assert drop_repeated_checks(ops, {"move"}) == [CHECK, "st.turn += 1", "V[4] = 1", "return -1"]


def test_an_end_check_after_a_line_of_a_statement_that_may_change_it_stays():
    ops = lines(CHECK, pos="end") + lines("if V[0]:", pos="if") + lines("    V[1] = 3", pos="set") + \
        lines(CHECK, "return -1", pos="end")
    assert drop_repeated_checks(ops, {"set"}) == ops            # even inside a block that may not run
    assert drop_repeated_checks(ops, None) == ops               # None: any line may change it


def test_an_end_check_inside_a_block_does_not_stand_for_the_block_around_it():
    ops = lines("if V[0]:", "    " + CHECK, "    V[2] = 1", CHECK, "if V[2]:", "    " + CHECK, "return -1", pos="x")
    # the first ran only if V[0]; the last is in a block of its own, entered after the one at the top
    assert drop_repeated_checks(ops, set()) == ops


def test_the_turn_end_takes_in_the_turn_start_while_it_stays_short():
    start = lines("st.turn += 1", "return -1", pos="s")
    ops = [lines("V[0] = 1", "return 1"), start, lines("return 1 if V[0] else 2"),
           lines(*[f"V[{k}] = 0" for k in range(MAX_OP_LINES)], "return 1")]
    out = take_in_turn_start(ops, 1)
    assert out[0] == ["V[0] = 1", "st.turn += 1", "return -1"] and out[0][1].pos == "s"
    assert out[1] == start and out[2] == ops[2] and out[3] == ops[3]   # itself, a fork, too long: jumps


ENDING = """
    name: ending
    players: {min: 2, max: 2}
    cards:
      chip: {count: 4, start: bank}
    zones:
      bank: {visible: everyone}
      box: {visible: everyone}
    vars:
      rounds: {initial: 0}
    setup: ["move top STARTING of bank to box"]
    turn:
      steps:
        - step: count
          do: ["set rounds = rounds + 1"]
        - step: wait
          do: [{choose: go, options: {ok: {}}}]
        - step: take
          do: ["move top of bank to box"]
    end: {when: "count(box) >= 3"}
    score: 0
"""


def test_the_next_turns_first_check_is_left_out_where_the_turn_end_worked_it_out(make):
    p = make(ENDING.replace("STARTING", "1"))
    # the op that takes a chip, ends the turn and starts the next: the check after `take` only
    op = next(src for src in p.source.split("def op_") if "st.turn += 1" in src and "Z[1] = Z[1] + " in src)
    assert sum(line.startswith("    if not st.ending and") for line in op.splitlines()) == 1
    assert sum(line.startswith("    if not st.ending and") for line in p.source.splitlines()) > 1   # elsewhere
    st = p.new_state(0)
    do(p, st, "ok")
    assert not st.over and st.turn == 2 and var(p, st, "rounds") == 2
    do(p, st, "ok")
    assert st.over and st.turn == 2                 # the third chip: the end, after `take` of turn 2


def test_what_the_setup_did_is_still_checked_after_the_first_step(make):
    p = make(ENDING.replace("STARTING", "3"))
    st = p.new_state(0)
    assert st.over and st.turn == 1 and var(p, st, "rounds") == 1      # `count` ran, then the end
    assert len(names(p, st, "bank")) == 1


def test_the_lines_that_may_change_the_end_are_those_of_the_moves_and_sets_it_reads_not_their_ifs(make):
    from interpreter.compiler.fold import changers
    p = make(ENDING.replace("STARTING", "1").replace(
        '["move top of bank to box"]', '[{if: "rounds > 0", then: ["move top of bank to box"]}]'))
    rules = p.rules
    take = rules.steps[2].body[0]
    # the setup's move and the one inside the if: not the if, not `set rounds`
    assert changers(rules, rules.end_when) == {rules.setup[0].pos, take.then[0].pos}
    turn = make(ENDING.replace("STARTING", "1").replace('"count(box) >= 3"', '"turn >= 3"'))
    assert changers(turn.rules, turn.rules.end_when) is None            # the turn moves on every line


def test_a_generated_function_names_only_the_parts_of_the_state_its_body_reads():
    from interpreter.compiler.codegen import prologue
    assert prologue("    V[1] = 2\n    return 3\n") == "    V = st.vars\n"
    assert prologue("    Z[1] = Z[1] + _m\n    for _c in _m: L[_c] = 1\n") == "    Z = st.zones; L = st.loc\n"
    assert prologue("    return -1\n") == "\n"      # an empty line: the rules' line numbers stay


def test_a_zone_a_function_reads_twice_by_a_constant_or_by_me_is_read_once_before():
    from interpreter.compiler.codegen import read_zones_once
    src, binds = read_zones_once("len(Z[4 + st.me]) + len(Z[4 + st.me]) + len(Z[2]) + len(Z[2]) + len(Z[3])", True)
    assert src == "len(_y0) + len(_y0) + len(_y1) + len(_y1) + len(Z[3])"
    assert binds == ("_y0 = Z[4 + st.me]", "_y1 = Z[2]")
    # before anyone is `me` (the first player) only the constant zones; a text is never touched
    src, binds = read_zones_once("(Z[4 + st.me], Z[4 + st.me], Z[2], Z[2], 'Z[2]')", False)
    assert src == "(Z[4 + st.me], Z[4 + st.me], _y0, _y0, 'Z[2]')" and binds == ("_y0 = Z[2]",)


CHIPS = """
    name: chips
    players: {min: 2, max: 2}
    cards:
      chip: {for: {colour: [red, blue]}, name: "{colour}", count: 3, start: bank}
    zones:
      bank: {visible: everyone}
      hand: {owner: each, visible: everyone}
    turn:
      steps:
        - step: take
          do:
            - {choose: pick, cards: bank, count: 1}
            - move pick to hand
    end: {when: "any(count(hand(p)) >= 2 for p in seats)"}
    score: count(hand)
    bots:
      eval: count(hand where colour == 'red') * 10 + count(hand where colour == 'blue') + count(hand)
"""


def test_a_bots_evaluation_reading_a_zone_often_gives_what_it_gave(make):
    p = make(CHIPS)
    st = p.new_state(0)
    bank, hand = p.zone_names.index("bank"), p.zone_names.index("hand(0)")
    for c in st.zones[bank]:
        st.loc[c] = hand
    st.zones[hand].extend(st.zones[bank])
    st.zones[bank].clear()
    assert p.eval_fn(st, None) == 3 * 10 + 3 + 6        # seat 0 (me) holds every chip
    st.me = 1
    assert p.eval_fn(st, None) == 0


def test_an_if_or_end_check_on_any_or_all_asks_its_truth_without_making_it_true_or_false():
    from interpreter.compiler.codegen import truth_only
    assert truth_only("bool((not Z[7]) or (not Z[8]))") == "((not Z[7]) or (not Z[8]))"
    assert truth_only("bool(a) or bool(b)") == "bool(a) or bool(b)"      # not one call: kept
    assert truth_only("bool(')' or V[1])") == "(')' or V[1])"            # a bracket in a text does not count


def test_an_end_condition_made_of_any_ends_the_game_as_before(make):
    p = make(CHIPS)
    assert "bool(" not in p.source
    st = p.new_state(0)
    while not st.over:
        p.apply(st, p.legal_moves(st)[0])
    assert st.turn == 3 and [len(st.zones[p.zone_names.index(f"hand({k})")]) for k in (0, 1)] == [2, 1]
