#!/bin/bash
# Reference solution: peel the wrapper forms with anchored regular expressions until none matches.
set -e
cat > /app/deobf <<'PY'
#!/usr/bin/env python3
import base64
import glob
import gzip
import json
import os
import re
import sys

FORMS = [
    ("gz-b64", re.compile(r"""eval "\$\(echo '([A-Za-z0-9+/=]+)' \| base64 -d \| gunzip\)"$""")),
    ("b64-eval", re.compile(r"""eval "\$\(echo '([A-Za-z0-9+/=]+)' \| base64 -d\)"$""")),
    ("b64-pipe", re.compile(r"""echo '([A-Za-z0-9+/=]+)' \| base64 --decode \| (?:bash|sh)$""")),
    ("printf-hex", re.compile(r"""bash -c "\$\(printf '((?:\\x[0-9a-fA-F]{2})+)'\)"$""")),
    ("rev", re.compile(r"""echo '([^']*)' \| rev \| (?:bash|sh)$""")),
]
SPLIT = re.compile(r"""((?:[A-Za-z_][A-Za-z0-9_]*='[^']*';)+)eval "((?:\$[A-Za-z_][A-Za-z0-9_]*)+)"$""")


def peel(s):
    for name, rx in FORMS:
        m = rx.match(s)
        if not m:
            continue
        g = m.group(1)
        if name == "gz-b64":
            return name, gzip.decompress(base64.b64decode(g)).decode()
        if name in ("b64-eval", "b64-pipe"):
            return name, base64.b64decode(g).decode()
        if name == "printf-hex":
            return name, bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-fA-F]{2})", g)).decode()
        return name, g[::-1]
    m = SPLIT.match(s)
    if m:
        vals = dict(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)='([^']*)';", m.group(1)))
        names = re.findall(r"\$([A-Za-z_][A-Za-z0-9_]*)", m.group(2))
        if all(n in vals for n in names):
            return "split", "".join(vals[n] for n in names)
    return None, s


def main(d):
    out = []
    for p in sorted(glob.glob(os.path.join(d, "*.sh"))):
        s = open(p, encoding="utf-8").read().rstrip("\n")
        layers = []
        while True:
            name, inner = peel(s)
            if name is None:
                break
            layers.append(name)
            s = inner
        out.append({"file": os.path.basename(p), "command": s, "layers": layers})
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1])
PY
chmod +x /app/deobf
