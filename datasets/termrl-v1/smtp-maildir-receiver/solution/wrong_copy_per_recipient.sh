#!/bin/bash
# Mistake: delivers one copy per accepted recipient (alias expansion without de-duplication), so a user
# reached through two recipients gets the message twice.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mailrx/server.py"
s = open(p).read()
old = """                    users = set()
                    for r in self.rcpts:
                        expand(r, users)
                    deliver(users, self.sender, b"".join(chunks))
"""
new = """                    for r in self.rcpts:
                        users = set()
                        expand(r, users)
                        deliver(users, self.sender, b"".join(chunks))
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
