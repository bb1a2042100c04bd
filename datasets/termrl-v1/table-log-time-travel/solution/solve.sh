#!/bin/bash
set -euo pipefail
cat > /app/lakeread.py <<'PY'
import json
import os
import re
import sys
from datetime import datetime, timezone


def fail(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def load_checkpoint(path):
    try:
        with open(path) as f:
            text = f.read()
        lines = [json.loads(x) for x in text.split("\n") if x.strip()]
        head = lines[0]["checkpoint"]
        if len(lines) != head["actions"] + 1:
            return None
        return head, lines[1:]
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def main(argv):
    root = argv[0]
    want_version = want_ts = None
    if len(argv) == 3 and argv[1] == "--version":
        want_version = int(argv[2])
    elif len(argv) == 3 and argv[1] == "--timestamp":
        d = datetime.fromisoformat(argv[2].replace("Z", "+00:00"))
        if d.tzinfo is None:
            d = d.replace(tzinfo=timezone.utc)
        want_ts = round(d.timestamp() * 1000)
    log = os.path.join(root, "_log")
    commits, ckpts = {}, {}
    for name in os.listdir(log):
        m = re.fullmatch(r"(\d{20})\.json", name)
        if m:
            commits[int(m.group(1))] = os.path.join(log, name)
        m = re.fullmatch(r"(\d{20})\.checkpoint\.json", name)
        if m:
            ckpts[int(m.group(1))] = os.path.join(log, name)
    if not commits and not ckpts:
        fail("empty log")
    if not commits:
        fail("no commits")
    lo, hi = min(commits), max(commits)
    if any(v not in commits for v in range(lo, hi + 1)):
        fail("gap in the log")
    if lo == 0:
        base_version, base_state = -1, None
    else:
        base_version, base_state = None, None
        for c in sorted(ckpts):
            if lo - 1 <= c <= hi:
                cp = load_checkpoint(ckpts[c])
                if cp is not None:
                    base_version, base_state = c, cp
                    break
        if base_version is None:
            fail("log cannot be reconstructed")
    last = hi
    # walk versions, recording timestamps
    schema, parts, active = None, [], {}
    ts = {}
    prev_ts = None
    if base_state is not None:
        head, actions = base_state
        for a in actions:
            if "metaData" in a:
                schema, parts = a["metaData"]["schema"], a["metaData"]["partitionColumns"]
            elif "add" in a:
                active[a["add"]["path"]] = a["add"]["partitionValues"]
        ts[base_version] = prev_ts = head["timestamp"]
    states = {}
    if base_state is not None:
        states[base_version] = (schema, parts, dict(active))
    for v in range(base_version + 1, last + 1):
        for a in read_lines(commits[v]):
            if "commitInfo" in a:
                raw = a["commitInfo"]["timestamp"]
                ts[v] = raw if prev_ts is None else max(raw, prev_ts + 1)
                prev_ts = ts[v]
            elif "metaData" in a:
                schema, parts = a["metaData"]["schema"], a["metaData"]["partitionColumns"]
            elif "add" in a:
                active[a["add"]["path"]] = a["add"]["partitionValues"]
            elif "remove" in a:
                active.pop(a["remove"]["path"], None)
        states[v] = (schema, parts, dict(active))
    if want_version is not None:
        v = want_version
        if v not in states:
            fail(f"version {v} is not available")
    elif want_ts is not None:
        ok = [u for u in states if ts[u] <= want_ts]
        if not ok:
            fail("timestamp is before the earliest available version")
        v = max(ok)
    else:
        v = last
    schema, parts, active = states[v]
    out = sys.stdout
    for path in sorted(active):
        pv = active[path]
        for row in read_lines(os.path.join(root, path)):
            rec = {}
            for c in schema:
                n, t = c["name"], c["type"]
                if n in parts:
                    s = pv.get(n)
                    val = None if s is None else int(s) if t == "long" else float(s) if t == "double" else s
                else:
                    val = row.get(n)
                rec[n] = val
            out.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
PY
