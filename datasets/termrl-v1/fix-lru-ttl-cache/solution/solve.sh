#!/bin/bash
set -euo pipefail
python3 - <<'PY'
p = "/app/cachelib/lru.py"
s = open(p).read()
head = s[: s.index("import time")]
body = '''import time


class LRUCache:
    def __init__(self, capacity, ttl=None, clock=time.monotonic):
        if capacity < 1:
            raise ValueError("capacity must be >= 1")
        self.capacity = capacity
        self.ttl = ttl
        self.clock = clock
        self._data = {}  # key -> (value, expires_at or None); dict order = recency
        self._hits = self._misses = self._evictions = 0

    def _expired(self, entry):
        exp = entry[1]
        return exp is not None and self.clock() >= exp

    def _purge(self):
        for k in list(self._data):
            if self._expired(self._data[k]):
                del self._data[k]

    def _live(self, key):
        entry = self._data.get(key)
        if entry is None:
            return None
        if self._expired(entry):
            del self._data[key]
            return None
        return entry

    def put(self, key, value, ttl=None):
        ttl = self.ttl if ttl is None else ttl
        exp = None if ttl is None else self.clock() + ttl
        if self._live(key) is not None:
            del self._data[key]
        else:
            self._purge()
            if len(self._data) >= self.capacity:
                oldest = next(iter(self._data))
                del self._data[oldest]
                self._evictions += 1
        self._data[key] = (value, exp)

    def get(self, key, default=None):
        entry = self._live(key)
        if entry is None:
            self._misses += 1
            return default
        self._hits += 1
        del self._data[key]
        self._data[key] = entry
        return entry[0]

    def __contains__(self, key):
        entry = self._data.get(key)
        return entry is not None and not self._expired(entry)

    def __len__(self):
        self._purge()
        return len(self._data)

    def keys(self):
        self._purge()
        return list(self._data)

    def pop(self, key):
        entry = self._live(key)
        if entry is None:
            raise KeyError(key)
        del self._data[key]
        return entry[0]

    def stats(self):
        return {"hits": self._hits, "misses": self._misses, "evictions": self._evictions}
'''
open(p, "w").write(head + body)
PY
