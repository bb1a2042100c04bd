import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import casegen  # noqa: E402

PROG = "/app/timeline.py"


def run(case, addr):
    r = subprocess.run([sys.executable, PROG, case, addr], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.splitlines()


def check(seed, addr="203.0.113.9", **kw):
    with tempfile.TemporaryDirectory() as d:
        offsets, expected = casegen.make_case(d, seed, attacker=addr, **kw)
        got = run(d, addr)
    n = len(offsets)
    assert got[:n] == expected[:n], f"offsets: got {got[:n]}, expected {expected[:n]}"
    missing = [l for l in expected[n:] if l not in got[n:]]
    extra = [l for l in got[n:] if l not in expected[n:]]
    assert not missing and not extra, f"missing {missing[:3]}, unexpected {extra[:3]}"
    assert got == expected, "same events, wrong order"


def test_example_case_in_app():
    with tempfile.TemporaryDirectory() as d:
        _, expected = casegen.make_case(d, 7)
        for f in os.listdir(d):
            assert open(os.path.join(d, f)).read() == open(os.path.join("/app/case", f)).read(), f
    assert run("/app/case", "203.0.113.9") == expected


def test_clock_offsets_of_unseen_cases():
    for seed in (311, 312, 313):
        with tempfile.TemporaryDirectory() as d:
            offsets, _ = casegen.make_case(d, seed)
            got = run(d, "203.0.113.9")
        assert got[:3] == [f"# offset {k} {v}" for k, v in offsets.items()]


def test_full_timelines_of_unseen_cases():
    for seed in (401, 402, 403, 404):
        check(seed)


def test_syslog_clock_behind_across_midnight():
    # db01 runs 70 minutes slow: its log shows the previous day for events after midnight UTC
    hosts = [("10.1.0.5", "db01", "syslog", -4200, None), ("10.1.0.9", "jump", "syslog", 3, None)]
    check(505, start=1795046700, hosts=hosts)      # 2026-11-19 00:05 UTC


def test_access_log_zones_and_large_offsets():
    hosts = [("10.2.0.8", "shop", "access", 7322, "-0500"), ("10.2.0.9", "api", "access", -41, "+0530"),
             ("10.2.0.5", "db02", "syslog", 59, None)]
    check(606, addr="192.0.2.7", hosts=hosts)


def test_other_address_and_lookalikes():
    # the attacker here is 198.51.100.2; 198.51.100.20 and 198.51.100.3 are other clients
    with tempfile.TemporaryDirectory() as d:
        _, expected = casegen.make_case(d, 707, attacker="198.51.100.2")
        got = run(d, "198.51.100.2")
        assert any("198.51.100.20" in l for l in open(os.path.join(d, "fw.jsonl")))
    assert not any(" 198.51.100.20:" in l or "198.51.100.20 port" in l for l in got), "another client's events"
    assert got == expected
