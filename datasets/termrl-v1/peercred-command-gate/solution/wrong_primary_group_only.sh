#!/bin/bash
# Mistake: the caller's groups are only the group of its gid; supplementary memberships from the group
# database are ignored.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/gate/gate.py"
s = open(p).read()
old = "        groups.update(g.gr_name for g in grp.getgrall() if name in g.gr_mem)\n"
assert old in s
open(p, "w").write(s.replace(old, "        pass\n"))
PY
