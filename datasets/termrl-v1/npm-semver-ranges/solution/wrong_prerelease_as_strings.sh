#!/bin/bash
# Compares prerelease identifiers as strings ("beta.10" < "beta.2").
set -euo pipefail
python3 - <<'PY'
s = open("/solution/semrange.py").read()
old = '    return (0, tuple((0, x, "") if isinstance(x, int) else (1, 0, x) for x in pre))'
assert old in s
open("/app/semrange", "w").write(s.replace(old, "    return (0, tuple(str(x) for x in pre))"))
PY
chmod 755 /app/semrange
