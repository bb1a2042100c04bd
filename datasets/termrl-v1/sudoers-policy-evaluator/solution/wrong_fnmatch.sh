#!/bin/bash
# Mistake: uses fnmatch for paths, so '*' also matches '/'.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/sudocheck.py").read()
s = s.replace("if not glob_re(spec_path, False).match(path):", "if not glob_re(spec_path, True).match(path):")
open("/app/sudocheck", "w").write(s)
PY
chmod +x /app/sudocheck
