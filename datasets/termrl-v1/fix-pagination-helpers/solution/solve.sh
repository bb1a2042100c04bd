#!/bin/bash
set -euo pipefail
python3 - <<'PY'
p = "/app/paginate.py"
s = open(p).read()
s = s.replace("return max(1, total_items // per_page)", "return max(1, -(-total_items // per_page))")
s = s.replace("if page < 0 or page > pages:", "if page < 1 or page > pages:")
s = s.replace("start = page * per_page", "start = (page - 1) * per_page")
s = s.replace("""    half = width // 2
    start = current - half
    end = start + width - 1
    if start < 1:
        start = 1
    if end > total_pages:
        end = total_pages
    return list(range(start, end))""", """    width = min(width, total_pages)
    start = current - (width - 1) // 2
    start = max(1, min(start, total_pages - width + 1))
    return list(range(start, start + width))""")
open(p, "w").write(s)
PY
