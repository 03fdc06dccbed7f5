"""Variants (manual section 12): a file with `extends:` merges into its base as the manual says.

One test per rule of the manual: mappings merge key by key, by_players tables row by row (a
variant row replaces exactly the base's rows for its player counts, and splits a base range it
overlaps), and a parameter the base lacks that no rule reads is an error, not a silent no-op.
"""
from __future__ import annotations

import os

import pytest

from interpreter.compiler.game import load_game, validate_file
from interpreter.errors import RulesetError
from interpreter.frontend.loader import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "tests", "errors", "_valid_base.yaml")


def base_text(table: str = "{2: 1, 3: 0}", players: str = "{min: 2, max: 3}") -> str:
    with open(BASE, encoding="utf-8") as fh:
        text = fh.read()
    return text.replace("{2: 1, 3: 0}", table).replace("{min: 2, max: 3}", players)


@pytest.fixture
def game(tmp_path):
    """Write base.yaml (the corpus's mini game with a given bonus table) and a variant; return the variant's path."""
    def make(variant: str, table: str = "{2: 1, 3: 0}", players: str = "{min: 2, max: 3}") -> str:
        (tmp_path / "base.yaml").write_text(base_text(table, players), encoding="utf-8")
        path = tmp_path / "variant.yaml"
        path.write_text("extends: base.yaml\nname: Variant\n" + variant, encoding="utf-8")
        return str(path)
    return make


def bonus_rows(path: str) -> dict:
    return load(path).data["params"]["bonus"]["by_players"]


def bonus_by_count(path: str) -> dict:
    table, _ = load_game(path).rules.params["bonus"]
    return dict(table)


def test_a_variant_row_replaces_only_the_base_row_for_its_player_count(game):
    path = game("params:\n  bonus:\n    by_players: {2: 4}\n")
    assert validate_file(path) == []
    assert bonus_by_count(path) == {2: 4, 3: 0}


def test_a_variant_row_inside_a_base_range_splits_the_range(game):
    path = game("params:\n  bonus:\n    by_players: {4: 9}\n", table="{2: 1, 3-5: 0}", players="{min: 2, max: 5}")
    assert validate_file(path) == []
    assert bonus_by_count(path) == {2: 1, 3: 0, 4: 9, 5: 0}
    assert bonus_rows(path) == {2: 1, 3: 0, 5: 0, 4: 9}


def test_a_variant_range_overlapping_two_base_rows_replaces_their_shared_counts(game):
    path = game("params:\n  bonus:\n    by_players: {3-4: 7}\n", table="{2-3: 1, 4-5: 0}", players="{min: 2, max: 5}")
    assert validate_file(path) == []
    assert bonus_by_count(path) == {2: 1, 3: 7, 4: 7, 5: 0}
    assert bonus_rows(path) == {2: 1, 5: 0, "3-4": 7}


def test_the_parts_of_a_split_base_row_keep_the_base_rows_position(game, tmp_path):
    path = game("params:\n  bonus:\n    by_players: {4: 9}\n", table="{2: 1, 3-5: 0}", players="{min: 2, max: 5}")
    doc = load(path)
    where = {k: doc.key_pos(("params", "bonus", "by_players", k)) for k in (3, 5, 4)}
    assert where[3] == where[5] and where[3].file == str(tmp_path / "base.yaml")
    assert where[4].file == path


def test_a_variant_table_covering_every_count_replaces_the_whole_table(game):
    path = game("params:\n  bonus:\n    by_players: {2-3: 5}\n")
    assert bonus_rows(path) == {"2-3": 5}
    assert bonus_by_count(path) == {2: 5, 3: 5}


def test_a_variant_row_of_the_wrong_kind_is_one_error_at_the_variants_row(game, tmp_path):
    path = game("params:\n  bonus:\n    by_players: {2: four}\n")
    [d] = validate_file(path)
    assert (d.pos.file, d.pos.line, d.pos.col) == (path, 5, 21)
    assert "row '2' is a text, but row '3' is a number" in d.message
    assert "base.yaml:8:27" in d.hint


def test_a_variant_row_with_a_key_that_is_not_a_count_is_an_error_in_the_variant(game):
    path = game("params:\n  bonus:\n    by_players: {2: 4, two: 3}\n")
    [d] = validate_file(path)
    assert (d.pos.file, d.pos.line) == (path, 5) and "'two'" in d.message


def test_a_variant_param_the_base_lacks_and_no_rule_reads_is_an_error_with_did_you_mean(game):
    path = game("params:\n  hand_sise: 4\n")
    [d] = validate_file(path)
    assert (d.pos.file, d.pos.line, d.pos.col) == (path, 4, 3) and d.severity == "error"
    assert "not a parameter of the base ruleset" in d.message and "did you mean 'hand_size'?" in d.hint
    with pytest.raises(RulesetError):       # simulate, record and play load the game the same way
        load_game(path)


def test_a_variant_param_the_base_lacks_is_fine_when_a_rule_of_the_variant_reads_it(game):
    path = game("params:\n  points: 5\nscore: points\n")
    assert validate_file(path) == []
    assert load_game(path).rules.params["points"][0] == 5


def test_a_variant_that_changes_a_base_param_needs_no_rule_of_its_own(game):
    assert validate_file(game("params:\n  hand_size: 3\n")) == []
