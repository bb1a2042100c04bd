"""Build a deterministic file tree with duplicates under the given root."""
import os
import random
import sys


def build(root, seed):
    rng = random.Random(seed)
    blobs = [bytes(rng.getrandbits(8) for _ in range(rng.randint(200, 3000))) for _ in range(14)]
    # near-duplicates: same size, one byte different
    nd = bytearray(blobs[0]); nd[100] ^= 0xFF; blobs.append(bytes(nd))
    dirs = ["", "photos", "photos/2023", "docs", "docs/old", "backup", "backup/deep/er"]
    for d in dirs:
        os.makedirs(os.path.join(root, d), exist_ok=True)
    n = 0
    for i in range(46):
        d = rng.choice(dirs)
        b = rng.choice(blobs)
        p = os.path.join(root, d, f"f{i:02d}_{rng.randint(100, 999)}.bin")
        with open(p, "wb") as fh:
            fh.write(b)
        mode = 0o644 if rng.random() < 0.8 else 0o600
        os.chmod(p, mode)
        n += 1
    # empty files (must never be linked)
    for i in range(3):
        p = os.path.join(root, dirs[i + 1], f"empty{i}.txt")
        open(p, "wb").close()
        os.chmod(p, 0o644)
    # symlinks (must be left alone)
    os.symlink("../docs/" + sorted(os.listdir(os.path.join(root, "docs")))[0], os.path.join(root, "photos", "link_to_doc"))
    os.symlink("f_missing.bin", os.path.join(root, "backup", "dangling"))


if __name__ == "__main__":
    build(sys.argv[1], int(sys.argv[2]))
