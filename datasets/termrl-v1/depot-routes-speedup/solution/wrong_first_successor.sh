#!/bin/bash
# Plausible but wrong: the same per-destination Dijkstra on the reversed network, but each junction
# keeps the next junction through which its cost was first lowered (a successor pointer set on
# relaxation), so among equally cheap routes it follows whichever the heap happened to reach first.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/routes/routes.py"
s = open(p).read()
for old, new in [
    ("    dist = {dst: 0}\n", "    dist = {dst: 0}\n    succ = {}\n"),
    ("                dist[u] = nd\n", "                dist[u] = nd\n                succ[u] = v\n"),
    ("    return dist\n", "    return dist, succ\n"),
    ("        dist = costs_to(back, dst)\n", "        dist, succ = costs_to(back, dst)\n"),
    ("                    nxt = min(u for u, c in roads[v] if dist.get(u) == dv - c)\n", "                    nxt = succ[v]\n"),
]:
    assert old in s, old
    s = s.replace(old, new)
open(p, "w").write(s)
PY
