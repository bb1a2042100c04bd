"""The collector is started here with its own configuration; messages are generated here with their expected records."""
import json
import os
import random
import signal
import socket
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

RNG = random.Random(5424)
FAC = ["kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp", "ntp",
       "security", "console", "solaris-cron"] + [f"local{i}" for i in range(8)]
MIN = {"default": 5, "auth": 7, "local3": 2, "kern": 0, "mail": 6}
HOSTS = [f"node{RNG.randrange(100)}.lab", f"web-{RNG.randrange(100)}", "db.example.test"]
TCP_HOSTS = [f"tcp{RNG.randrange(100)}.lab", "app.example.test"]
OUT = Path(tempfile.mkdtemp(prefix="collected"))
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
WORDS = ["login", "failed", "for", "user", "ünïcode", "✓", "disk", "full", "=", "[x]", '"q"', "a\\b", "100%"]


def free_port(kind):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def kept(rec):
    return rec["severity"] <= MIN.get(rec["facility"], MIN["default"])


def token(chars="abcdefghijklmnopqrstuvwxyz0123456789.-_"):
    return "".join(RNG.choice(chars) for _ in range(RNG.randrange(1, 10)))


def sd_escape(v):
    return v.replace("\\", "\\\\").replace('"', '\\"').replace("]", "\\]")


def gen5424(hosts=HOSTS):
    pri = RNG.randrange(192)
    ts = RNG.choice(["-", f"2026-12-0{RNG.randrange(1, 9)}T{RNG.randrange(24):02}:{RNG.randrange(60):02}:"
                          f"{RNG.randrange(60):02}.{RNG.randrange(1000):03}Z", "2026-11-30T23:59:59+01:00"])
    host = RNG.choice(hosts + (["-"] if hosts is HOSTS else []))
    app, procid, msgid = (RNG.choice(["-", token()]) for _ in range(3))
    sd = {}
    for _ in range(RNG.choice([0, 0, 1, 2])):
        sd_id = RNG.choice(["origin", "meta", f"ex@{RNG.randrange(99999)}"])
        sd[sd_id] = {token("abcdefgh"): " ".join(RNG.sample(WORDS, 3)) for _ in range(RNG.randrange(1, 3))}
    sd_text = "".join("[" + k + "".join(f' {p}="{sd_escape(v)}"' for p, v in ps.items()) + "]" for k, ps in sd.items()) or "-"
    msg = RNG.choice([None, "", " ".join(RNG.sample(WORDS, 4))])
    bom = msg and RNG.random() < 0.3
    raw = f"<{pri}>1 {ts} {host} {app} {procid} {msgid} {sd_text}".encode()
    if msg is not None:
        raw += b" " + (b"\xef\xbb\xbf" if bom else b"") + msg.encode()
    nil = lambda v: None if v == "-" else v
    rec = {"format": "5424", "facility": FAC[pri // 8], "severity": pri % 8, "timestamp": nil(ts), "hostname": nil(host),
           "app": nil(app), "procid": nil(procid), "msgid": nil(msgid), "sd": sd, "msg": msg or ""}
    return raw, rec


def gen3164(hosts=HOSTS):
    pri = RNG.randrange(192)
    ts = f"{RNG.choice(MONTHS)} {RNG.randrange(1, 32):>2} {RNG.randrange(24):02}:{RNG.randrange(60):02}:{RNG.randrange(60):02}"
    host, app = RNG.choice(hosts), RNG.choice(["sshd", "CRON", "kernel", "postfix/smtpd"])
    pid = RNG.choice([None, str(RNG.randrange(1, 40000))])
    msg = " ".join(RNG.sample(WORDS, 5))
    raw = f"<{pri}>{ts} {host} {app}{f'[{pid}]' if pid else ''}: {msg}".encode()
    rec = {"format": "3164", "facility": FAC[pri // 8], "severity": pri % 8, "timestamp": ts, "hostname": host,
           "app": app, "procid": pid, "msgid": None, "sd": {}, "msg": msg}
    return raw, rec


INVALID = [b"<192>1 - host app - - - too high", b"no pri at all", b"<>1 - h a - - -", b"<1234>1 - h a - - - x",
           b"<13>1 2026-12-01T00:00:00Z host-only", b'<13>1 - h a - - [id p=unquoted] msg', b'<13>1 - h a - - [id p="open',
           b"<13>Dec 1 10:00:00 host app: one-digit day", b"<13>just some text", b"<13>1 - h a - - -x"]


@pytest.fixture(scope="module")
def col():
    udp, tcp = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_STREAM)
    conf = OUT.parent / (OUT.name + ".json")
    conf.write_text(json.dumps({"udp_port": udp, "tcp_port": tcp, "out_dir": str(OUT), "min_severity": MIN}))
    proc = subprocess.Popen(["bash", "/app/collector/run.sh"], cwd="/", start_new_session=True,
                            env=dict(os.environ, COLLECTOR_CONFIG=str(conf)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok, deadline = False, time.time() + 30
    while not ok and time.time() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", tcp), timeout=1).close()
            ok = True
        except OSError:
            time.sleep(0.1)
    yield (udp, tcp) if ok else None
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def lines():
    out = {}
    for p in OUT.rglob("*.jsonl"):
        out[str(p.relative_to(OUT))] = [json.loads(l) for l in p.read_text(encoding="utf-8").splitlines()]
    return out


def wait_for(n):
    """Polls (bounded) until n lines were written since the current test began (wherever they went),
    then returns the files of the current test."""
    deadline = time.time() + 30
    while True:
        everything = lines()
        if sum(len(v) for v in everything.values()) - BASE[0] >= n or time.time() > deadline:
            return {f: v for f, v in everything.items() if f.split("/")[0] in SCOPE}
        time.sleep(0.1)


def where(rec):
    return f"{rec['hostname'] if rec['hostname'] is not None else '-'}/{rec['facility']}.jsonl"


EXPECTED = Counter()  # (file, json) of every line the current test must find
SCOPE = set()         # the top-level names (host directories, _invalid.jsonl) the current test writes to


BASE = [0]


def scope(*names):
    EXPECTED.clear()
    SCOPE.clear()
    SCOPE.update(names)
    BASE[0] = sum(len(v) for v in lines().values())


def expect(raw, rec):
    if rec is None:
        EXPECTED[("_invalid.jsonl", json.dumps({"raw": raw.decode("utf-8", "replace")}, sort_keys=True))] += 1
    elif kept(rec):
        EXPECTED[(where(rec), json.dumps(rec, sort_keys=True))] += 1


def check_all():
    got = Counter()
    for f, recs in wait_for(sum(EXPECTED.values())).items():
        for r in recs:
            got[(f, json.dumps(r, sort_keys=True))] += 1
    missing, extra = EXPECTED - got, got - EXPECTED
    assert not missing and not extra, (sorted(missing)[:3], sorted(extra)[:3])


def test_udp_messages(col):
    assert col, "the collector did not start"
    scope(*HOSTS, "-")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for batch in range(6):
        for _ in range(20):
            raw, rec = (gen5424 if RNG.random() < 0.6 else gen3164)()
            s.sendto(raw + (b"\n" if RNG.random() < 0.3 else b""), ("127.0.0.1", col[0]))
            expect(raw, rec)
        wait_for(sum(EXPECTED.values()))  # small batches: nothing is lost to a full socket buffer
    check_all()


def test_invalid_messages(col):
    assert col, "the collector did not start"
    scope("_invalid.jsonl")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for raw in INVALID + [b"\xff<13>x"]:
        s.sendto(raw, ("127.0.0.1", col[0]))
        expect(raw, None)
        wait_for(sum(EXPECTED.values()))
    check_all()


def test_tcp_mixed_framing(col):
    assert col, "the collector did not start"
    scope(*TCP_HOSTS)
    conns = [socket.create_connection(("127.0.0.1", col[1]), timeout=20) for _ in range(2)]
    sent = [[], []]
    for i in range(80):
        k = i % 2
        raw, rec = (gen5424 if RNG.random() < 0.6 else gen3164)(TCP_HOSTS)
        if rec["format"] == "5424" and rec["msg"] and RNG.random() < 0.5:  # a newline needs octet counting
            raw += b"\nsecond line"
            rec["msg"] += "\nsecond line"
        if b"\n" in raw or RNG.random() < 0.5:
            frame = str(len(raw)).encode() + b" " + raw
        else:
            frame = raw + b"\n"
        conns[k].sendall(frame)
        expect(raw, rec)
        if kept(rec):
            sent[k].append(rec)
    for c in conns:
        c.close()
    check_all()
    got = lines()
    for k in range(2):  # one connection's messages keep their order in each file
        for f in {where(r) for r in sent[k]}:
            want = [r for r in sent[k] if where(r) == f]
            have = [r for r in got[f] if r in want]
            assert have == want, f


def test_filters_and_routing(col):
    assert col, "the collector did not start"
    scope("routed.test")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    cases = []
    for fac in (0, 2, 4, 19, 9, 23):
        for sev in range(8):
            pri = fac * 8 + sev
            raw = f"<{pri}>1 - routed.test app 42 ID{pri} - pri {pri}".encode()
            rec = {"format": "5424", "facility": FAC[fac], "severity": sev, "timestamp": None, "hostname": "routed.test",
                   "app": "app", "procid": "42", "msgid": f"ID{pri}", "sd": {}, "msg": f"pri {pri}"}
            s.sendto(raw, ("127.0.0.1", col[0]))
            expect(raw, rec)
            cases.append(rec)
        wait_for(sum(EXPECTED.values()))
    check_all()
    got = lines()
    for fac in ("kern", "mail", "auth", "local3", "cron", "local7"):
        sevs = sorted(r["severity"] for r in got.get(f"routed.test/{fac}.jsonl", []))
        assert sevs == list(range(MIN.get(fac, MIN["default"]) + 1)), (fac, sevs)
