#!/bin/bash
# Plausible but wrong: every array is one value, so two branches that touch different elements of an
# id-array (a route added here, a timeout changed there) conflict instead of merging.
set -euo pipefail
cat > /app/jsonmerge <<'PY'
#!/usr/bin/env python3
"""Three-way JSON merge driver: jsonmerge BASE OURS THEIRS [PATH]; the result goes to OURS."""
import json
import subprocess
import sys

ABSENT = object()
MARK = "<<<<<<< conflict"


def same(x, y):
    if x is ABSENT or y is ABSENT:
        return x is y
    return json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True)


def is_id_array(v):
    if not isinstance(v, list):
        return False
    if not all(isinstance(e, dict) and isinstance(e.get("id"), str) for e in v):
        return False
    return len({e["id"] for e in v}) == len(v)


class Merge:
    def __init__(self):
        self.conflicts = 0

    def value(self, o, a, b):
        if same(a, b):
            return a
        if same(a, o):
            return b
        if same(b, o):
            return a
        if isinstance(a, dict) and isinstance(b, dict):
            return self.obj(o if isinstance(o, dict) else {}, a, b)
        self.conflicts += 1
        rec = {k: v for k, v in (("base", o), ("ours", a), ("theirs", b)) if v is not ABSENT}
        return {MARK: rec}

    def obj(self, o, a, b):
        out = {}
        for k in list(a) + [k for k in b if k not in a]:
            v = self.value(o.get(k, ABSENT), a.get(k, ABSENT), b.get(k, ABSENT))
            if v is not ABSENT:
                out[k] = v
        return out

    def arr(self, o, a, b):
        om, am, bm = ({e["id"]: e for e in x} for x in (o, a, b))
        out = []
        for i in [e["id"] for e in a] + [e["id"] for e in b if e["id"] not in am]:
            v = self.value(om.get(i, ABSENT), am.get(i, ABSENT), bm.get(i, ABSENT))
            if v is not ABSENT:
                out.append(v)
        return out


def main():
    base, ours, theirs = sys.argv[1:4]
    texts = [open(p, encoding="utf-8").read() for p in (base, ours, theirs)]
    try:
        docs = [json.loads(t) if (i or t.strip()) else {} for i, t in enumerate(texts)]
    except ValueError:
        sys.exit(1 if subprocess.run(["git", "merge-file", ours, base, theirs]).returncode else 0)
    m = Merge()
    result = m.value(*docs)
    with open(ours, "w", encoding="utf-8") as f:
        f.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    sys.exit(1 if m.conflicts else 0)


main()
PY
chmod +x /app/jsonmerge
git config --global merge.jsonmerge.name "three-way JSON merge"
git config --global merge.jsonmerge.driver "/app/jsonmerge %O %A %B %P"
mkdir -p /root/.config/git
echo '*.json merge=jsonmerge' >> /root/.config/git/attributes
