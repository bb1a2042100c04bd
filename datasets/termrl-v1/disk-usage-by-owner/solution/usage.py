#!/usr/bin/env python3
import json
import os
import pwd
import stat
import sys


def uname(uid):
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def walk(path, seen, owners):
    total = 0
    for name in sorted(os.listdir(path)):
        p = os.path.join(path, name)
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode):
            total += walk(p, seen, owners)
        elif stat.S_ISREG(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key in seen:
                continue
            seen.add(key)
            o = owners.setdefault(uname(st.st_uid), {"files": 0, "bytes": 0, "kib_on_disk": 0})
            o["files"] += 1
            o["bytes"] += st.st_size
            o["kib_on_disk"] += st.st_blocks * 512 // 1024
            total += st.st_size
    return total


def main(root):
    seen, owners, dirs = set(), {}, []
    for name in sorted(os.listdir(root)):
        p = os.path.join(root, name)
        st = os.lstat(p)
        if stat.S_ISDIR(st.st_mode):
            dirs.append([name, walk(p, seen, owners)])
        elif stat.S_ISREG(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key not in seen:
                seen.add(key)
                o = owners.setdefault(uname(st.st_uid), {"files": 0, "bytes": 0, "kib_on_disk": 0})
                o["files"] += 1
                o["bytes"] += st.st_size
                o["kib_on_disk"] += st.st_blocks * 512 // 1024
    dirs.sort(key=lambda d: (-d[1], d[0]))
    print(json.dumps({"owners": owners, "top_dirs": dirs[:3]}, indent=2, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
