#!/bin/bash
# Partial repair: everything fixed except pop3d's sizes, which still come from the file size on disk
# (smtpd stores Unix line ends, so every size is short by one byte per line).
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mailstack/pop3d.py"
s = open(p).read()
old = "        self.size = sum(len(l) + 2 for l in self.lines)\n"
assert old in s
open(p, "w").write(s.replace(old, "        self.size = os.path.getsize(self.path)\n"))
PY
