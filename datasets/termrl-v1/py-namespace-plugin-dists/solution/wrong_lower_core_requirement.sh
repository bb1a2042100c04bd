#!/bin/bash
# "Fixes" the install conflict by relaxing the plugins' requirement to acme-core>=2.0 instead of
# single-sourcing acme-core's version from acme.core.__version__ (the distribution stays 2.0.3).
set -euo pipefail
bash /solution/solve.sh
cd /app/acme
python3 - <<'PY'
p = "acme-core/pyproject.toml"
s = open(p).read()
s = s.replace('dynamic = ["version"]\n', 'version = "2.0.3"\n')
s = s.replace('\n[tool.setuptools.dynamic]\nversion = {attr = "acme.core.__version__"}\n', "")
open(p, "w").write(s)
for p in ("acme-csv/pyproject.toml", "acme-jsonl/pyproject.toml"):
    s = open(p).read()
    open(p, "w").write(s.replace('"acme-core>=2.1"', '"acme-core>=2.0"'))
PY
grep -q '2.0.3' acme-core/pyproject.toml
