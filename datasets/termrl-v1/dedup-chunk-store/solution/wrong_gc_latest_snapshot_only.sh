#!/bin/bash
# Plausible but wrong: gc keeps only the chunks of one snapshot, destroying data other snapshots need.
# Content-defined chunking with a gear rolling hash (min 2 KiB, cut where the low 13 bits are zero, max
# 64 KiB); chunks stored by SHA-256; a JSON manifest per snapshot.
set -euo pipefail
cat > /app/cstore <<'PY'
#!/usr/bin/env python3
import hashlib
import json
import os
import random
import stat
import sys

MIN, MASK, MAX = 2048, (1 << 13) - 1, 65536
GEAR = [random.Random(1234 + i).getrandbits(32) for i in range(256)]


def chunks(data):
    n, start = len(data), 0
    gear = GEAR
    while start < n:
        end = min(n, start + MAX)
        i = start + MIN
        h = 0
        cut = end
        while i < end:
            h = ((h << 1) + gear[data[i]]) & 0xFFFFFFFF
            i += 1
            if not h & MASK:
                cut = i
                break
        yield data[start:cut]
        start = cut


def fail(msg):
    print(f"cstore: {msg}", file=sys.stderr)
    sys.exit(1)


def chunk_path(store, digest):
    return os.path.join(store, "chunks", digest[:2], digest)


def snap_path(store, name):
    return os.path.join(store, "snapshots", hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest() + ".json")


def put(store, data):
    digest = hashlib.sha256(data).hexdigest()
    p = chunk_path(store, digest)
    if not os.path.exists(p):
        os.makedirs(os.path.dirname(p), exist_ok=True)
        tmp = p + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, p)
    return digest


def backup(store, src, name):
    if not os.path.isdir(src):
        fail(f"{src} is not a directory")
    os.makedirs(os.path.join(store, "snapshots"), exist_ok=True)
    os.makedirs(os.path.join(store, "chunks"), exist_ok=True)
    if os.path.exists(snap_path(store, name)):
        fail(f"snapshot {name} exists")
    entries = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for d in list(dirnames):
            full = os.path.join(dirpath, d)
            rel = os.path.relpath(full, src)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                entries.append({"path": rel, "type": "link", "target": os.readlink(full)})
                dirnames.remove(d)
            else:
                entries.append({"path": rel, "type": "dir", "mode": stat.S_IMODE(st.st_mode)})
        for fn in sorted(filenames):
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, src)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                entries.append({"path": rel, "type": "link", "target": os.readlink(full)})
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    data = f.read()
                entries.append({"path": rel, "type": "file", "mode": stat.S_IMODE(st.st_mode),
                                "mtime_ns": st.st_mtime_ns, "chunks": [put(store, c) for c in chunks(data)]})
    with open(snap_path(store, name), "w", encoding="utf-8") as f:
        json.dump({"name": name, "entries": entries}, f)


def load(store, name):
    p = snap_path(store, name)
    if not os.path.exists(p):
        fail(f"no snapshot {name}")
    with open(p, encoding="utf-8") as f:
        return json.load(f)


def snapshots(store):
    d = os.path.join(store, "snapshots")
    out = []
    for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, fn), encoding="utf-8") as f:
            out.append(json.load(f))
    return out


def restore(store, name, dest):
    snap = load(store, name)
    if os.path.lexists(dest):
        fail(f"{dest} exists")
    os.makedirs(dest)
    dirs = []
    for e in snap["entries"]:
        p = os.path.join(dest, e["path"])
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if e["type"] == "dir":
            os.makedirs(p, exist_ok=True)
            dirs.append((p, e["mode"]))
        elif e["type"] == "link":
            os.symlink(e["target"], p)
        else:
            with open(p, "wb") as f:
                for c in e["chunks"]:
                    with open(chunk_path(store, c), "rb") as g:
                        f.write(g.read())
            os.chmod(p, e["mode"])
            os.utime(p, ns=(e["mtime_ns"], e["mtime_ns"]))
    for p, mode in reversed(dirs):
        os.chmod(p, mode)


def delete(store, name):
    load(store, name)
    os.unlink(snap_path(store, name))


def all_chunks(store):
    root = os.path.join(store, "chunks")
    for dirpath, _, filenames in os.walk(root):
        for fn in filenames:
            yield fn, os.path.join(dirpath, fn)


def gc(store):
    snaps = snapshots(store)
    used = {c for e in (snaps[-1]["entries"] if snaps else []) for c in e.get("chunks", [])}  # the latest only
    removed = 0
    for digest, p in list(all_chunks(store)):
        if digest not in used:
            os.unlink(p)
            removed += 1
    print(f"removed {removed} chunks")


def verify(store):
    bad = set()
    for digest, p in all_chunks(store):
        with open(p, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != digest:
                bad.add(digest)
    if not bad:
        print("ok")
        return
    for d in sorted(bad):
        print(f"corrupt {d}")
    for name in sorted(s["name"] for s in snapshots(store) if any(c in bad for e in s["entries"] for c in e.get("chunks", []))):
        print(f"damaged {name}")
    sys.exit(1)


def main():
    a = sys.argv[1:]
    cmds = {"backup": (backup, 3), "restore": (restore, 3), "delete": (delete, 2), "gc": (gc, 1), "verify": (verify, 1)}
    if not a or a[0] not in cmds or len(a) - 1 != cmds[a[0]][1]:
        fail("usage: cstore backup|restore|delete|gc|verify ...")
    cmds[a[0]][0](*a[1:])


main()
PY
chmod +x /app/cstore
