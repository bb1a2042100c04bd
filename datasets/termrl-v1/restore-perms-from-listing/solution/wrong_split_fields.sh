#!/bin/bash
# Mistake: splits each line on whitespace, so names with several or leading spaces are mangled.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/restore_perms.py").read()
old = "            kind, perm, uid, gid, mtime, name = m.groups()\n"
new = old + "            name = ' '.join(line.split()[6:]) if kind != 'l' else ' '.join(line.split()[6:])\n"
assert old in s
open("/app/restore_perms.py", "w").write(s.replace(old, new))
PY
python3 /app/restore_perms.py /root/share.ls
