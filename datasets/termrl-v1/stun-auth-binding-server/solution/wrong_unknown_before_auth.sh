#!/bin/bash
# Mistake: unknown comprehension-required attributes are rejected (420) before authentication, so unauthenticated
# requests get 420 without a challenge.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/stun/server.py"
s = open(p).read()
old = """    got = {t: v for t, v, _ in seen}
    if MI not in got:
"""
new = """    got = {t: v for t, v, _ in seen}
    early = [t for t, _, _ in seen if t < 0x8000 and t not in (USERNAME, MI, REALM, NONCE)]
    if early and MI not in got:
        return error(420, tid, [(UNKNOWN, b"".join(struct.pack(">H", t) for t in dict.fromkeys(early)))], fp=fp)
    if MI not in got:
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
