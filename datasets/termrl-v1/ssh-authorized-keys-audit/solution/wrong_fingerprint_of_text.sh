#!/bin/bash
# Mistake: hashes the base64 text of the key instead of the decoded blob, and keeps the '=' padding.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/keyaudit.py").read()
old = "    return parts[0], bits, blob, options"
assert old in s
s = s.replace(old, "    return parts[0], bits, parts[1].encode(), options")
s = s.replace('.decode().rstrip("=")', '.decode()')
open("/app/keyaudit.py", "w").write(s)
PY
