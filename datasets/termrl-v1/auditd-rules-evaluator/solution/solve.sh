#!/bin/bash
# Reference solution: parse the auditctl subset into an ordered exit list and take the first match.
set -e
cat > /app/auditsim <<'PY'
#!/usr/bin/env python3
import json
import re
import sys

UNSET = 4294967295
OPS = ("!=", ">=", "<=", "=", "<", ">")


def u32(v):
    if v in ("unset", "-1"):
        return UNSET
    x = int(v)
    return x & 0xFFFFFFFF


def load_table(p):
    t = {}
    for line in open(p):
        if not line.strip() or line.startswith("#"):
            continue
        n, a, b = line.split()[:3]
        t[n] = (None if a == "-" else int(a), None if b == "-" else int(b))
    return t


def parse(p):
    rules = []
    for no, line in enumerate(open(p).read().split("\n"), 1):
        tok = line.split()
        if not tok or tok[0].startswith("#"):
            continue
        if tok[0] in ("-a", "-A"):
            x, y = tok[1].split(",")
            action, lst = (x, y) if x in ("always", "never") else (y, x)
            rule = {"line": no, "action": action, "sys": [], "f": [], "keys": []}
            i = 2
            while i < len(tok):
                o = tok[i]
                v = tok[i + 1] if i + 1 < len(tok) else ""
                if o == "-S":
                    rule["sys"] += [s for s in v.split(",") if s]
                elif o == "-F":
                    m = re.match(r"([A-Za-z_]+)(!=|>=|<=|=|<|>)(.*)$", v)
                    name, op, val = m.groups()
                    if name == "key":
                        rule["keys"].append(val)
                    else:
                        rule["f"].append((name, op, val))
                elif o == "-k":
                    rule["keys"].append(v)
                i += 2
            if lst == "exit":
                rules.insert(0, rule) if tok[0] == "-A" else rules.append(rule)
        elif tok[0] == "-w":
            path, perm, keys = tok[1], "rwxa", []
            for i in range(2, len(tok) - 1):
                if tok[i] == "-p":
                    perm = tok[i + 1]
                elif tok[i] == "-k":
                    keys.append(tok[i + 1])
            cond = ("dir", "=", path[:-1]) if path.endswith("/") else ("path", "=", path)
            rules.append({"line": no, "action": "always", "sys": ["all"], "f": [cond, ("perm", "=", perm)],
                          "keys": keys})
    return rules


def test(op, a, b):
    return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def match(rule, ev, table):
    arch = next((v for n, o, v in rule["f"] if n == "arch"), None)
    if rule["sys"] and "all" not in rule["sys"]:
        col = 1 if arch == "b32" else 0
        nums = {table[s][col] for s in rule["sys"] if s in table and table[s][col] is not None}
        if ev["syscall"] not in nums:
            return False
    for name, op, val in rule["f"]:
        if name == "arch":
            ok = test(op, ev["arch"], val)
        elif name in ("uid", "euid", "auid", "gid", "pid"):
            ok = test(op, ev[name] & 0xFFFFFFFF, u32(val))
        elif name == "success":
            ok = test(op, 1 if ev["success"] else 0, int(val))
        elif name == "exit":
            ok = test(op, ev["exit"], int(val))
        elif name in ("path", "dir"):
            p = ev.get("path")
            if p is None:
                ok = False
            elif name == "path":
                ok = test(op, p, val)
            else:
                inside = p == val or p.startswith(val.rstrip("/") + "/")
                ok = inside if op == "=" else not inside
        elif name == "perm":
            ok = any(c in val for c in ev.get("perm") or "")
        else:
            ok = True
        if not ok:
            return False
    return True


def main(rp, sp, ep):
    table, rules = load_table(sp), parse(rp)
    out = []
    for line in open(ep):
        if not line.strip():
            continue
        ev = json.loads(line)
        d = {"id": ev["id"], "logged": False, "keys": [], "rule": None}
        for rule in rules:
            if match(rule, ev, table):
                d = {"id": ev["id"], "logged": rule["action"] == "always",
                     "keys": list(rule["keys"]) if rule["action"] == "always" else [], "rule": rule["line"]}
                break
        out.append(d)
    json.dump(out, sys.stdout, indent=1)
    print()


main(*sys.argv[1:4])
PY
chmod +x /app/auditsim
