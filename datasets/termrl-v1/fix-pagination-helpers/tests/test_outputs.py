import importlib.util
import random

import pytest


@pytest.fixture(scope="module")
def pg():
    spec = importlib.util.spec_from_file_location("paginate", "/app/paginate.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def ref_window(cur, total, width):
    w = min(width, total)
    best = None
    for s in range(1, total - w + 2):
        win = list(range(s, s + w))
        if cur not in win:
            continue
        before, after = cur - s, s + w - 1 - cur
        score = (abs(after - before), 0 if after >= before else 1)
        if best is None or score < best[0]:
            best = (score, win)
    return best[1]


def test_page_count(pg):
    assert pg.page_count(0, 10) == 1
    assert pg.page_count(10, 10) == 1
    assert pg.page_count(11, 10) == 2
    assert pg.page_count(1, 3) == 1
    assert pg.page_count(7, 3) == 3
    with pytest.raises(ValueError):
        pg.page_count(5, 0)


def test_page_slice_contents(pg):
    items = list(range(1, 24))
    assert pg.page_slice(items, 1, 10) == list(range(1, 11))
    assert pg.page_slice(items, 3, 10) == [21, 22, 23]
    assert pg.page_slice([], 1, 5) == []


def test_page_slice_bounds(pg):
    items = list(range(20))
    for bad in (0, -1, 3):
        with pytest.raises(IndexError):
            pg.page_slice(items, bad, 10)


def test_slices_partition_items(pg):
    rng = random.Random(5)
    for _ in range(100):
        items = [rng.random() for _ in range(rng.randint(0, 60))]
        per = rng.randint(1, 9)
        pages = pg.page_count(len(items), per)
        joined = []
        for p in range(1, pages + 1):
            chunk = pg.page_slice(items, p, per)
            assert 0 < len(chunk) <= per or (len(items) == 0 and chunk == [])
            joined += chunk
        assert joined == items


def test_window_middle(pg):
    assert pg.page_window(10, 20, 5) == [8, 9, 10, 11, 12]
    assert pg.page_window(10, 20, 4) == [9, 10, 11, 12]


def test_window_edges(pg):
    assert pg.page_window(1, 20, 5) == [1, 2, 3, 4, 5]
    assert pg.page_window(20, 20, 5) == [16, 17, 18, 19, 20]
    assert pg.page_window(2, 3, 5) == [1, 2, 3]
    assert pg.page_window(1, 1, 5) == [1]


def test_window_random(pg):
    rng = random.Random(11)
    for _ in range(300):
        total = rng.randint(1, 30)
        cur = rng.randint(1, total)
        width = rng.randint(1, 9)
        assert pg.page_window(cur, total, width) == ref_window(cur, total, width), (cur, total, width)
