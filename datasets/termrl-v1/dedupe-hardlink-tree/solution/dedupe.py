import hashlib
import os
import stat
import sys


def main(root):
    groups = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
                continue
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                for chunk in iter(lambda: fh.read(65536), b""):
                    h.update(chunk)
            key = (h.hexdigest(), st.st_size, stat.S_IMODE(st.st_mode))
            groups.setdefault(key, []).append((p, st))
    saved = 0
    for key, items in groups.items():
        items.sort(key=lambda x: x[0])
        keep_p, keep_st = items[0]
        # remaining link counts per inode, to know when an inode is freed
        remaining = {}
        for p, st in items:
            remaining.setdefault(st.st_ino, st.st_nlink)
        for p, st in items[1:]:
            if st.st_ino == keep_st.st_ino:
                continue
            tmp = p + ".dedupe-tmp"
            os.link(keep_p, tmp)
            os.replace(tmp, p)
            remaining[st.st_ino] -= 1
            if remaining[st.st_ino] == 0:
                saved += st.st_size
    print(f"saved {saved}")


if __name__ == "__main__":
    main(sys.argv[1])
