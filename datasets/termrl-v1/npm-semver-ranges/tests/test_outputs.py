"""/app/semrange on hand-checked npm semver cases and on version/range pairs generated here."""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import cases  # noqa: E402
import semrange_ref  # noqa: E402

TOOL = "/app/semrange"
RNG = random.Random(os.urandom(8))


def run(mode, tmp_path, lines):
    p = tmp_path / f"{mode}-{RNG.randint(0, 10**9)}.txt"
    p.write_text("".join(line + "\n" for line in lines))
    r = subprocess.run([TOOL, mode, str(p)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines(), p


def ref(mode, path):
    r = subprocess.run([sys.executable, semrange_ref.__file__, mode, str(path)], capture_output=True, text=True)
    return r.stdout.splitlines()


def rversion():
    r = RNG
    s = f"{r.choice([0, 0, 1, 1, 2, 3])}.{r.choice([0, 1, 2, 3, 10])}.{r.choice([0, 1, 2, 3, 10])}"
    if r.random() < 0.35:
        s += "-" + r.choice(["alpha", "alpha.1", "alpha.beta", "beta.2", "beta.10", "rc.1", "0", "x-y.7", "1"])
    if r.random() < 0.1:
        s += "+" + r.choice(["build.5", "sha.abc", "001"])
    if r.random() < 0.08:
        s = "v" + s
    if r.random() < 0.03:
        s = r.choice(["01.2.3", "1.2", "1.2.3-01", "1.2.3.4", "x.1.2"])
    return s


def rpart(full=False):
    r = RNG
    parts = [str(r.choice([0, 0, 1, 2, 3]))]
    n = 3 if full else r.choice([1, 2, 3, 3, 3])
    for _ in range(n - 1):
        parts.append(str(r.choice([0, 1, 2, 3, 10])))
    if n < 3 and r.random() < 0.3:
        parts.append(r.choice(["x", "X", "*"]))
    s = ".".join(parts)
    if s.count(".") == 2 and all(p.isdigit() for p in parts) and r.random() < 0.25:
        s += "-" + r.choice(["alpha", "beta.2", "rc.1", "0"])
    return s


def rset():
    r = RNG
    k = r.random()
    if k < 0.15:
        return f"{rpart()} - {rpart()}"
    items = []
    for _ in range(r.choice([1, 1, 2])):
        op = r.choice(["^", "~", "", ">=", "<", ">", "<=", "=", "~>", ">= "])
        items.append(op + rpart())
    if r.random() < 0.05:
        items = [r.choice(["*", "x", "1.x", ">>1", "^01.2", "~1.2.3.4"])]
    return " ".join(items)


def rrange():
    return " || ".join(rset() for _ in range(RNG.choice([1, 1, 1, 2])))


def test_hand_checked_satisfies(tmp_path):
    got, _ = run("test", tmp_path, [f"{v}\t{r}" for v, r, _ in cases.TEST])
    for (v, r, want), g in zip(cases.TEST, got + [None] * len(cases.TEST)):
        assert g == want, f"{v!r} against {r!r}: want {want}, got {g}"


def test_hand_checked_max(tmp_path):
    got, _ = run("max", tmp_path, [f"{r}\t{vs}" for r, vs, _ in cases.MAX])
    for (r, vs, want), g in zip(cases.MAX, got + [None] * len(cases.MAX)):
        assert g == want, f"max of {vs!r} in {r!r}: want {want}, got {g}"


def test_generated_satisfies(tmp_path):
    lines = [f"{rversion()}\t{rrange()}" for _ in range(600)]
    got, p = run("test", tmp_path, lines)
    want = ref("test", p)
    assert len(got) == len(want)
    bad = [(lines[i], want[i], got[i]) for i in range(len(want)) if got[i] != want[i]]
    assert not bad, f"{len(bad)} wrong, e.g. (line, want, got): {bad[:8]}"


def test_generated_prerelease_heavy(tmp_path):
    lines = []
    for _ in range(300):
        base = f"{RNG.choice([1, 2])}.{RNG.choice([0, 2])}.{RNG.choice([0, 3])}"
        ver = base + RNG.choice(["-alpha", "-beta.2", "-beta.10", "-rc.1", "-0", ""])
        rng = RNG.choice([f"^{base}-beta.2", f"~{base}-alpha", f">={base}-rc.1 <{base}", f">{base}-0",
                          f"{base}-alpha - {base}", f"^{base}", f"<={base}-beta.10", f"~{base} || >={base}-0"])
        lines.append(f"{ver}\t{rng}")
    got, p = run("test", tmp_path, lines)
    want = ref("test", p)
    bad = [(lines[i], want[i], got[i]) for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
    assert not bad, f"{len(bad)} wrong, e.g. (line, want, got): {bad[:8]}"


def test_generated_max(tmp_path):
    lines = [f"{rrange()}\t{' '.join(rversion() for _ in range(RNG.randint(1, 8)))}" for _ in range(300)]
    got, p = run("max", tmp_path, lines)
    want = ref("max", p)
    bad = [(lines[i], want[i], got[i]) for i in range(len(want)) if i >= len(got) or got[i] != want[i]]
    assert not bad, f"{len(bad)} wrong, e.g. (line, want, got): {bad[:8]}"


def test_usage_errors(tmp_path):
    assert subprocess.run([TOOL], capture_output=True, timeout=60).returncode == 2
    assert subprocess.run([TOOL, "test", str(tmp_path / "missing")], capture_output=True, timeout=60).returncode == 2
    assert subprocess.run([TOOL, "frobnicate", str(tmp_path)], capture_output=True, timeout=60).returncode == 2
