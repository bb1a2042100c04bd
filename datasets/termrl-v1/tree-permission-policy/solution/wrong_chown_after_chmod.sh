#!/bin/bash
# Mistake: the mode is set first and the owner changed afterwards, so the kernel clears the set-ID
# bits that the target keeps.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/permpolicy.py").read()
old = """            if (uid, gid) != cur[:2]:
                os.lchown(p, uid, gid)
            if not is_link:
                os.chmod(p, mode)"""
new = """            if not is_link:
                os.chmod(p, mode)
            if (uid, gid) != cur[:2]:
                os.lchown(p, uid, gid)"""
assert old in src
open("/app/permpolicy", "w").write(src.replace(old, new))
PY
chmod +x /app/permpolicy
/app/permpolicy /app/site.policy /srv/site
