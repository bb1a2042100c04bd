#!/bin/bash
set -euo pipefail
# Mistake: unpacks with scale_factor/add_offset first and tests fill, missing and valid range on the unpacked value.
cat > /app/ncstats.py <<'PY'
import json
import math
import os
import struct
import sys

TYPES = {1: ("byte", "b", 1), 2: ("char", "c", 1), 3: ("short", "h", 2), 4: ("int", "i", 4),
         5: ("float", "f", 4), 6: ("double", "d", 8)}
DEFAULT_FILL = {"byte": -127, "short": -32767, "int": -2147483647,
                "float": struct.unpack(">f", struct.pack(">f", 9.9692099683868690e+36))[0],
                "double": 9.9692099683868690e+36}


def fail(msg):
    print(f"ncstats: {msg}", file=sys.stderr)
    sys.exit(2)


class Reader:
    def __init__(self, buf):
        self.buf, self.pos = buf, 0

    def take(self, n):
        if self.pos + n > len(self.buf):
            fail("truncated header")
        b = self.buf[self.pos:self.pos + n]
        self.pos += n
        return b

    def i32(self):
        return struct.unpack(">i", self.take(4))[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def i64(self):
        return struct.unpack(">q", self.take(8))[0]

    def pad(self, n):
        self.take((-n) % 4)

    def name(self):
        n = self.i32()
        s = self.take(n).decode("utf-8")
        self.pad(n)
        return s

    def values(self, t, n):
        tname, code, size = TYPES[t]
        raw = self.take(n * size)
        self.pad(n * size)
        if tname == "char":
            return raw.rstrip(b"\0").decode("latin-1")
        return list(struct.unpack(f">{n}{code}", raw))

    def att_list(self):
        tag, n = self.u32(), self.i32()
        if tag == 0:
            return {}
        if tag != 0x0C:
            fail("bad attribute list")
        atts = {}
        for _ in range(n):
            nm = self.name()
            t = self.i32()
            if t not in TYPES:
                fail(f"bad type {t}")
            atts[nm] = self.values(t, self.i32())
        return atts


def parse(buf):
    if len(buf) < 4 or buf[:3] != b"CDF" or buf[3] not in (1, 2):
        fail("not a netCDF classic (CDF-1/CDF-2) file")
    fmt = buf[3]
    r = Reader(buf)
    r.take(4)
    numrecs = r.u32()
    dims = []
    tag, n = r.u32(), r.i32()
    if tag == 0x0A:
        for _ in range(n):
            nm = r.name()
            dims.append([nm, r.i32()])
    elif tag != 0:
        fail("bad dimension list")
    gatts = r.att_list()
    vars_ = []
    tag, n = r.u32(), r.i32()
    if tag == 0x0B:
        for _ in range(n):
            nm = r.name()
            ids = [r.i32() for _ in range(r.i32())]
            atts = r.att_list()
            t = r.i32()
            if t not in TYPES:
                fail(f"bad type {t}")
            r.i32()  # vsize, not trusted
            begin = r.i32() if fmt == 1 else r.i64()
            vars_.append({"name": nm, "ids": ids, "atts": atts, "t": t, "begin": begin})
    elif tag != 0:
        fail("bad variable list")
    unlim = next((i for i, (_, ln) in enumerate(dims) if ln == 0), None)
    for v in vars_:
        v["rec"] = bool(v["ids"]) and v["ids"][0] == unlim
        inner = 1
        for d in v["ids"][1 if v["rec"] else 0:]:
            inner *= dims[d][1]
        v["slab"] = inner * TYPES[v["t"]][2]
    recvars = [v for v in vars_ if v["rec"]]
    if len(recvars) == 1:
        recsize = recvars[0]["slab"]
    else:
        recsize = sum(v["slab"] + (-v["slab"]) % 4 for v in recvars)
    if numrecs == 0xFFFFFFFF:
        if recvars and recsize:
            start = min(v["begin"] for v in recvars)
            numrecs = max(0, (len(buf) - start) // recsize)
        else:
            numrecs = 0
    if unlim is not None:
        dims[unlim][1] = numrecs
    return fmt, numrecs, dims, unlim, gatts, vars_, recsize


def read_values(buf, v, numrecs, recsize):
    tname, code, size = TYPES[v["t"]]
    n_inner = v["slab"] // size
    if v["rec"]:
        raw = b"".join(buf[v["begin"] + r * recsize: v["begin"] + r * recsize + v["slab"]] for r in range(numrecs))
        count = n_inner * numrecs
    else:
        count = n_inner
        raw = buf[v["begin"]: v["begin"] + v["slab"]]
    if len(raw) < count * size:
        fail(f"variable {v['name']} runs past the end of the file")
    if tname == "char":
        return raw
    return list(struct.unpack(f">{count}{code}", raw))


def classify(v, vals):
    tname = TYPES[v["t"]][0]
    atts = v["atts"]
    fill = atts["_FillValue"][0] if "_FillValue" in atts else DEFAULT_FILL[tname]
    if tname == "float":
        fill = struct.unpack(">f", struct.pack(">f", fill))[0]
    miss = atts.get("missing_value", [])
    if isinstance(miss, str):
        miss = []
    lo = hi = None
    if "valid_range" in atts:
        lo, hi = atts["valid_range"][0], atts["valid_range"][1]
    else:
        if "valid_min" in atts:
            lo = atts["valid_min"][0]
        if "valid_max" in atts:
            hi = atts["valid_max"][0]
    sf = atts["scale_factor"][0] if "scale_factor" in atts else 1.0
    ao = atts["add_offset"][0] if "add_offset" in atts else 0.0
    out = []
    for x in vals:
        x = float(x) * sf + ao
        if (isinstance(x, float) and math.isnan(x)) or x == fill or x in miss or \
                (lo is not None and x < lo) or (hi is not None and x > hi):
            out.append(None)
        else:
            out.append(x)
    return out


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: ncstats.py FILE.nc [--dump VAR]")
    with open(args[0], "rb") as fh:
        buf = fh.read()
    fmt, numrecs, dims, unlim, gatts, vars_, recsize = parse(buf)
    if len(args) >= 3 and args[1] == "--dump":
        v = next((v for v in vars_ if v["name"] == args[2]), None)
        if v is None or TYPES[v["t"]][0] == "char":
            fail(f"no numeric variable {args[2]!r}")
        vals = classify(v, read_values(buf, v, numrecs, recsize))
        print("\n".join("nan" if x is None else repr(float(x)) for x in vals))
        return
    out = {"format": fmt, "numrecs": numrecs, "unlimited": dims[unlim][0] if unlim is not None else None,
           "dimensions": {n: ln for n, ln in dims}, "attributes": gatts, "variables": {}}
    for v in vars_:
        tname = TYPES[v["t"]][0]
        shape = [dims[d][1] for d in v["ids"]]
        ent = {"type": tname, "dims": [dims[d][0] for d in v["ids"]], "shape": shape, "attributes": v["atts"]}
        raw = read_values(buf, v, numrecs, recsize)
        if tname == "char":
            w = shape[-1] if shape else 1
            rows = [raw[i:i + w] for i in range(0, len(raw), w)] if len(shape) > 1 else [raw]
            ent["text"] = [row.rstrip(b"\0").decode("latin-1") for row in rows]
        else:
            vals = [x for x in classify(v, raw) if x is not None]
            ent["valid"], ent["missing"] = len(vals), len(raw) - len(vals)
            if vals:
                ent["min"], ent["max"], ent["mean"] = min(vals), max(vals), math.fsum(vals) / len(vals)
            else:
                ent["min"] = ent["max"] = ent["mean"] = None
        out["variables"][v["name"]] = ent
    print(json.dumps(out))


main()
PY
