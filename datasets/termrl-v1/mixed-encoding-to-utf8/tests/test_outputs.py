"""/app/to-utf8 on trees generated here (random texts, encodings, names); expected values follow the
instruction's rules, computed independently here."""
import os
import random
import subprocess
import unicodedata
from pathlib import Path

import pytest

RNG = random.Random(os.urandom(8))
TOOL = "/app/to-utf8"

ASCII = ["alpha", "beta", "report", "total", "name", "line", "data", "42", "x=1", "a, b"]
LATIN = ["caf\u00e9", "na\u00efve", "\u00fcber", "Se\u00f1or", "gar\u00e7on", "\u00bd", "\u00a7 3", "\u00e5ngstr\u00f6m"]
CP1252_ONLY = ["\u20ac 5", "\u201cquoted\u201d", "it\u2019s", "\u2014", "\u2026", "\u0152uvre", "\u2122"]
WIDE = ["\u03b1\u03b2\u03b3", "\u65e5\u672c", "\u0416\u0443\u043a", "\U0001f600", "\u00e9t\u00e9"]
DECOMPOSED = ["Cafe\u0301", "n\u0303o", "A\u030angstro\u0308m"]


def text(pool, n=None):
    lines = []
    for _ in range(n or RNG.randint(2, 6)):
        lines.append(" ".join(RNG.choice(pool) for _ in range(RNG.randint(1, 6))))
    return lines


def join(lines, eol):
    return eol.join(lines) + (eol if RNG.random() < 0.7 else "")


def expect_text(s):
    return unicodedata.normalize("NFC", s.replace("\r\n", "\n").replace("\r", "\n"))


def make_file(kind):
    """Return (bytes, expected encoding name, expected text or None for binary)."""
    eol = RNG.choice(["\n", "\r\n", "\r"])
    if kind == "utf-8":
        s = join(text(ASCII + LATIN + WIDE + DECOMPOSED + CP1252_ONLY), eol)
        return s.encode(), "utf-8", expect_text(s)
    if kind == "utf-8-sig":
        s = join(text(ASCII + WIDE + DECOMPOSED), eol)
        return b"\xef\xbb\xbf" + s.encode(), kind, expect_text(s)
    if kind in ("utf-16-le", "utf-16-be"):
        s = join(text(ASCII + WIDE + LATIN), eol)
        bom = b"\xff\xfe" if kind == "utf-16-le" else b"\xfe\xff"
        return bom + s.encode(kind), kind, expect_text(s)
    if kind == "cp1252":
        s = join(text(ASCII + LATIN + CP1252_ONLY) + [RNG.choice(CP1252_ONLY)], eol)
        return s.encode("cp1252"), kind, expect_text(s)
    if kind == "latin-1":
        s = join(text(ASCII + LATIN) + [RNG.choice(LATIN) + RNG.choice("\x81\x8d\x8f\x90\x9d")], eol)
        return s.encode("latin-1"), kind, expect_text(s)
    data = b"\x89BIN" + bytes(RNG.randrange(256) for _ in range(RNG.randint(20, 200))) + b"\x00" + "caf\u00e9\r\n".encode("latin-1")
    return data, "binary", None


KINDS = ["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "cp1252", "latin-1", "binary"]
NAME_PARTS = ["notes", "r\u00e9sum\u00e9", "\u00fcbersicht", "plan", "d\u00e9j\u00e0-vu", "caf\u00e9", "\u00bdyear", "data"]


def legacy_name(base):
    """A name as bytes in some encoding, and the text it must end up as."""
    r = RNG.random()
    if r < 0.3 and base.encode("latin-1", "ignore").decode("latin-1") == base:
        return base.encode("latin-1"), base
    if r < 0.5:
        d = unicodedata.normalize("NFD", base)
        return d.encode(), unicodedata.normalize("NFC", base)
    if r < 0.6:
        b = (base + "\u2019s").encode("cp1252")
        return b, base + "\u2019s"
    return base.encode(), base


def build(root: Path, n=14):
    """A random tree; returns {expected relpath: (encoding, expected text or original bytes)}."""
    expected = {}
    rootb = os.fsencode(root)
    dirs = [(b"", "")]
    for i in range(3):
        pb, pt = RNG.choice(dirs)
        nb, nt = legacy_name(RNG.choice(NAME_PARTS) + f"-d{i}")
        full = os.path.join(rootb, pb, nb) if pb else os.path.join(rootb, nb)
        os.makedirs(full)
        dirs.append((os.path.join(pb, nb) if pb else nb, f"{pt}/{nt}" if pt else nt))
    kinds = KINDS + [RNG.choice(KINDS) for _ in range(n - len(KINDS))]
    for i, kind in enumerate(kinds):
        pb, pt = RNG.choice(dirs)
        nb, nt = legacy_name(RNG.choice(NAME_PARTS) + f"-{i}.txt")
        data, enc, want = make_file(kind)
        p = os.path.join(rootb, pb, nb) if pb else os.path.join(rootb, nb)
        with open(p, "wb") as f:
            f.write(data)
        expected[f"{pt}/{nt}" if pt else nt] = (enc, want if want is not None else data)
    return expected


def run(d):
    r = subprocess.run([TOOL, str(d)], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode(errors="replace")
    return r.stdout.decode("utf-8")


def report_of(expected):
    return "".join(f"{enc}\t{p}\n" for p, (enc, _) in sorted(expected.items()))


def test_docs_share_report_and_files():
    want = {
        "finance/budget-2019.csv": "cp1252", "finance/notes-\u00e9t\u00e9.txt": "cp1252",
        "hr/liste-employ\u00e9s.txt": "cp1252", "hr/policy.md": "utf-8-sig", "it/decomposed.txt": "utf-8",
        "it/legacy-be.txt": "utf-16-be", "it/logo.bin": "binary", "it/servers.txt": "utf-16-le",
        "misc/Z\u00fcrich.txt": "utf-8", "misc/ctrl\u0081.txt": "latin-1",
        "readme.txt": "utf-8",
    }
    got = Path("/app/docs-report.txt").read_text(encoding="utf-8")
    assert got == "".join(f"{e}\t{p}\n" for p, e in sorted(want.items()))
    d = Path("/srv/docs")
    assert (d / "finance/budget-2019.csv").read_text(encoding="utf-8") == \
        "item;cost\nCaf\u00e9 supplies;12 \u20ac\n\u201cMisc\u201d;3 \u20ac\n"
    assert (d / "hr/liste-employ\u00e9s.txt").read_text(encoding="utf-8") == "Jos\u00e9 N\u00fa\u00f1ez\nFran\u00e7ois M\u00fcller\n"
    assert (d / "it/decomposed.txt").read_text(encoding="utf-8") == "Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e\n"
    assert os.readlink(d / "misc/readme-link.txt") == "../readme.txt"
    assert (d / "finance/budget-2019.csv").stat().st_mode & 0o7777 == 0o640
    assert int((d / "hr/policy.md").stat().st_mtime) == 1546300800


@pytest.mark.parametrize("round_", range(2))
def test_hidden_tree_report(tmp_path, round_):
    root = tmp_path / "share"
    root.mkdir()
    expected = build(root)
    assert run(root) == report_of(expected)


def test_hidden_tree_contents(tmp_path):
    root = tmp_path / "share"
    root.mkdir()
    expected = build(root, n=20)
    run(root)
    for rel, (enc, want) in expected.items():
        p = root / rel
        assert p.is_file(), f"missing {rel}"
        data = p.read_bytes()
        if enc == "binary":
            assert data == want, rel
        else:
            assert data == want.encode("utf-8"), (rel, enc)


def test_line_endings_and_nfc(tmp_path):
    root = tmp_path / "t"
    root.mkdir()
    a = "one\rtwo\r\nthree\n\rfour\r\r" + "Cafe\u0301 \u212b"
    (root / "mac.txt").write_bytes(a.encode())
    b = "x\u00e9\ry\u201c\r\n"
    (root / "win.txt").write_bytes(b.encode("cp1252"))
    out = run(root)
    assert out == "utf-8\tmac.txt\ncp1252\twin.txt\n"
    assert (root / "mac.txt").read_text(encoding="utf-8") == "one\ntwo\nthree\n\nfour\n\nCaf\u00e9 \u00c5"
    assert (root / "win.txt").read_text(encoding="utf-8") == "x\u00e9\ny\u201c\n"


def test_legacy_names(tmp_path):
    root = os.fsencode(tmp_path / "n")
    os.makedirs(os.path.join(root, b"\xc9t\xe9 2019", b"sub\x93x\x94"))
    with open(os.path.join(root, b"\xc9t\xe9 2019", b"sub\x93x\x94", b"f\x81.txt"), "wb") as f:
        f.write(b"hi\n")
    with open(os.path.join(root, "Mu\u0308ller.txt".encode()), "wb") as f:
        f.write(b"ok\n")
    out = run(tmp_path / "n")
    assert out == "utf-8\tM\u00fcller.txt\nutf-8\t\u00c9t\u00e9 2019/sub\u201cx\u201d/f\u0081.txt\n"
    assert sorted(os.listdir(tmp_path / "n")) == sorted(["M\u00fcller.txt", "\u00c9t\u00e9 2019"])
    assert (tmp_path / "n" / "\u00c9t\u00e9 2019" / "sub\u201cx\u201d" / "f\u0081.txt").read_bytes() == b"hi\n"


def test_symlinks_not_followed_and_metadata_kept(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_bytes("caf\u00e9\r\n".encode("latin-1"))
    root = tmp_path / "s"
    (root / "d").mkdir(parents=True)
    os.symlink(outside, os.fsencode(root / "d") + b"/l\xe9nk")
    os.symlink(tmp_path, root / "loop")
    f = root / "d" / "keep.txt"
    f.write_bytes("\u00e9\r\n".encode("latin-1"))
    os.chmod(f, 0o751)
    mt = 1262304000 + RNG.randrange(10 ** 8)
    os.utime(f, (mt, mt))
    out = run(root)
    assert out == "cp1252\td/keep.txt\n"
    assert outside.read_bytes() == "caf\u00e9\r\n".encode("latin-1")
    assert os.readlink(root / "d" / "l\u00e9nk") == str(outside)
    assert os.readlink(root / "loop") == str(tmp_path)
    st = f.stat()
    assert st.st_mode & 0o7777 == 0o751 and int(st.st_mtime) == mt
    assert f.read_text(encoding="utf-8") == "\u00e9\n"
