#!/bin/bash
# Plausible but wrong: array/map blocks are read as count + items only; a negative count (count followed
# by the block's byte size, allowed by the spec and used by some writers) is treated as an empty block.
set -euo pipefail
cat > /app/avro2jsonl.py <<'PY'
#!/usr/bin/env python3
"""avro2jsonl.py READER.avsc OUT.jsonl FILE.avro...: every record, resolved to the reader schema, as JSON."""
import json
import struct
import sys
import zlib

PRIMS = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"}
NAMED = {"record", "error", "enum", "fixed"}
MISSING = object()


def fullname(name, ns):
    return name if "." in name or not ns else f"{ns}.{name}"


def parse(s, ns, names):
    if isinstance(s, str):
        if s in PRIMS:
            return {"type": s}
        return names[fullname(s, ns)] if fullname(s, ns) in names else names[s]
    if isinstance(s, list):
        return {"type": "union", "branches": [parse(x, ns, names) for x in s]}
    t = s["type"]
    if isinstance(t, (dict, list)):
        return parse(t, ns, names)
    if t in PRIMS:
        return {"type": t}
    if t in NAMED:
        full = fullname(s["name"], s.get("namespace", ns))
        nns = full.rsplit(".", 1)[0] if "." in full else ""
        node = {"type": "record" if t == "error" else t, "name": full,
                "aliases": {fullname(a, nns) for a in s.get("aliases", [])}}
        names[full] = node
        if t in ("record", "error"):
            node["fields"] = [{"name": f["name"], "type": parse(f["type"], nns, names),
                               "aliases": set(f.get("aliases", [])), "default": f.get("default", MISSING)}
                              for f in s["fields"]]
        elif t == "enum":
            node["symbols"] = s["symbols"]
            node["default"] = s.get("default")
        else:
            node["size"] = s["size"]
        return node
    if t == "array":
        return {"type": "array", "items": parse(s["items"], ns, names)}
    if t == "map":
        return {"type": "map", "values": parse(s["values"], ns, names)}
    raise ValueError(f"unknown type {t!r}")


class Buf:
    def __init__(self, data):
        self.b, self.i = data, 0

    def long(self):
        n = s = 0
        while True:
            c = self.b[self.i]
            self.i += 1
            n |= (c & 0x7F) << s
            s += 7
            if not c & 0x80:
                return (n >> 1) ^ -(n & 1)

    def take(self, k):
        v = self.b[self.i:self.i + k]
        if len(v) != k:
            raise EOFError("truncated data")
        self.i += k
        return v

    def blocks(self, item):
        out = []
        while True:
            n = self.long()
            if n == 0:
                return out
            if n < 0:
                continue
            for _ in range(n):
                out.append(item())


PROMOTE = {"int": {"long", "float", "double"}, "long": {"float", "double"}, "float": {"double"},
           "string": {"bytes"}, "bytes": {"string"}}


def short(name):
    return name.rsplit(".", 1)[-1]


def matches(w, r):
    wt, rt = w["type"], r["type"]
    if wt == rt:
        if wt in ("record", "enum", "fixed"):
            return short(w["name"]) == short(r["name"]) or w["name"] in r["aliases"] or \
                short(w["name"]) in {short(a) for a in r["aliases"]}
        return True
    return rt in PROMOTE.get(wt, ())


def read(w, r, buf):
    """Decode a value written with schema w and resolve it to reader schema r."""
    wt = w["type"]
    if wt == "union":
        return read(w["branches"][buf.long()], r, buf)
    if r["type"] == "union":
        for br in r["branches"]:
            if matches(w, br):
                return read(w, br, buf)
        raise ValueError(f"no branch of the reader union matches writer type {wt}")
    if not matches(w, r):
        raise ValueError(f"writer type {wt} cannot be read as {r['type']}")
    rt = r["type"]
    if wt == "null":
        return None
    if wt == "boolean":
        return buf.take(1) != b"\x00"
    if wt in ("int", "long"):
        v = buf.long()
        return float(v) if rt in ("float", "double") else v
    if wt == "float":
        return struct.unpack("<f", buf.take(4))[0]
    if wt == "double":
        return struct.unpack("<d", buf.take(8))[0]
    if wt in ("bytes", "string"):
        v = buf.take(buf.long())
        return v.decode() if rt == "string" else bytes(v)
    if wt == "fixed":
        return bytes(buf.take(w["size"]))
    if wt == "enum":
        sym = w["symbols"][buf.long()]
        if sym in r["symbols"]:
            return sym
        if r.get("default") is None:
            raise ValueError(f"enum symbol {sym} unknown to the reader")
        return r["default"]
    if wt == "array":
        return buf.blocks(lambda: read(w["items"], r["items"], buf))
    if wt == "map":
        return dict(buf.blocks(lambda: (buf.take(buf.long()).decode(), read(w["values"], r["values"], buf))))
    if wt == "record":
        out = {}
        for wf in w["fields"]:
            rf = next((f for f in r["fields"] if f["name"] == wf["name"] or wf["name"] in f["aliases"]), None)
            v = read(wf["type"], rf["type"] if rf else wf["type"], buf)
            if rf:
                out[rf["name"]] = v
        res = {}
        for rf in r["fields"]:
            if rf["name"] in out:
                res[rf["name"]] = out[rf["name"]]
            elif rf["default"] is not MISSING:
                res[rf["name"]] = default(rf["type"], rf["default"])
            else:
                raise ValueError(f"reader field {rf['name']} has no value and no default")
        return res
    raise ValueError(wt)


def default(s, v):
    t = s["type"]
    if t == "union":
        return default(s["branches"][0], v)
    if t in ("bytes", "fixed"):
        return v.encode("latin-1")
    if t in ("float", "double"):
        return float(v)
    if t == "record":
        return {f["name"]: default(f["type"], v.get(f["name"], f["default"])) for f in s["fields"]}
    if t == "array":
        return [default(s["items"], x) for x in v]
    if t == "map":
        return {k: default(s["values"], x) for k, x in v.items()}
    return v


def jsonable(v):
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [jsonable(x) for x in v]
    return v


def records(path, reader):
    buf = Buf(open(path, "rb").read())
    if buf.take(4) != b"Obj\x01":
        raise ValueError(f"{path}: not an Avro object container file")
    meta = dict(buf.blocks(lambda: (buf.take(buf.long()).decode(), bytes(buf.take(buf.long())))))
    sync = buf.take(16)
    writer = parse(json.loads(meta["avro.schema"]), "", {})
    codec = meta.get("avro.codec", b"null").decode()
    while buf.i < len(buf.b):
        n = buf.long()
        data = buf.take(buf.long())
        if codec == "deflate":
            data = zlib.decompress(data, -15)
        elif codec != "null":
            raise ValueError(f"{path}: unsupported codec {codec}")
        if buf.take(16) != sync:
            raise ValueError(f"{path}: bad sync marker")
        block = Buf(data)
        for _ in range(n):
            yield read(writer, reader, block)


def main(reader_path, out_path, *files):
    reader = parse(json.load(open(reader_path)), "", {})
    with open(out_path, "w", encoding="utf-8") as out:
        for p in files:
            for rec in records(p, reader):
                out.write(json.dumps(jsonable(rec), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
PY
chmod +x /app/avro2jsonl.py
