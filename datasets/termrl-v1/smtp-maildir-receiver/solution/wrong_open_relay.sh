#!/bin/bash
# Mistake: checks only the local part, so mail for any domain is accepted (an open relay) and delivered locally.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/mailrx/server.py"
s = open(p).read()
old = """                if domain not in DOMAINS:
                    self.reply("550 relaying denied")
                elif local"""
assert old in s
open(p, "w").write(s.replace(old, "                if local"))
PY
