#!/bin/bash
# Mistake: pools are keyed by user only, so an idle server connection opened for one database is handed to a
# client of another database.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pooler/pooler.py"
s = open(p).read()
reps = [
    ("""    def acquire(self, key):
        with self.lock:
            q = self.waiting.setdefault(key, deque())""", """    def acquire(self, full_key):
        key = full_key[0]
        with self.lock:
            q = self.waiting.setdefault(key, deque())"""),
    ("            return Backend(*key)\n", "            return Backend(*full_key)\n"),
    ("""    def release(self, key, backend):
        with self.lock:""", """    def release(self, key, backend):
        key = key[0]
        with self.lock:"""),
    ("""    def discard(self, key):
        with self.lock:""", """    def discard(self, key):
        key = key[0]
        with self.lock:"""),
]
for a, b in reps:
    assert a in s, a
    s = s.replace(a, b)
open(p, "w").write(s)
PY
