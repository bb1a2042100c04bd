#!/bin/bash
# Mistake: only the first Via header is copied into responses.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/sip/registrar.py"
s = open(p).read()
old = """    for k, v in headers:
        if k == "via":
            out += ["Via: " + x for x in split_commas(v)]
"""
new = """    out.append("Via: " + split_commas(get(headers, "via"))[0])
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
