"""Writes a snapshot vault of a live directory and evolves that directory between snapshots (seeded)."""
import hashlib
import os
import random
import shutil
import stat
import sys
import urllib.parse
import zlib

CHUNK = 4096


def esc(s):
    return urllib.parse.quote(s, safe="/._-")


def scan(root):
    out = {}
    for dp, dns, fns in os.walk(root):
        for n in dns + fns:
            p = os.path.join(dp, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("L", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("D", stat.S_IMODE(st.st_mode))
            else:
                data = open(p, "rb").read()
                out[rel] = ("F", stat.S_IMODE(st.st_mode), int(st.st_mtime), hashlib.sha256(data).hexdigest(), data)
    return out


def store_object(vault, name, kind, payload):
    path = os.path.join(vault, "objects", name[:2], name[2:])
    if os.path.exists(path):
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    z = zlib.compress(payload, 9)
    body = kind + (b"z" + z if len(z) < len(payload) else b"r" + payload)
    with open(path, "wb") as f:
        f.write(body)


def store_file(vault, data):
    name = hashlib.sha256(data).hexdigest()
    if len(data) <= CHUNK:
        store_object(vault, name, b"B", data)
        return name
    digests = []
    for i in range(0, len(data), CHUNK):
        part = data[i:i + CHUNK]
        pn = hashlib.sha256(part).hexdigest()
        store_object(vault, pn, b"B", part)
        digests.append(bytes.fromhex(pn))
    store_object(vault, name, b"C", b"".join(digests))
    return name


class Vault:
    def __init__(self, path):
        self.path = path
        self.prev = None
        self.n = 0
        os.makedirs(os.path.join(path, "snaps"), exist_ok=True)
        os.makedirs(os.path.join(path, "objects"), exist_ok=True)
        with open(os.path.join(path, "VAULT"), "w") as f:
            f.write("snapvault 2\n")

    def snapshot(self, live, when, full):
        self.n += 1
        cur = scan(live)
        lines = ["snapvault-index 2", f"snap {self.n}",
                 "parent -" if full or self.prev is None else f"parent {self.n - 1}", f"time {when}"]
        body = []
        base = {} if full or self.prev is None else self.prev
        gone = {rel for rel in base if rel not in cur or cur[rel][0] != base[rel][0]}
        for rel in sorted(gone):
            parts = rel.split("/")
            if not any("/".join(parts[:i]) in gone for i in range(1, len(parts))):
                lines.append(f"X {esc(rel)}")
        for rel in sorted(cur):
            e, old = cur[rel], base.get(rel)
            if e[0] == "F":
                store_file(self.path, e[4])
                if old and old[0] == "F" and old[2:4] == e[2:4]:
                    if old[1] != e[1]:
                        body.append(f"P {e[1]:o} {esc(rel)}")
                    continue
                body.append(f"F {e[1]:o} {when - e[2]} {e[3]} {esc(rel)}")
            elif e[0] == "D":
                if old != e:
                    body.append(f"D {e[1]:o} {esc(rel)}")
            elif old != e:
                body.append(f"L {esc(e[1])} {esc(rel)}")
        data = ("\n".join(lines + body) + "\n").encode()
        with open(os.path.join(self.path, "snaps", f"{self.n:06d}"), "wb") as f:
            f.write(zlib.compress(data, 6))
        self.prev = {k: v[:4] if v[0] == "F" else v for k, v in cur.items()}
        return {k: v for k, v in cur.items()}


WORDS = ["alpha", "beta", "notes", "report", "data", "img", "conf", "log", "Ünï", "two words", "x-y", "v1.2"]


def content(rng):
    r = rng.random()
    if r < 0.35:
        return ("\n".join(" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(rng.randrange(1, 60))) + "\n").encode()
    if r < 0.55:
        return rng.randbytes(rng.randrange(0, 3000))
    if r < 0.8:
        return rng.randbytes(rng.randrange(4097, 20000))
    return (b"line of log text %d\n" % rng.randrange(100)) * rng.randrange(300, 1500)


def evolve(live, rng, when, steps):
    """Random changes to the live tree; guaranteed at least one deletion and one change."""
    st = scan(live)
    files = sorted(k for k, v in st.items() if v[0] == "F")
    dirs = [""] + sorted(k for k, v in st.items() if v[0] == "D")
    deleted = changed = False
    for i in range(steps):
        op = rng.random()
        if (op < 0.12 or not deleted) and files:
            victim = rng.choice(files)
            os.unlink(os.path.join(live, victim))
            files.remove(victim)
            deleted = True
        elif (op < 0.3 or not changed) and files:
            p = os.path.join(live, rng.choice(files))
            open(p, "wb").write(content(rng))
            os.utime(p, (when - rng.randrange(10 ** 4), when - rng.randrange(10 ** 4)))
            changed = True
        elif op < 0.36 and files:
            p = os.path.join(live, rng.choice(files))
            os.chmod(p, rng.choice([0o600, 0o640, 0o755, 0o4755, 0o444]))
        elif op < 0.42 and len(dirs) > 2:
            d = rng.choice(dirs[1:])
            shutil.rmtree(os.path.join(live, d))
            dirs = [x for x in dirs if not (x == d or x.startswith(d + "/"))]
            files = [x for x in files if not x.startswith(d + "/")]
            if rng.random() < 0.5:
                open(os.path.join(live, d), "wb").write(b"was a directory\n")
                os.utime(os.path.join(live, d), (when - 5, when - 5))
                files.append(d)
        elif op < 0.55:
            d = os.path.join(rng.choice(dirs), f"{rng.choice(WORDS)}{rng.randrange(1000)}").lstrip("/")
            if not os.path.lexists(os.path.join(live, d)):
                os.mkdir(os.path.join(live, d))
                os.chmod(os.path.join(live, d), rng.choice([0o755, 0o750, 0o700, 0o2775]))
                dirs.append(d)
        elif op < 0.63 and files:
            d = rng.choice(dirs)
            p = os.path.join(d, f"ln-{rng.randrange(1000)}").lstrip("/")
            if not os.path.lexists(os.path.join(live, p)):
                os.symlink(os.path.relpath(os.path.join(live, rng.choice(files)), os.path.join(live, d)),
                           os.path.join(live, p))
        else:
            d = rng.choice(dirs)
            p = os.path.join(d, f"{rng.choice(WORDS)} {rng.randrange(1000)}.{rng.choice(['txt', 'bin', 'csv'])}").lstrip("/")
            if not os.path.lexists(os.path.join(live, p)):
                open(os.path.join(live, p), "wb").write(content(rng))
                os.chmod(os.path.join(live, p), rng.choice([0o644, 0o600, 0o755]))
                t = when - rng.randrange(10 ** 5)
                os.utime(os.path.join(live, p), (t, t))
                files.append(p)


def generate(live, vault, seed, n_snaps, fulls):
    """Builds live + vault; returns the list of scans (one per snapshot, index 0 = snapshot 1)."""
    rng = random.Random(seed)
    os.makedirs(live, exist_ok=True)
    v = Vault(vault)
    when = 1700000000 + rng.randrange(10 ** 6)
    states = []
    for k in range(1, n_snaps + 1):
        evolve(live, rng, when, 90 if k == 1 else 22)
        states.append(v.snapshot(live, when, k in fulls))
        when += 86400 + rng.randrange(3600)
    return states


if __name__ == "__main__":
    generate(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), {int(x) for x in sys.argv[5].split(",")})
