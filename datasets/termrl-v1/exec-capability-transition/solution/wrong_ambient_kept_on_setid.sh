#!/bin/bash
# Wrong: keeps the ambient set across a set-uid exec (clears it only for file capabilities).
set -e
cat > /app/capexec <<'PY'
#!/usr/bin/env python3
import json
import re
import sys

NAMES = {}
for line in open("/usr/include/linux/capability.h"):
    m = re.match(r"#define\s+CAP_([A-Z_]+)\s+(\d+)\s*$", line)
    if m and m.group(1) != "LAST_CAP":
        NAMES[int(m.group(2))] = "cap_" + m.group(1).lower()


def names(m):
    return [NAMES.get(b, f"cap_{b}") for b in range(64) if m >> b & 1]


def run(c):
    p, f = c["process"], c["file"]
    h = lambda k, d=p: int(d[k], 16)  # noqa: E731
    P, I, A, B = h("permitted"), h("inheritable"), h("ambient"), h("bounding")
    ruid, euid = p["ruid"], p["euid"]
    neuid = f["uid"] if f["setuid"] and not f["nosuid"] else euid
    fcap = f.get("caps") is not None and not f["nosuid"]
    if fcap:
        Pn = (B & h("permitted", f["caps"])) | (I & h("inheritable", f["caps"]))
        eff = bool(f["caps"]["effective"])
    else:
        Pn, eff = 0, False
    if not p["noroot"] and not (fcap and neuid == 0 and ruid != 0):
        if neuid == 0 or ruid == 0:
            Pn = B | I
        if neuid == 0:
            eff = True
    setid = neuid != euid
    if p["no_new_privs"] and (setid or Pn & ~P):
        neuid = ruid
        Pn &= P
    An = 0 if fcap else A
    Pn |= An
    En = Pn if eff else An
    return {"id": c["id"], "euid": neuid, "permitted": names(Pn), "effective": names(En),
            "inheritable": names(I), "ambient": names(An)}


out = [run(json.loads(line)) for line in open(sys.argv[1]) if line.strip()]
json.dump(out, sys.stdout, indent=1)
print()
PY
chmod +x /app/capexec
