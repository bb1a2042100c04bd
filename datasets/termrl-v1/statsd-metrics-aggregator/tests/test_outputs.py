"""The aggregator started here on its own ports; traffic generated here, expected values computed here."""
import json
import math
import os
import random
import signal
import socket
import subprocess
import time

import pytest


def free_port(kind):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def agg():
    udp, tcp = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_STREAM)
    proc = subprocess.Popen(["bash", "/app/statsd/run.sh"],
                            env=dict(os.environ, STATSD_PORT=str(udp), STATSD_ADMIN_PORT=str(tcp)), cwd="/",
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 15
    while time.time() < deadline and not ok:
        try:
            socket.create_connection(("127.0.0.1", tcp), timeout=0.5).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    client = Client(udp, tcp) if ok else None
    if client:
        client.flush()
    yield client
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


class Client:
    def __init__(self, udp, tcp):
        self.udp, self.tcp = udp, tcp
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def send(self, lines, sock=None):
        (sock or self.sock).sendto("\n".join(lines).encode(), ("127.0.0.1", self.udp))

    def commands(self, *cmds):
        with socket.create_connection(("127.0.0.1", self.tcp), timeout=20) as c:
            c.sendall("".join(x + "\n" for x in cmds).encode())
            f = c.makefile("rb")
            return [json.loads(f.readline()) for _ in cmds]

    def peek(self):
        return self.commands("peek")[0]

    def flush(self):
        return self.commands("flush")[0]

    def wait_lines(self, n):
        """Poll peek until the aggregator has seen n lines (UDP and TCP are separate queues)."""
        deadline = time.time() + 30
        while True:
            got = self.peek()
            if got["lines"] >= n or time.time() > deadline:
                return got
            time.sleep(0.05)


class Model:
    def __init__(self):
        self.gauges = {}
        self.reset()

    def reset(self):
        self.counters, self.timers, self.sets, self.lines, self.bad = {}, {}, {}, 0, 0
        self.types = {k: "g" for k in self.gauges}

    def good(self, name, kind, value, rate=1.0):
        self.lines += 1
        self.types[name] = kind
        if kind == "c":
            self.counters[name] = self.counters.get(name, 0.0) + value / rate
        elif kind == "g":
            if isinstance(value, tuple):  # delta
                self.gauges[name] = self.gauges.get(name, 0.0) + value[0]
            else:
                self.gauges[name] = value
        elif kind == "ms":
            self.timers.setdefault(name, []).append(value)
        else:
            self.sets.setdefault(name, set()).add(value)

    def badline(self):
        self.lines += 1
        self.bad += 1

    def report(self):
        timers = {}
        for k, xs in self.timers.items():
            s = sorted(xs)
            n = len(s)
            timers[k] = {"count": n, "min": s[0], "max": s[-1], "mean": sum(s) / n,
                         "median": s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2,
                         "p90": s[math.ceil(0.9 * n) - 1]}
        return {"counters": self.counters, "gauges": self.gauges, "timers": timers,
                "sets": {k: len(v) for k, v in self.sets.items()}, "lines": self.lines, "bad_lines": self.bad}


def same(got, exp):
    assert set(got) >= {"counters", "gauges", "timers", "sets", "lines", "bad_lines"}, got
    assert got["lines"] == exp["lines"] and got["bad_lines"] == exp["bad_lines"], (got["lines"], got["bad_lines"], exp["lines"], exp["bad_lines"])
    for key in ("counters", "gauges", "sets"):
        if key == "gauges":  # gauges of earlier tests persist; the ones this test set must match
            assert set(got[key]) >= set(exp[key]), (key, sorted(set(exp[key]) - set(got[key])))
        else:
            assert set(got[key]) == set(exp[key]), (key, sorted(set(got[key]) ^ set(exp[key])))
        for k, v in exp[key].items():
            assert math.isclose(float(got[key][k]), v, rel_tol=1e-9, abs_tol=1e-6), (key, k, got[key][k], v)
    assert set(got["timers"]) == set(exp["timers"])
    for k, t in exp["timers"].items():
        for f, v in t.items():
            assert math.isclose(float(got["timers"][k][f]), v, rel_tol=1e-9, abs_tol=1e-6), (k, f, got["timers"][k][f], v)


def test_counters_with_sample_rates(agg):
    assert agg, "aggregator did not start"
    m = Model()
    agg.send(["hits:1|c", "hits:2|c|@0.5", "hits:-1|c", "bytes:1.5e3|c", "bytes:.5|c|@0.25", "hits:3|c|@1"])
    for name, v, r in [("hits", 1, 1), ("hits", 2, .5), ("hits", -1, 1), ("bytes", 1500, 1), ("bytes", .5, .25), ("hits", 3, 1)]:
        m.good(name, "c", v, r)
    same(agg.wait_lines(6), m.report())
    same(agg.flush(), m.report())


def test_gauges_set_delta_and_persist(agg):
    assert agg, "aggregator did not start"
    agg.flush()
    m = Model()
    m.gauges = {}
    lines = ["queue:10|g", "queue:+5|g", "queue:-3|g", "temp:-4|g", "neg:0|g", "neg:-7|g", "queue:2.5|g|@0.1"]
    agg.send(lines)
    m.good("queue", "g", 10.0), m.good("queue", "g", (5.0,)), m.good("queue", "g", (-3.0,))
    m.good("temp", "g", (-4.0,)), m.good("neg", "g", 0.0), m.good("neg", "g", (-7.0,)), m.good("queue", "g", 2.5)
    got = agg.wait_lines(len(lines))
    same(got, m.report())
    agg.flush()
    after = agg.peek()
    assert after["lines"] == 0 and after["counters"] == {} and after["timers"] == {} and after["sets"] == {}
    assert {k: after["gauges"].get(k) for k in m.gauges} == m.gauges, "gauges must survive a flush"
    agg.send(["queue:+1|g"])
    assert agg.wait_lines(1)["gauges"]["queue"] == pytest.approx(3.5)
    agg.flush()


def test_timers_and_sets(agg):
    assert agg, "aggregator did not start"
    agg.flush()
    m = Model()
    rng = random.Random(9)
    lines = []
    for name, n in (("db", 37), ("odd", 5), ("even", 4), ("one", 1)):
        for _ in range(n):
            v = round(rng.uniform(0, 500), 3)
            lines.append(f"{name}:{v}|ms" + ("|@0.5" if rng.random() < 0.2 else ""))
            m.good(name, "ms", v)
    for _ in range(60):
        u = f"user{rng.randrange(25)}"
        lines.append(f"users:{u}|s")
        m.good("users", "s", u)
    lines.append("tags:a:b|s")
    m.good("tags", "s", "a:b")
    rng.shuffle(lines)
    for i in range(0, len(lines), 20):
        agg.send(lines[i:i + 20])
    same(agg.wait_lines(len(lines)), m.report())
    same(agg.flush(), m.report())


def test_bad_lines_counted_and_rest_processed(agg):
    assert agg, "aggregator did not start"
    agg.flush()
    m = Model()
    good = [("ok", "c", 2.0), ("ok", "c", 5.0)]
    bad = ["nocolon|c", "x:1|q", "x:abc|c", "x:1|c|0.5", "x:1|c|@0", "x:1|c|@1.5", "x:nan|c", "x:inf|g",
           "x:1_000|c", "t:-2|ms", "s:|s", "bad name:1|c", "x:1|c|@0.5|extra", ":1|c", "x:0x10|c"]
    agg.send(["ok:2|c"] + bad + ["", "ok:5|c", ""])
    for name, kind, v in good:
        m.good(name, kind, v)
    for _ in bad:
        m.badline()
    same(agg.wait_lines(len(good) + len(bad)), m.report())
    # a name keeps its type until the next flush
    agg.flush()
    m.reset()
    agg.send(["mix:1|c", "mix:3|ms", "mix:1|c"])
    m.good("mix", "c", 1.0), m.badline(), m.good("mix", "c", 1.0)
    same(agg.wait_lines(3), m.report())
    agg.flush()
    m.reset()
    agg.send(["mix:3|ms"])
    m.good("mix", "ms", 3.0)
    same(agg.wait_lines(1), m.report())
    agg.flush()


def test_many_clients_and_flush_intervals(agg):
    assert agg, "aggregator did not start"
    agg.flush()
    rng = random.Random(2026)
    m = Model()
    m.gauges = {}
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]
    for interval in range(3):
        lines = []
        for _ in range(400):
            r = rng.random()
            if r < 0.4:
                name, v, rate = f"c{rng.randrange(6)}", rng.randint(-3, 9), rng.choice([1, 1, 0.5, 0.1])
                lines.append(f"{name}:{v}|c" + ("" if rate == 1 else f"|@{rate}"))
                m.good(name, "c", v, rate)
            elif r < 0.6:
                name = f"g{rng.randrange(3)}"
                if rng.random() < 0.5:
                    d = rng.choice(["+", "-"]) + str(rng.randint(0, 5))
                    lines.append(f"{name}:{d}|g")
                    m.good(name, "g", (float(d),))
                else:
                    v = rng.randint(0, 100)
                    lines.append(f"{name}:{v}|g")
                    m.good(name, "g", float(v))
            elif r < 0.8:
                name, v = f"t{rng.randrange(3)}", rng.randint(0, 1000) / 10
                lines.append(f"{name}:{v}|ms")
                m.good(name, "ms", v)
            else:
                name, v = f"s{rng.randrange(2)}", f"v{rng.randrange(40)}"
                lines.append(f"{name}:{v}|s")
                m.good(name, "s", v)
        # names are sent per client in order, so gauge deltas and sets arrive in the modelled order per name
        for i in range(0, len(lines), 25):
            agg.send(lines[i:i + 25], socks[(i // 25) % 4])
            if i % 100 == 75:
                agg.wait_lines(i + 25)
        got = agg.wait_lines(len(lines))
        same(got, m.report())
        flushed = agg.commands("peek", "flush", "bogus")
        assert flushed[2] == {"error": "unknown command"}
        same(flushed[1], m.report())
        m.reset()
    for s in socks:
        s.close()
