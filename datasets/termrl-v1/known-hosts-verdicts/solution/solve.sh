#!/bin/bash
# Reference solution: OpenSSH-style known_hosts matching (hashed |1| entries, globs, negation, markers).
set -e
cat > /app/khverdict <<'PY'
#!/usr/bin/env python3
import base64
import fnmatch
import hashlib
import hmac
import json
import os
import sys


def load(path, label):
    out = []
    if not os.path.exists(path):
        return out
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        t = line.split()
        if not t or t[0].startswith("#"):
            continue
        marker = None
        if t[0].startswith("@"):
            marker, t = t[0], t[1:]
        if len(t) < 3:
            continue
        out.append({"where": f"{label}:{no}", "marker": marker, "patterns": t[0].split(","), "type": t[1],
                    "key": t[2]})
    return out


def pat_match(p, host):
    if p.startswith("|1|"):
        _, _, salt, mac = p.split("|")
        return hmac.compare_digest(hmac.new(base64.b64decode(salt), host.encode(), hashlib.sha1).digest(),
                                   base64.b64decode(mac))
    return fnmatch.fnmatchcase(host, p.lower())


def matches(line, host):
    pos = False
    for p in line["patterns"]:
        if p.startswith("!"):
            if pat_match(p[1:], host):
                return False
        elif pat_match(p, host):
            pos = True
    return pos


def main(d, attempts):
    glob = load(os.path.join(d, "known_hosts.global"), "global")
    out = []
    for line in open(attempts):
        if not line.strip():
            continue
        a = json.loads(line)
        host = a["host"].lower()
        hs = host if int(a["port"]) == 22 else f"[{host}]:{a['port']}"
        lines = load(os.path.join(d, f"known_hosts.{a['user']}"), a["user"]) + glob
        cand = [ln for ln in lines if matches(ln, hs)]
        res = None
        for ln in cand:
            if ln["marker"] == "@revoked" and ln["type"] == a["type"] and ln["key"] == a["key"]:
                res = ("revoked", ln["where"])
                break
        if res is None:
            plain = [ln for ln in cand if ln["marker"] is None and ln["type"] == a["type"]]
            same = [ln for ln in plain if ln["key"] == a["key"]]
            res = ("known", same[0]["where"]) if same else ("changed", plain[0]["where"]) if plain else ("unknown", None)
        out.append({"id": a["id"], "result": res[0], "line": res[1]})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/khverdict
