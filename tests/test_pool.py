"""The warm pool starts containers for declared demand only: never one that no episode takes (unit, no Docker)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from termrl.errors import SandboxError
from termrl.sandbox.base import SandboxSpec
from termrl.sandbox.pool import PooledProvider


class _Box:
    def __init__(self, spec):
        self.spec = spec
        self.closed = False

    def close(self):
        self.closed = True


class _Slow:
    """An inner provider whose starts take ``delay`` seconds; counts every start."""

    def __init__(self, delay=0.2, fail_first=0):
        self.delay = delay
        self.fail_first = fail_first
        self.starts = 0
        self.lock = threading.Lock()

    def image_for(self, task, config):
        return "img"

    def start(self, spec):
        with self.lock:
            self.starts += 1
            fail = self.starts <= self.fail_first
        time.sleep(self.delay)
        if fail:
            raise SandboxError("engine hiccup")
        return _Box(spec)


A, B = SandboxSpec(image="a"), SandboxSpec(image="b")


def _wait(pred, limit=5.0):
    end = time.monotonic() + limit
    while not pred() and time.monotonic() < end:
        time.sleep(0.02)
    return pred()


def test_starts_ahead_within_size_and_only_for_declared_episodes():
    inner = _Slow()
    with PooledProvider(inner, size=2, workers=2) as pool:
        pool.expect(A, 3)
        pool.expect(B, 1)
        assert _wait(lambda: len(pool._idle[A]) == 2)
        time.sleep(0.3)
        assert inner.starts == 2  # size bounds what runs ahead: B waits its turn
        boxes = [pool.start(A) for _ in range(3)] + [pool.start(B)]
        assert all(b.spec.image == s for b, s in zip(boxes, "aaab"))
        time.sleep(0.5)
        assert inner.starts == 4, "a container was started that no episode took"
        assert pool.hits >= 2 and not any(pool._idle.values())


def test_concurrent_starts_wait_for_the_spare_already_starting():
    inner = _Slow(delay=0.5)
    with PooledProvider(inner, size=4, workers=4) as pool:
        pool.expect(A, 4)
        with ThreadPoolExecutor(4) as ex:  # all four ask before any spare is up
            boxes = list(ex.map(lambda _: pool.start(A), range(4)))
        assert len({id(b) for b in boxes}) == 4
        assert inner.starts == 4 and pool.hits == 4 and pool.misses == 0


def test_without_declared_demand_nothing_is_started_ahead():
    inner = _Slow(delay=0.0)
    with PooledProvider(inner, size=3) as pool:
        for _ in range(3):
            pool.start(A).close()
        time.sleep(0.2)
        assert inner.starts == 3 and pool.misses == 3


def test_a_failed_spare_start_is_done_inline_by_its_episode():
    inner = _Slow(delay=0.1, fail_first=1)
    with PooledProvider(inner, size=1, workers=1) as pool:
        pool.expect(A, 1)
        box = pool.start(A)  # waits for the spare, which fails: starts its own
        assert isinstance(box, _Box) and inner.starts == 2


def test_close_removes_spares_nobody_took():
    inner = _Slow(delay=0.0)
    pool = PooledProvider(inner, size=2)
    pool.expect(A, 5)
    assert _wait(lambda: len(pool._idle[A]) == 2)
    spares = list(pool._idle[A])
    pool.close()
    assert all(b.closed for b in spares)
