#!/bin/bash
# Mistake: collects created and deleted paths from every PATH record of the session, without checking
# that the system call succeeded.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/audit_sessions.py").read()
s = s.replace('''        if ses not in sessions or sc.get("success") != "yes":
            continue''', '''        if ses not in sessions:
            continue''')
s = s.replace('''        if sc.get("syscall") == "59":''', '''        if sc.get("syscall") == "59" and sc.get("success") == "yes":''')
open("/app/audit_sessions.py", "w").write(s)
PY
