"""Court Intrigue (rulesets/examples/court_intrigue.yaml), a bluffing game in the manner of Coup: a
conformance test over many seeded games and one scenario per rule sentence of docs/games.md
("Court Intrigue")."""
import collections

import pytest

from example_helpers import game, names, size, var, set_var, arrange, seeded_games, move_texts, do, check_loc

ROLES = ["duke", "assassin", "captain", "ambassador", "contessa"]


def prog_for(players):
    return game("court_intrigue").program(players)


def hand(prog, st, p):
    return sorted(names(prog, st, f"hand({p})"))


def lost(prog, st, p):
    return sorted(names(prog, st, f"lost({p})"))


def out(prog, st, p):
    """Seat p has lost both influences."""
    return size(prog, st, f"lost({p})") == 2


# ---------------------------------------------------------------- conformance

@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_invariants_after_every_move_over_many_seeded_games(players):
    prog = prog_for(players)
    for seed, st, bots in seeded_games(prog, range(25)):
        while not st.over:
            check_loc(st)
            # the 15 characters are all somewhere: court deck, face down or face up
            every = collections.Counter(n for z in range(len(st.zones)) for n in
                                        [prog.type_names[prog.card_type[c]] for c in st.zones[z]])
            assert every == collections.Counter({r: 3 for r in ROLES})
            for p in range(players):
                assert var(prog, st, "coins", p) >= 0
                # a seat out has no face-down influence and neither plays nor decides
                if out(prog, st, p):
                    assert size(prog, st, f"hand({p})") == 0
                    assert st.current != p and st.decider != p
                else:
                    assert size(prog, st, f"hand({p})") + size(prog, st, f"lost({p})") in (2, 4)
            legal = move_texts(prog, st)
            # with 10 coins or more the only action is a coup
            if "income" in legal or "coup" in legal:
                if var(prog, st, "coins", st.current) >= 10:
                    assert legal == ["coup"]
                if var(prog, st, "coins", st.current) < 7:
                    assert "coup" not in legal
            move = bots[st.decider].choose(prog, st, prog.legal_moves(st))
            prog.apply(st, move)
        standing = [p for p in range(players) if not out(prog, st, p)]
        assert len(standing) == 1
        assert prog.result(st)["winners"] == standing
