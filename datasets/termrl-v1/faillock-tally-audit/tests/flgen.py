"""Writes pam_faillock tally files (64-byte records), faillock.conf, passwd and group, with the expected
lockout audit computed from the rules in the instruction."""
import os
import random
import struct
from datetime import datetime, timezone

VALID, RHOST, TTY = 1, 2, 4


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(os.path.join(out, "faillock"), exist_ok=True)
    now = 1790000000 + r.randint(0, 9_000_000)
    conf = {"deny": r.choice([3, 4, 5]), "fail_interval": r.choice([600, 900, 1800]),
            "unlock_time": r.choice([0, 900, 1800, 3600]), "even_deny_root": r.random() < 0.6,
            "root_unlock_time": r.choice([None, 60, 600]), "admin_group": r.choice(["wheel", "sudo"])}
    lines = ["# Configuration for locking the user after multiple failed", "# authentication attempts.", "#",
             "# dir = /var/run/faillock", "audit", "silent"]
    lines.append(f"deny = {conf['deny']}")
    lines.append(f"fail_interval={conf['fail_interval']}")
    lines.append(f"  unlock_time = {conf['unlock_time']}")
    if conf["even_deny_root"]:
        lines.append("even_deny_root")
    else:
        lines.append("# even_deny_root")
    if conf["root_unlock_time"] is not None:
        lines.append(f"root_unlock_time = {conf['root_unlock_time']}")
    if conf["admin_group"]:
        lines.append(f"admin_group = {conf['admin_group']}")
    with open(os.path.join(out, "faillock.conf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    users = ["root"] + r.sample(["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"], 7)
    uids = {u: (0 if u == "root" else 1000 + i) for i, u in enumerate(users)}
    admins = set(r.sample(users[1:], 2))
    with open(os.path.join(out, "passwd"), "w") as f:
        for u in users:
            f.write(f"{u}:x:{uids[u]}:{uids[u]}::/home/{u}:/bin/bash\n")
    with open(os.path.join(out, "group"), "w") as f:
        f.write("root:x:0:\n")
        for g in ("wheel", "sudo", "adm"):
            mem = sorted(admins) if g == conf["admin_group"] else r.sample(users[1:], 1)
            f.write(f"{g}:x:{r.randint(4, 40)}:{','.join(mem)}\n")
    exp = []
    for u in users:
        recs = []
        scenario = r.choice(["burst", "old", "spread", "few", "invalid"])
        base = now - r.choice([20, 45, 200, 700, 1300, 2500, 5000])
        k = r.randint(conf["deny"] - 1, conf["deny"] + 3)
        if u == min(admins):                  # an administrator under attack right now
            scenario, base, k = "burst", now - 20, conf["deny"] + 1
        for i in range(k):
            if scenario == "spread":
                t = base - i * r.randint(100, conf["fail_interval"] // 2)
            elif scenario == "old":
                t = base - 86400 - i * 20
            else:
                t = base - i * r.randint(5, 60)
            kind = r.choice(["rhost", "tty", "service"])
            src = {"rhost": f"203.0.113.{r.randint(2, 250)}", "tty": f"/dev/pts/{r.randint(0, 9)}",
                   "service": r.choice(["sshd", "sudo", "login"])}[kind]
            st = VALID | (RHOST if kind == "rhost" else TTY if kind == "tty" else 0)
            if scenario == "invalid" and i % 2 == 0:
                st &= ~VALID
            recs.append((src, st, t))
        if scenario == "few":
            recs = recs[:conf["deny"] - 1]
        r.shuffle(recs)
        with open(os.path.join(out, "faillock", u), "wb") as f:
            for src, st, t in recs:
                b = src.encode()[:52]
                f.write(b + bytes(52 - len(b)) + struct.pack("<HHQ", 0, st, t))
        # expected
        valid = [x for x in recs if x[1] & VALID]
        latest = max((x[2] for x in valid), default=0)
        counted = [x for x in valid if latest - x[2] < conf["fail_interval"]]
        rootlike = uids[u] == 0 or u in admins and conf["admin_group"] is not None
        locked, unlock_at = False, None
        if conf["deny"] and len(counted) >= conf["deny"] and (not rootlike or conf["even_deny_root"]):
            ut = (conf["root_unlock_time"] if conf["root_unlock_time"] is not None else conf["unlock_time"]) \
                if rootlike else conf["unlock_time"]
            if ut and latest + ut < now:
                locked = False
            else:
                locked = True
                unlock_at = iso(latest + ut + 1) if ut else None
        srcs = sorted({("rhost:" if s & RHOST else "tty:" if s & TTY else "service:") + src for src, s, t in counted})
        exp.append({"user": u, "failures": len(counted), "latest": iso(latest) if valid else None,
                    "locked": locked, "unlock_at": unlock_at, "sources": srcs})
    exp.sort(key=lambda e: e["user"])
    assert sum(e["locked"] for e in exp) >= 2 and sum(not e["locked"] for e in exp) >= 2, exp
    return iso(now), exp
