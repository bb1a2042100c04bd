#!/bin/bash
# Applies whiteouts where they appear in the tar: an opaque marker that comes after entries of its own
# layer wipes those entries too.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/ocirootfs.py").read()
a = s.index("    # whiteouts first")
b = s.index("    for m in members:\n        rel = norm(m.name)\n        if rel is None or not rel:")
s = s[:a] + s[b:]
s = s.replace("""            if base == ".wh..wh..opq":
                ensure_parents(root, rel)
            continue""", """            d = rel.rpartition("/")[0]
            if base == ".wh..wh..opq":
                ensure_parents(root, rel)
                target = os.path.join(root, d)
                for child in os.listdir(target):
                    remove(os.path.join(target, child))
            else:
                remove(os.path.join(root, d, base[4:]))
            continue""")
assert "whiteouts first" not in s and "remove(os.path.join(root, d, base[4:]))" in s
open("/app/ocirootfs", "w").write(s)
PY
chmod 755 /app/ocirootfs
