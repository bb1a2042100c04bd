"""Simulates BSD process accounting (struct acct_v3, little-endian) on a busy host, with pid wrap-around
and rotated files, and returns the expected process tree of one login shell."""
import gzip
import os
import random
import struct

AFORK, ASU, ACORE, AXSIG = 0x01, 0x02, 0x08, 0x10
REC = struct.Struct("<BBHIIIIIIfHHHHHHHH16s")
assert REC.size == 64
PID_MAX = 32768


def comp_t(v):
    """Encode a non-negative integer like the kernel's encode_comp_t (13-bit mantissa, base-8 exponent)."""
    exp, rnd = 0, 0
    while v > 0x1FFF:
        rnd = v & (1 << 2)
        v >>= 3
        exp += 1
    if rnd and v + 1 > 0x1FFF:
        v >>= 3
        exp += 1
    elif rnd:
        v += 1
    return (exp << 13) | v


def decode_comp(c):
    return (c & 0x1FFF) << (3 * (c >> 13))


class Sim:
    def __init__(self, r, t0):
        self.r = r
        self.procs = []
        self.nextpid = r.randint(PID_MAX - 900, PID_MAX - 400)
        self.t0 = t0

    def pid(self):
        p = self.nextpid
        self.nextpid += self.r.randint(1, 4)
        if self.nextpid >= PID_MAX:
            self.nextpid = 300 + self.r.randint(0, 40)
        return p

    def spawn(self, parent, comm, start, dur, uid=0, tty=0, flags=0, code=0, cpu=None, record=True, pid=None):
        p = {"pid": pid or self.pid(), "ppid": parent["pid"] if parent else 1, "comm": comm, "start": start,
             "ticks": dur, "uid": uid, "gid": uid, "tty": tty, "flags": flags, "code": code,
             "cpu": min(cpu, dur) if cpu is not None else self.r.randint(0, min(dur, 900)), "record": record,
             "parent": parent}
        self.procs.append(p)
        return p


def build(seed, out, root_exited=False):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    names = r.sample(["alice", "bob", "carol", "deploy", "svc-web", "backup", "jenkins", "ops"], 4)
    uids = {n: 1000 + i for i, n in enumerate(names)}
    uids.update({"root": 0, "www-data": 33})
    intruder = names[0]
    t0 = 1780000000 + r.randint(0, 5_000_000)
    s = Sim(r, t0)

    def noise(tstart, tend, n):
        for _ in range(n):
            t = r.randint(tstart, tend)
            cron = s.spawn(None, "cron", t, r.randint(5, 60), flags=AFORK)
            sh = s.spawn(cron, "sh", t, r.randint(3, 50), uid=r.choice([0, 33]))
            for k in range(r.randint(1, 3)):
                s.spawn(sh, r.choice(["run-parts", "logrotate", "php8.2", "find", "gzip", "date"]), t,
                        r.randint(1, 40), uid=sh["uid"])

    # --- before the intruder: unrelated activity, including a process that holds the root pid early
    noise(t0, t0 + 3000, 40)
    # --- the intruder's session
    tty_minor = r.randint(1, 6)
    tty = (136 << 8) | tty_minor
    tl = t0 + 3600
    sshd = s.spawn(None, "sshd", tl, 100 * r.randint(3000, 5000), uid=0, flags=ASU, record=root_exited)
    sshd["ppid"] = r.randint(600, 900)
    bash = s.spawn(sshd, "bash", tl + 1, 100 * r.randint(2500, 2900), uid=uids[intruder], tty=tty,
                   record=root_exited)
    root = sshd if root_exited else bash
    uid = uids[intruder]
    t = tl + 3
    expect_ids = []

    def cmd(parent, comm, at, ticks, **kw):
        kw.setdefault("uid", uid)
        kw.setdefault("tty", tty)
        p = s.spawn(parent, comm, at, ticks, **kw)
        return p

    for c in ("id", "uname", "w", "ps"):
        cmd(bash, c, t, r.randint(1, 30))
        t += r.randint(2, 20)
    cmd(bash, "curl", t, r.randint(200, 900), code=0)
    t += r.randint(10, 30)
    cmd(bash, "chmod", t, 2)
    t += r.randint(5, 15)
    sub = cmd(bash, "bash", t, 100 * 40, flags=AFORK)          # ( cd /tmp; tar xzf k.tgz; make )
    cmd(sub, "tar", t, r.randint(50, 300))
    mk = cmd(sub, "make", t + 3, 100 * 30)
    for k in range(r.randint(2, 4)):
        cmd(mk, "cc1", t + 4 + 5 * k, r.randint(100, 400), cpu=r.randint(90, 400))
    cmd(mk, "ld", t + 25, r.randint(20, 90))
    t += 45
    su = cmd(bash, "sudo", t, 100 * 200, flags=ASU, uid=uid)
    rs = cmd(su, "bash", t + 2, 100 * 190, uid=0, flags=ASU)
    cmd(rs, "useradd", t + 5, r.randint(10, 60), uid=0, flags=ASU)
    cmd(rs, "crontab", t + 20, r.randint(10, 60), uid=0, flags=ASU)
    cmd(rs, "sshd-helper", t + 40, 100 * 30, uid=0, flags=ASU | AXSIG, code=9)     # killed with SIGKILL
    cmd(rs, "kx", t + 90, 100 * 3, uid=0, flags=AXSIG | ACORE, code=11, cpu=r.randint(50, 300))
    cmd(rs, "rm", t + 150, r.randint(2, 20), uid=0, flags=ASU)
    t += 205
    cmd(bash, "grep", t, r.randint(5, 30), code=1 << 8)       # exit status 1
    t += r.randint(5, 20)
    cmd(bash, "scp", t, r.randint(300, 3000), code=255 << 8)
    t += 60
    long_job = cmd(bash, "python3", t, 100 * 600, cpu=r.randint(20000, 59000))   # comp_t exponent > 0
    cmd(long_job, "sh", t + 100, r.randint(10, 100))
    t += 700

    # --- unrelated activity during the session, including pid reuse of tree pids after they ended
    noise(tl, t + 1200, 80)
    # a different process later gets the pid of the (ended) forked subshell; its child must not join the tree
    s.nextpid = sub["pid"]
    impostor = s.spawn(None, "bash", t + 400, 100 * 20, uid=uids[names[1]], tty=(136 << 8) | (tty_minor + 1))
    s.spawn(impostor, "vim", t + 401, 100 * 15, uid=uids[names[1]], tty=impostor["tty"])
    # the root's pid used by an older process before the session began, with a child
    old = s.spawn(None, "bash", t0 + 100, 100 * 50, uid=uids[names[2]], pid=root["pid"])
    s.spawn(old, "less", t0 + 110, 100 * 20, uid=uids[names[2]])
    if root_exited:
        # after the session ended, the root's pid is reused and the new owner has children
        late = s.spawn(None, "sshd", root["start"] + root["ticks"] // 100 + 30, 100 * 40, pid=root["pid"])
        late["ppid"] = sshd["ppid"]
        s.spawn(late, "bash", late["start"] + 1, 100 * 30, uid=uids[names[3]])
    noise(t + 1300, t + 4000, 40)

    # --- write records in exit order, rotate into three files
    recs = []
    for p in s.procs:
        if not p["record"]:
            continue
        end_ticks = p["start"] * 100 + p["ticks"]
        ut = r.randint(0, p["cpu"])
        raw = REC.pack(p["flags"], 3, p["tty"], p["code"], p["uid"], p["gid"], p["pid"], p["ppid"], p["start"],
                       float(p["ticks"]), comp_t(ut), comp_t(p["cpu"] - ut), comp_t(r.randint(2000, 90000)),
                       0, 0, comp_t(r.randint(50, 5000)), 0, 0, p["comm"].encode()[:16])
        p["utime_dec"] = decode_comp(comp_t(ut))
        p["stime_dec"] = decode_comp(comp_t(p["cpu"] - ut))
        recs.append((end_ticks, r.random(), raw))
    recs.sort()
    n = len(recs)
    a, b = n // 3, 2 * n // 3
    parts = [b"".join(x[2] for x in recs[:a]), b"".join(x[2] for x in recs[a:b]), b"".join(x[2] for x in recs[b:])]
    with open(os.path.join(out, "pacct.1.gz"), "wb") as f:
        f.write(gzip.compress(parts[0], mtime=0))
    with open(os.path.join(out, "pacct.0"), "wb") as f:
        f.write(parts[1])
    with open(os.path.join(out, "pacct"), "wb") as f:
        f.write(parts[2])
    with open(os.path.join(out, "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/bash\nwww-data:x:33:33:www-data:/var/www:/usr/sbin/nologin\n")
        for nm in names:
            f.write(f"{nm}:x:{uids[nm]}:{uids[nm]}::/home/{nm}:/bin/bash\n")

    # --- expected tree
    def under(p):
        d = 0
        while p is not None:
            if p is root:
                return d
            p = p["parent"]
            d += 1
        return None
    byname = {v: k for k, v in uids.items()}
    rows = []
    for p in s.procs:
        d = under(p)
        if d is None or not p["record"]:
            continue
        fl = [n for bit, n in ((AFORK, "fork"), (ASU, "su"), (ACORE, "core"), (AXSIG, "signal")) if p["flags"] & bit]
        sig = p["code"] & 0x7F if p["flags"] & AXSIG else None
        rows.append({"pid": p["pid"], "ppid": p["ppid"], "depth": d, "command": p["comm"],
                     "user": byname.get(p["uid"], str(p["uid"])),
                     "start": p["start"], "elapsed": round(p["ticks"] / 100, 2),
                     "cpu": round((p["utime_dec"] + p["stime_dec"]) / 100, 2),
                     "tty": f"pts/{p['tty'] & 0xFF}" if p["tty"] >> 8 == 136 else None,
                     "exit": None if sig is not None else (p["code"] >> 8) & 0xFF, "signal": sig, "flags": fl})
    rows.sort(key=lambda x: (x["start"], x["pid"]))
    from datetime import datetime, timezone
    for x in rows:
        x["start"] = datetime.fromtimestamp(x["start"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"root": {"pid": root["pid"], "start": datetime.fromtimestamp(root["start"], timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ"), "recorded": root["record"]}, "processes": rows}


if __name__ == "__main__":
    import json
    import sys
    e = build(int(sys.argv[1]), sys.argv[2], root_exited=sys.argv[3:] == ["exited"])
    print(json.dumps(e, indent=1))
