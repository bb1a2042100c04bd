#!/bin/bash
set -euo pipefail
cd /app/acme
# acme and acme.formats are shared namespaces: no distribution may own an __init__.py there
rm -f acme-csv/src/acme/__init__.py acme-csv/src/acme/formats/__init__.py acme-jsonl/src/acme/formats/__init__.py

python3 - <<'PY'
import re
p = "acme-core/pyproject.toml"
s = open(p).read()
s = s.replace('version = "2.0.3"\n', 'dynamic = ["version"]\n')
s = s.replace('acme-convert = "acme.core.main:run"', 'acme-convert = "acme.core.cli:run"')
s += '\n[tool.setuptools.dynamic]\nversion = {attr = "acme.core.__version__"}\n'
open(p, "w").write(s)

p = "acme-jsonl/pyproject.toml"
s = open(p).read()
s = s.replace("[project.entry-points.acme_formats]", '[project.entry-points."acme.formats"]')
s = s.replace("namespaces = false\n", "")
s += '\n[tool.setuptools.package-data]\n"acme.formats" = ["jsonl_data/*.json"]\n'
open(p, "w").write(s)
PY
cat > acme-jsonl/MANIFEST.in <<'MF'
recursive-include tests *.py
recursive-include src/acme/formats/jsonl_data *.json
MF
cat > acme-csv/MANIFEST.in <<'MF'
recursive-include tests *.py
MF
