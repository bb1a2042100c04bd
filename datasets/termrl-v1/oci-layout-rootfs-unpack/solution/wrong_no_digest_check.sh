#!/bin/bash
# Trusts the blobs: never compares their sha256 and size with the descriptors.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/ocirootfs.py").read()
old = """    if hashlib.sha256(data).hexdigest() != hexd or len(data) != desc.get("size"):
        raise Fail(3, f"blob {dg} does not match its descriptor")
"""
assert old in s
open("/app/ocirootfs", "w").write(s.replace(old, ""))
PY
chmod 755 /app/ocirootfs
