import random
import subprocess
import sys

sys.path.insert(0, "/tests")
from semref import RangeError, filter_versions  # noqa: E402

TOOL = "/app/semfilter.py"


def run(rng, lines):
    return subprocess.run([sys.executable, TOOL, rng], input="".join(l + "\n" for l in lines),
                          capture_output=True, text=True, timeout=60)


def check(rng, lines):
    try:
        want = filter_versions(rng, lines)
        code = 0 if want else 1
    except RangeError:
        want, code = [], 2
    r = run(rng, lines)
    got = r.stdout.splitlines()
    assert r.returncode == code, f"range {rng!r}: exit {r.returncode}, expected {code}; stderr={r.stderr[-500:]}"
    assert got == want, f"range {rng!r}:\n got      {got}\n expected {want}\n input {lines}"


BASE = ["0.0.1", "0.0.3", "0.0.4", "0.1.0", "0.1.7", "0.2.0", "0.2.3", "0.2.9", "0.3.0", "1.0.0", "1.2.0",
        "1.2.2", "1.2.3", "1.2.4", "1.3.0", "1.10.0", "2.0.0", "2.3.9", "2.4.0", "3.0.0", "10.0.0"]
PRES = ["alpha", "alpha.1", "alpha.beta", "beta", "beta.2", "beta.11", "rc.1", "rc.2", "rc.10", "1", "2", "10",
        "RC", "a-b", "0.3.7", "x.7.z.92"]


def version_pool(rng, n=45):
    out = []
    for _ in range(n):
        v = rng.choice(BASE)
        r = rng.random()
        if r < 0.45:
            v += "-" + rng.choice(PRES)
        if rng.random() < 0.15:
            v += "+" + rng.choice(["build.1", "exp.sha.5114f85", "001", "b"])
        out.append(v)
    out += [rng.choice(["1.2", "01.2.3", "1.2.3-", "1.2.3-01", "v1.2.3", "1.2.3+", "", "junk", "1.2.3-a..b"])
            for _ in range(4)]
    out += ["  " + rng.choice(BASE) + "\t"]
    out += [out[0]]
    rng.shuffle(out)
    return out


def partial(rng):
    r = rng.random()
    if r < 0.1:
        return rng.choice(["*", "x", "X"])
    parts = [str(rng.choice([0, 0, 1, 1, 2, 3])) for _ in range(3)]
    if r < 0.25:
        return parts[0]
    if r < 0.4:
        return parts[0] + "." + parts[1] + rng.choice(["", ".x", ".*"])
    v = ".".join(parts)
    if rng.random() < 0.35:
        v += "-" + rng.choice(PRES)
    return v


def comparator(rng):
    op = rng.choice(["", "", "=", "<", "<=", ">", ">=", "~", "^", "^", "~"])
    sep = " " if op and rng.random() < 0.15 else ""
    return op + sep + partial(rng)


def comp_set(rng):
    if rng.random() < 0.15:
        return partial(rng) + " - " + partial(rng)
    return " ".join(comparator(rng) for _ in range(rng.randint(1, 3)))


def rand_range(rng):
    if rng.random() < 0.05:
        return rng.choice(["1.2.3.4", ">=01.2", "^", "~>1.2", "1.x-beta", "1.2.3 | 2", ">= ", "1 - 2 - 3", "=x.1a"])
    return " || ".join(comp_set(rng) for _ in range(rng.randint(1, 2)))


def test_precedence_and_sorting():
    lines = ["1.0.0", "1.0.0-rc.1", "1.0.0-beta.11", "1.0.0-beta.2", "1.0.0-beta", "1.0.0-alpha.beta",
             "1.0.0-alpha.1", "1.0.0-alpha", "1.0.0-1", "1.0.0-10", "1.0.0-2", "1.0.0-A", "1.0.0-a",
             "1.0.0+b2", "1.0.0+b1", "2.0.0", "1.10.0", "1.9.0", "0.0.0", "1.0.0"]
    for rng in [">=1.0.0-0", "*", "1.0.0", ">=0.0.0", "1.0.0-1 - 1.0.0-rc.1"]:
        check(rng, lines)
    r = run(">=1.0.0-0", lines)
    assert r.stdout.splitlines()[:3] == ["1.0.0-1", "1.0.0-2", "1.0.0-10"]


def test_partials_and_operators():
    lines = BASE + ["1.2.3-beta", "2.0.0-rc.1"]
    for rng in ["1", "1.2", "1.x", "1.2.*", "*", "", ">1", ">1.2", ">=1.2", "<1.2", "<=1.2", "<=1", "<*", ">*",
                ">=*", "<=*", "=1.2.3", "1.2.3+ignored", ">= 1.2.0 < 2", "> 0.2.3 <= 1.2", "1.2.3 || 2 || 0.0"]:
        check(rng, lines)


def test_tilde_and_caret():
    lines = BASE + ["0.2.3-rc.1", "1.2.3-beta.2", "1.2.4-beta.1"]
    for rng in ["~1.2.3", "~1.2", "~1", "~0", "~0.2.3", "~1.2.3-beta.1", "^1.2.3", "^0.2.3", "^0.0.3", "^1.2",
                "^0.2", "^0.0", "^0.0.x", "^0", "^0.x", "^1.x", "^*", "~*", "^0.2.3-rc.0", "^0.0.3 || ^2.3"]:
        check(rng, lines)


def test_hyphen_ranges():
    lines = BASE + ["2.3.0-beta", "1.2.3-rc.1"]
    for rng in ["1.2.3 - 2.3.9", "1.2.3 - 2.3", "1.2 - 2", "0 - 1", "* - 1.2.3", "1.3.0 - *",
                "1.2.3-rc.1 - 1.2.3", "0.2.3 - 0.2.9 || 3 - 10"]:
        check(rng, lines)


def test_prerelease_rule():
    lines = ["1.2.3-alpha.7", "1.2.3-beta.5", "1.2.3", "1.2.4-alpha", "1.2.4", "1.3.0-rc.1", "3.4.5-alpha.9",
             "3.4.5", "3.4.6-beta"]
    for rng in [">=1.2.3-beta.1 <1.3.0", "^1.2.3", ">1.2.3-alpha.3", "<1.3.0", "<1.3.0-rc.2", "~1.2.4-alpha",
                ">=1.2.3-alpha.0 <1.2.4 || >3.4.5-alpha.3", "1.2.3-beta.5", "* || 3.4.6-beta"]:
        check(rng, lines)


def test_invalid_ranges_and_exit_codes():
    lines = BASE
    for rng in ["1.2.3.4", ">=01.2", "^", "~>1.2", "1.x-beta", "1.2.3 |", ">=a.b.c", "1.2.3 -", "1.2.3-01"]:
        r = run(rng, lines)
        assert r.returncode == 2 and r.stdout == "", f"range {rng!r} should be invalid: {r.returncode} {r.stdout!r}"
    r = run(">=50", lines)
    assert r.returncode == 1 and r.stdout == ""
    r = run("^1.2.3", lines + ["1.2.3", "1.2.3+b"])
    assert r.returncode == 0 and r.stdout.splitlines()[:3] == ["1.2.3", "1.2.3", "1.2.3+b"]


def test_random_ranges_against_reference():
    rng = random.Random(4242)
    ok = 0
    for _ in range(110):
        lines = version_pool(rng)
        rr = rand_range(rng)
        try:
            ok += bool(filter_versions(rr, lines))
        except RangeError:
            pass
        check(rr, lines)
    assert ok >= 40
