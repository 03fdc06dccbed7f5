"""Property tests (hypothesis): random move sequences always finish with a valid result;
garbage moves and texts are refused with IllegalMove and change nothing."""
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as s

from interpreter.seats import make_bot
from interpreter.errors import IllegalMove
from helpers import program, check_loc, size, sheet_scores, sheet_winners

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink])
MAX_MOVES = 5000

players_s = s.integers(min_value=2, max_value=5)
seeds = s.integers(min_value=0, max_value=2**64 - 1)

# anything a careless caller might pass as a move
leaf = s.one_of(s.none(), s.booleans(), s.integers(min_value=-2**70, max_value=2**70),
                s.floats(allow_nan=True), s.text(max_size=12), s.binary(max_size=4))
garbage = s.recursive(leaf, lambda kids: s.one_of(s.lists(kids, max_size=4).map(tuple), s.lists(kids, max_size=4)),
                      max_leaves=8)
# near misses: tuples of (type, count) pairs with any ints, options with odd payloads
pairs = s.lists(s.tuples(s.integers(min_value=-3, max_value=200), s.integers(min_value=-3, max_value=9)),
                max_size=4).map(tuple)
near = s.one_of(pairs, s.tuples(s.integers(-2, 40)), s.tuples(s.text(max_size=8)),
                s.tuples(s.integers(-2, 5), s.one_of(s.none(), pairs)))
bad_moves = s.one_of(garbage, near)


def advance(prog, st, steps, seed):
    """Play up to `steps` moves with a seeded random bot (stops at the end)."""
    bot = make_bot("random", seed)
    for _ in range(steps):
        if st.over:
            break
        prog.apply(st, bot.choose(prog, st, prog.legal_moves(st)))


@SETTINGS
@given(players=players_s, seed=seeds, data=s.data())
def test_random_move_sequences_finish_with_valid_results(players, seed, data):
    prog = program(players)
    st = prog.new_state(seed)
    while not st.over:
        assert st.moves < MAX_MOVES
        legal = prog.legal_moves(st)
        assert legal
        i = data.draw(s.integers(min_value=0, max_value=len(legal) - 1), label="move")
        prog.play(st, legal[i])
    check_loc(st)
    assert prog.legal_moves(st) == []
    res = prog.result(st)
    scores = sheet_scores(prog, st)
    disposed = [size(prog, st, f"disposal({p})") for p in range(players)]
    assert res["scores"] == scores
    assert all(isinstance(x, int) for x in res["scores"])
    assert res["winners"] == sheet_winners(scores, disposed)
    assert res["winners"] and all(0 <= p < players for p in res["winners"])


@SETTINGS
@given(players=players_s, seed=seeds, steps=s.integers(min_value=0, max_value=150), move=bad_moves)
def test_garbage_moves_raise_illegal_move_and_change_nothing(players, seed, steps, move):
    prog = program(players)
    st = prog.new_state(seed)
    advance(prog, st, steps, seed)
    assume(move not in prog.legal_moves(st))
    before = st.clone()
    try:
        prog.play(st, move)
    except IllegalMove:
        pass
    else:
        raise AssertionError(f"play accepted {move!r}")
    assert st == before
    check_loc(st)


@SETTINGS
@given(players=players_s, seed=seeds, steps=s.integers(min_value=0, max_value=150),
       text=s.one_of(s.text(max_size=40),
                     s.from_regex(r"(deliver|dispose|factory): ?[0-9]\*(cans|glass|plastic|paper):[0-3]"
                                  r"( \+ [0-9]\*(cans|glass|plastic|paper):[0-3])?", fullmatch=True)))
def test_garbage_texts_are_refused_or_parse_to_a_legal_move(players, seed, steps, text):
    prog = program(players)
    st = prog.new_state(seed)
    advance(prog, st, steps, seed)
    before = st.clone()
    try:
        move = prog.parse_move(st, text)
    except IllegalMove:
        assert st == before
        return
    assert move in prog.legal_moves(st)
    assert st == before
