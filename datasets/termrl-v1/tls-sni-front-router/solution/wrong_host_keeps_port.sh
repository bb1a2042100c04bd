#!/bin/bash
# Mistake: the Host header value is matched as sent, so "www.example.test:8080" matches no name rule.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/frontdoor/router.py"
s = open(p).read()
old = """                    if host.startswith("["):
                        host = host[:host.find("]") + 1]
                    else:
                        host = host.rsplit(":", 1)[0]
"""
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
