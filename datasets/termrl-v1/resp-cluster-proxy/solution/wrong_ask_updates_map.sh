#!/bin/bash
# Mistake: an ASK redirect is handled like MOVED: the slot map is pointed at the importing node, so keys still on
# the migrating node now bounce with MOVED.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/rproxy/proxy.py"
s = open(p).read()
old = """                if parts[0] == b"MOVED":
                    with MAP_LOCK:
                        SLOTS[int(parts[1])] = target
                else:
                    asking = True
"""
new = """                with MAP_LOCK:
                    SLOTS[int(parts[1])] = target
                asking = parts[0] == b"ASK"
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
