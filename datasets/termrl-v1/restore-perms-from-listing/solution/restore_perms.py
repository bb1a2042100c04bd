import os
import re
import stat
import sys

ENTRY = re.compile(r"^([-dl])([-rwxsStT]{9})\S?\s+\d+\s+(\d+)\s+(\d+)\s+\d+\s+(-?\d+) (.*)$")


def mode_bits(s):
    bits = 0
    for i, (r, w, x) in enumerate(((0, 1, 2), (3, 4, 5), (6, 7, 8))):
        shift = 6 - 3 * i
        if s[r] == "r":
            bits |= 4 << shift
        if s[w] == "w":
            bits |= 2 << shift
        if s[x] in "xst":
            bits |= 1 << shift
    if s[2] in "sS":
        bits |= stat.S_ISUID
    if s[5] in "sS":
        bits |= stat.S_ISGID
    if s[8] in "tT":
        bits |= stat.S_ISVTX
    return bits


def parse(path):
    entries = {}
    section = None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if section is None or (line.endswith(":") and not ENTRY.match(line)):
                if line.endswith(":"):
                    section = line[:-1]
                continue
            m = ENTRY.match(line)
            if not m:
                continue
            kind, perm, uid, gid, mtime, name = m.groups()
            if kind == "l":
                name = name.split(" -> ", 1)[0]
            if name == "..":
                continue
            if name == ".":
                if section in entries:
                    continue
                p = section
            else:
                p = os.path.join(section, name)
            entries[p] = (kind, mode_bits(perm), int(uid), int(gid), int(mtime))
    return entries


def main():
    entries = parse(sys.argv[1])
    root = min(entries, key=len)
    out = []
    for p, (kind, mode, uid, gid, mtime) in entries.items():
        if not os.path.lexists(p):
            out.append((p, "missing"))
            continue
        os.lchown(p, uid, gid)   # chown clears set-id bits, so it comes first
        if kind != "l":
            os.chmod(p, mode)
            os.utime(p, (mtime, mtime))
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            if p not in entries:
                out.append((p, "unlisted"))
    for p, what in sorted(out, key=lambda t: os.fsencode(t[0])):
        print(what, p)


if __name__ == "__main__":
    main()
