"""A warm pool of started sandboxes per image, so an episode's first command does not wait
for a container to start.

``PooledProvider`` wraps another provider: ``start(spec)`` hands out an already started
sandbox of the same image and limits when one is waiting. Every sandbox still serves exactly
one episode (a fresh container each time).

What it starts ahead follows declared demand: the rollout engine says how many episodes of each
image are coming (``expect``), and the pool keeps at most ``size`` sandboxes started or starting
ahead of them, in the order the demand was declared, never more than are still to come. A
container started for nobody costs as much as one an episode uses: on a busy host, starting
spares per image is what made throughput fall as concurrency rose. ``warm(spec, count)`` still
starts ``count`` spares explicitly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from termrl.errors import SandboxError
from termrl.images.build import ImageConfig
from termrl.sandbox.base import Sandbox, SandboxProvider, SandboxSpec
from termrl.types import Task

log = logging.getLogger(__name__)


def _key(spec: SandboxSpec) -> SandboxSpec:
    return replace(spec, labels=())  # labels don't change what the container is


class PooledProvider:
    name = "pooled"

    def __init__(self, inner: SandboxProvider, size: int = 2, workers: int = 2, max_idle: int | None = None):
        self.inner = inner
        self.size = size
        self.max_idle = max_idle if max_idle is not None else 4 * size
        """Idle sandboxes kept over all images; beyond it the least recently used images' are removed."""
        self._used: dict[SandboxSpec, float] = {}
        self._idle: dict[SandboxSpec, list[Sandbox]] = defaultdict(list)
        self._pending: dict[SandboxSpec, int] = defaultdict(int)
        self._demand: dict[SandboxSpec, int] = {}
        """Starts announced by ``expect`` and not taken yet, per spec, in the order they were announced."""
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        """Notified when a background start ends (a sandbox waits, or the start failed)."""
        self._claimed: dict[SandboxSpec, int] = defaultdict(int)
        """Episodes waiting for a sandbox that is still starting, per spec."""
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="termrl-pool")
        self._closed = False
        self.hits = 0
        self.misses = 0

    @property
    def client(self):
        return getattr(self.inner, "client", None)

    def image_for(self, task: Task, config: ImageConfig) -> str:
        return self.inner.image_for(task, config)

    def warm(self, spec: SandboxSpec, count: int | None = None) -> None:
        """Start sandboxes for ``spec`` in the background until ``count`` (default: pool size) wait."""
        key = _key(spec)
        with self._lock:
            if self._closed:  # a closed pool still starts sandboxes on demand, it just keeps none waiting
                return
            missing = (count or self.size) - len(self._idle[key]) - self._pending[key]
            self._pending[key] += max(0, missing)
        for _ in range(max(0, missing)):
            self._executor.submit(self._fill, key)

    def expect(self, spec: SandboxSpec, count: int) -> None:
        """``count`` more episodes of ``spec`` are coming: start sandboxes ahead of them, within ``size``."""
        key = _key(spec)
        with self._lock:
            self._demand[key] = max(0, self._demand.get(key, 0) + count)
            if not self._demand[key]:
                del self._demand[key]
        self._top_up()

    def _top_up(self) -> None:
        """Start spares for declared demand, oldest first, until ``size`` are waiting or starting."""
        todo: list[SandboxSpec] = []
        with self._lock:
            if self._closed:
                return
            ahead = sum(len(v) for v in self._idle.values()) + sum(self._pending.values())
            for key, wanted in self._demand.items():
                need = wanted - len(self._idle[key]) - self._pending[key]
                while need > 0 and ahead < self.size:
                    self._pending[key] += 1
                    todo.append(key)
                    need -= 1
                    ahead += 1
        for key in todo:
            self._executor.submit(self._fill, key)

    def _fill(self, key: SandboxSpec) -> None:
        try:
            box = self.inner.start(key)
        except SandboxError as exc:
            log.warning("warm pool could not start a sandbox for %s: %s", key.image, exc)
            with self._lock:
                self._pending[key] -= 1
                self._ready.notify_all()  # whoever waited for it starts one itself
            return
        evicted: list[Sandbox] = []
        with self._lock:
            self._pending[key] -= 1
            if not self._closed:
                self._idle[key].append(box)
                evicted = self._evict(keep=key)
                box = None
            self._ready.notify_all()
        for old in evicted:
            old.close()
        if box is not None:
            box.close()

    def _evict(self, keep: SandboxSpec) -> list[Sandbox]:
        """Idle sandboxes over ``max_idle``, taken from the least recently used other images (lock held)."""
        out: list[Sandbox] = []
        total = sum(len(v) for v in self._idle.values())
        for key in sorted((k for k in self._idle if k != keep and self._idle[k]), key=lambda k: self._used.get(k, 0)):
            while total > self.max_idle and self._idle[key]:
                out.append(self._idle[key].pop())
                total -= 1
        return out

    def start(self, spec: SandboxSpec) -> Sandbox:
        """A started sandbox for ``spec``: a waiting one when there is one, else one started now."""
        key = _key(spec)
        with self._lock:
            self._used[key] = time.monotonic()
            box = self._take(key)
            if key in self._demand:
                self._demand[key] -= 1
                if self._demand[key] <= 0:
                    del self._demand[key]
        if box is not None:
            self.hits += 1
        else:
            self.misses += 1
        self._top_up()  # the next spare starts while this episode runs
        return box if box is not None else self.inner.start(spec)

    def _take(self, key: SandboxSpec) -> Sandbox | None:
        """A waiting sandbox, or one already starting for nobody else (waited for); None: start one (lock held).

        Starting a second container while the spare meant for this episode is half started would
        leave one of the two unused."""
        while True:
            if self._idle[key]:
                return self._idle[key].pop()
            if self._closed or self._pending[key] - self._claimed[key] <= 0:
                return None
            self._claimed[key] += 1
            try:
                self._ready.wait(timeout=5.0)  # a start that hangs is the inner provider's to time out
            finally:
                self._claimed[key] -= 1

    def close(self) -> None:
        """Remove every idle sandbox (and any that finish starting later)."""
        with self._lock:
            self._closed = True
            self._ready.notify_all()
            boxes = [b for idle in self._idle.values() for b in idle]
            self._idle.clear()
        self._executor.shutdown(wait=True)
        for box in boxes:
            box.close()
        if hasattr(self.inner, "close"):
            self.inner.close()

    def __enter__(self) -> "PooledProvider":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
