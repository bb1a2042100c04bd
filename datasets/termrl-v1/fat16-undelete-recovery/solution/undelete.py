#!/usr/bin/env python3
"""Recover deleted files from a FAT16 image (contiguous-allocation assumption)."""
import json
import os
import struct
import sys


def main(image, outdir):
    data = open(image, "rb").read()
    bps, spc, reserved, nfats, root_entries, ts16, _, fatsz = struct.unpack_from("<HBHBHHBH", data, 11)
    ts32, = struct.unpack_from("<I", data, 32)
    total = ts16 or ts32
    csize = bps * spc
    fat_off = reserved * bps
    root_off = (reserved + nfats * fatsz) * bps
    data_off = root_off + root_entries * 32
    nclusters = (total * bps - data_off) // csize
    fat = struct.unpack_from(f"<{fatsz * bps // 2}H", data, fat_off)

    def cluster(cl):
        o = data_off + (cl - 2) * csize
        return data[o:o + csize]

    def chain(cl):
        seen = []
        while 2 <= cl < 0xFFF8 and cl not in seen and cl < nclusters + 2:
            seen.append(cl)
            cl = fat[cl]
        return seen

    def short_name(e, deleted):
        base = e[0:8].decode("latin-1").rstrip(" ")
        ext = e[8:11].decode("latin-1").rstrip(" ")
        if deleted:
            base = "_" + base[1:]
        elif base[:1] == "\x05":
            base = "\xe5" + base[1:]
        return base + ("." + ext if ext else "")

    def lfn_part(e):
        raw = e[1:11] + e[14:26] + e[28:32]
        out = []
        for (u,) in struct.iter_unpack("<H", raw):
            if u == 0:
                return "".join(out), True
            if u == 0xFFFF:
                continue
            out.append(chr(u))
        return "".join(out), False

    def entries(raw):
        ents = []
        for i in range(0, len(raw) - 31, 32):
            e = raw[i:i + 32]
            if e[0] == 0:
                break
            ents.append(e)
        return ents

    def long_name(run):
        if not run:
            return None
        name = ""
        for e in reversed(run):
            part, end = lfn_part(e)
            name += part
            if end:
                break
        return name or None

    results = []

    def walk(raw, path):
        run_live, run_del = [], []
        for e in entries(raw):
            attr = e[11]
            deleted = e[0] == 0xE5
            if attr == 0x0F:
                if deleted:
                    run_del.append(e)
                    run_live = []
                else:
                    run_live.append(e)
                    run_del = []
                continue
            lrun = run_del if deleted else run_live
            run_live, run_del = [], []
            if attr & 0x08:
                continue
            name = long_name(lrun) or short_name(e, deleted)
            if name in (".", ".."):
                continue
            first, = struct.unpack_from("<H", e, 26)
            size, = struct.unpack_from("<I", e, 28)
            full = (path + "/" if path else "") + name
            if attr & 0x10:
                if not deleted and first >= 2:
                    walk(b"".join(cluster(c) for c in chain(first)), full)
                continue
            if not deleted:
                continue
            n = -(-size // csize)
            span = range(first, first + n)
            ok = size == 0 or (first >= 2 and first + n <= nclusters + 2 and all(fat[c] == 0 for c in span))
            if ok:
                content = b"".join(cluster(c) for c in span)[:size]
                dest = os.path.join(outdir, *full.split("/"))
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "wb") as fh:
                    fh.write(content)
            results.append({"path": full, "size": size, "status": "recovered" if ok else "overwritten"})

    os.makedirs(outdir, exist_ok=True)
    walk(data[root_off:data_off], "")
    results.sort(key=lambda r: r["path"])
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
