#!/bin/bash
set -euo pipefail
cat > /app/locmatch <<'PY'
#!/usr/bin/env python3
"""locmatch CONFIG URI...: the location block nginx would select for each URI."""
import re
import sys

LOC = re.compile(r'\s*location\s+(?:(=|\^~|~\*|~)\s+)?(\S+)\s*\{\s*return\s+(\d+)\s+"(.*)";\s*\}\s*$')


def parse(path):
    locs = []
    for line in open(path, encoding="utf-8"):
        m = LOC.match(line)
        if m:
            locs.append((m.group(1) or "", m.group(2), f"{m.group(3)} {m.group(4)}"))
    return locs


def normalise(uri):
    path = uri.split("?", 1)[0]
    out, i = bytearray(), 0
    raw = path.encode("utf-8")
    while i < len(raw):
        c = raw[i:i + 1]
        if c == b"%":
            h = raw[i + 1:i + 3]
            if len(h) < 2 or not all(ch in b"0123456789abcdefABCDEF" for ch in h):
                return None
            out.append(int(h, 16))
            i += 3
        else:
            out += c
            i += 1
    path = out.decode("utf-8", "replace")
    if not path.startswith("/"):
        return None
    path = re.sub("/+", "/", path)
    segs = path[1:].split("/")
    res = []
    for seg in segs:
        if seg == ".":
            continue
        if seg == "..":
            if not res:
                return None
            res.pop()
            continue
        res.append(seg)
    result = "/" + "/".join(res)
    if segs[-1] in (".", "..") and not result.endswith("/"):
        result += "/"
    return result


def select(locs, uri):
    for mod, pat, ret in locs:
        if mod == "=" and pat == uri:
            return ret
    best = None
    for mod, pat, ret in locs:
        if mod in ("", "^~") and uri.startswith(pat) and (best is None or len(pat) > len(best[1])):
            best = (mod, pat, ret)
    if best and best[0] == "^~":
        return best[2]
    for mod, pat, ret in locs:
        if mod in ("~", "~*") and re.search(pat, uri, re.I if mod == "~*" else 0):
            return ret
    return best[2] if best else "404"


def main():
    locs = parse(sys.argv[1])
    for uri in sys.argv[2:]:
        n = normalise(uri)
        print("400" if n is None else select(locs, n))


main()
PY
chmod +x /app/locmatch
