#!/usr/bin/env python3
"""Merge another host's passwd/group into ours and re-own a tree copied from it."""
import os
import stat
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split(":") for line in f if line.strip()]


def write(path, rows):
    tmp = path + ".merge-tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(":".join(r) + "\n" for r in rows)
    st = os.stat(path)
    os.chmod(tmp, stat.S_IMODE(st.st_mode))
    os.replace(tmp, path)


def free_id(used, old):
    lo, hi = (100, 999) if old < 1000 else (1000, 2 ** 31)
    n = lo
    while n in used:
        n += 1
    if n > hi:
        raise SystemExit("error: no free id left")
    return n


def merge(local, old, id_col, on_same_name=None, fix_row=None):
    """Return (rows, mapping old id -> new id)."""
    by_name = {r[0]: r for r in local}
    used = {int(r[id_col]) for r in local}
    mapping, added = {}, []
    for r in old:
        oid = int(r[id_col])
        if r[0] in by_name:
            mapping[oid] = int(by_name[r[0]][id_col])
            if on_same_name:
                on_same_name(by_name[r[0]], r)
        else:
            added.append(r)
    keep = [r for r in added if int(r[id_col]) not in used]
    used |= {int(r[id_col]) for r in keep}
    for r in added:
        oid = int(r[id_col])
        if r in keep:
            mapping[oid] = oid
        else:
            mapping[oid] = free_id(used, oid)
            used.add(mapping[oid])
    new_rows = []
    for r in added:
        r = list(r)
        r[id_col] = str(mapping[int(r[id_col])])
        if fix_row:
            fix_row(r)
        new_rows.append(r)
    return local + new_rows, mapping


def add_members(local_row, old_row):
    have = [m for m in local_row[3].split(",") if m]
    for m in old_row[3].split(","):
        if m and m not in have:
            have.append(m)
    local_row[3] = ",".join(have)


def main(argv):
    if len(argv) != 4:
        print("usage: merge-accounts LOCAL_DIR OLD_DIR TREE", file=sys.stderr)
        return 2
    local_dir, old_dir, tree = argv[1:]
    groups, gmap = merge(read(os.path.join(local_dir, "group")), read(os.path.join(old_dir, "group")), 2,
                         on_same_name=add_members)

    def fix_user(r):
        r[3] = str(gmap.get(int(r[3]), int(r[3])))

    users, umap = merge(read(os.path.join(local_dir, "passwd")), read(os.path.join(old_dir, "passwd")), 2,
                        fix_row=fix_user)
    write(os.path.join(local_dir, "group"), groups)
    write(os.path.join(local_dir, "passwd"), users)

    def fix(path):
        st = os.lstat(path)
        uid, gid = umap.get(st.st_uid, st.st_uid), gmap.get(st.st_gid, st.st_gid)
        if (uid, gid) != (st.st_uid, st.st_gid):
            os.lchown(path, uid, gid)
            if not stat.S_ISLNK(st.st_mode):
                os.chmod(path, stat.S_IMODE(st.st_mode))

    fix(tree)
    for dirpath, dirnames, filenames in os.walk(tree):
        for n in dirnames + filenames:
            fix(os.path.join(dirpath, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
