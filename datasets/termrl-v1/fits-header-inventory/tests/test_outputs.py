import json
import os
import random
import subprocess
import tempfile

PROG = "/app/fitsinfo.py"
WORDS = ["alpha", "beta", "M31 core", "ngc/1300", "it's", "O''Neil", "a/b/c", "x=y", "tel & dome", "flat"]


# ---------- writer: the generated values are the ground truth ----------
def quote(s):
    return "'" + s.replace("'", "''") + "'"


def fmt_value(rng, v):
    """Return (text, fixed) for a value; fixed texts are right-justified to column 30."""
    if v is None:
        return "", False
    if isinstance(v, bool):
        return ("T" if v else "F"), True
    if isinstance(v, int):
        return str(v), True
    if isinstance(v, float):
        style = rng.randrange(4)
        if style == 0:
            return repr(v), True
        if style == 1:
            return f"{v:.10E}", True
        if style == 2:
            return f"{v:.12E}".replace("E", "D"), True
        return (f"{v:.6f}" if abs(v) < 1e6 else repr(v)), True
    s = quote(v)
    if len(v) < 8 and rng.random() < 0.5:
        s = quote(v + " " * (8 - len(v)))      # padded: trailing spaces do not count
    return s, False


def value_card(rng, key, v, comment=None):
    text, fixed = fmt_value(rng, v)
    body = text.rjust(20) if fixed else text
    if v is None and rng.random() < 0.5:
        body = " " * 20
    card = f"{key:<8}= {body}"
    if comment:
        card += f" / {comment}"
    assert len(card) <= 80, card
    return [card.ljust(80)]


def long_string_cards(key, s):
    chunks = [s[i:i + 40] for i in range(0, len(s), 40)]
    cards = []
    for i, ch in enumerate(chunks):
        part = quote(ch + ("&" if i < len(chunks) - 1 else ""))
        cards.append((f"{key:<8}= " if i == 0 else "CONTINUE  ") + part)
    assert all(len(c) <= 80 for c in cards), cards
    return [c.ljust(80) for c in cards]


def rand_value(rng):
    k = rng.randrange(6)
    if k == 0:
        return rng.choice([True, False])
    if k == 1:
        return rng.randint(-10 ** 9, 10 ** 9)
    if k == 2:
        return rng.choice([rng.uniform(-1e3, 1e3), rng.uniform(-1, 1) * 10 ** rng.randint(-20, 20), 2.0])
    if k == 3:
        return None
    return rng.choice(["", "  lead"]) + " ".join(rng.sample(WORDS, rng.randint(1, 3)))


def make_hdu(rng, kind, idx):
    cards, truth, comments, history = [], {}, [], []

    def add(key, v, comment=None):
        cards.extend(value_card(rng, key, v, comment))
        truth[key] = v

    if kind == "PRIMARY":
        add("SIMPLE", True, "conforms to FITS")
        bitpix, naxes = rng.choice([(8, []), (16, [rng.randint(3, 40), rng.randint(3, 40)]), (-32, [rng.randint(5, 300)])])
        pcount = gcount = None
    else:
        add("XTENSION", kind, "extension type")
        if kind == "IMAGE":
            bitpix, naxes = rng.choice([-64, 32, 16]), [rng.randint(2, 20) for _ in range(rng.randint(1, 3))]
            pcount, gcount = 0, 1
        elif kind == "BINTABLE":
            bitpix, naxes = 8, [rng.randint(8, 64), rng.randint(1, 90)]
            pcount, gcount = rng.choice([0, rng.randint(1, 5000)]), 1
        else:
            bitpix, naxes = 8, [rng.randint(20, 80), rng.randint(1, 50)]
            pcount, gcount = 0, 1
    add("BITPIX", bitpix)
    add("NAXIS", len(naxes))
    for i, n in enumerate(naxes):
        add(f"NAXIS{i + 1}", n)
    if pcount is not None:
        add("PCOUNT", pcount)
        add("GCOUNT", gcount)
    for j in range(rng.randint(4, 14)):
        r = rng.random()
        if r < 0.12:
            text = "  " + " ".join(rng.sample(WORDS, 2)) if rng.random() < 0.3 else " ".join(rng.sample(WORDS, 2))
            cards.append(f"COMMENT {text}".ljust(80))
            comments.append(text.rstrip())
        elif r < 0.2:
            text = f"step {j}: " + rng.choice(WORDS)
            cards.append(f"HISTORY {text}".ljust(80))
            history.append(text)
        elif r < 0.27:
            cards.append(" " * 80)
        elif r < 0.37:
            key = " ".join(rng.sample(["ESO", "DET", "CHIP", "TEL", "AIRM", "START", "INS", "TEMP"], rng.randint(3, 4)))
            if key in truth:
                continue
            v = rng.choice([rng.randint(-999, 999), round(rng.uniform(-50, 50), 4), "CCD/" + rng.choice(WORDS)])
            text, _ = fmt_value(rng, v)
            card = f"HIERARCH {key} = {text} / hierarchical"
            assert len(card) <= 80, card
            cards.append(card.ljust(80))
            truth[key] = v
        elif r < 0.47:
            key = f"LONG{j}"
            s = " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 25)))
            cards.extend(long_string_cards(key, s))
            truth[key] = s
        else:
            key = f"K{idx}X{j}"
            add(key, rand_value(rng), rng.choice([None, "a comment", "units: m/s"]))
    cards.append("END".ljust(80))
    header = "".join(cards).encode("ascii")
    header += b" " * (-len(header) % 2880)
    size = 0
    if naxes:
        prod = 1
        for n in naxes:
            prod *= n
        size = abs(bitpix) // 8 * (gcount or 1) * ((pcount or 0) + prod)
    data = bytes(rng.randrange(256) for _ in range(size))
    data += b"\0" * (-len(data) % 2880)
    want = {"type": kind, "cards": truth, "comment": comments, "history": history, "data_bytes": size,
            "header_len": len(header)}
    return header + data, want


def make_file(seed, kinds):
    rng = random.Random(seed)
    blob, wants = b"", []
    for i, kind in enumerate(kinds):
        part, want = make_hdu(rng, kind, i)
        want["header_offset"] = len(blob)
        want["data_offset"] = len(blob) + want.pop("header_len")
        blob += part
        wants.append(want)
    return blob, wants


def run(blob):
    d = tempfile.mkdtemp()
    p = os.path.join(d, "f.fits")
    with open(p, "wb") as fh:
        fh.write(blob)
    proc = subprocess.run(["python3", PROG, p], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def same(g, w):
    if w is None or isinstance(w, (bool, str)):
        return g == w and type(g) is type(w)
    if isinstance(w, int):
        return type(g) is int and g == w
    return type(g) is float and abs(g - w) <= 1e-9 * max(1.0, abs(w))


def check(blob, wants):
    got = run(blob)
    assert isinstance(got, list) and len(got) == len(wants), f"{len(got)} HDUs, expected {len(wants)}"
    for i, (g, w) in enumerate(zip(got, wants)):
        for k in ("type", "header_offset", "data_offset", "data_bytes", "comment", "history"):
            assert g.get(k) == w[k], f"HDU {i}: {k} = {g.get(k)!r}, expected {w[k]!r}"
        assert set(g["cards"]) == set(w["cards"]), \
            f"HDU {i}: keywords differ: extra {set(g['cards']) - set(w['cards'])}, missing {set(w['cards']) - set(g['cards'])}"
        for k, v in w["cards"].items():
            assert same(g["cards"][k], v), f"HDU {i}: {k} = {g['cards'][k]!r}, expected {v!r}"


def test_primary_only():
    for seed in (1, 2, 3):
        check(*make_file(seed, ["PRIMARY"]))


def test_image_extensions_offsets():
    check(*make_file(11, ["PRIMARY", "IMAGE", "IMAGE", "IMAGE"]))


def test_bintable_heap_pcount():
    for seed in range(21, 25):
        check(*make_file(seed, ["PRIMARY", "BINTABLE", "IMAGE", "BINTABLE", "TABLE"]))


def test_value_types_and_strings():
    for seed in range(31, 36):
        blob, wants = make_file(seed, ["PRIMARY", "IMAGE"])
        check(blob, wants)


def test_continue_and_hierarch_present_and_parsed():
    blob, wants = make_file(41, ["PRIMARY", "BINTABLE", "IMAGE", "TABLE", "IMAGE", "BINTABLE"])
    keys = [k for w in wants for k in w["cards"]]
    assert any(k.startswith("LONG") for k in keys) and any(" " in k for k in keys)
    check(blob, wants)


def test_handwritten_cards():
    cards = [
        "SIMPLE  =                    T / standard",
        "BITPIX  =                   16",
        "NAXIS   =                    2",
        "NAXIS1  =                    3",
        "NAXIS2  =                    5",
        "OBJECT  = 'M31 / core'         / slash inside the string",
        "OBSERVER= 'O''Brien '          / doubled quote, trailing space",
        "PADDED  = '  left'",
        "EMPTY   = ''",
        "UNDEF   =                      / no value",
        "EXPTIME =             1.5D+02",
        "GAIN    =                  -2. / unusual real",
        "ZERO    =                  0.0",
        "BIG     =         123456789012",
        "COMMENT   indented comment / with slash   ",
        "HIERARCH ESO  INS  FILT1 NAME = 'R_SPECIAL' / spaced",
        "NOTE    = 'first part / &'",
        "CONTINUE  'second ''part''&'",
        "CONTINUE  ' end'",
        "HISTORY made by hand",
        "END",
    ]
    header = "".join(c.ljust(80) for c in cards).encode()
    header += b" " * (-len(header) % 2880)
    blob = header + b"\x01" * 30 + b"\0" * 2850
    ext, w2 = make_file(51, ["PRIMARY", "IMAGE"])
    img = w2[1]
    rel = img["data_offset"] - img["header_offset"]
    blob += ext[img["header_offset"]:]
    img["header_offset"] = 2880 * 2
    img["data_offset"] = 2880 * 2 + rel
    want0 = {"type": "PRIMARY", "header_offset": 0, "data_offset": 2880, "data_bytes": 30,
             "comment": ["  indented comment / with slash"], "history": ["made by hand"],
             "cards": {"SIMPLE": True, "BITPIX": 16, "NAXIS": 2, "NAXIS1": 3, "NAXIS2": 5, "OBJECT": "M31 / core",
                       "OBSERVER": "O'Brien", "PADDED": "  left", "EMPTY": "", "UNDEF": None, "EXPTIME": 150.0,
                       "GAIN": -2.0, "ZERO": 0.0, "BIG": 123456789012, "ESO INS FILT1 NAME": "R_SPECIAL",
                       "NOTE": "first part / second 'part' end"}}
    check(blob, [want0, img])
