#!/bin/bash
# Mistake: OIDs are ordered as dotted text ("1.10" before "1.2") instead of sub-identifier by sub-identifier.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snmp/agent.py"
s = open(p).read()
old = """def next_oid(oid, version):
    for o in order():
        if o > oid and visible(o, version):
            return o
    return None
"""
new = """def text(o):
    return ".".join(map(str, o))


def next_oid(oid, version):
    for o in sorted(MIB, key=text):
        if text(o) > text(oid) and visible(o, version):
            return o
    return None
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
