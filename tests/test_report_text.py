"""Terminal histograms: a few lines of block characters, each within the width, the tallest column
full, the axis naming the lowest and highest value."""
from __future__ import annotations

import random

import pytest

from interpreter.tools.report_text import labelled_histograms, text_histogram

BARS = set(" ▁▂▃▄▅▆▇█")


def test_whole_numbers_get_a_column_per_value_with_the_tallest_full():
    lines = text_histogram([1, 2, 2, 3, 3, 3, 3, 3], width=40, height=1)
    assert lines == ["▂▂▂▂▃▃▃▃████", "1          3"]      # each column four characters wide, where there is room


def test_two_lines_of_bars_give_eight_levels_each():
    lines = text_histogram({"1": 1, "2": 9, "3": 16}, width=3, height=2)
    assert lines == [" ▁█", "▁██", "1 3"]


def test_a_value_that_occurs_shows_at_least_the_lowest_block():
    bars = text_histogram({"0": 1, "1": 1000}, width=2, height=1)[0]
    assert bars == "▁█"


def test_values_never_seen_between_others_leave_a_gap():
    assert text_histogram({"1": 5, "3": 5}, width=3, height=1)[0] == "█ █"


def test_bins_are_drawn_as_given_in_order():
    lines = text_histogram([[40, 50, 2], [10, 20, 8], [20, 40, 4]], width=8, height=1)
    assert lines == ["██▄▄▂▂", "10  50"]


def test_more_bins_than_columns_are_merged_with_their_neighbours():
    lines = text_histogram([[i, i + 1, 1] for i in range(100)], width=10, height=1)
    assert lines == ["█" * 10, "0      100"]


@pytest.mark.parametrize("width", [8, 20, 60, 80])
@pytest.mark.parametrize("height", [1, 2, 3])
def test_every_line_fits_the_width_and_bars_use_only_block_characters(width, height):
    r = random.Random(width * 10 + height)
    for data in ([r.gauss(40, 9) for _ in range(500)], [round(r.gauss(30, 12)) for _ in range(300)],
                 {str(k): r.randint(0, 900) for k in range(1, 30)}, [[k, k + 3, r.randint(0, 50)] for k in range(0, 300, 3)]):
        lines = text_histogram(data, width=width, height=height)
        assert len(lines) == height + 1
        assert all(len(line) <= width for line in lines)
        assert all(set(line) <= BARS for line in lines[:-1])
        assert "█" in "".join(lines[:-1])


def test_many_real_values_are_grouped_in_a_readable_number_of_columns():
    r = random.Random(1)
    values = [r.gauss(40, 7) for _ in range(300)]
    bars = text_histogram(values, width=80, height=1)[0]
    assert 20 <= len(bars) <= 80 and len(set(bars)) > 3


def test_an_axis_too_wide_for_the_bars_is_shortened_to_the_width():
    bins = [[100, 200, 1], [200, 300, 2]]
    assert text_histogram(bins, width=7, height=1) == ["▄▄▄███", "100 300"]
    assert text_histogram(bins, width=6, height=1) == ["▄▄▄███", "100…"]


def test_one_value_repeated_is_one_full_column_and_its_value():
    assert text_histogram([5] * 10, width=80, height=1) == ["████", "5"]


@pytest.mark.parametrize("empty", [[], {}, None, ["x", None], {"1": 0}])
def test_no_values_say_so_in_one_line(empty):
    assert text_histogram(empty, width=60) == ["(no values)"]


def test_labelled_histograms_put_each_label_beside_its_bars_within_the_width():
    lines = labelled_histograms([("seat 0", [1, 2, 2]), ("turns", {"30": 2, "31": 1})], width=30, height=2)
    assert lines[1].startswith("seat 0  ") and lines[4].startswith("turns   ")
    assert lines[2].startswith("        1") and lines[5].startswith("        30")
    assert all(len(line) <= 30 for line in lines)
