import csv
import json
import subprocess
import sys
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

sys.path.insert(0, "/tests")
import book_gen  # noqa: E402
import book_ref  # noqa: E402


def run(tmp_path, events, cpu_limit=120):
    tr, bk = tmp_path / "trades.csv", tmp_path / "book.json"
    r, secs = run_cpu(["python3", "/app/replay.py", str(events), str(tr), str(bk)], cpu_limit, "replay.py")
    assert r.returncode == 0, r.stderr.decode()[-2000:]
    trades = [[int(x) if k not in (2, 3) else x for k, x in enumerate(row)] for row in list(csv.reader(open(tr)))[1:]]
    header = next(csv.reader(open(tr)))
    return header, trades, json.loads(bk.read_text()), secs


def check(tmp_path, events):
    header, trades, book, _ = run(tmp_path, events)
    ref = book_ref.replay(str(events))
    assert header == ["trade_id", "seq", "buy_order", "sell_order", "price", "qty"]
    assert trades == ref.trades
    assert book["rejected"] == sorted(ref.rejected)
    assert book["bids"] == ref.levels("BUY")
    assert book["asks"] == ref.levels("SELL")


def test_example(tmp_path):
    check(tmp_path, "/app/data/events.csv")


@pytest.mark.parametrize("seed", [21, 22, 23, 24])
def test_generated(tmp_path, seed):
    ev = tmp_path / "ev.csv"
    book_gen.gen(str(ev), seed, 800)
    check(tmp_path, ev)


def test_modify_semantics(tmp_path):
    ev = tmp_path / "m.csv"
    ev.write_text("seq,type,order_id,side,price,qty\n"
                  "1,LIMIT,A,SELL,101,10\n"
                  "2,LIMIT,B,SELL,101,10\n"
                  "3,MODIFY,A,,101,4\n"      # reduce: keeps priority
                  "4,LIMIT,C,BUY,101,5\n"    # A 4, then B 1
                  "5,MODIFY,B,,101,20\n"     # increase: loses priority (only order at level anyway)
                  "6,LIMIT,D,SELL,101,3\n"
                  "7,MODIFY,B,,99,2\n"       # reprice below -> now best ask
                  "8,MARKET,E,BUY,,3\n"      # B 2 @99, D 1 @101
                  "9,CANCEL,A,,,\n"          # A fully filled -> rejected
                  "10,LIMIT,F,BUY,102,1\n"   # D 1 @101
                  "11,MODIFY,Z,,5,5\n")
    header, trades, book, _ = run(tmp_path, ev)
    assert trades == [[1, 4, "C", "A", 101, 4], [2, 4, "C", "B", 101, 1], [3, 8, "E", "B", 99, 2],
                      [4, 8, "E", "D", 101, 1], [5, 10, "F", "D", 101, 1]]
    assert book == {"bids": [], "asks": [[101, 1, 1]], "rejected": [9, 11]}


def test_speed(tmp_path):
    ev = tmp_path / "big.csv"
    book_gen.gen(str(ev), 99, 10000)
    _, trades, _, secs = run(tmp_path, ev, cpu_limit=22)
    assert secs < 20
    assert trades == book_ref.replay(str(ev)).trades
