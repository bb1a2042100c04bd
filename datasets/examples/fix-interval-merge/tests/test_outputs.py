import importlib.util
import random

import pytest


@pytest.fixture(scope="module")
def intervals():
    spec = importlib.util.spec_from_file_location("intervals", "/app/intervals.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference_merge(pairs):
    """Independent reference: merge any two sharing a point until none do, then sort."""
    groups = [list(p) for p in pairs]
    changed = True
    while changed:
        changed = False
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                a, b = groups[i], groups[j]
                if a[0] <= b[1] and b[0] <= a[1]:
                    groups[i] = [min(a[0], b[0]), max(a[1], b[1])]
                    del groups[j]
                    changed = True
                    break
            if changed:
                break
    return sorted(tuple(g) for g in groups)


def test_disjoint_and_overlapping(intervals):
    assert intervals.merge_intervals([(1, 3), (2, 6), (8, 10), (15, 18)]) == [(1, 6), (8, 10), (15, 18)]


def test_touching_intervals_merge(intervals):
    assert intervals.merge_intervals([(1, 3), (3, 5)]) == [(1, 5)]
    assert intervals.merge_intervals([(0, 0), (0, 0)]) == [(0, 0)]
    # Adjacent integers that do not share a point stay separate.
    assert intervals.merge_intervals([(1, 2), (3, 4)]) == [(1, 2), (3, 4)]


def test_nested_interval_does_not_shrink(intervals):
    assert intervals.merge_intervals([(1, 10), (2, 3)]) == [(1, 10)]
    assert intervals.merge_intervals([(1, 10), (2, 3), (4, 12)]) == [(1, 12)]


def test_unsorted_input(intervals):
    assert intervals.merge_intervals([(8, 10), (1, 3), (2, 4)]) == [(1, 4), (8, 10)]


def test_input_not_modified(intervals):
    data = [(5, 7), (1, 2), (6, 9)]
    snapshot = list(data)
    result = intervals.merge_intervals(data)
    assert data == snapshot
    assert result == [(1, 2), (5, 9)]
    assert result is not data


def test_empty(intervals):
    assert intervals.merge_intervals([]) == []
    assert intervals.total_covered([]) == 0


def test_total_covered(intervals):
    assert intervals.total_covered([(1, 3), (3, 5)]) == 5
    assert intervals.total_covered([(1, 10), (2, 3)]) == 10
    assert intervals.total_covered([(4, 4), (1, 2)]) == 3


def test_random_against_reference(intervals):
    rng = random.Random(20240601)
    for _ in range(300):
        pairs = []
        for _ in range(rng.randint(1, 8)):
            start = rng.randint(-20, 20)
            pairs.append((start, start + rng.randint(0, 8)))
        expected = reference_merge(pairs)
        assert intervals.merge_intervals(list(pairs)) == expected, pairs
        assert intervals.total_covered(list(pairs)) == sum(e - s + 1 for s, e in expected), pairs
