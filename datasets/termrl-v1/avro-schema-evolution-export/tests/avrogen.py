"""Avro object container files of four writer-schema versions (test side), and the reader view of every
record derived from the logical event it was written from (not from a generic resolver)."""
import io
import json
import random
import struct
import zlib

NS = "com.shop"
DEVICE_V3 = {"type": "record", "name": "Device", "fields": [
    {"name": "os", "type": {"type": "enum", "name": "OS", "symbols": ["ANDROID", "IOS"]}},
    {"name": "version", "type": "string"}]}
DEVICE_V4 = {"type": "record", "name": "Device", "fields": [
    {"name": "model", "type": "string"},
    {"name": "os", "type": {"type": "enum", "name": "OS", "symbols": ["TV", "IOS", "ANDROID", "WEB"]}},
    {"name": "version", "type": "string"}]}
WRITERS = {
    1: {"type": "record", "name": "Event", "namespace": NS, "fields": [
        {"name": "id", "type": "long"}, {"name": "ts", "type": "long"}, {"name": "user", "type": "string"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["VIEW", "CLICK"]}},
        {"name": "amount", "type": "float"},
        {"name": "tags", "type": {"type": "array", "items": "string"}}]},
    2: {"type": "record", "name": "Event", "namespace": NS, "fields": [
        {"name": "id", "type": "long"}, {"name": "ts", "type": "long"}, {"name": "user", "type": "string"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["VIEW", "CLICK", "PURCHASE"]}},
        {"name": "amount", "type": "double"}, {"name": "qty", "type": "int"},
        {"name": "session", "type": ["null", "string"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "props", "type": {"type": "map", "values": "string"}},
        {"name": "note", "type": "string"}]},
    3: {"type": "record", "name": "Event", "namespace": NS, "fields": [
        {"name": "id", "type": "long"}, {"name": "ts", "type": "long"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["REFUND", "PURCHASE", "CLICK", "VIEW"]}},
        {"name": "user_id", "type": "string"},
        {"name": "amount", "type": "double"}, {"name": "qty", "type": "long"},
        {"name": "session", "type": ["null", "string"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "props", "type": {"type": "map", "values": "string"}},
        {"name": "device", "type": ["null", DEVICE_V3], "default": None},
        {"name": "note", "type": "bytes"}]},
    4: {"type": "record", "name": "Event", "namespace": NS, "fields": [
        {"name": "trace", "type": {"type": "fixed", "name": "Trace", "size": 8}},
        {"name": "id", "type": "long"}, {"name": "ts", "type": "long"}, {"name": "user_id", "type": "string"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind",
                                  "symbols": ["VIEW", "CLICK", "PURCHASE", "REFUND", "SHARE", "WISHLIST"]}},
        {"name": "amount", "type": ["null", "double"], "default": None}, {"name": "qty", "type": "long"},
        {"name": "session", "type": "string"},
        {"name": "debug", "type": {"type": "map", "values": {"type": "array", "items": "long"}}},
        {"name": "props", "type": {"type": "map", "values": "string"}},
        {"name": "device", "type": ["null", DEVICE_V4], "default": None},
        {"name": "note", "type": "bytes"},
        {"name": "score", "type": ["null", "float", "string"], "default": None}]},
}
READER = {"type": "record", "name": "Event", "namespace": NS, "fields": [
    {"name": "id", "type": "long"},
    {"name": "ts", "type": "long"},
    {"name": "customer", "aliases": ["user", "user_id"], "type": "string"},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["VIEW", "CLICK", "PURCHASE", "REFUND", "OTHER"],
                              "default": "OTHER"}},
    {"name": "amount", "type": ["null", "double"], "default": None},
    {"name": "qty", "type": "double", "default": 1.0},
    {"name": "session", "type": ["null", "string"], "default": None},
    {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []},
    {"name": "props", "type": {"type": "map", "values": "string"}, "default": {}},
    {"name": "device", "type": ["null", {"type": "record", "name": "Device", "fields": [
        {"name": "os", "type": {"type": "enum", "name": "OS", "symbols": ["ANDROID", "IOS", "WEB", "UNKNOWN"],
                                "default": "UNKNOWN"}},
        {"name": "version", "type": "string"},
        {"name": "beta", "type": "boolean", "default": False}]}], "default": None},
    {"name": "note", "type": "bytes", "default": ""},
    {"name": "channel", "type": "string", "default": "web"},
]}


# ---- binary encoding ----
def zz(n):
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def enc_bytes(b):
    return zz(len(b)) + b


class Enc:
    def __init__(self, rng):
        self.rng = rng

    def blocks(self, items, enc_item):
        out = bytearray()
        i = 0
        while i < len(items):
            n = self.rng.randint(1, max(1, len(items) - i))
            body = b"".join(enc_item(x) for x in items[i:i + n])
            if self.rng.random() < 0.4:
                out += zz(-n) + zz(len(body)) + body
            else:
                out += zz(n) + body
            i += n
        return bytes(out + zz(0))

    def value(self, schema, v, names):
        if isinstance(schema, str) and schema in names:
            schema = names[schema]
        if isinstance(schema, list):
            idx, val = v
            return zz(idx) + self.value(schema[idx], val, names)
        t = schema if isinstance(schema, str) else schema["type"]
        if t == "null":
            return b""
        if t == "boolean":
            return b"\x01" if v else b"\x00"
        if t in ("int", "long"):
            return zz(v)
        if t == "float":
            return struct.pack("<f", v)
        if t == "double":
            return struct.pack("<d", v)
        if t == "string":
            return enc_bytes(v.encode())
        if t == "bytes":
            return enc_bytes(v)
        if t == "fixed":
            names[schema["name"]] = schema
            return v
        if t == "enum":
            names[schema["name"]] = schema
            return zz(schema["symbols"].index(v))
        if t == "array":
            return self.blocks(v, lambda x: self.value(schema["items"], x, names))
        if t == "map":
            return self.blocks(list(v.items()), lambda kv: enc_bytes(kv[0].encode())
                               + self.value(schema["values"], kv[1], names))
        if t == "record":
            names[schema["name"]] = schema
            return b"".join(self.value(f["type"], v[f["name"]], names) for f in schema["fields"])
        raise ValueError(t)


def container(rng, schema, records, codec):
    enc = Enc(rng)
    sync = bytes(rng.randrange(256) for _ in range(16))
    meta = {"avro.schema": json.dumps(schema).encode(), "avro.codec": codec.encode()}
    if rng.random() < 0.5:
        meta["writer.app"] = b"ingest-" + str(rng.randrange(9)).encode()
    out = io.BytesIO()
    out.write(b"Obj\x01")
    out.write(enc.blocks(list(meta.items()), lambda kv: enc_bytes(kv[0].encode()) + enc_bytes(kv[1])))
    out.write(sync)
    i = 0
    while i < len(records):
        n = min(rng.randint(1, 40), len(records) - i)
        body = b"".join(enc.value(schema, r, {}) for r in records[i:i + n])
        if codec == "deflate":
            c = zlib.compressobj(rng.choice([1, 6, 9]), zlib.DEFLATED, -15)
            body = c.compress(body) + c.flush()
        out.write(zz(n) + zz(len(body)) + body + sync)
        i += n
    return out.getvalue()


# ---- logical events, per-version writer records, and the reader view ----
WORDS = ["alpha", "beta", "ünïcode", "sale", "", "x" * 40, "promo-7", "日本"]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def event(rng, version, k):
    kinds = {1: ["VIEW", "CLICK"], 2: ["VIEW", "CLICK", "PURCHASE"], 3: ["VIEW", "CLICK", "PURCHASE", "REFUND"],
             4: ["VIEW", "CLICK", "PURCHASE", "REFUND", "SHARE", "WISHLIST"]}[version]
    e = {"id": rng.choice([k, 2**40 + k, -k, 2**62 + k]), "ts": 1_600_000_000_000 + rng.randrange(10**11),
         "customer": rng.choice(["u1", "ann@example.org", "Jörg", "", "c-" + str(rng.randrange(10**6))]),
         "kind": rng.choice(kinds), "amount": round(rng.uniform(-100, 10000), 2),
         "qty": rng.choice([0, 1, 3, -2, 2**31 - 1, -(2**31)]),
         "session": rng.choice([None, "s-" + str(rng.randrange(1000)), ""]),
         "tags": [rng.choice(WORDS) for _ in range(rng.choice([0, 0, 1, 3, 7]))],
         "props": {rng.choice(WORDS) + str(i): rng.choice(WORDS) for i in range(rng.choice([0, 1, 4]))},
         "os": rng.choice(["ANDROID", "IOS", "WEB", "TV"]), "osver": rng.choice(["14", "17.2", "1.0.0-rc"]),
         "has_device": rng.random() < 0.7, "note": rng.choice(["", "hello", "naïve", "a,b"]),
         "amount_null": rng.random() < 0.2}
    if version == 3:
        e["os"] = rng.choice(["ANDROID", "IOS"])
    if version <= 2:
        e["qty"] = max(min(e["qty"], 2**31 - 1), -(2**31))
    return e


def writer_record(rng, version, e):
    if version == 1:
        return {"id": e["id"], "ts": e["ts"], "user": e["customer"], "kind": e["kind"], "amount": e["amount"],
                "tags": e["tags"]}
    sess = (0, None) if e["session"] is None else (1, e["session"])
    if version == 2:
        return {"id": e["id"], "ts": e["ts"], "user": e["customer"], "kind": e["kind"], "amount": e["amount"],
                "qty": e["qty"], "session": sess, "tags": e["tags"], "props": e["props"], "note": e["note"]}
    if version == 3:
        dev = (1, {"os": e["os"], "version": e["osver"]}) if e["has_device"] else (0, None)
        return {"id": e["id"], "ts": e["ts"], "user_id": e["customer"], "kind": e["kind"], "amount": e["amount"],
                "qty": e["qty"], "session": sess, "tags": e["tags"], "props": e["props"], "device": dev,
                "note": e["note"].encode()}
    dev = (1, {"model": rng.choice(["Pixel 8", "iPhone", ""]), "os": e["os"], "version": e["osver"]}) \
        if e["has_device"] else (0, None)
    score = rng.choice([(0, None), (1, 0.5), (2, "high")])
    return {"trace": bytes(rng.randrange(256) for _ in range(8)), "id": e["id"], "ts": e["ts"],
            "user_id": e["customer"], "kind": e["kind"],
            "amount": (0, None) if e["amount_null"] else (1, e["amount"]), "qty": e["qty"],
            "session": e["session"] or "",
            "debug": {f"k{i}": [rng.randrange(-10**12, 10**12) for _ in range(rng.randint(0, 5))]
                      for i in range(rng.randint(0, 3))},
            "props": e["props"], "device": dev, "note": e["note"].encode(), "score": score}


def reader_view(version, e):
    r = {"id": e["id"], "ts": e["ts"], "customer": e["customer"],
         "kind": e["kind"] if e["kind"] in ("VIEW", "CLICK", "PURCHASE", "REFUND") else "OTHER",
         "amount": f32(e["amount"]) if version == 1 else None if (version == 4 and e["amount_null"]) else e["amount"],
         "qty": 1.0 if version == 1 else float(e["qty"]),
         "session": None if version == 1 else (e["session"] or "") if version == 4 else e["session"],
         "tags": [] if version == 4 else e["tags"], "props": {} if version == 1 else e["props"],
         "device": None, "note": "" if version == 1 else e["note"].encode().hex(), "channel": "web"}
    if version >= 3 and e["has_device"]:
        r["device"] = {"os": e["os"] if e["os"] != "TV" else "UNKNOWN", "version": e["osver"], "beta": False}
    return r


def make_file(seed, version, n, codec=None):
    rng = random.Random(seed)
    codec = codec or rng.choice(["null", "deflate"])
    evs = [event(rng, version, seed * 1000 + i) for i in range(n)]
    recs = [writer_record(rng, version, e) for e in evs]
    return container(rng, WRITERS[version], recs, codec), [reader_view(version, e) for e in evs]


# a second reader schema, used only by the tests
READER2 = {"type": "record", "name": "Event", "namespace": NS, "aliases": ["com.shop.legacy.Evt"], "fields": [
    {"name": "who", "aliases": ["user", "user_id"], "type": "bytes"},
    {"name": "ts", "type": "double"},
    {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["PURCHASE", "REFUND", "MISC"],
                              "default": "MISC"}},
    {"name": "tags", "type": {"type": "array", "items": "bytes"}, "default": ["none"]},
    {"name": "props", "type": ["null", {"type": "map", "values": "bytes"}], "default": None},
    {"name": "device", "type": ["null", {"type": "record", "name": "Device", "fields": [
        {"name": "version", "type": "string"},
        {"name": "os", "type": ["null", {"type": "enum", "name": "OS", "symbols": ["IOS", "ANDROID", "OTHER"],
                                         "default": "OTHER"}], "default": None}]}], "default": None},
    {"name": "origin", "type": ["string", "null"], "default": "lake"},
    {"name": "qty", "type": ["null", "long", "double"], "default": None},
]}


def reader2_view(version, e):
    r = {"who": e["customer"].encode().hex(), "ts": float(e["ts"]),
         "kind": e["kind"] if e["kind"] in ("PURCHASE", "REFUND") else "MISC",
         "tags": ["none".encode().hex()] if version == 4 else [t.encode().hex() for t in e["tags"]],
         "props": None if version == 1 else {k: v.encode().hex() for k, v in e["props"].items()},
         "device": None, "origin": "lake", "qty": None if version == 1 else e["qty"]}
    if version >= 3 and e["has_device"]:
        r["device"] = {"version": e["osver"], "os": e["os"] if e["os"] in ("IOS", "ANDROID") else "OTHER"}
    return r


def make_file2(seed, version, n, codec=None):
    rng = random.Random(seed)
    codec = codec or rng.choice(["null", "deflate"])
    evs = [event(rng, version, seed * 1000 + i) for i in range(n)]
    recs = [writer_record(rng, version, e) for e in evs]
    return container(rng, WRITERS[version], recs, codec), [reader2_view(version, e) for e in evs]
