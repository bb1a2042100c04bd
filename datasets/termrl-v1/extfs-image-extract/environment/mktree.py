"""Builds a test tree (seeded): sparse files, hard links, fast and slow symlinks, big files, big directories."""
import os
import random
import sys


def make(root, seed):
    rng = random.Random(seed)
    os.makedirs(root)
    t = 1500000000 + seed * 100000

    def f(path, data, mode=0o644):
        p = os.path.join(root, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as fh:
            fh.write(data)
        os.chmod(p, mode)

    f("README.txt", b"seed %d\n" % seed)
    f("empty", b"")
    f("docs/notes with space.md", b"line\n" * rng.randrange(10, 400), 0o600)
    f("docs/\u00dcn\u00efcode \u00f1ame.txt", "\u00fcn\u00ef\n".encode())
    f("bin/tool", rng.randbytes(rng.randrange(3000, 9000)), rng.choice([0o4755, 0o2755, 0o755]))
    f("data/medium.bin", rng.randbytes(rng.randrange(40, 70) * 1024))
    f("data/big.bin", rng.randbytes(rng.randrange(300, 700) * 1024 + rng.randrange(1024)))
    with open(os.path.join(root, "data/sparse.img"), "wb") as fh:
        islands = rng.randrange(6, 12)
        for i in range(islands):
            fh.seek(i * rng.randrange(200, 400) * 1024 + rng.randrange(4096) + i * 1024 * 400)
            fh.write(rng.randbytes(rng.randrange(100, 9000)))
        fh.truncate(fh.tell() + rng.randrange(0, 300000))
    n = rng.randrange(60, 220)
    os.makedirs(os.path.join(root, "many"))
    for i in range(n):
        f(f"many/entry-{i:03d}-{'x' * rng.randrange(1, 60)}", b"%d\n" % i, rng.choice([0o644, 0o600, 0o640]))
    os.symlink("../README.txt", os.path.join(root, "docs/fast-link"))
    slow = "/" + "/".join("segment%02d" % i for i in range(rng.randrange(6, 30))) + "/target"
    os.symlink(slow, os.path.join(root, "docs/slow-link"))
    os.link(os.path.join(root, "bin/tool"), os.path.join(root, "bin/tool-hardlink"))
    os.link(os.path.join(root, "docs/notes with space.md"), os.path.join(root, "many/notes-link"))
    depth = "/".join("d%d" % i for i in range(rng.randrange(3, 9)))
    os.makedirs(os.path.join(root, "deep", depth))
    f(f"deep/{depth}/leaf", b"leaf\n", 0o640)
    os.chmod(os.path.join(root, "deep/d0"), 0o750)
    os.chmod(os.path.join(root, "docs"), 0o2775)
    os.makedirs(os.path.join(root, "empty dir"))
    os.chmod(os.path.join(root, "empty dir"), 0o1777)
    for dp, dns, fns in os.walk(root, topdown=False):
        for name in sorted(dns + fns):
            t += rng.randrange(1, 5000)
            os.utime(os.path.join(dp, name), (t, t), follow_symlinks=False)


if __name__ == "__main__":
    make(sys.argv[1], int(sys.argv[2]))
