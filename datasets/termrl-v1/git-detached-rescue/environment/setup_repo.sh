#!/bin/bash
# Builds /app/repo deterministically (fixed identities and dates).
set -euo pipefail
export GIT_AUTHOR_NAME="Priya Raman" GIT_AUTHOR_EMAIL="priya@example.org"
export GIT_COMMITTER_NAME="Priya Raman" GIT_COMMITTER_EMAIL="priya@example.org"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }

git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0

cat > units.py <<'PY'
FACTORS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0}


def convert(value, src, dst):
    return value * FACTORS[src] / FACTORS[dst]
PY
printf '# unitconv\n\nConvert lengths between units.\n' > README.md
git add -A && at "2025-01-10T09:00:00" && git commit -q -m "Initial unit converter"

sed -i 's/"km": 1000.0}/"km": 1000.0, "in": 0.0254}/' units.py
git add -A && at "2025-01-12T11:30:00" && git commit -q -m "Support inches"
git tag -a v1.2 -m "Release 1.2"

cat >> README.md <<'TXT'

Supported units: mm, cm, m, km, in.
TXT
git add -A && at "2025-01-15T10:00:00" && git commit -q -m "List supported units"

git checkout -q -b experiment
echo "# experimental: scientific notation output" >> units.py
git add -A && at "2025-01-16T08:00:00" && git commit -q -m "Experiment with output formats"

# Hotfix work done on a detached HEAD at the v1.2 tag
git checkout -q v1.2
cat > units.py <<'PY'
FACTORS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254}


def convert(value, src, dst):
    if src not in FACTORS or dst not in FACTORS:
        raise ValueError(f"unknown unit: {src if src not in FACTORS else dst}")
    return value * FACTORS[src] / FACTORS[dst]
PY
git add -A && at "2025-01-17T14:00:00" && git commit -q -m "Raise ValueError for unknown units"
cat >> units.py <<'PY'


def convert_all(values, src, dst):
    return [convert(v, src, dst) for v in values]
PY
git add -A && at "2025-01-17T14:40:00" && git commit -q -m "Add convert_all helper"
sed -i 's/"in": 0.0254}/"in": 0.0254, "ft": 0.3048}/' units.py
git add -A && at "2025-01-17T15:10:00" && git commit -q -m "Support feet"

# ... then the developer moved on without creating a branch
at "2025-01-18T09:00:00"
git checkout -q main 2>/dev/null
git checkout -q experiment
echo "# experimental: engineering notation" >> units.py
git add -A && at "2025-01-18T09:30:00" && git commit -q -m "Try engineering notation"
git checkout -q main
printf '\nLicensed under MIT.\n' >> README.md
git add -A && at "2025-01-19T16:00:00" && git commit -q -m "Add license note"
