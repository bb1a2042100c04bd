#!/bin/bash
# Mistake: GetBulk returns all repetitions of the first repeater, then all of the second, instead of row by row.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/snmp/agent.py"
s = open(p).read()
old = """        for _ in range(max_rep if cursors else 0):
            for j, c in enumerate(cursors):
                n = next_oid(c, version)
                if n is None:
                    out.append((c, tlv(END_OF_MIB, b"")))
                else:
                    out.append((n, enc_value(MIB[n][0], MIB[n][2])))
                    cursors[j] = n
"""
new = """        for j in range(len(cursors)):
            for _ in range(max_rep):
                c = cursors[j]
                n = next_oid(c, version)
                if n is None:
                    out.append((c, tlv(END_OF_MIB, b"")))
                else:
                    out.append((n, enc_value(MIB[n][0], MIB[n][2])))
                    cursors[j] = n
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
