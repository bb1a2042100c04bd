import random
import sys

import pytest

sys.path.insert(0, "/app")
from cachelib import LRUCache  # noqa: E402


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_get_refreshes_recency():
    c = LRUCache(2, clock=Clock())
    c.put("a", 1)
    c.put("b", 2)
    assert c.get("a") == 1
    c.put("c", 3)
    assert "b" not in c and c.get("a") == 1 and c.get("c") == 3
    assert c.keys() == ["a", "c"]


def test_overwrite_does_not_evict():
    c = LRUCache(2, clock=Clock())
    c.put("a", 1)
    c.put("b", 2)
    c.put("a", 10)
    assert len(c) == 2 and c.get("b") == 2 and c.get("a") == 10
    assert c.stats()["evictions"] == 0
    c.put("c", 3)
    assert c.keys() == ["a", "c"]
    assert c.stats()["evictions"] == 1


def test_ttl_boundary_and_len():
    clk = Clock()
    c = LRUCache(5, ttl=10, clock=clk)
    c.put("a", 1)
    c.put("b", 2, ttl=20)
    c.put("z", 0, ttl=0)
    assert "z" not in c
    clk.t += 9.999
    assert c.get("a") == 1
    clk.t += 0.001
    assert c.get("a") is None and "a" not in c
    assert len(c) == 1 and c.keys() == ["b"]
    with pytest.raises(KeyError):
        c.pop("a")
    assert c.pop("b") == 2 and len(c) == 0


def test_expired_dropped_before_eviction():
    clk = Clock()
    c = LRUCache(2, clock=clk)
    c.put("short", 1, ttl=5)
    c.put("long", 2)
    clk.t += 6
    c.put("new", 3)
    assert c.keys() == ["long", "new"]
    assert c.stats()["evictions"] == 0


def test_contains_does_not_touch_recency_and_stats():
    c = LRUCache(2, clock=Clock())
    c.put("a", 1)
    c.put("b", 2)
    assert "a" in c
    c.put("c", 3)
    assert "a" not in c
    c.get("b"); c.get("zz", "dflt"); c.get("a")
    assert c.get("zz", "dflt") == "dflt"
    assert c.stats() == {"hits": 1, "misses": 3, "evictions": 1}


def test_bad_capacity():
    with pytest.raises(ValueError):
        LRUCache(0)


class Model:
    def __init__(self, cap, ttl, clk):
        self.cap, self.ttl, self.clk, self.d = cap, ttl, clk, {}
        self.h = self.m = self.e = 0

    def alive(self, k):
        if k in self.d and self.d[k][1] is not None and self.clk() >= self.d[k][1]:
            del self.d[k]
        return k in self.d

    def purge(self):
        for k in list(self.d):
            self.alive(k)

    def put(self, k, v, ttl):
        t = self.ttl if ttl is None else ttl
        exp = None if t is None else self.clk() + t
        if self.alive(k):
            del self.d[k]
        else:
            self.purge()
            if len(self.d) >= self.cap:
                del self.d[next(iter(self.d))]
                self.e += 1
        self.d[k] = (v, exp)

    def get(self, k):
        if not self.alive(k):
            self.m += 1
            return None
        self.h += 1
        self.d[k] = self.d.pop(k)
        return self.d[k][0]


def test_random_against_model():
    rng = random.Random(8)
    for _ in range(30):
        clk = Clock()
        cap, ttl = rng.randint(1, 6), rng.choice([None, 3, 7])
        c, m = LRUCache(cap, ttl=ttl, clock=clk), Model(cap, ttl, clk)
        for _ in range(300):
            k = rng.choice("abcdefgh")
            r = rng.random()
            if r < 0.45:
                t = rng.choice([None, None, 0, 1, 2, 5])
                v = rng.randint(0, 99)
                c.put(k, v, ttl=t)
                m.put(k, v, t)
            elif r < 0.85:
                assert c.get(k) == m.get(k)
            else:
                clk.t += rng.choice([0.5, 1, 2, 3])
            m.purge()
            assert c.keys() == list(m.d)
            assert len(c) == len(m.d)
        assert c.stats() == {"hits": m.h, "misses": m.m, "evictions": m.e}
