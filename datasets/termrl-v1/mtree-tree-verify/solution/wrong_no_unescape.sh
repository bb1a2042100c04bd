#!/bin/bash
# Wrong: takes names literally (no octal/backslash unescaping).
set -e
cat > /app/mtverify <<'PY'
#!/usr/bin/env python3
import hashlib
import json
import os
import stat
import sys


def unesc(s):
    out, i, b = bytearray(), 0, s.encode()
    while i < len(b):
        if b[i] == 0x5C and b[i + 1:i + 2] == b"\\":
            out.append(0x5C)
            i += 2
        elif b[i] == 0x5C and len(b) >= i + 4 and all(48 <= c <= 55 for c in b[i + 1:i + 4]):
            out.append(int(b[i + 1:i + 4], 8))
            i += 4
        else:
            out.append(b[i])
            i += 1
    return out.decode("utf-8", "surrogateescape")


def parse(path):
    entries, defaults, cwd = {}, {}, "."
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        tok = line.split()
        if not tok or tok[0].startswith("#"):
            continue
        if tok[0] == "/set":
            for t in tok[1:]:
                k, v = t.split("=", 1)
                defaults[k] = v
            continue
        if tok[0] == "/unset":
            for k in tok[1:]:
                if k == "all":
                    defaults.clear()
                defaults.pop(k, None)
            continue
        if tok[0] == "..":
            cwd = os.path.dirname(cwd) or "."
            continue
        name = tok[0]
        kw = dict(defaults)
        for t in tok[1:]:
            if "=" in t:
                k, v = t.split("=", 1)
                kw[k] = v
        if "/" in name:
            rel = os.path.normpath(name.lstrip("/"))
            p = "." if rel == "." else "./" + rel
        elif name == ".":
            p = "."
        else:
            p = cwd + "/" + name
            if kw.get("type") == "dir":
                cwd = p
        entries[p] = kw
    return entries


def check(root, p, kw):
    full = os.path.join(root, p)
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None
    typ = "dir" if stat.S_ISDIR(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else \
        "file" if stat.S_ISREG(st.st_mode) else "other"
    if "type" in kw and kw["type"] != typ:
        return ["type"]
    bad = []
    if "mode" in kw and typ != "link" and int(kw["mode"], 8) != stat.S_IMODE(st.st_mode):
        bad.append("mode")
    if "uid" in kw and int(kw["uid"]) != st.st_uid:
        bad.append("uid")
    if "gid" in kw and int(kw["gid"]) != st.st_gid:
        bad.append("gid")
    if typ == "file":
        if "size" in kw and int(kw["size"]) != st.st_size:
            bad.append("size")
        dg = kw.get("sha256digest", kw.get("sha256"))
        if dg is not None:
            with open(full, "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != dg.lower():
                    bad.append("sha256digest")
    if typ == "link" and "link" in kw and os.readlink(full) != unesc(kw["link"]):
        bad.append("link")
    return bad


def main(spec, root):
    entries = parse(spec)
    missing, changed = [], []
    for p, kw in entries.items():
        r = check(root, p, kw)
        if r is None:
            missing.append(p)
        elif r:
            changed.append({"path": p, "keys": sorted(r)})
    extra = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            rel = "./" + os.path.relpath(os.path.join(d, n), root)
            if rel not in entries:
                extra.append(rel)
    json.dump({"missing": sorted(missing), "extra": sorted(extra), "changed": sorted(changed, key=lambda c: c["path"])},
              sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1], sys.argv[2])
PY
chmod +x /app/mtverify
