#!/bin/bash
# Reference solution: hosts_access(5) subset with EXCEPT, continuations and allow/deny options.
set -e
cat > /app/twcheck <<'PY'
#!/usr/bin/env python3
import json
import os
import socket
import struct
import sys


def rules_of(path):
    out = []
    if not os.path.exists(path):
        return out
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        start, text = i + 1, lines[i]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i]
        i += 1
        s = text.strip()
        if not s or s.startswith("#"):
            continue
        parts = [p.strip() for p in s.split(":")]
        if len(parts) < 2:
            continue
        out.append((start, parts[0].replace(",", " ").split(), parts[1].replace(",", " ").split(), parts[2:]))
    return out


def lmatch(items, pred):
    if "EXCEPT" in items:
        k = items.index("EXCEPT")
        return lmatch(items[:k], pred) and not lmatch(items[k + 1:], pred)
    return any(pred(t) for t in items)


def ip2int(a):
    return struct.unpack(">I", socket.inet_aton(a))[0]


def cmatch(t, ip, host):
    h = host.lower() if host else None
    if t == "ALL":
        return True
    if t == "LOCAL":
        return h is not None and "." not in h
    if t == "KNOWN":
        return h is not None
    if t == "UNKNOWN":
        return h is None
    if t.startswith("."):
        return h is not None and h.endswith(t.lower())
    if t.endswith("."):
        return ip.startswith(t)
    if "/" in t:
        net, mask = t.split("/", 1)
        return ip2int(ip) & ip2int(mask) == ip2int(net) & ip2int(mask)
    return t == ip or (h is not None and t.lower() == h)


def main(d, qpath):
    files = [("hosts.allow", rules_of(os.path.join(d, "hosts.allow")), "allow"),
             ("hosts.deny", rules_of(os.path.join(d, "hosts.deny")), "deny")]
    out = []
    for line in open(qpath):
        if not line.strip():
            continue
        q = json.loads(line)
        res = {"id": q["id"], "decision": "allow", "file": None, "line": None}
        done = False
        for fname, rules, verdict in files:
            for no, daemons, clients, opts in rules:
                if lmatch(daemons, lambda t: t == "ALL" or t == q["daemon"]) and \
                        lmatch(clients, lambda t: cmatch(t, q["client"], q["hostname"])):
                    v = opts[-1] if opts and opts[-1] in ("allow", "deny") else verdict
                    res = {"id": q["id"], "decision": v, "file": fname, "line": no}
                    done = True
                    break
            if done:
                break
        out.append(res)
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/twcheck
