#!/bin/bash
# Fixes counting and slicing but only clips the window instead of shifting it.
set -euo pipefail
python3 - <<'PY'
p = "/app/paginate.py"
s = open(p).read()
s = s.replace("return max(1, total_items // per_page)", "return max(1, -(-total_items // per_page))")
s = s.replace("if page < 0 or page > pages:", "if page < 1 or page > pages:")
s = s.replace("start = page * per_page", "start = (page - 1) * per_page")
s = s.replace("return list(range(start, end))", "return list(range(start, end + 1))")
open(p, "w").write(s)
PY
