import json
import math
import os
import random
import struct
import subprocess
import tempfile

PROG = "/app/ncstats.py"

# ---------- an independent netCDF classic writer ----------
TYPES = {"byte": (1, "b", 1), "char": (2, "c", 1), "short": (3, "h", 2), "int": (4, "i", 4),
         "float": (5, "f", 4), "double": (6, "d", 8)}
F32_DEFAULT_FILL = struct.unpack(">f", struct.pack(">f", 9.9692099683868690e+36))[0]
DEFAULT_FILL = {"byte": -127, "short": -32767, "int": -2147483647, "float": F32_DEFAULT_FILL,
                "double": 9.9692099683868690e+36}


def f32(x):
    return struct.unpack(">f", struct.pack(">f", x))[0]


def pad4(b):
    return b + b"\0" * ((-len(b)) % 4)


def enc_name(s):
    b = s.encode()
    return struct.pack(">i", len(b)) + pad4(b)


def enc_att(name, t, vals):
    code, c, size = TYPES[t]
    if t == "char":
        raw, n = vals.encode("latin-1"), len(vals.encode("latin-1"))
    else:
        raw, n = struct.pack(f">{len(vals)}{c}", *vals), len(vals)
    return enc_name(name) + struct.pack(">ii", code, n) + pad4(raw)


def enc_atts(atts):
    if not atts:
        return b"\0" * 8
    return struct.pack(">Ii", 0x0C, len(atts)) + b"".join(enc_att(*a) for a in atts)


def build(fmt, dims, gatts, variables, numrecs, streaming=False, gap=0, tail=b""):
    """dims: [(name, length or None)]; variables: dicts name/type/dims/atts/data (flat list, or str for char)."""
    dnames = [d[0] for d in dims]
    unlim = next((d[0] for d in dims if d[1] is None), None)
    dlen = {n: (numrecs if ln is None else ln) for n, ln in dims}
    for v in variables:
        v["rec"] = bool(v["dims"]) and v["dims"][0] == unlim
        inner = 1
        for d in v["dims"][1 if v["rec"] else 0:]:
            inner *= dlen[d]
        v["slab"] = inner * TYPES[v["type"]][2]
        v["vsize"] = v["slab"] + (-v["slab"]) % 4

    def header(begins):
        h = b"CDF" + bytes([fmt]) + struct.pack(">I", 0xFFFFFFFF if streaming else numrecs)
        if dims:
            h += struct.pack(">Ii", 0x0A, len(dims)) + b"".join(
                enc_name(n) + struct.pack(">i", 0 if ln is None else ln) for n, ln in dims)
        else:
            h += b"\0" * 8
        h += enc_atts(gatts)
        if variables:
            h += struct.pack(">Ii", 0x0B, len(variables))
            for v, beg in zip(variables, begins):
                h += enc_name(v["name"]) + struct.pack(">i", len(v["dims"]))
                h += b"".join(struct.pack(">i", dnames.index(d)) for d in v["dims"])
                h += enc_atts(v["atts"]) + struct.pack(">ii", TYPES[v["type"]][0], v["vsize"])
                h += struct.pack(">i" if fmt == 1 else ">q", beg)
        else:
            h += b"\0" * 8
        return h

    hlen = len(header([0] * len(variables))) + gap
    begins, pos = [], hlen
    for v in variables:
        if not v["rec"]:
            begins.append(pos)
            pos += v["vsize"]
        else:
            begins.append(None)
    recvars = [v for v in variables if v["rec"]]
    single = len(recvars) == 1
    for i, v in enumerate(variables):
        if v["rec"]:
            begins[i] = pos
            pos += v["slab"] if single else v["vsize"]

    def raw(v, vals):
        if v["type"] == "char":
            return vals.encode("latin-1")
        return struct.pack(f">{len(vals)}{TYPES[v['type']][1]}", *vals)

    body = b"\0" * gap
    for v in variables:
        if not v["rec"]:
            body += pad4(raw(v, v["data"]))
    n_in = {id(v): v["slab"] // TYPES[v["type"]][2] for v in recvars}
    for r in range(numrecs):
        for v in recvars:
            k = n_in[id(v)]
            chunk = raw(v, v["data"][r * k:(r + 1) * k])
            body += chunk if single else pad4(chunk)
    return header(begins) + body + tail


# ---------- expected results (the instruction's rules) ----------
def first(atts, name):
    """An attribute's values as stored (float attributes at single precision)."""
    for n, t, v in atts:
        if n == name:
            return [f32(x) for x in v] if t == "float" else v
    return None


def classify(v):
    atts, t = v["atts"], v["type"]
    fill = first(atts, "_FillValue")
    fill = fill[0] if fill is not None else DEFAULT_FILL[t]
    if t == "float":
        fill = f32(fill)
    miss = first(atts, "missing_value") or []
    vr = first(atts, "valid_range")
    lo = hi = None
    if vr is not None:
        lo, hi = vr[0], vr[1]
    else:
        lo = (first(atts, "valid_min") or [None])[0]
        hi = (first(atts, "valid_max") or [None])[0]
    sf = (first(atts, "scale_factor") or [1.0])[0]
    ao = (first(atts, "add_offset") or [0.0])[0]
    out = []
    for x in v["data"]:
        if t == "float":
            x = f32(x)
        bad = (isinstance(x, float) and math.isnan(x)) or x == fill or x in miss or \
            (lo is not None and x < lo) or (hi is not None and x > hi)
        out.append(None if bad else float(x) * sf + ao)
    return out


def att_json(atts):
    return {n: (v.encode("latin-1").rstrip(b"\0").decode("latin-1") if t == "char"
                else [f32(x) if t == "float" else x for x in v]) for n, t, v in atts}


def close(g, w):
    if w is None or g is None:
        return g is None and w is None
    if isinstance(w, float) and math.isnan(w):
        return isinstance(g, float) and math.isnan(g)
    return abs(g - w) <= 1e-9 * (1 + abs(w))


def same_atts(got, want, where):
    assert set(got) == set(want), f"{where}: attribute names {sorted(got)}, expected {sorted(want)}"
    for k, w in want.items():
        g = got[k]
        if isinstance(w, str):
            assert g == w, f"{where}: attribute {k} = {g!r}, expected {w!r}"
        else:
            assert isinstance(g, list) and len(g) == len(w) and all(close(a, b) for a, b in zip(g, w)), \
                f"{where}: attribute {k} = {g!r}, expected {w!r}"


# ---------- running ----------
def write(blob):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "f.nc")
    with open(p, "wb") as fh:
        fh.write(blob)
    return p


def run(path, *opts):
    return subprocess.run(["python3", PROG, path, *opts], capture_output=True, text=True, timeout=300)


def check_file(fmt, dims, gatts, variables, numrecs, dump=True, **kw):
    path = write(build(fmt, dims, gatts, variables, numrecs, **kw))
    p = run(path)
    assert p.returncode == 0, p.stderr[-1500:]
    got = json.loads(p.stdout)
    assert got["format"] == fmt, f"format {got['format']}, expected {fmt}"
    assert got["numrecs"] == numrecs, f"numrecs {got['numrecs']}, expected {numrecs}"
    unlim = next((d[0] for d in dims if d[1] is None), None)
    assert got["unlimited"] == unlim
    assert got["dimensions"] == {n: (numrecs if ln is None else ln) for n, ln in dims}
    same_atts(got["attributes"], att_json(gatts), "global")
    assert set(got["variables"]) == {v["name"] for v in variables}
    dlen = {n: (numrecs if ln is None else ln) for n, ln in dims}
    for v in variables:
        g, nm = got["variables"][v["name"]], v["name"]
        assert g["type"] == v["type"] and g["dims"] == v["dims"], f"{nm}: {g['type']} {g['dims']}"
        assert g["shape"] == [dlen[d] for d in v["dims"]], f"{nm}: shape {g['shape']}"
        same_atts(g["attributes"], att_json(v["atts"]), nm)
        if v["type"] == "char":
            w = dlen[v["dims"][-1]] if v["dims"] else 1
            s = v["data"]
            rows = [s[i:i + w] for i in range(0, len(s), w)] if len(v["dims"]) > 1 else [s]
            assert g["text"] == [r.rstrip("\0") for r in rows], f"{nm}: text {g['text']!r}"
            continue
        vals = classify(v)
        ok = [x for x in vals if x is not None]
        assert (g["valid"], g["missing"]) == (len(ok), len(vals) - len(ok)), \
            f"{nm}: valid/missing {g['valid']}/{g['missing']}, expected {len(ok)}/{len(vals) - len(ok)}"
        want = (min(ok), max(ok), math.fsum(ok) / len(ok)) if ok else (None, None, None)
        for key, w in zip(("min", "max", "mean"), want):
            assert close(g[key], w), f"{nm}: {key} = {g[key]}, expected {w}"
        if dump:
            p = run(path, "--dump", nm)
            assert p.returncode == 0, f"--dump {nm}: {p.stderr[-800:]}"
            lines = p.stdout.split()
            assert len(lines) == len(vals), f"--dump {nm}: {len(lines)} lines for {len(vals)} elements"
            for i, (line, w) in enumerate(zip(lines, vals)):
                if w is None:
                    assert line.lower() == "nan", f"--dump {nm}[{i}]: {line}, expected nan (missing)"
                else:
                    assert close(float(line), w), f"--dump {nm}[{i}]: {line}, expected {w!r}"
    return got


# ---------- random content ----------
RANGES = {"byte": (-128, 127), "short": (-32768, 32767), "int": (-2 ** 31, 2 ** 31 - 1)}


def rand_vals(rng, t, n):
    if t in RANGES:
        lo, hi = RANGES[t]
        span = min(hi, 30000)
        return [rng.randint(max(lo, -span), span) for _ in range(n)]
    if t == "float":
        return [f32(rng.uniform(-500, 500)) for _ in range(n)]
    return [rng.uniform(-1e4, 1e4) for _ in range(n)]


def sprinkle(rng, data, value, frac=0.15):
    for i in range(len(data)):
        if rng.random() < frac:
            data[i] = value


def numeric_var(rng, name, t, dims, n, style):
    data = rand_vals(rng, t, n)
    atts = [("long_name", "char", f"{name} ({style})")]
    if style == "fill":
        fv = {"byte": -100, "short": -999, "int": -99999, "float": -999.0, "double": -1e30}[t]
        atts.append(("_FillValue", t, [fv]))
        sprinkle(rng, data, fv)
        sprinkle(rng, data, DEFAULT_FILL[t], 0.05)   # not missing here: an explicit _FillValue replaces it
    elif style == "default":
        sprinkle(rng, data, DEFAULT_FILL[t])
    elif style == "missing":
        mv = [{"byte": 99, "short": 9999, "int": 123456, "float": 1e20, "double": -9999.5}[t]]
        if rng.random() < 0.5:
            mv.append({"byte": -99, "short": -9999, "int": -7, "float": -1e20, "double": 8888.25}[t])
        atts.append(("missing_value", t, mv))
        for m in mv:
            sprinkle(rng, data, m, 0.1)
    elif style == "range":
        atts.append(("valid_range", t, [-200, 200] if t in ("short", "int") else [-100, 100] if t == "byte" else [-250.0, 250.0]))
        if rng.random() < 0.5:
            atts.append(("valid_min", t, [0] if t != "float" and t != "double" else [0.0]))  # ignored: valid_range wins
    elif style == "minmax":
        lim = 100 if t == "byte" else 150
        which = rng.choice(["min", "max", "both"])
        if which in ("min", "both"):
            atts.append(("valid_min", t, [-lim] if t in RANGES else [-float(lim)]))
        if which in ("max", "both"):
            atts.append(("valid_max", t, [lim] if t in RANGES else [float(lim)]))
    elif style == "nan" and t in ("float", "double"):
        sprinkle(rng, data, float("nan"))
    elif style == "packed":
        sft = rng.choice(["float", "double"])
        sf, ao = rng.choice([0.01, 0.5, 2.5e-3, 0.1]), rng.uniform(-50, 300)
        if sft == "float":
            sf, ao = f32(sf), f32(ao)
        atts += [("scale_factor", sft, [sf]), ("add_offset", sft, [ao])]
        fv = {"byte": -128, "short": -32768, "int": -2 ** 31, "float": -1.0, "double": -1.0}[t]
        atts.append(("_FillValue", t, [fv]))
        sprinkle(rng, data, fv)
        if rng.random() < 0.5:
            atts.append(("valid_min", t, [-20000] if t in ("short", "int") else [-120] if t == "byte" else [-400.0]))
    return {"name": name, "type": t, "dims": dims, "atts": atts, "data": data}


def random_file(rng, nrec_vars, nfix_vars, numrecs, with_char=True):
    dims = [("time", None), ("lat", rng.randint(1, 4)), ("lon", rng.randint(1, 5)),
            ("nchar", rng.randint(3, 9)), ("odd", rng.choice([1, 3, 5]))]
    dlen = {n: (numrecs if ln is None else ln) for n, ln in dims}
    rng.shuffle(dims)
    styles = ["plain", "fill", "default", "missing", "range", "minmax", "nan", "packed"]
    variables = []
    for i in range(nfix_vars):
        t = rng.choice(["byte", "short", "int", "float", "double"])
        vd = rng.choice([[], ["lat"], ["odd"], ["lat", "lon"], ["odd", "lat"]])
        n = 1
        for d in vd:
            n *= dlen[d]
        variables.append(numeric_var(rng, f"fix{i}", t, vd, n, rng.choice(styles)))
    for i in range(nrec_vars):
        t = rng.choice(["byte", "short", "int", "float", "double"])
        vd = ["time"] + rng.choice([[], ["odd"], ["lat"], ["lat", "lon"], ["odd", "lon"]])
        n = 1
        for d in vd:
            n *= dlen[d]
        variables.append(numeric_var(rng, f"rec{i}", t, vd, n, rng.choice(styles)))
    if with_char:
        w = dlen["nchar"]
        names = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(1, w))) for _ in range(dlen["lat"])]
        variables.append({"name": "station", "type": "char", "dims": ["lat", "nchar"],
                          "atts": [("cf_role", "char", "timeseries_id")],
                          "data": "".join(s.ljust(w, "\0") for s in names)})
        if numrecs:
            tags = ["".join(rng.choice("XYZ") for _ in range(rng.randint(0, w))) for _ in range(numrecs)]
            variables.append({"name": "flag", "type": "char", "dims": ["time", "nchar"], "atts": [],
                              "data": "".join(s.ljust(w, "\0") for s in tags)})
    rng.shuffle(variables)
    gatts = [("title", "char", "test file " + "x" * rng.randint(0, 5)), ("Conventions", "char", "CF-1.8"),
             ("version", "short", [rng.randint(1, 9)]), ("codes", "byte", [1, -2, 3]),
             ("bounds", "double", [rng.uniform(-1, 1), rng.uniform(1, 2)]), ("scale", "float", [f32(0.1)]),
             ("count", "int", [rng.randint(0, 10 ** 6)])]
    rng.shuffle(gatts)
    return dims, gatts, variables


# ---------- tests ----------
def test_fixed_variables_classic():
    rng = random.Random(1)
    for k in range(3):
        dims, gatts, variables = random_file(rng, 0, 6, 0)
        dims = [d for d in dims if d[1] is not None]
        variables = [v for v in variables if "time" not in v["dims"]]
        check_file(1, dims, gatts, variables, 0, dump=(k == 0), gap=4 * rng.randint(0, 16))


def test_record_variables_interleaved():
    rng = random.Random(2)
    for k in range(3):
        numrecs = rng.randint(2, 7)
        dims, gatts, variables = random_file(rng, 3 + k, 3, numrecs)
        check_file(1, dims, gatts, variables, numrecs, gap=4 * k)


def test_single_record_variable_is_unpadded():
    rng = random.Random(3)
    for t, extra in (("short", ["odd"]), ("byte", ["lon"]), ("short", [])):
        dims = [("time", None), ("odd", 3), ("lon", 5), ("lat", 2)]
        numrecs = rng.randint(4, 9)
        n = numrecs * {"odd": 3, "lon": 5}.get(extra[0], 1) if extra else numrecs
        v = numeric_var(rng, "only_rec", t, ["time"] + extra, n, rng.choice(["plain", "fill", "packed"]))
        fixed = numeric_var(rng, "grid", "double", ["lat"], 2, "plain")
        check_file(1, dims, [("title", "char", "one record variable")], [fixed, v], numrecs)


def test_64bit_offset_format():
    rng = random.Random(4)
    for k in range(2):
        numrecs = rng.randint(1, 6)
        dims, gatts, variables = random_file(rng, 2 + k, 4, numrecs)
        check_file(2, dims, gatts, variables, numrecs, gap=8 * k)
    dims = [("time", None), ("odd", 5)]
    v = numeric_var(rng, "solo", "byte", ["time", "odd"], 5 * 6, "fill")
    check_file(2, dims, [], [v], 6)


def test_missing_value_rules():
    rng = random.Random(5)
    variables = []
    for t in ("byte", "short", "int", "float", "double"):
        for style in ("fill", "default", "missing", "range", "minmax", "nan", "packed"):
            n = rng.randint(20, 60)
            variables.append(numeric_var(rng, f"{t}_{style}", t, ["n"], n, style))
            variables[-1]["dims"] = [f"n{len(variables)}"]
    dims = [(v["dims"][0], len(v["data"])) for v in variables]
    # an all-missing variable reports nulls
    dead = {"name": "dead", "type": "int", "dims": ["n1"], "atts": [("_FillValue", "int", [7])],
            "data": [7] * dims[0][1]}
    check_file(1, dims, [("history", "char", "rules")], variables + [dead], 0)


def test_streaming_numrecs_and_absent_lists():
    rng = random.Random(6)
    dims, gatts, variables = random_file(rng, 3, 2, 5)
    blob = build(1, dims, gatts, variables, 5, streaming=True, tail=b"\x7f" * 3)
    path = write(blob)
    p = run(path)
    assert p.returncode == 0, p.stderr[-1000:]
    got = json.loads(p.stdout)
    assert got["numrecs"] == 5 and got["dimensions"]["time"] == 5, "streaming: 5 complete records (3 stray bytes)"
    check_file(1, dims, gatts, variables, 5, streaming=True)
    # no dimensions and no attributes at all: ABSENT lists, scalar variables only
    scal = [{"name": "pi", "type": "double", "dims": [], "atts": [], "data": [math.pi]},
            {"name": "n", "type": "short", "dims": [], "atts": [], "data": [-32767]},
            {"name": "c", "type": "char", "dims": [], "atts": [], "data": "Q"}]
    got = check_file(1, [], [], scal, 0)
    assert got["unlimited"] is None and got["dimensions"] == {} and got["attributes"] == {}
    # a record dimension with no records yet
    dims = [("t", None), ("x", 3)]
    v = numeric_var(rng, "later", "float", ["t", "x"], 0, "plain")
    got = check_file(2, dims, [], [v, numeric_var(rng, "x", "int", ["x"], 3, "plain")], 0)
    assert got["variables"]["later"]["valid"] == 0 and got["variables"]["later"]["mean"] is None


def test_errors():
    rng = random.Random(7)
    dims, gatts, variables = random_file(rng, 1, 1, 2)
    good = build(1, dims, gatts, variables, 2)
    p = run(write(good))
    assert p.returncode == 0, "a valid file must work before the error cases count"
    for blob, what in ((b"\x89HDF\r\n\x1a\n" + good[8:], "an HDF5 signature"), (b"CDF\x05" + good[4:], "CDF-5"),
                       (b"NCF\x01" + good[4:], "wrong magic")):
        p = run(write(blob))
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"{what}: exit {p.returncode}"
    for name in ("no_such_var", "station"):
        p = run(write(good), "--dump", name)
        assert p.returncode == 2 and p.stdout.strip() == "" and p.stderr.strip(), f"--dump {name}: exit {p.returncode}"
