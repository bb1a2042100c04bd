#!/usr/bin/env python3
"""Soft/hard quota report with grace periods kept between runs."""
import argparse
import grp
import json
import os
import pwd
import re
import sys
from datetime import datetime, timedelta


def duration(s):
    m = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?", s)
    if not s or not m:
        raise SystemExit(f"error: bad duration {s}")
    d, h, mi = (int(x or 0) for x in m.groups())
    return timedelta(days=d, hours=h, minutes=mi)


def resolve(kind, name):
    if name.isdigit():
        return int(name)
    try:
        return pwd.getpwnam(name).pw_uid if kind == "user" else grp.getgrnam(name).gr_gid
    except KeyError:
        raise SystemExit(f"error: unknown {kind} {name}")


def read_conf(path):
    grace = {"blocks": timedelta(days=7), "inodes": timedelta(days=7)}
    entries = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if parts[0] == "grace":
                for p in parts[1:]:
                    k, _, v = p.partition("=")
                    grace[k] = duration(v)
            elif parts[0] in ("user", "group"):
                limits = {}
                for p in parts[2:]:
                    k, _, v = p.partition("=")
                    soft, _, hard = v.partition(":")
                    limits[k] = (int(soft), int(hard))
                entries.append((parts[0], parts[1], resolve(parts[0], parts[1]), limits))
    return grace, entries


def usage(tree):
    seen = set()
    use = {}

    def add(st):
        key = (st.st_dev, st.st_ino)
        if key in seen:
            return
        seen.add(key)
        kib = st.st_blocks * 512 // 1024
        for k in (("user", st.st_uid), ("group", st.st_gid)):
            u = use.setdefault(k, {"blocks": 0, "inodes": 0})
            u["blocks"] += kib
            u["inodes"] += 1

    add(os.lstat(tree))
    for dirpath, dirnames, filenames in os.walk(tree):
        for n in sorted(dirnames) + sorted(filenames):
            add(os.lstat(os.path.join(dirpath, n)))
    return use


def main():
    ap = argparse.ArgumentParser(prog="quotarep")
    ap.add_argument("conf")
    ap.add_argument("tree")
    ap.add_argument("--state", required=True)
    ap.add_argument("--now", required=True)
    a = ap.parse_args()
    now = datetime.strptime(a.now, "%Y-%m-%dT%H:%M:%S")
    grace, entries = read_conf(a.conf)
    use = usage(a.tree)
    try:
        with open(a.state, encoding="utf-8") as f:
            state = json.load(f)
    except FileNotFoundError:
        state = {}
    lines = []
    for kind, name, ident, limits in entries:
        for res in ("blocks", "inodes"):
            soft, hard = limits.get(res, (0, 0))
            if not soft and not hard:
                continue
            used = use.get((kind, ident), {}).get(res, 0)
            key = f"{kind}:{ident}:{res}"
            over = soft > 0 and used > soft
            if over:
                state.setdefault(key, now.isoformat())
            else:
                state.pop(key, None)
            if hard > 0 and used >= hard:
                status = "hard"
            elif over:
                end = datetime.fromisoformat(state[key]) + grace[res]
                status = "expired" if now >= end else f"grace:{int((end - now).total_seconds() // 60)}"
            else:
                status = "ok"
            lines.append(f"{kind} {name} {res} {used} {soft} {hard} {status}")
    os.makedirs(os.path.dirname(os.path.abspath(a.state)), exist_ok=True)
    with open(a.state, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
