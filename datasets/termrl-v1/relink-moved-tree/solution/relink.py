import os
import sys


def main():
    root = os.path.normpath(sys.argv[1])
    old = os.path.normpath(sys.argv[2])
    lines = []
    links = []
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            if os.path.islink(p):
                links.append(p)
    for p in links:
        target = os.readlink(p)
        if not os.path.isabs(target):
            continue
        t = os.path.normpath(target)
        if t != old and not t.startswith(old + "/"):
            continue
        new_abs = root + t[len(old):]
        new = os.path.relpath(new_abs, os.path.dirname(p))
        st = os.lstat(p)
        tmp = p + ".relink-tmp"
        os.symlink(new, tmp)
        os.lchown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, p)
        lines.append((p, 0, f"rewritten {p} -> {new}"))
    for p in links:
        if not os.path.exists(p):
            lines.append((p, 1, f"dangling {p}"))
    for _, _, line in sorted(lines, key=lambda t: (os.fsencode(t[0]), t[1])):
        print(line)


if __name__ == "__main__":
    main()
