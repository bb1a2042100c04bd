#!/bin/bash
# Mistake: the most specific matching rule decides (longest prefix, as in routing) instead of the first one.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/portfw/portfw.py"
s = open(p).read()
old = """        for action, net in self.rules:
            if a in net:
                return action == "allow"
        return False"""
new = """        hits = [(net.prefixlen, action) for action, net in self.rules if a in net]
        return bool(hits) and max(hits, key=lambda h: h[0])[1] == "allow\""""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
