#!/bin/bash
set -euo pipefail
cat > /app/changelog.py <<'PY'
import re
import sys

LINE = re.compile(r"^([0-9a-fA-F]{7,40}) (.*)$")
SUBJ = re.compile(r"^([a-z]+)(?:\(([^()]*)\))?(!)?: +(.*\S)\s*$")
path, version, date = sys.argv[1:4]
sections = {"BREAKING CHANGES": [], "Features": [], "Bug Fixes": [], "Performance": []}
seen = {k: set() for k in sections}
for raw in open(path, encoding="utf-8").read().splitlines():
    if not raw.strip():
        continue
    m = LINE.match(raw)
    if not m:
        continue
    h, subj = m.groups()
    s = SUBJ.match(subj)
    if not s:
        continue
    typ, scope, bang, desc = s.groups()
    desc = desc.strip()
    entry = f"- **{scope}:** {desc} ({h[:7]})" if scope is not None else f"- {desc} ({h[:7]})"
    key = (typ, scope, desc)
    targets = []
    if bang:
        targets.append("BREAKING CHANGES")
    else:
        targets += {"feat": ["Features"], "fix": ["Bug Fixes"], "perf": ["Performance"]}.get(typ, [])
    for t in targets:
        if key not in seen[t]:
            seen[t].add(key)
            sections[t].append(entry)
out = [f"## {version} ({date})"]
for title, entries in sections.items():
    if entries:
        out += ["", f"### {title}", ""] + entries
sys.stdout.write("\n".join(out) + "\n")
PY
