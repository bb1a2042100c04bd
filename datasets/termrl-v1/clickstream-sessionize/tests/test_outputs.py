import csv
import datetime as dt
import json
import random
import subprocess

import pytest

HEADER = ["session_id", "user", "start", "end", "duration_s", "pageviews", "clicks", "landing_page", "exit_page"]


def ref(events):
    per = {}
    for idx, e in enumerate(events):
        per.setdefault(e["user"], []).append((e["_t"], idx, e))
    out = []
    for u, evs in per.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        sess = []
        for t, _, e in evs:
            if sess and t - sess[-1][-1][0] <= 1800 and t - sess[-1][0][0] <= 14400:
                sess[-1].append((t, e))
            else:
                sess.append([(t, e)])
        for n, s in enumerate(sess, 1):
            pv = [e["page"] for _, e in s if e["type"] == "pageview"]
            f = lambda t: dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            out.append(((s[0][0], u, n), [f"{u}-{n}", u, f(s[0][0]), f(s[-1][0]), str(s[-1][0] - s[0][0]),
                                          str(len(pv)), str(sum(e["type"] == "click" for _, e in s)),
                                          pv[0] if pv else "", pv[-1] if pv else ""]))
    return [r for _, r in sorted(out)]


def gen(seed, n=400):
    rng = random.Random(seed)
    users = [rng.choice(["ana", "bo", "chen", "dev ops", "eve,x", "f\"q"]) + str(k) for k in range(rng.randint(3, 9))]
    base = 1_700_000_000
    clock = {u: base + rng.randint(0, 5000) for u in users}
    good, lines = [], []
    for _ in range(n):
        u = rng.choice(users)
        clock[u] += rng.choice([0, 5, 60, 600, 1799, 1800, 1801, 3000, 20000, rng.randint(1, 2500)])
        t = clock[u] - rng.choice([0, 0, 0, 0, 30, 400])
        typ = rng.choice(["pageview", "pageview", "click", "heartbeat"])
        page = rng.choice(["/", "/a", "/b,c", "/docs/x", "/\"q\""])
        form = rng.random()
        if form < 0.4:
            ts = t
        else:
            off = rng.choice([0, 60, -300, 330, 120])
            local = dt.datetime.fromtimestamp(t, dt.timezone(dt.timedelta(minutes=off)))
            ts = local.strftime("%Y-%m-%dT%H:%M:%S") + ("Z" if off == 0 else local.strftime("%z")[:3] + ":" + local.strftime("%z")[3:])
        e = {"user": u, "ts": ts, "type": typ, "page": page}
        junk = rng.random()
        if junk < 0.03:
            lines.append("{broken json")
        elif junk < 0.05:
            del e[rng.choice(["user", "ts", "type", "page"])]
            lines.append(json.dumps(e))
        elif junk < 0.06:
            e["type"] = "scroll"
            lines.append(json.dumps(e))
        elif junk < 0.07:
            lines.append("")
        elif junk < 0.075:
            lines.append("[1, 2]")
        else:
            lines.append(json.dumps(e))
            e["_t"] = t
            good.append(e)
    return lines, good


def run(tmp_path, lines):
    inp = tmp_path / "ev.jsonl"
    inp.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.csv"
    r = subprocess.run(["python3", "/app/sessionize.py", str(inp), str(out)], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    return list(csv.reader(open(out, newline="")))


def test_sample(tmp_path):
    rows = run(tmp_path, open("/app/sample.jsonl").read().splitlines())
    assert rows == [HEADER,
                    ["ana-1", "ana", "2024-03-01T10:00:00Z", "2024-03-01T10:41:00Z", "2460", "2", "1", "/home", "/docs"],
                    ["bo-1", "bo", "2024-03-01T10:10:00Z", "2024-03-01T10:10:00Z", "0", "1", "0", "/pricing", "/pricing"],
                    ["ana-2", "ana", "2024-03-01T11:30:00Z", "2024-03-01T11:30:00Z", "0", "1", "0", "/blog", "/blog"]]


def test_gap_boundary(tmp_path):
    lines = [json.dumps({"user": "u", "ts": t, "type": "pageview", "page": p})
             for t, p in [(1000, "/1"), (2800, "/2"), (4601, "/3")]]
    rows = run(tmp_path, lines)
    assert [r[0] for r in rows[1:]] == ["u-1", "u-2"]
    assert rows[1][4] == "1800"


def test_max_session_length(tmp_path):
    lines = [json.dumps({"user": "w", "ts": 10_000 + 1500 * k, "type": "heartbeat", "page": "/"}) for k in range(12)]
    rows = run(tmp_path, lines)
    assert [(r[0], r[4], r[7]) for r in rows[1:]] == [("w-1", "13500", ""), ("w-2", "1500", "")]


@pytest.mark.parametrize("seed", range(5))
def test_random_streams(tmp_path, seed):
    lines, good = gen(seed)
    rows = run(tmp_path, lines)
    assert rows[0] == HEADER
    assert rows[1:] == ref(good)
