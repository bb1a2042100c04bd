#!/bin/bash
# Mistake: models the affine nonce by the signature's position in the device's log entries (0, 1, 2, ...)
# instead of its seq counter, so the gaps in seq break the recovery.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/nonce_audit.py").read()
old = "            sigs.setdefault(rec[\"kid\"], []).append((rec[\"seq\"], z,"
assert old in s
s = s.replace(old, "            sigs.setdefault(rec[\"kid\"], []).append((len(sigs.get(rec[\"kid\"], [])), z,")
open("/app/nonce_audit.py", "w").write(s)
PY
