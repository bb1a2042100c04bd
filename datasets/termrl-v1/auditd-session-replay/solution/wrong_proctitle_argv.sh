#!/bin/bash
# Mistake: takes each command's arguments from the PROCTITLE record (one hex string, easy to split on
# NUL) instead of the EXECVE records; the kernel truncates the process title.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/audit_sessions.py").read()
s = s.replace('"argv": execve_argv(recs)',
              '"argv": untrusted(next(fields(b)["proctitle"] for t, b in recs if t == "PROCTITLE")).split("\\0")')
open("/app/audit_sessions.py", "w").write(s)
PY
