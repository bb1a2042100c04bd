#!/bin/bash
# Mistake: find-style filtering: an excluded directory is not printed but its contents are still
# checked and printed when a rule includes them.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/fselect.py").read()
old = """            if not self.included(rel, is_dir, parent):
                continue
            out.append(rel + ("/" if is_dir else ""))
            if is_dir:"""
new = """            if self.included(rel, is_dir, parent):
                out.append(rel + ("/" if is_dir else ""))
            if is_dir:"""
assert old in src
open("/app/fselect", "w").write(src.replace(old, new))
PY
chmod +x /app/fselect
/app/fselect /srv/data /app/backup.rules > /app/selection.txt
