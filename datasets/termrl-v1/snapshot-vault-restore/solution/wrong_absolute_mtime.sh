#!/bin/bash
# Mistake: reads the index's time field of a file as its modification time (it is an age relative to the
# snapshot time).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/vault_restore.py").read()
old = 'when - int(e[2])'
assert old in s
open("/app/vault_restore.py", "w").write(s.replace(old, 'int(e[2])'))
PY
python3 /app/vault_restore.py /srv/vault 3 /srv/restore3
