#!/bin/bash
# Reference solution: replay the archive with tarfile (later members replace earlier ones, hard links bind
# to the file as it was), take security.capability from either pax record form and decode vfs_cap_data.
set -e
cat > /app/capaudit <<'PY'
#!/usr/bin/env python3
import base64
import json
import re
import struct
import sys
import tarfile

NAMES = {}
for line in open("/usr/include/linux/capability.h", encoding="utf-8"):
    m = re.match(r"#define\s+CAP_([A-Z_]+)\s+(\d+)\s*$", line)
    if m and m.group(1) not in ("LAST_CAP",):
        NAMES[int(m.group(2))] = "cap_" + m.group(1).lower()
DANGEROUS = {"cap_sys_admin", "cap_sys_module", "cap_sys_ptrace", "cap_sys_rawio", "cap_dac_override",
             "cap_dac_read_search", "cap_setuid", "cap_setgid", "cap_setfcap", "cap_chown", "cap_fowner",
             "cap_bpf"}


def norm(name):
    while name.startswith("./"):
        name = name[2:]
    name = name.lstrip("/").rstrip("/")
    return "/" + name


def raw_caps(member):
    h = member.pax_headers
    if "SCHILY.xattr.security.capability" in h:
        return h["SCHILY.xattr.security.capability"].encode("utf-8", "surrogateescape")
    if "LIBARCHIVE.xattr.security.capability" in h:
        v = h["LIBARCHIVE.xattr.security.capability"].strip()
        return base64.b64decode(v + "=" * (-len(v) % 4))
    return None


def decode(v):
    bad = {"permitted": [], "inheritable": [], "effective": False, "rootid": None}
    if len(v) < 4:
        return bad, True
    magic = struct.unpack_from("<I", v)[0]
    rev = magic >> 24
    size = {1: 12, 2: 20, 3: 24}.get(rev)
    if size is None or len(v) != size:
        return bad, True
    w = struct.unpack("<%dI" % (size // 4), v)
    p, i = w[1], w[2]
    if rev > 1:
        p |= w[3] << 32
        i |= w[4] << 32
    nm = lambda b: NAMES.get(b, f"cap_{b}")  # noqa: E731
    return {"permitted": [nm(b) for b in range(64) if p >> b & 1],
            "inheritable": [nm(b) for b in range(64) if i >> b & 1],
            "effective": bool(magic & 1), "rootid": w[5] if rev == 3 else None}, False


def main(path):
    fs, files, nid = {}, {}, 0    # path -> file id ; file id -> (mode, uid, caps)
    with tarfile.open(path, "r:*") as t:
        for m in t:
            p = norm(m.name)
            if m.islnk():
                target = fs.get(norm(m.linkname))
                if target is None:
                    fs.pop(p, None)
                else:
                    fs[p] = target
            elif m.isreg():
                nid += 1
                files[nid] = (m.mode, m.uid, raw_caps(m))
                fs[p] = nid
            else:
                fs.pop(p, None)
    count = {}
    for fid in fs.values():
        count[fid] = count.get(fid, 0) + 1
    caps, setid = [], []
    for p in sorted(fs):
        mode, uid, raw = files[fs[p]]
        if raw is not None:
            d, bad = decode(raw)
            f = set()
            if DANGEROUS & set(d["permitted"]):
                f.add("dangerous")
            if uid != 0:
                f.add("not-root-owned")
            if mode & 0o022:
                f.add("writable")
            if d["rootid"]:
                f.add("namespaced")
            if any(c.startswith(".") for c in p.split("/")):
                f.add("hidden")
            if count[fs[p]] > 1:
                f.add("hard-linked")
            if bad:
                f.add("malformed")
            caps.append({"path": p, **d, "findings": sorted(f)})
        if mode & 0o6000:
            setid.append({"path": p, "mode": "%04o" % (mode & 0o7777), "uid": uid})
    json.dump({"capabilities": caps, "setid": setid}, sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/capaudit
