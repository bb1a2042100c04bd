"""A least-recently-used cache with optional per-entry time-to-live.

Semantics
---------
* ``LRUCache(capacity, ttl=None, clock=time.monotonic)``; capacity >= 1 else ValueError.
* ``put(key, value, ttl=None)`` stores/overwrites an entry and makes it the most recently
  used. The entry expires ``ttl`` seconds after this put (the per-call ttl overrides the
  cache default; None means the default; a default of None means never). An entry is
  expired when ``clock() >= stored_at + ttl``.
* When a put of a *new* key would exceed ``capacity`` live entries, expired entries are
  dropped first; if still full, the least recently used entry is evicted.
* ``get(key, default=None)`` returns the value of a live entry and marks it most recently
  used; for a missing or expired key it returns ``default`` (expired entries are removed).
* ``key in cache`` is True only for live entries and does NOT change recency.
* ``len(cache)`` counts live entries only.
* ``keys()`` lists live keys from least to most recently used.
* ``pop(key)`` removes a live entry and returns its value; KeyError if missing/expired.
* ``stats()`` returns ``{"hits": h, "misses": m, "evictions": e}``: get() hits and misses;
  evictions counts LRU evictions only (not expirations).
"""
import time


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
        return exp is not None and self.clock() > exp

    def _purge(self):
        for k in list(self._data):
            if self._expired(self._data[k]):
                del self._data[k]

    def put(self, key, value, ttl=None):
        ttl = ttl or self.ttl
        exp = None if ttl is None else self.clock() + ttl
        if len(self._data) >= self.capacity:
            self._purge()
        if len(self._data) >= self.capacity:
            oldest = next(reversed(self._data))
            del self._data[oldest]
            self._evictions += 1
        self._data[key] = (value, exp)

    def get(self, key, default=None):
        entry = self._data.get(key)
        if entry is None or self._expired(entry):
            self._misses += 1
            return default
        self._hits += 1
        return entry[0]

    def __contains__(self, key):
        entry = self._data.get(key)
        return entry is not None and not self._expired(entry)

    def __len__(self):
        return len(self._data)

    def keys(self):
        return [k for k, e in self._data.items() if not self._expired(e)]

    def pop(self, key):
        entry = self._data.pop(key)
        return entry[0]

    def stats(self):
        return {"hits": self._hits, "misses": self._misses, "evictions": self._evictions}
