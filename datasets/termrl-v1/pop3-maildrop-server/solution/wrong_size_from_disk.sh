#!/bin/bash
# Mistake: reports the file's size on disk, which differs from the CRLF size for files stored with LF line ends.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/pop3d/server.py"
s = open(p).read()
old = "        self.size = sum(len(l) + 2 for l in self.lines)\n"
assert old in s
open(p, "w").write(s.replace(old, "        self.size = os.path.getsize(self.path)\n"))
PY
