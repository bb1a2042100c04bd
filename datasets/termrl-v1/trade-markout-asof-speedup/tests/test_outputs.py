"""/app/tca/markouts.py must write a byte-identical OUT.csv to the original program (a copy lives in
/tests) on quote and trade files generated here, and meet a CPU-time bar on 300,000 quotes and 60,000
trades.

Small cases are compared with the original itself; the large one with the tests' fast reference
(ref_fast.py), which is checked against the original here first."""
import os
import random
import resource
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

PROGRAM = os.environ.get("MARKOUTS", "/app/tca/markouts.py")
ORIGINAL = os.path.join(HERE, "orig_markouts.py")
REFERENCE = os.path.join(HERE, "ref_fast.py")
RNG_SEED = 9301
RNG = random.Random(RNG_SEED)
CPU_BAR = 6.0        # seconds of CPU for the large case (the reference ~1.3 s; the original ~30 min)
CPU_KILL = 20        # RLIMIT_CPU for the program under test: a hang guard that load cannot trip
CPU_KILL_OURS = 120  # RLIMIT_CPU for the original and the reference
QH, TH = "time,symbol,bid,ask\n", "id,time,symbol,side,price,qty\n"


def _limit(seconds):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
    return set_limit


def run(program, args, ok=True):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, program, *map(str, args)], capture_output=True, text=True, timeout=1800,
                       preexec_fn=_limit(CPU_KILL if program == PROGRAM else CPU_KILL_OURS))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if ok:
        assert r.returncode == 0, f"{program} exited {r.returncode} (CPU limit {CPU_KILL} s): {r.stderr[-2000:]}"
    return r, cpu


def files(tmp_path, tag, quotes, trades):
    q, t = tmp_path / f"{tag}-quotes.csv", tmp_path / f"{tag}-trades.csv"
    q.write_text(quotes)
    t.write_text(trades)
    return q, t


def against(other, tmp_path, tag, quotes, trades):
    q, t = files(tmp_path, tag, quotes, trades)
    got, want = tmp_path / f"{tag}-got.csv", tmp_path / f"{tag}-want.csv"
    _, cpu = run(PROGRAM, [q, t, got])
    run(other, [q, t, want])
    g, w = got.read_text(), want.read_text()
    if g != w:
        gl, wl = g.splitlines(), w.splitlines()
        k = next((i for i, (a, b) in enumerate(zip(gl, wl)) if a != b), min(len(gl), len(wl)))
        pytest.fail(f"{tag}: output differs first at line {k + 1}: got {gl[k:k + 1]}, expected {wl[k:k + 1]} "
                    f"({len(gl)} lines vs {len(wl)})")
    return w, cpu


def test_random_markets(tmp_path):
    for k, (nq, nt) in enumerate([(900, 300), (1800, 500), (2500, 400)]):
        quotes, trades = gen.market(RNG, nq, nt, n_symbols=RNG.randint(2, 7))
        out, _ = against(ORIGINAL, tmp_path, f"m{k}", quotes, trades)
        assert out.count("\n") > nt


def test_bursts_and_exact_boundaries(tmp_path):
    quotes = QH + ("10:00:00,ACME,10.00,10.02\n10:00:00.000,ACME,10.01,10.03\n10:00:00.0,ACME,10.04,10.02\n"
                   "10:01:00,ACME,10.10,10.12\n10:01:00.00,ACME,10.20,10.22\n09:59:59.999,ACME,9.90,9.92\n"
                   "10:00:00.001,ACME,10.50,10.52\n10:01:00.5,ACME,11.00,11.02\n10:00:30,ACME,10.30,10.30\n")
    trades = TH + ("t1,10:00:00,ACME,B,10.03,100\nt2,09:59:59.999,ACME,S,9.90,10\nt3,10:00:00.0,ACME,S,10.00,7\n"
                   "t4,10:00:30.000,ACME,B,10.31,3\nt5,10:00:00.5,ACME,B,10.50,1\nt6,09:59:59.998,ACME,B,9.9,1\n")
    out, _ = against(ORIGINAL, tmp_path, "burst", quotes, trades)
    assert out.startswith("t1,ACME,10.02000,")
    for k in range(4):
        q = QH
        t = TH
        for j in range(120):
            ms = RNG.choice([0, 0, 1, 500, 999]) + 1000 * RNG.randint(0, 90)
            bid = RNG.randint(995, 1005)
            q += f"{gen.fmt_time(36_000_000 + ms, RNG)},ACME,{bid / 100},{(bid + RNG.choice([-1, 0, 1, 2])) / 100}\n"
        for j in range(80):
            ms = RNG.choice([0, 1, 500, 999]) + 1000 * RNG.randint(-61, 90)
            t += f"b{j},{gen.fmt_time(36_000_000 + ms, RNG)},ACME,{RNG.choice('BS')},{RNG.randint(990, 1010) / 100},{RNG.randint(1, 9)}\n"
        against(ORIGINAL, tmp_path, f"burst{k}", q, t)


def test_missing_quotes_and_empty_files(tmp_path):
    out, _ = against(ORIGINAL, tmp_path, "empty", QH, TH)
    assert out == ""
    quotes = QH + "11:00:00,ACME,5.00,5.01\n11:00:01,BOLT,7.10,7.00\n"
    trades = TH + "a,10:59:59.999,ACME,B,5,1\nb,11:00:02,BOLT,S,7.05,2\nc,11:00:02,CRAN,B,1,1\nd,11:00:00,ACME,S,5.02,4\n"
    out, _ = against(ORIGINAL, tmp_path, "missing", quotes, trades)
    assert "a,ACME,-,-,-,-\n" in out and "summary,BOLT,1,0,-,0\n" in out


def test_rejects_malformed_lines(tmp_path):
    good_q, good_t = QH + "10:00:00,ACME,1.00,1.01\n", TH + "x,10:00:00,ACME,B,1.00,1\n"
    cases = [("time,sym,bid,ask\n", good_t, "q", 1), (QH + "9:30:00,ACME,1,2\n", good_t, "q", 2),
             (QH + "10:00:00,ACME,1,2\n10:00:00.1234,ACME,1,2\n", good_t, "q", 3), (QH + "10:00:00,ACME,abc,2\n", good_t, "q", 2),
             (QH + "10:00:00,ACME,1\n", good_t, "q", 2), (good_q, TH + "x,10:00:00,ACME,X,1,1\n", "t", 2),
             (good_q, TH + "x,10:00:00,ACME,B,1,0\n", "t", 2), (good_q, TH + "\nx,10:00:00,ACME,B,-1,5\n", "t", 3),
             (good_q, TH + "x,10:60:00,ACME,B,1,5\n", "t", 2)]
    for k, (quotes, trades, which, line) in enumerate(cases):
        q, t = files(tmp_path, f"bad{k}", quotes, trades)
        r, _ = run(PROGRAM, [q, t, tmp_path / f"bad{k}.csv"], ok=False)
        bad = q if which == "q" else t
        assert r.returncode == 1 and f"{bad}:{line}:" in r.stderr, \
            f"case {k} must be rejected with exit status 1 and a message naming {bad}:{line}: got {r.returncode}, {r.stderr!r}"


def test_reference_agrees_with_the_original(tmp_path):
    quotes, trades = gen.market(RNG, 4000, 600)
    q, t = files(tmp_path, "self", quotes, trades)
    a, b = tmp_path / "self-orig.csv", tmp_path / "self-ref.csv"
    run(ORIGINAL, [q, t, a])
    run(REFERENCE, [q, t, b])
    assert a.read_text() == b.read_text()


def test_large_day_within_the_cpu_bar(tmp_path):
    quotes, trades = gen.market(random.Random(RNG_SEED + 1), 300_000, 60_000, n_symbols=8)
    out, cpu = against(REFERENCE, tmp_path, "big", quotes, trades)
    assert out.count("\n") == 60_000 + len({ln.split(",")[2] for ln in trades.splitlines()[1:]})
    print(f"CPU time for 300,000 quotes and 60,000 trades: {cpu:.2f} s")
    assert cpu <= CPU_BAR, f"the large case took {cpu:.2f} s of CPU time (bar: {CPU_BAR} s)"
