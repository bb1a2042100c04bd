#!/usr/bin/env python3
import os
import sys

root = sys.argv[1]
dirs = ["etc/sysctl.d", "run/sysctl.d", "usr/lib/sysctl.d"]
chosen = {}
for d in dirs:
    full = os.path.join(root, d)
    if not os.path.isdir(full):
        continue
    for name in os.listdir(full):
        if not name.endswith(".conf") or name in chosen:
            continue
        p = os.path.join(full, name)
        if d == "etc/sysctl.d" and os.path.islink(p) and os.readlink(p) == "/dev/null":
            chosen[name] = None
            continue
        chosen[name] = p
files = [chosen[n] for n in sorted(chosen) if chosen[n]]
main = os.path.join(root, "etc/sysctl.conf")
if os.path.isfile(main):
    files.append(main)
vals = {}
for f in files:
    for line in open(f):
        s = line.strip()
        if not s or s[0] in "#;" or "=" not in s:
            continue
        k, _, v = s.partition("=")
        k = k.strip().lstrip("-").strip().replace("/", ".")
        vals[k] = v.strip()
for k in sorted(vals):
    print(f"{k} = {vals[k]}")
