#!/bin/bash
# Mistake: applies every drop-in it finds, directory by directory, instead of letting a more specific
# directory's file replace a same-named one and ordering all of them by file name.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/exposure.py").read()
old = "    chosen = {}\n"
assert old in s
s = s.replace(old, "    chosen = {}\n    extra = []\n")
old = "                    chosen[f] = os.path.join(full, f)"
s = s.replace(old, "                    extra.append(os.path.join(full, f))")
old = "    files = [main_file] + [chosen[f] for f in sorted(chosen)]"
s = s.replace(old, "    files = [main_file] + extra")
open("/app/exposure.py", "w").write(s)
PY
