#!/usr/bin/env python3
"""Plan the start transaction of a systemd-like unit tree: loading (masks, aliases, templates,
drop-ins, .wants/.requires dirs), startability along Requires, pulled-in units and start waves."""
import json
import os
import sys

DIRS = ("etc/systemd/system", "run/systemd/system", "usr/lib/systemd/system")
KEYS = ("Requires", "Wants", "After", "Before")


class Planner:
    def __init__(self, root):
        self.dirs = [os.path.join(root, d) for d in DIRS]
        self.units = {}   # canonical name -> None (not found) | "masked" | dict of lists
        self.canon_cache = {}

    def entry(self, name):
        for d in self.dirs:
            p = os.path.join(d, name)
            if os.path.lexists(p):
                return p
        return None

    def canon(self, name, seen=()):
        """Follow aliases: returns the canonical name."""
        if name in self.canon_cache:
            return self.canon_cache[name]
        p = self.entry(name)
        out = name
        if p and os.path.islink(p):
            target = os.readlink(p)
            base = os.path.basename(target)
            if target != "/dev/null" and base != name and base not in seen:
                out = self.canon(base, seen + (name,))
        self.canon_cache[name] = out
        return out

    def parse(self, path, deps, inst):
        section = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line or line[0] in "#;":
                    continue
                if line.startswith("[") and line.endswith("]"):
                    section = line[1:-1]
                    continue
                if "=" not in line or section != "Unit":
                    continue
                key, val = (x.strip() for x in line.split("=", 1))
                if key not in KEYS:
                    continue
                if inst is not None:
                    val = val.replace("%%", "\0").replace("%i", inst).replace("\0", "%")
                if val == "":
                    deps[key] = []
                else:
                    deps[key].extend(val.split())

    def load(self, name):
        """name is canonical. Returns None, 'masked' or {key: [canonical names]}."""
        if name in self.units:
            return self.units[name]
        p, inst = self.entry(name), None
        if p is None and "@" in name:
            prefix, rest = name.split("@", 1)
            if "." in rest and rest.rsplit(".", 1)[0]:
                inst, suffix = rest.rsplit(".", 1)
                p = self.entry(f"{prefix}@.{suffix}")
        if p is None:
            res = None
        elif os.path.islink(p) and os.readlink(p) == "/dev/null":
            res = "masked"
        else:
            deps = {k: [] for k in KEYS}
            self.parse(p, deps, inst)
            dropins = {}
            for d in reversed(self.dirs):
                dd = os.path.join(d, name + ".d")
                if os.path.isdir(dd):
                    for fn in os.listdir(dd):
                        if fn.endswith(".conf"):
                            dropins[fn] = os.path.join(dd, fn)
            for fn in sorted(dropins):
                self.parse(dropins[fn], deps, inst)
            for kind, key in ((".wants", "Wants"), (".requires", "Requires")):
                for d in self.dirs:
                    wd = os.path.join(d, name + kind)
                    if os.path.isdir(wd):
                        deps[key].extend(sorted(os.listdir(wd)))
            res = {k: [self.canon(x) for x in v] for k, v in deps.items()}
        self.units[name] = res
        return res


def main(argv):
    if len(argv) < 3:
        print("usage: unitplan ROOT UNIT...", file=sys.stderr)
        return 2
    pl = Planner(argv[1])
    # discover every unit reachable from the requests, then compute startability as a least fixpoint
    todo = [pl.canon(u) for u in argv[2:]]
    known = set()
    while todo:
        n = todo.pop()
        if n in known:
            continue
        known.add(n)
        u = pl.load(n)
        if isinstance(u, dict):
            todo += u["Requires"] + u["Wants"]
    bad = {n for n in known if not isinstance(pl.load(n), dict)}
    changed = True
    while changed:
        changed = False
        for n in known - bad:
            if any(r in bad for r in pl.load(n)["Requires"]):
                bad.add(n)
                changed = True
    for u in argv[2:]:
        if pl.canon(u) in bad:
            print(f"error: {u} cannot start", file=sys.stderr)
            return 1
    tx, dropped = set(), set()
    todo = [pl.canon(u) for u in argv[2:]]
    while todo:
        n = todo.pop()
        if n in tx:
            continue
        tx.add(n)
        u = pl.load(n)
        for r in u["Requires"] + u["Wants"]:
            if r in bad:
                dropped.add(r)
            else:
                todo.append(r)
    before = {n: set() for n in tx}  # n -> units that must start before n
    for n in tx:
        u = pl.load(n)
        for a in u["After"]:
            if a in tx:
                before[n].add(a)
        for b in u["Before"]:
            if b in tx:
                before[b].add(n)
    waves, done = [], set()
    while len(done) < len(tx):
        wave = sorted(n for n in tx - done if before[n] <= done)
        if not wave:
            print("error: ordering cycle", file=sys.stderr)
            return 2
        waves.append(wave)
        done |= set(wave)
    print(json.dumps({"waves": waves, "dropped": sorted(dropped)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
