#!/bin/bash
# Mistake: a new SETTINGS_INITIAL_WINDOW_SIZE is only used for streams opened afterwards; the send windows of
# streams already open are not adjusted by the difference (RFC 9113 section 6.9.2).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/h2/server.py"
s = open(p).read()
old = """                    for st in self.streams.values():
                        st.window += delta
"""
assert old in s
s = s.replace(old, "")
open(p, "w").write(s)
PY
