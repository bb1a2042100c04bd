#!/bin/bash
# Mistake: reports the file names as the PATH records give them, without resolving relative names
# against the event's working directory.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/audit_sessions.py").read()
s = s.replace("full = posixpath.normpath(posixpath.join(cwd, name))", "full = name")
open("/app/audit_sessions.py", "w").write(s)
PY
