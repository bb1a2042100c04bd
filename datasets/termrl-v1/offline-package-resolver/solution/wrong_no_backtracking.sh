#!/bin/bash
# Mistake: greedy resolution -- commits to the first admissible candidate and never backtracks.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/aptsolve.py").read()
s = s.replace("""                res = self.search(list(cand.depends) + rest, sel, planned + [cand])
                if res is not None:
                    return res
                del sel[cand.name]""", """                return self.search(list(cand.depends) + rest, sel, planned + [cand])""")
open("/app/aptsolve", "w").write(s)
PY
chmod +x /app/aptsolve
