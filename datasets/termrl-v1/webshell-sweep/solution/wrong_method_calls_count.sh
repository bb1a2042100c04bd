#!/bin/bash
# Mistake: treats method calls such as $db->exec($_POST[...]) or Report::exec(...) as direct calls.
set -euo pipefail
python3 - <<'PY'
src = open("/solution/sweep.py").read()
for old, new in (('r"(?<![\\w$>:\\\\])("', 'r"(?<![\\w$\\\\])("'),
                 ('if before.endswith(("->", "::", "function")):', 'if before.endswith("function"):')):
    assert old in src, old
    src = src.replace(old, new)
open("/app/sweep.py", "w").write(src)
PY
