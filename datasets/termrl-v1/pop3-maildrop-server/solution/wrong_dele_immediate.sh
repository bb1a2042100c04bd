#!/bin/bash
# Mistake: DELE removes the file at once instead of at QUIT, so RSET and a dropped connection cannot undo it.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pop3d/server.py"
s = open(p).read()
old = "                self.get(args)[1].deleted = True\n"
assert old in s
s = s.replace(old, "                m = self.get(args)[1]\n                m.deleted = True\n                os.unlink(m.path)\n")
s = s.replace("            if m.deleted:\n                os.unlink(m.path)\n", "            if m.deleted:\n                pass\n")
s = s.replace("                for m in self.msgs:\n                    m.deleted = False\n", "                for m in self.msgs:\n                    m.deleted = m.deleted and os.path.exists(m.path) is False\n")
open(p, "w").write(s)
PY
