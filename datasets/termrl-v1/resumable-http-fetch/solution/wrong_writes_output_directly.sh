#!/bin/bash
# Mistake: appends straight to OUTPUT as data arrives, so a failed download leaves a partial file behind.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/fetch"
s = open(p).read()
old = '    part = output + ".part"\n'
assert old in s
s = s.replace(old, '    part = output + ".part"\n    open(output, "wb").close()\n')
old = """                data += chunk
"""
s = s.replace(old, """                data += chunk
                with open(output, "ab") as g:
                    g.write(chunk)
""")
open(p, "w").write(s)
PY
