#!/bin/bash
# Reference solution: ld.so.conf expansion and the search order, evaluated inside ROOT.
set -e
cat > /app/ldresolve <<'PY'
#!/usr/bin/env python3
import glob
import json
import os
import re
import sys

ROOT = sys.argv[1]


def inside(p):
    return os.path.join(ROOT, p.lstrip("/"))


def conf_dirs(path, out, seen_files):
    if path in seen_files or not os.path.isfile(inside(path)):
        return
    seen_files.add(path)
    for line in open(inside(path), encoding="utf-8", errors="replace"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("include ") or line.startswith("include\t"):
            pat = line.split(None, 1)[1]
            for m in sorted(glob.glob(inside(pat))):
                conf_dirs("/" + os.path.relpath(m, ROOT), out, seen_files)
        elif line not in out:
            out.append(line)


def main(progs):
    dirs = []
    conf_dirs("/etc/ld.so.conf", dirs, set())
    pre = []
    if os.path.isfile(inside("/etc/ld.so.preload")):
        text = "\n".join(l.split("#", 1)[0] for l in open(inside("/etc/ld.so.preload")).read().split("\n"))
        pre = [p for p in re.split(r"[\s:]+", text) if p and os.path.isfile(inside(p))]
    out = []
    for line in open(progs):
        if not line.strip():
            continue
        p = json.loads(line)
        order = []
        if not p["runpath"]:
            order += [("rpath", d) for d in p["rpath"]]
        if p.get("ld_library_path") and not p["setuid"]:
            order += [("ld_library_path", d) for d in p["ld_library_path"].split(":") if d]
        order += [("runpath", d) for d in p["runpath"]]
        order += [("cache", d) for d in dirs] + [("default", "/lib"), ("default", "/usr/lib")]
        libs = []
        for name in p["needed"]:
            hit = None
            for how, d in order:
                if "$ORIGIN" in d:
                    if p["setuid"]:
                        continue
                    d = os.path.normpath(d.replace("$ORIGIN", os.path.dirname(p["path"])))
                if os.path.isfile(inside(os.path.join(d, name))):
                    hit = (os.path.join(d, name), how)
                    break
            libs.append({"name": name, "file": hit[0] if hit else None, "via": hit[1] if hit else None})
        out.append({"id": p["id"], "preload": pre, "libraries": libs})
    json.dump(out, sys.stdout, indent=1)
    print()


main(sys.argv[2])
PY
chmod +x /app/ldresolve
