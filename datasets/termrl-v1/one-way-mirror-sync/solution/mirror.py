import argparse
import fnmatch
import os
import shutil
import stat
import sys


def excluded(rel, pats):
    base = os.path.basename(rel)
    return any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(base, p) for p in pats)


def count_files(path):
    n = 0
    for dp, dns, fns in os.walk(path):
        n += len(fns)
        n += sum(1 for d in dns if os.path.islink(os.path.join(dp, d)))
    return n


def remove(path):
    st = os.lstat(path)
    if stat.S_ISDIR(st.st_mode):
        n = count_files(path)
        shutil.rmtree(path)
        return n
    os.unlink(path)
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--exclude", action="append", default=[])
    a = ap.parse_args()
    copied = deleted = unchanged = 0

    def sync_dir(rel):
        nonlocal copied, deleted, unchanged
        s = os.path.join(a.src, rel)
        d = os.path.join(a.dst, rel)
        names = sorted(os.listdir(s))
        src_names = set()
        for n in names:
            r = os.path.join(rel, n) if rel else n
            if excluded(r, a.exclude):
                continue
            src_names.add(n)
            sp, dp = os.path.join(s, n), os.path.join(d, n)
            sst = os.lstat(sp)
            dst_st = os.lstat(dp) if os.path.lexists(dp) else None
            if stat.S_ISLNK(sst.st_mode):
                target = os.readlink(sp)
                if dst_st and stat.S_ISLNK(dst_st.st_mode) and os.readlink(dp) == target:
                    unchanged += 1
                    continue
                if dst_st:
                    deleted += remove(dp) if stat.S_ISDIR(dst_st.st_mode) else 0
                    if not stat.S_ISDIR(dst_st.st_mode):
                        os.unlink(dp)
                os.symlink(target, dp)
                copied += 1
            elif stat.S_ISDIR(sst.st_mode):
                if dst_st and not stat.S_ISDIR(dst_st.st_mode):
                    os.unlink(dp)
                    deleted += 1
                    dst_st = None
                if not dst_st:
                    os.mkdir(dp)
                sync_dir(r)
                os.chmod(dp, stat.S_IMODE(sst.st_mode))
            elif stat.S_ISREG(sst.st_mode):
                if dst_st and stat.S_ISREG(dst_st.st_mode) and dst_st.st_size == sst.st_size \
                        and int(dst_st.st_mtime) == int(sst.st_mtime):
                    if stat.S_IMODE(dst_st.st_mode) != stat.S_IMODE(sst.st_mode):
                        os.chmod(dp, stat.S_IMODE(sst.st_mode))
                    unchanged += 1
                    continue
                if dst_st and not stat.S_ISREG(dst_st.st_mode):
                    if stat.S_ISDIR(dst_st.st_mode):
                        deleted += remove(dp)
                    else:
                        os.unlink(dp)
                shutil.copyfile(sp, dp)
                os.chmod(dp, stat.S_IMODE(sst.st_mode))
                os.utime(dp, ns=(sst.st_atime_ns, sst.st_mtime_ns))
                copied += 1
        for n in sorted(os.listdir(d)):
            r = os.path.join(rel, n) if rel else n
            if n in src_names or excluded(r, a.exclude):
                continue
            deleted += remove(os.path.join(d, n))

    os.makedirs(a.dst, exist_ok=True)
    sync_dir("")
    os.chmod(a.dst, stat.S_IMODE(os.stat(a.src).st_mode))
    print(f"copied {copied} deleted {deleted} unchanged {unchanged}")


if __name__ == "__main__":
    sys.exit(main())
