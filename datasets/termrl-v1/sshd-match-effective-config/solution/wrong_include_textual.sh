#!/bin/bash
# Mistake: Include is treated as pasting the file's text in place, so a Match block opened inside an
# included file keeps going in the including file.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/sshd_eff.py").read()
src = src.replace("                            self.read(p, depth + 1, block)",
                  "                            block = self.read(p, depth + 1, block)")
src = src.replace("                target.setdefault(kw, \" \".join(args))",
                  "                target.setdefault(kw, \" \".join(args))\n        return block")
open("/app/sshd-eff", "w").write(src)
PY
chmod +x /app/sshd-eff
