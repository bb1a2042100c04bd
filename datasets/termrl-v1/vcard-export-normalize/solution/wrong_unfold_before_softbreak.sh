#!/bin/bash
# Plausible but wrong: folded lines are joined first, quoted-printable soft breaks second, so a soft-break
# continuation that starts with a space (or tab) loses that character.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/vcards.py")
s = p.read_text()
old = """        if out and is_qp(out[-1]) and out[-1].endswith("=") and ":" in out[-1]:
            out[-1] = out[-1][:-1] + line          # quoted-printable soft break: next line verbatim
        elif out and line[:1] in (" ", "\\t"):
            out[-1] += line[1:]                    # folded line
"""
new = """        if out and line[:1] in (" ", "\\t"):
            out[-1] += line[1:]                    # folded line
        elif out and is_qp(out[-1]) and out[-1].endswith("=") and ":" in out[-1]:
            out[-1] = out[-1][:-1] + line          # quoted-printable soft break
"""
assert old in s
p.write_text(s.replace(old, new))
PY
