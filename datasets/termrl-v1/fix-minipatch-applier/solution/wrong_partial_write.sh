#!/bin/bash
# Mistake: like GNU patch, keeps the hunks that applied when a later hunk of the same file fails.
set -euo pipefail
cp "$(dirname "$0")/minipatch.py" /app/minipatch.py
python3 - <<'PY'
p = "/app/minipatch.py"
s = open(p).read()
old = """        if where is None:
            return None, k
"""
new = """        if where is None:
            failed = k
            continue
"""
assert old in s
s = s.replace(old, new)
s = s.replace("    out, done, offset = [], 0, 0\\n", "    out, done, offset, failed = [], 0, 0, None\\n")
s = s.replace("    out.extend(lines[done:])\\n    return out, None\\n", "    out.extend(lines[done:])\\n    return out, failed\\n")
s = s.replace("""        if result is None:
            print(f"{name}: hunk #{failed} FAILED", file=sys.stderr)
            status = 1
            continue
""", """        if failed:
            print(f"{name}: hunk #{failed} FAILED", file=sys.stderr)
            status = 1
        if result is None:
            continue
""")
open(p, "w").write(s)
PY
