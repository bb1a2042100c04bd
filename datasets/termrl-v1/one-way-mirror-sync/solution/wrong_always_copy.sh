#!/bin/bash
# Mistake: rewrites every file on every run (no size/mtime quick check).
set -euo pipefail
python3 - <<'PY'
s = open("/solution/mirror.py").read()
s = s.replace("if dst_st and stat.S_ISREG(dst_st.st_mode) and dst_st.st_size == sst.st_size \\", "if False and dst_st and stat.S_ISREG(dst_st.st_mode) and dst_st.st_size == sst.st_size \\")
open("/app/mirror.py", "w").write(s)
PY
python3 /app/mirror.py /srv/projects /backup/projects --exclude '*.tmp' --exclude cache
