#!/bin/bash
# Mistake: recreates links with ln -sfn semantics (unlink + symlink), so every replaced link ends up owned by root.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/relink.py").read()
old = "        os.lchown(tmp, st.st_uid, st.st_gid)\n"
assert old in s
open("/app/relink.py", "w").write(s.replace(old, ""))
PY
python3 /app/relink.py /srv/app /opt/legacy/app
