#!/bin/bash
# Plausible but wrong: every sync is treated like the first one (the state is written but never read), so a
# file deleted on one side is copied back from the other instead of being deleted there.
set -euo pipefail
cat > /app/bisync <<'PY'
#!/usr/bin/env python3
"""Two-way sync of replicas A and B against the state saved after the previous sync."""
import hashlib
import json
import os
import shutil
import stat
import sys


def scan(root):
    items = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                items[rel] = ["link", os.readlink(full)]
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                items[rel] = ["file", digest, bool(st.st_mode & stat.S_IXUSR)]
    return items


def remove(root, rel):
    os.unlink(os.path.join(root, rel))


def copy(src_root, dst_root, rel, dst_rel=None):
    src, dst = os.path.join(src_root, rel), os.path.join(dst_root, dst_rel or rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.lexists(dst):
        if os.path.isdir(dst) and not os.path.islink(dst):
            shutil.rmtree(dst)
        else:
            os.unlink(dst)
    if os.path.islink(src):
        os.symlink(os.readlink(src), dst)
        return
    shutil.copyfile(src, dst)
    st = os.stat(src)
    os.chmod(dst, 0o755 if st.st_mode & stat.S_IXUSR else 0o644)
    os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))


def prune(root):
    for dirpath, dirnames, filenames in os.walk(root, topdown=False):
        if dirpath != root and not os.listdir(dirpath):
            os.rmdir(dirpath)


def main():
    if len(sys.argv) != 4:
        print("usage: bisync A B STATE", file=sys.stderr)
        sys.exit(2)
    a, b, state_path = sys.argv[1:]
    for d in (a, b):
        if not os.path.isdir(d):
            print(f"bisync: {d} is not a directory", file=sys.stderr)
            sys.exit(2)
    state = {}
    if False:
        with open(state_path, encoding="utf-8") as f:
            state = json.load(f)
    sa, sb = scan(a), scan(b)
    actions = []
    for rel in sorted(set(sa) | set(sb) | set(state), key=lambda p: p.encode("utf-8", "surrogateescape")):
        old, va, vb = state.get(rel), sa.get(rel), sb.get(rel)
        ca, cb = va != old, vb != old
        if not ca and not cb:
            continue
        if ca and cb and va == vb:
            continue
        if ca and not cb or (ca and cb and vb is None):
            if va is None:
                remove(b, rel)
                actions.append((rel, f"del-B {rel}"))
            else:
                copy(a, b, rel)
                actions.append((rel, f"A>B {rel}"))
        elif cb and not ca or (ca and cb and va is None):
            if vb is None:
                remove(a, rel)
                actions.append((rel, f"del-A {rel}"))
            else:
                copy(b, a, rel)
                actions.append((rel, f"B>A {rel}"))
        else:
            copy(b, a, rel, rel + ".conflict")  # B's version, saved before it is overwritten
            copy(a, b, rel + ".conflict")
            copy(a, b, rel)
            actions.append((rel, f"conflict {rel}"))
    prune(a)
    prune(b)
    final = scan(a)
    with open(state_path, "w", encoding="utf-8") as f:
        json.dump(final, f)
    for _, line in sorted(actions, key=lambda x: x[0].encode("utf-8", "surrogateescape")):
        print(line)


main()
PY
chmod +x /app/bisync
