#!/bin/bash
# Everything but the package data: jsonl_data/settings.json is left out of the jsonl wheel.
set -euo pipefail
bash /solution/solve.sh
cd /app/acme
python3 - <<'PY'
p = "acme-jsonl/pyproject.toml"
s = open(p).read()
old = '\n[tool.setuptools.package-data]\n"acme.formats" = ["jsonl_data/*.json"]\n'
assert old in s
open(p, "w").write(s.replace(old, ""))
PY
sed -i '/jsonl_data/d' acme-jsonl/MANIFEST.in
