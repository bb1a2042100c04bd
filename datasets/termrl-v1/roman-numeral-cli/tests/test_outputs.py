import random
import subprocess

SCRIPT = "/app/roman.py"


def run(*args):
    return subprocess.run(["python3", SCRIPT, *args], capture_output=True, text=True, timeout=20)


def ref_to(n):
    pairs = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v, s in pairs:
        while n >= v:
            out += s
            n -= v
    return out


def test_to_known_values():
    for n, s in [(1, "I"), (4, "IV"), (9, "IX"), (14, "XIV"), (40, "XL"), (1994, "MCMXCIV"),
                 (3999, "MMMCMXCIX"), (2024, "MMXXIV"), (444, "CDXLIV")]:
        r = run("to", str(n))
        assert r.returncode == 0, r.stderr
        assert r.stdout == s + "\n"


def test_from_known_values():
    for n, s in [(1, "I"), (3888, "MMMDCCCLXXXVIII"), (1994, "MCMXCIV"), (90, "XC"), (400, "CD")]:
        r = run("from", s)
        assert r.returncode == 0, r.stderr
        assert r.stdout == f"{n}\n"


def test_roundtrip_random():
    rng = random.Random(77)
    for n in rng.sample(range(1, 4000), 60):
        s = run("to", str(n)).stdout.strip()
        assert s == ref_to(n)
        assert run("from", s).stdout.strip() == str(n)


def test_non_canonical_rejected():
    assert run("from", "XIV").stdout == "14\n"
    for s in ["IIII", "VV", "IC", "XM", "IIV", "iv", "", "MMMM", "VX", "LL", "IL", "XXXX", "CCCC", "DM", "ABC", "IXI"]:
        r = run("from", s)
        assert r.returncode == 2, s
        assert r.stdout == "", s
        assert r.stderr.strip() != "", s


def test_to_out_of_range_and_garbage():
    assert run("to", "3999").stdout == "MMMCMXCIX\n"
    for a in ["0", "4000", "-5", "12a", "", "3.5", " 7"]:
        r = run("to", a)
        assert r.returncode == 2, a
        assert r.stdout == "", a


def test_bad_usage():
    assert run("to", "8").stdout == "VIII\n"
    for args in [(), ("to",), ("from", "I", "V"), ("convert", "5")]:
        r = run(*args)
        assert r.returncode == 2, args
        assert r.stdout == ""
