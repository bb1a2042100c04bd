import os
import random
import subprocess
import tempfile
import time
import resource
import signal


# Speed limits measure CPU time, not wall-clock time: other work on the machine stretches the second,
# never the first. Each program runs under RLIMIT_CPU (its limit plus a margin); the wall-clock timeout
# is only a hang guard for a program that blocks without using CPU.
HANG_GUARD_S = 600


def run_cpu(cmd, cpu_limit, name, **kwargs):
    """Run ``cmd``; return (completed process, CPU seconds it used: user + system, from getrusage).
    RLIMIT_CPU stops it once it has used ``cpu_limit`` seconds of CPU."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, timeout=HANG_GUARD_S, preexec_fn=limit, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), f"{name} used more than {cpu_limit} s of CPU time"
    return proc, cpu

P = 998244353


def kitamasa(rec, init, N):
    """a_n = sum rec[i] a_{n-1-i}; init = first len(rec) terms."""
    L = len(rec)
    if N < L:
        return init[N]

    def mulmod(x, y):
        prod = [0] * (2 * L - 1)
        for i, u in enumerate(x):
            if u:
                for j, v in enumerate(y):
                    prod[i + j] += u * v
        for k in range(2 * L - 2, L - 1, -1):
            c = prod[k] % P
            if c:
                for i in range(L):
                    prod[k - 1 - i] += c * rec[i]
        return [v % P for v in prod[:L]]

    res = [1] + [0] * (L - 1)
    base = ([0, 1] + [0] * L)[:L] if L > 1 else [rec[0] % P]
    e = N
    while e:
        if e & 1:
            res = mulmod(res, base)
        e >>= 1
        if e:
            base = mulmod(base, base)
    return sum(r * v for r, v in zip(res, init)) % P


def make(rng, order, m, zero_tail=False):
    rec = [rng.randrange(P) for _ in range(order)]
    if zero_tail and order > 3:
        rec[-1] = rng.randrange(1, P)
    init = [rng.randrange(P) for _ in range(order)]
    seq = init[:]
    while len(seq) < m:
        seq.append(sum(rec[i] * seq[-1 - i] for i in range(order)) % P)
    return rec, init, seq[:m]


def run(N, seq, cpu_limit=40):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write(f"{N} {len(seq)}\n" + " ".join(map(str, seq)) + "\n")
    try:
        proc, elapsed = run_cpu(["python3", "/app/nth.py", fh.name], cpu_limit, "nth.py", text=True)
    finally:
        os.unlink(fh.name)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stdout.strip()), elapsed


def test_examples():
    with open("/app/examples/answers.txt") as fh:
        for line in fh:
            name, want = line.split()
            with open(f"/app/examples/{name}") as f:
                vals = f.read().split()
            assert run(int(vals[0]), [int(v) for v in vals[2:]])[0] == int(want)


def test_small_orders_direct():
    rng = random.Random(10)
    for order in (1, 2, 3, 5, 8):
        rec, init, seq = make(rng, order, 2 * order + rng.randint(0, 6))
        full = seq[:]
        while len(full) < 3000:
            full.append(sum(rec[i] * full[-1 - i] for i in range(order)) % P)
        for N in (0, len(seq) - 1, len(seq), 2999):
            assert run(N, seq)[0] == full[N], (order, N)


def test_order_much_smaller_than_half():
    rng = random.Random(11)
    rec, init, seq = make(rng, 7, 400)
    for N in (10**18, 123456789012345, 401):
        assert run(N, seq)[0] == kitamasa(rec, init, N)


def test_geometric_and_zero_sequences():
    assert run(10**18, [0] * 50)[0] == 0
    seq = [pow(3, i, P) for i in range(10)]
    assert run(10**18, seq)[0] == pow(3, 10**18, P)
    # eventually-zero sequence: a_n = 0 for n >= 3 (recurrence of order 3 with all-zero coefficients... is
    # a_n = 0*a_{n-1}+0*a_{n-2}+0*a_{n-3})
    assert run(10**17, [5, 7, 9, 0, 0, 0, 0, 0])[0] == 0


def test_large_order_huge_index_within_time():
    rng = random.Random(12)
    rec, init, seq = make(rng, 250, 520)
    N = 10**18 - 12345
    got, elapsed = run(N, seq, cpu_limit=42)
    assert got == kitamasa(rec, init, N)
    assert elapsed < 40   # CPU seconds (user + system); the instruction's limit is 20 s


def test_random_medium_cases():
    rng = random.Random(13)
    for _ in range(4):
        order = rng.randint(20, 80)
        rec, init, seq = make(rng, order, 2 * order + rng.randint(0, 40))
        N = rng.randrange(10**15, 10**18)
        assert run(N, seq)[0] == kitamasa(rec, init, N)
