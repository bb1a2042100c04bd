"""A small FAT16 image builder with live and deleted files (test-side only)."""
import struct

SECTOR = 512


def short_checksum(name11):
    s = 0
    for c in name11:
        s = (((s & 1) << 7) + (s >> 1) + c) & 0xFF
    return s


def lfn_entries(long_name, name11):
    """LFN entries in on-disk order (last part first)."""
    units = [ord(c) for c in long_name]
    if len(units) % 13:
        units.append(0)
        while len(units) % 13:
            units.append(0xFFFF)
    parts = [units[i:i + 13] for i in range(0, len(units), 13)]
    chk = short_checksum(name11)
    out = []
    for i, part in enumerate(parts, 1):
        seq = i | (0x40 if i == len(parts) else 0)
        e = bytearray(32)
        e[0] = seq
        e[11] = 0x0F
        e[13] = chk
        p = [struct.pack("<H", u) for u in part]
        e[1:11] = b"".join(p[0:5])
        e[14:26] = b"".join(p[5:11])
        e[28:32] = b"".join(p[11:13])
        out.append(bytes(e))
    return list(reversed(out))


def short_entry(name11, attr, cluster, size):
    e = bytearray(32)
    e[0:11] = name11
    e[11] = attr
    struct.pack_into("<HHHH", e, 14, 0x6000, 0x5B21, 0x5B21, 0)
    struct.pack_into("<HHHI", e, 22, 0x6000, 0x5B21, cluster, size)
    return bytes(e)


class Image:
    def __init__(self, rng, spc=2, reserved=1, nclusters=900, root_entries=256):
        self.rng = rng
        self.spc = spc
        self.csize = spc * SECTOR
        self.reserved = reserved
        self.nclusters = nclusters
        self.root_entries = root_entries
        self.fat_sectors = -(-(nclusters + 2) * 2 // SECTOR)
        self.root_sectors = root_entries * 32 // SECTOR
        self.data_start = (reserved + 2 * self.fat_sectors + self.root_sectors) * SECTOR
        self.total_sectors = self.data_start // SECTOR + nclusters * spc
        self.fat = [0] * (nclusters + 2)
        self.fat[0], self.fat[1] = 0xFFF8, 0xFFFF
        self.data = bytearray(nclusters * self.csize)
        self.taken = set()               # clusters whose content must not be overwritten
        self.root = []                   # raw 32-byte entries
        self.root_tail = b""             # bytes after the end marker (stale)

    def off(self, cl):
        return (cl - 2) * self.csize

    def fill_random(self):
        rng = self.rng
        step = 4096
        for i in range(0, len(self.data), step):
            if rng.random() < 0.5:
                self.data[i:i + step] = rng.randbytes(step)

    def free_run(self, count, lo=2):
        cands = [c for c in range(lo, self.nclusters + 2 - count + 1)
                 if all(self.fat[x] == 0 and x not in self.taken for x in range(c, c + count))]
        return self.rng.choice(cands)

    def free_clusters(self, count):
        free = [c for c in range(2, self.nclusters + 2) if self.fat[c] == 0 and c not in self.taken]
        return sorted(self.rng.sample(free, count))

    def write_chain(self, clusters, payload):
        for i, cl in enumerate(clusters):
            self.fat[cl] = clusters[i + 1] if i + 1 < len(clusters) else 0xFFFF
            chunk = payload[i * self.csize:(i + 1) * self.csize]
            self.data[self.off(cl):self.off(cl) + self.csize] = chunk.ljust(self.csize, b"\0")
            self.taken.add(cl)

    def nclust(self, size):
        return -(-size // self.csize)

    def live_file(self, payload, fragmented=False):
        n = self.nclust(len(payload))
        if n == 0:
            return 0
        if fragmented and n > 1:
            cl = self.free_clusters(n)
            self.rng.shuffle(cl)
        else:
            start = self.free_run(n)
            cl = list(range(start, start + n))
        self.write_chain(cl, payload)
        return cl[0]

    def deleted_data(self, payload):
        """Place data in a free contiguous run, leave the FAT free; returns the first cluster."""
        n = self.nclust(len(payload))
        if n == 0:
            return 0
        start = self.free_run(n)
        for i in range(n):
            cl = start + i
            chunk = payload[i * self.csize:(i + 1) * self.csize]
            self.data[self.off(cl):self.off(cl) + len(chunk)] = chunk
            self.taken.add(cl)
        return start

    def dir_clusters(self, entries, parent_cl, self_cl_count=None):
        """Allocate a subdirectory's clusters (possibly fragmented) and return (first cluster, writer)."""
        raw_len = (len(entries) + 2 + 1) * 32
        n = max(1, self.nclust(raw_len))
        cl = self.free_clusters(n) if n > 1 else [self.free_run(1)]
        if n > 1:
            self.rng.shuffle(cl)
        return cl

    def write_dir(self, clusters, entries, parent_cl):
        dot = short_entry(b".          ", 0x10, clusters[0], 0)
        dotdot = short_entry(b"..         ", 0x10, parent_cl, 0)
        raw = dot + dotdot + b"".join(entries)
        raw = raw.ljust(len(clusters) * self.csize, b"\0")
        self.write_chain(clusters, raw)

    def to_bytes(self):
        bs = bytearray(SECTOR)
        bs[0:3] = b"\xEB\x3C\x90"
        bs[3:11] = b"MSWIN4.1"
        ts = self.total_sectors
        struct.pack_into("<HBHBHHBHHHII", bs, 11, SECTOR, self.spc, self.reserved, 2, self.root_entries,
                         ts if ts < 65536 else 0, 0xF8, self.fat_sectors, 32, 64, 0, ts if ts >= 65536 else 0)
        bs[36] = 0x80
        bs[38] = 0x29
        bs[39:43] = b"\x12\x34\x56\x78"
        bs[43:54] = b"EVIDENCE   "
        bs[54:62] = b"FAT16   "
        bs[510:512] = b"\x55\xAA"
        out = bytearray(bs)
        out += bytes((self.reserved - 1) * SECTOR)
        fat = b"".join(struct.pack("<H", v) for v in self.fat).ljust(self.fat_sectors * SECTOR, b"\0")
        out += fat + fat
        root = b"".join(self.root)
        root = (root + bytes(32) + self.root_tail)[:self.root_sectors * SECTOR] if self.root_tail else root
        out += root.ljust(self.root_sectors * SECTOR, b"\0")
        assert len(out) == self.data_start
        out += self.data
        return bytes(out)


WORDS = ["report", "Quarterly", "payroll", "notes", "backup", "keys", "invoice", "draft", "minutes",
         "Budget", "export", "customers", "plan", "summary", "scan", "photo", "contract", "old"]
EXTS = ["txt", "xlsx", "pdf", "docx", "csv", "jpg", "zip", "db", "log", "md"]


class Tree:
    """Describe a tree, then realise it as an image; `expected` follows the task's rules."""

    def __init__(self, rng, **img):
        self.rng = rng
        self.img = Image(rng, **img)
        self.img.fill_random()
        self.dirs = {"": []}          # dirpath -> list of child specs
        self.dir_lfn = {}
        self.shorts = {"": set()}
        self.longs = {"": set()}

    def short11(self, d, base=None, ext=None):
        rng = self.rng
        while True:
            if base is None:
                b = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(rng.randint(3, 8)))
            else:
                b = base[:-1] + str(rng.randint(1, 9))
            e = ext if ext is not None else rng.choice(["TXT", "DAT", "BIN", "CSV", "LOG", ""])
            name11 = (b.ljust(8) + e.ljust(3)).encode()
            if name11 not in self.shorts[d]:
                self.shorts[d].add(name11)
                return name11

    def long_name(self, d):
        rng = self.rng
        while True:
            parts = [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
            name = rng.choice([" ", "_", "-"]).join(parts) + rng.choice(["", " (2)", "-2026", " v3"]) + "." + rng.choice(EXTS)
            if name.lower() not in self.longs[d]:
                self.longs[d].add(name.lower())
                return name

    def payload(self, size=None):
        rng = self.rng
        size = size if size is not None else rng.choice([rng.randint(1, 600), rng.randint(600, 5000), rng.randint(5000, 14000)])
        if rng.random() < 0.5:
            text = []
            while sum(map(len, text)) < size:
                text.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) + "\n")
            return "".join(text).encode()[:size]
        return rng.randbytes(size)

    def mkdir(self, parent, lfn=None):
        lfn = self.rng.random() < 0.5 if lfn is None else lfn
        name = self.long_name(parent).rsplit(".", 1)[0] if lfn else None
        name11 = self.short11(parent, ext="")
        path = (parent + "/" if parent else "") + (name if lfn else name11[:8].decode().strip())
        self.dirs[path] = []
        self.shorts[path] = set()
        self.longs[path] = set()
        self.dirs[parent].append({"kind": "dir", "path": path, "long": name, "short": name11})
        return path

    def file(self, d, kind="live", lfn=None, fragmented=False, size=None):
        lfn = self.rng.random() < 0.5 if lfn is None else lfn
        long = self.long_name(d) if lfn else None
        short = self.short11(d, base=(long.split(".")[0].replace(" ", "").replace("_", "").replace("-", "").upper()[:6] + "~1") if lfn else None,
                             ext=long.rsplit(".", 1)[1].upper()[:3] if lfn else None)
        spec = {"kind": kind, "dir": d, "long": long, "short": short, "payload": self.payload(size),
                "fragmented": fragmented}
        self.dirs[d].append(spec)
        return spec

    def deleted_dir(self, d):
        self.dirs[d].append({"kind": "deleted-dir", "short": self.short11(d, ext="")})

    # -- realise ------------------------------------------------------------------------------------
    def build(self, root_tail=False):
        img, rng = self.img, self.rng
        specs = [s for lst in self.dirs.values() for s in lst]
        for s in specs:
            if s["kind"] == "live":
                s["cluster"] = img.live_file(s["payload"], s["fragmented"])
        for s in specs:
            if s["kind"] == "deleted":
                s["cluster"] = img.deleted_data(s["payload"])
        # directories (children before parents do not matter: clusters first, entries later)
        dcl = {}
        for path in self.dirs:
            if path:
                n = sum(1 + (len(lfn_entries(c["long"], c["short"])) if c.get("long") else 0) for c in self.dirs[path])
                dcl[path] = img.dir_clusters([None] * n, 0)
                for cl in dcl[path]:
                    img.taken.add(cl)
                    img.fat[cl] = 0xFFFF
        used = [c for c in range(2, img.nclusters + 2) if img.fat[c] != 0]
        for s in specs:
            if s["kind"] == "overwritten":
                n = img.nclust(len(s["payload"]))
                while True:
                    hit = rng.choice(used)
                    start = hit - rng.randrange(0, n)
                    if start >= 2 and start + n <= img.nclusters + 2:
                        break
                s["cluster"] = start
            if s["kind"] == "deleted-dir":
                s["cluster"] = rng.randrange(2, img.nclusters + 2)
        for path, children in self.dirs.items():
            entries = []
            for c in children:
                deleted = c["kind"] in ("deleted", "overwritten", "deleted-dir")
                if c["kind"] in ("dir",):
                    cl, size, attr = dcl[c["path"]][0], 0, 0x10
                elif c["kind"] == "deleted-dir":
                    cl, size, attr = c["cluster"], 0, 0x10
                else:
                    cl, size, attr = c["cluster"], len(c["payload"]), 0x20
                group = (lfn_entries(c["long"], c["short"]) if c.get("long") else []) + [short_entry(c["short"], attr, cl, size)]
                if deleted:
                    group = [b"\xE5" + g[1:] for g in group]
                entries += group
            if path:
                parent = path.rsplit("/", 1)[0] if "/" in path else ""
                img.write_dir(dcl[path], entries, dcl[parent][0] if parent else 0)
            else:
                vol = short_entry(b"EVIDENCE   ", 0x08, 0, 0)
                img.root = [vol] + entries
        if root_tail:
            stale = self.short11("", ext="TXT")
            img.root_tail = b"\xE5" + short_entry(stale, 0x20, 5, 1000)[1:]
        return img.to_bytes()

    def expected(self):
        out = {}
        for d, children in self.dirs.items():
            for c in children:
                if c["kind"] not in ("deleted", "overwritten"):
                    continue
                if c["long"]:
                    name = c["long"]
                else:
                    base, ext = c["short"][:8].decode().strip(), c["short"][8:].decode().strip()
                    name = "_" + base[1:] + ("." + ext if ext else "")
                path = (d + "/" if d else "") + name
                out[path] = (c["kind"], c["payload"])
        return out
