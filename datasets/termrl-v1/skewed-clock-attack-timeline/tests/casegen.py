"""Generates an incident case (firewall log + host logs with skewed clocks) and its true timeline."""
import datetime as dt
import json
import os
import random

MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def iso(sec):
    return dt.datetime.fromtimestamp(sec, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def syslog_ts(sec):
    t = dt.datetime.fromtimestamp(sec, dt.timezone.utc)
    return f"{MON[t.month - 1]} {t.day:2d} {t:%H:%M:%S}"


def access_ts(sec, tz):
    sign = 1 if tz[0] == "+" else -1
    off = sign * (int(tz[1:3]) * 3600 + int(tz[3:5]) * 60)
    t = dt.datetime.fromtimestamp(sec + off, dt.timezone.utc)
    return f"{t.day:02d}/{MON[t.month - 1]}/{t.year}:{t:%H:%M:%S} {tz}"


def make_case(path, seed, attacker="203.0.113.9", start=None, hosts=None, n_conn=60):
    """Writes the case to `path`; returns (offsets {name: d}, expected output lines for `attacker`)."""
    rng = random.Random(seed)
    os.makedirs(path, exist_ok=True)
    decoy = attacker + "0"                      # 203.0.113.90: a different address sharing a prefix
    near = attacker[: attacker.rfind(".") + 1] + str(int(attacker.rsplit(".", 1)[1]) + 1)
    others = [decoy, near, "198.18.4.21", "192.0.2.77", "10.0.9.14"]
    if hosts is None:
        hosts = [("10.0.0.5", "db01", "syslog", rng.randint(-5400, 5400), None),
                 ("10.0.0.8", "web01", "access", rng.randint(-900, 900), rng.choice(["+0100", "-0500", "+0530", "+0000"])),
                 ("10.0.0.6", "bastion", "syslog", rng.randint(-120, 120), None)]
    t = start if start is not None else 1795048200 + rng.randint(0, 3 * 3600)   # 2026-11-19 ~00:30 UTC
    fw, logs, truth = [], {h[1]: [] for h in hosts}, []
    used_ports = set()
    first = {h[1]: True for h in hosts}
    for i in range(n_conn):
        t += rng.uniform(1, 75)
        src = attacker if rng.random() < 0.4 else rng.choice(others)
        dst, name, kind, d, tz = rng.choice(hosts)
        while True:
            sport = rng.randint(32768, 60999)
            if (src, sport) not in used_ports:
                used_ports.add((src, sport))
                break
        action = "drop" if rng.random() < 0.15 else "accept"
        ms = int(t * 1000)
        fw.append({"t": dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.")
                   + f"{ms % 1000:03d}Z", "src": src, "sport": sport, "dst": dst,
                   "dport": 22 if kind == "syslog" else 443, "action": action})
        if src == attacker:
            truth.append((ms // 1000, 0, len(truth), f"fw {action} {src}:{sport} -> {dst}:{fw[-1]['dport']}"))
        if action == "drop":
            continue
        delay = 0.0 if first[name] else rng.uniform(0, 1.99)
        first[name] = False
        when = t + delay
        rank = 1 + [h[1] for h in hosts].index(name)
        if kind == "syslog":
            pid = rng.randint(300, 30000)
            msgs = []
            for _ in range(rng.randint(0, 3)):
                msgs.append(f"sshd[{pid}]: Failed password for {rng.choice(['root', 'admin', 'deploy'])} from {src} port {sport} ssh2")
            if rng.random() < 0.5:
                msgs.append(f"sshd[{pid}]: Accepted password for deploy from {src} port {sport} ssh2")
                msgs.append(f"sshd[{pid}]: pam_unix(sshd:session): session opened for user deploy(uid=1000) by (uid=0)")
            else:
                msgs.append(f"sshd[{pid}]: Connection closed by authenticating user root {src} port {sport} [preauth]")
            for m in msgs:
                sec = int(when)
                logs[name].append((sec + d, f"{syslog_ts(sec + d)} {name} {m}", sec, m, src if f" {src} " in m else None))
                when += rng.uniform(0.2, 2.5)
            if rng.random() < 0.3:
                sec = int(when) + 1
                logs[name].append((sec + d, f"{syslog_ts(sec + d)} {name} CRON[{pid + 7}]: (root) CMD (/usr/lib/sa/sa1 1 1)",
                                   sec, None, None))
        else:
            sec = int(when)
            pathq = rng.choice(["/", "/login", "/admin/", "/wp-login.php", "/api/v1/orders?id=1%27%20OR%201=1",
                                f"/static/app.js?from={decoy}"])
            line = (f'{src}:{sport} - - [{access_ts(sec + d, tz)}] "GET {pathq} HTTP/1.1" '
                    f'{rng.choice([200, 302, 403, 404, 500])} {rng.randint(0, 9000)} "-" "Mozilla/5.0"')
            logs[name].append((sec + d, line, sec, line, src))
    assert not any(first.values()), "every host needs an accepted connection"
    with open(os.path.join(path, "fw.jsonl"), "w") as f:
        for r in fw:
            f.write(json.dumps(r) + "\n")
    meta = {}
    for dst, name, kind, d, tz in hosts:
        fname = f"{name}-{'auth' if kind == 'syslog' else 'access'}.log"
        meta[dst] = {"name": name, "kind": kind, "log": fname}
        entries = sorted(logs[name], key=lambda e: e[0])          # a host writes in its own clock order
        with open(os.path.join(path, fname), "w") as f:
            for k, (_, text, sec, msg, src) in enumerate(entries):
                f.write(text + "\n")
                if src == attacker:
                    truth.append((sec, 1 + [h[1] for h in hosts].index(name), k, f"{name} {msg}"))
    with open(os.path.join(path, "hosts.json"), "w") as f:
        json.dump(meta, f, indent=2)
    truth.sort(key=lambda e: e[:3])
    header = [f"# offset {h[1]} {h[3]}" for h in hosts]
    return {h[1]: h[3] for h in hosts}, header + [f"{iso(sec)} {text}" for sec, _, _, text in truth]
