#!/bin/bash
# Wrong: substitutes the whole line again until it stops changing, so produced text becomes lookups.
set -e
cat > /app/l4decode <<'PY'
#!/usr/bin/env python3
import json
import re
import sys


def match_end(s, i):
    """Index of the '}' closing the '${' at i, or -1."""
    depth, j = 0, i
    while j < len(s):
        if s.startswith("${", j):
            depth += 1
            j += 2
            continue
        if s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def expand(s, hits):
    out, i = [], 0
    while i < len(s):
        if s.startswith("${", i):
            e = match_end(s, i)
            if e >= 0:
                out.append(evaluate(expand(s[i + 2:e], hits), hits))
                i = e + 1
                continue
        out.append(s[i])
        i += 1
    return "".join(out)


def evaluate(c, hits):
    if c.startswith("::-"):
        return c[3:]
    name, _, rest = c.partition(":")
    if name == "lower":
        return rest.lower()
    if name == "upper":
        return rest.upper()
    if name == "jndi":
        hits.append(rest)
        return ""
    return rest.split(":-", 1)[1] if ":-" in rest else ""


out = []
for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace"), 1):
    line = line.rstrip("\n")
    hits = []
    cur = line
    for _ in range(10):
        nxt = expand(cur, hits)
        if nxt == cur:
            break
        cur = nxt
    for url in hits:
        m = re.match(r"([^:/]*)://([^/:]*)(?::(\d+))?", url)
        scheme, host, port = (m.group(1), m.group(2), int(m.group(3)) if m.group(3) else None) if m else \
            (url.split(":", 1)[0], None, None)
        out.append({"line": n, "client": line.split(" ", 1)[0], "url": url, "scheme": scheme, "host": host,
                    "port": port})
json.dump(out, sys.stdout, indent=1)
print()
PY
chmod +x /app/l4decode
