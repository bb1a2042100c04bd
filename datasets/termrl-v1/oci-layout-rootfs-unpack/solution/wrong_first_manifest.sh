#!/bin/bash
# Ignores --platform and the descriptors' platforms: unpacks the first image manifest it finds.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/ocirootfs.py").read()
old = """    p = desc.get("platform")
    if p is None:
        return True
"""
assert old in s
open("/app/ocirootfs", "w").write(s.replace(old, "    return True\n"))
PY
chmod 755 /app/ocirootfs
