import datetime as dt
import random
import subprocess
import time

import pytest
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


def timed(expr, start, n, cpu_limit=30):
    return run_cpu(["python3", "/app/cronnext.py", expr, start, str(n)], cpu_limit, "cronnext.py", text=True)


def run(expr, start, n):
    return timed(expr, start, n)[0]


def ok(expr, start, n):
    r, cpu = timed(expr, start, n, cpu_limit=5)
    assert cpu < 2.5, expr   # CPU seconds (user + system)
    assert r.returncode == 0, (expr, r.stderr)
    return r.stdout.splitlines()


def brute(spec, start, n):
    mi, hr, dom, mon, dow, rdom, rdow = spec
    t = start + dt.timedelta(minutes=1)
    out = []
    while len(out) < n:
        cdow = (t.weekday() + 1) % 7
        if rdom and rdow:
            dayok = t.day in dom or cdow in dow
        else:
            dayok = (not rdom or t.day in dom) and (not rdow or cdow in dow)
        if t.minute in mi and t.hour in hr and t.month in mon and dayok:
            out.append(t.strftime("%Y-%m-%d %H:%M"))
        t += dt.timedelta(minutes=1)
    return out


def test_basic():
    assert ok("*/15 9-10 * * *", "2024-03-10 09:20", 5) == [
        "2024-03-10 09:30", "2024-03-10 09:45", "2024-03-10 10:00", "2024-03-10 10:15", "2024-03-10 10:30"]
    assert ok("0 0 1 1 *", "2023-12-31 23:59", 2) == ["2024-01-01 00:00", "2025-01-01 00:00"]


def test_strictly_after():
    assert ok("30 12 * * *", "2024-05-05 12:30", 1) == ["2024-05-06 12:30"]


def test_names_and_sunday_seven():
    assert ok("0 8 * * MON-FRI", "2024-06-07 09:00", 3) == ["2024-06-10 08:00", "2024-06-11 08:00", "2024-06-12 08:00"]
    assert ok("0 0 * * 7", "2024-06-01 00:00", 2) == ["2024-06-02 00:00", "2024-06-09 00:00"]
    assert ok("0 0 1 jun-Aug sun", "2024-05-01 00:00", 1) == ["2024-06-01 00:00"]


def test_dom_dow_or_rule():
    # 13th of month OR Friday
    got = ok("0 0 13 * 5", "2024-09-01 00:00", 4)
    assert got == ["2024-09-06 00:00", "2024-09-13 00:00", "2024-09-20 00:00", "2024-09-27 00:00"]
    got = ok("0 0 1 * */3", "2024-01-01 00:00", 3)
    assert got == ["2024-01-03 00:00", "2024-01-06 00:00", "2024-01-07 00:00"]


def test_macros_and_step_forms():
    assert ok("@hourly", "2024-01-01 10:00", 2) == ["2024-01-01 11:00", "2024-01-01 12:00"]
    assert ok("@weekly", "2024-01-01 00:00", 1) == ["2024-01-07 00:00"]
    assert ok("50/5 0 1 1 *", "2024-01-01 00:00", 3) == ["2024-01-01 00:50", "2024-01-01 00:55", "2025-01-01 00:50"]
    assert ok("1-10/4,59 0 1 1 *", "2024-01-01 00:00", 4) == [
        "2024-01-01 00:01", "2024-01-01 00:05", "2024-01-01 00:09", "2024-01-01 00:59"]


def test_rare_and_impossible():
    assert ok("0 0 29 2 *", "2024-03-01 00:00", 2) == ["2028-02-29 00:00", "2032-02-29 00:00"]
    r, cpu = timed("0 0 31 2 *", "2024-01-01 00:00", 1, cpu_limit=5)
    assert cpu < 2.5
    assert r.returncode == 3 and r.stdout == ""
    r = run("0 0 29 2 *", "2024-03-01 00:00", 5)
    assert r.returncode == 3 and r.stdout.splitlines() == ["2028-02-29 00:00", "2032-02-29 00:00"]


def test_errors():
    for e in ["* * * *", "60 * * * *", "* 24 * * *", "* * 0 * *", "* * * 13 *", "* * * * 8", "5-1 * * * *",
              "*/0 * * * *", "@sometimes", "a * * * *", "1,,2 * * * *"]:
        r = run(e, "2024-01-01 00:00", 1)
        assert r.returncode == 2 and r.stdout == "", e
    assert run("* * * * *", "2024-13-01 00:00", 1).returncode == 2
    assert run("* * * * *", "2024-01-01 00:00", 0).returncode == 2
    assert ok("* * * * *", "2024-02-28 23:59", 2) == ["2024-02-29 00:00", "2024-02-29 00:01"]


def test_random_against_bruteforce():
    rng = random.Random(606)

    def fld(lo, hi):
        k = rng.random()
        if k < 0.3:
            return "*", set(range(lo, hi + 1))
        if k < 0.5:
            s = rng.randint(1, 5)
            return f"*/{s}", set(range(lo, hi + 1, s))
        if k < 0.75:
            vals = sorted(rng.sample(range(lo, hi + 1), rng.randint(1, 3)))
            return ",".join(map(str, vals)), set(vals)
        a = rng.randint(lo, hi)
        b = rng.randint(a, hi)
        s = rng.randint(1, 3)
        return f"{a}-{b}/{s}", set(range(a, b + 1, s))

    for _ in range(40):
        m = fld(0, 59); h = fld(0, 23); d = fld(1, 31); mo = ("*", set(range(1, 13))); w = fld(0, 6)
        expr = " ".join(x[0] for x in (m, h, d, mo, w))
        spec = (m[1], h[1], d[1], mo[1], w[1], d[0] != "*", w[0] != "*")
        start = dt.datetime(2024, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59))
        want = brute(spec, start, 8)
        assert ok(expr, start.strftime("%Y-%m-%d %H:%M"), 8) == want, expr
