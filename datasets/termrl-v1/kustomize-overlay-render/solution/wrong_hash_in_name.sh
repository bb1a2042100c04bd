#!/bin/bash
# Appends the hash to a generated ConfigMap's name right away, so outer suffixes land after the hash.
set -euo pipefail
python3 - <<'PY'
s = open("/solution/kbuild.py").read()
old = """        r = Res({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": g["name"]}, "data": data},
                hashlib.sha256(canon.encode()).hexdigest()[:10])"""
new = """        r = Res({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": g["name"] + "-" + hashlib.sha256(canon.encode()).hexdigest()[:10]}, "data": data})"""
assert old in s
open("/app/kbuild", "w").write(s.replace(old, new))
PY
chmod 755 /app/kbuild
