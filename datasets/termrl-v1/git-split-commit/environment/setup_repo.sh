#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Lena Fischer" GIT_AUTHOR_EMAIL="lena@example.com"
export GIT_COMMITTER_NAME="Lena Fischer" GIT_COMMITTER_EMAIL="lena@example.com"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }

git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
mkdir -p src tests

cat > src/parser.py <<'PY'
def parse(text):
    """Parse 'key: value' lines into a dict. The first line is a header and is skipped."""
    lines = text.splitlines()
    result = {}
    for line in lines[2:]:
        if not line.strip():
            continue
        key, _, value = line.partition(":")
        result[key.strip()] = value.strip()
    return result
PY
cat > README.md <<'TXT'
# kvtool

Parse simple `key: value` records.
TXT
cat > tests/test_parser.py <<'PY'
import sys
sys.path.insert(0, "src")
from parser import parse


def test_basic():
    assert parse("HEADER\nname: kv\n") is not None
PY
git add -A && at "2025-03-03T10:00:00" && git commit -q -m "Initial parser"

cat > src/export.py <<'PY'
import csv
import io


def to_csv(record):
    buf = io.StringIO()
    writer = csv.writer(buf)
    for key in sorted(record):
        writer.writerow([key, record[key]])
    return buf.getvalue()
PY
git add -A && at "2025-03-04T10:00:00" && git commit -q -m "Add CSV export"

# One commit that mixes a bug fix with documentation.
sed -i 's/for line in lines\[2:\]:/for line in lines[1:]:/' src/parser.py
cat >> README.md <<'TXT'

## Export

`export.to_csv(record)` writes one `key,value` row per key, sorted by key.
TXT
git add -A && at "2025-03-05T15:20:00" && git commit -q -m "Parser fix and export docs"

cat >> src/export.py <<'PY'


def to_json(record):
    import json
    return json.dumps(record, sort_keys=True)
PY
git add -A && at "2025-03-06T09:00:00" && git commit -q -m "Add JSON export"

cat >> README.md <<'TXT'
`export.to_json(record)` writes a JSON object with sorted keys.
TXT
git add -A && at "2025-03-07T09:45:00" && git commit -q -m "Document JSON export"
