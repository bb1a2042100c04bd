#!/bin/bash
# Mistake: hunts only for the address as written (plain and inside base64), plus accounts and SSH keys;
# misses the hex, split, integer and reversed forms and what starts them, and hits a look-alike address.
set -euo pipefail
R=/srv/rootfs
cd /app
python3 - <<'PY'
import base64, json, os, re
R = "/srv/rootfs"
found, report = [], set()
for d, dirs, files in os.walk(R):
    for n in files:
        p = os.path.join(d, n)
        if os.path.islink(p):
            continue
        data = open(p, "rb").read().decode("latin-1")
        dec = ""
        for b in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", data):
            try:
                dec += base64.b64decode(b).decode("latin-1")
            except Exception:
                pass
        if "198.51.100.23" in data or "198.51.100.23" in dec:
            found.append(p)
for p in found:
    report.add("/" + os.path.relpath(p, R))
    os.unlink(p)
inv = {l.split()[0] for l in open("/srv/inventory/accounts.txt") if l.strip() and not l.startswith("#")}
for f in ("/etc/passwd", "/etc/shadow"):
    lines = open(R + f).readlines()
    keep = [l for l in lines if l.split(":")[0] in inv]
    if keep != lines:
        open(R + f, "w").writelines(keep)
        report.add(f)
ok = {tuple(l.split()[:2]) for l in open("/srv/inventory/ssh-keys/deploy.pub")}
p = R + "/home/deploy/.ssh/authorized_keys"
lines = open(p).readlines()
keep = [l for l in lines if tuple(l.split()[:2]) in ok]
open(p, "w").writelines(keep)
report.add("/home/deploy/.ssh/authorized_keys")
json.dump(sorted(report), open("/app/report.json", "w"))
PY
