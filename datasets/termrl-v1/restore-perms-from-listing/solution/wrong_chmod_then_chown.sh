#!/bin/bash
# Mistake: sets the mode first and the owner afterwards; chown clears the set-user/group-ID bits.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/restore_perms.py").read()
old = """        os.lchown(p, uid, gid)   # chown clears set-id bits, so it comes first
        if kind != "l":
            os.chmod(p, mode)
            os.utime(p, (mtime, mtime))"""
new = """        if kind != "l":
            os.chmod(p, mode)
            os.utime(p, (mtime, mtime))
        os.lchown(p, uid, gid)"""
assert old in s
open("/app/restore_perms.py", "w").write(s.replace(old, new))
PY
python3 /app/restore_perms.py /root/share.ls
