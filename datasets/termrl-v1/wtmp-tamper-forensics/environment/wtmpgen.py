"""Simulates a Linux host's login accounting (wtmp, lastlog, auth.log, passwd) with optional tampering.

build(seed, outdir, tamper=True) writes the case files and returns the expected report.
"""
import os
import random
import struct
from datetime import datetime, timedelta, timezone

EMPTY, RUN_LVL, BOOT_TIME, NEW_TIME, OLD_TIME, INIT_PROCESS, LOGIN_PROCESS, USER_PROCESS, DEAD_PROCESS = range(9)
FMT = "<h2xi32s4s32s256shhi2i16s20s"
assert struct.calcsize(FMT) == 384
LL = "<i32s256s"
assert struct.calcsize(LL) == 292


def iso(t):
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def pack(r):
    addr = bytes(int(x) for x in r["host"].split(".")) + bytes(12) if r["host"].count(".") == 3 else bytes(16)
    return struct.pack(FMT, r["type"], r["pid"], r["line"].encode(), r["id"].encode(), r["user"].encode(),
                       r["host"].encode(), 0, 0, r.get("session", 0), r["t"], r.get("usec", 0), addr, bytes(20))


def analyse(files, accepted, lastlog, uids):
    """The rules of the instruction applied to the final files (files: [(name, bytes)])."""
    recs, zeroed, truncated = [], [], []
    for name, data in files:
        n = len(data) // 384
        if len(data) % 384:
            truncated.append(name)
        for i in range(n):
            raw = data[i * 384:(i + 1) * 384]
            if raw == bytes(384):
                zeroed.append({"file": name, "index": i})
                continue
            f = struct.unpack(FMT, raw)
            s = lambda b: b.split(b"\0", 1)[0].decode()  # noqa: E731
            recs.append({"file": name, "index": i, "type": f[0], "pid": f[1], "line": s(f[2]), "user": s(f[4]),
                         "host": s(f[5]), "t": f[9]})
    out_of_order, prev = [], None
    for r in recs:
        if prev is not None and r["t"] < prev["t"] and not (r["type"] == NEW_TIME and prev["type"] == OLD_TIME):
            out_of_order.append({"file": r["file"], "index": r["index"]})
        prev = r
    sessions, open_, orphans = [], {}, []

    def close(s, t, how):
        s["logout"], s["end"] = (iso(t) if t is not None else None), how

    for r in recs:
        if r["type"] == USER_PROCESS and r["user"]:
            if r["line"] in open_:
                close(open_.pop(r["line"]), r["t"], "gone")
            s = {"user": r["user"], "line": r["line"], "host": r["host"], "login": iso(r["t"]), "logout": None,
                 "end": "still-logged-in"}
            sessions.append(s)
            open_[r["line"]] = s
        elif r["type"] == DEAD_PROCESS:
            if r["line"] in open_:
                close(open_.pop(r["line"]), r["t"], "logout")
            else:
                orphans.append({"file": r["file"], "index": r["index"], "line": r["line"]})
        elif r["type"] == BOOT_TIME or (r["type"] == RUN_LVL and r["user"] == "shutdown"):
            for line in list(open_):
                close(open_.pop(line), r["t"], "crash" if r["type"] == BOOT_TIME else "down")
    logins = [r for r in recs if r["type"] == USER_PROCESS and r["user"]]
    used, missing = set(), []
    for t, user, host in sorted(accepted):
        cand = [k for k, r in enumerate(logins) if k not in used and r["user"] == user and r["host"] == host
                and 0 <= r["t"] - t <= 5]
        if cand:
            used.add(min(cand, key=lambda k: (logins[k]["t"], k)))
        else:
            missing.append({"user": user, "host": host, "time": iso(t)})
    first = recs[0]["t"] if recs else None
    mism = []
    for user, uid in sorted(uids.items()):
        ll = lastlog.get(uid, 0)
        if not ll or first is None or ll < first:
            continue
        mine = [r["t"] for r in logins if r["user"] == user]
        last = max(mine) if mine else None
        if last != ll:
            mism.append({"user": user, "lastlog": iso(ll), "wtmp": iso(last) if last is not None else None})
    return {"sessions": sessions, "zeroed_records": zeroed, "out_of_order": out_of_order,
            "orphan_logouts": orphans, "missing_logins": missing, "lastlog_mismatch": mism,
            "truncated": truncated}


def build(seed, out, tamper=True):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    hostname = r.choice(["web03", "db-2", "bastion", "build7", "mail1"])
    names = r.sample(["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
                      "mallory", "oscar", "peggy", "trent", "victor", "walter"], 6)
    users = {"root": 0}
    for i, n in enumerate(names):
        users[n] = 1000 + i
    attacker_user = names[-1]
    staff = names[:-1]
    home_ips = {n: f"10.{r.randint(1, 250)}.{r.randint(0, 255)}.{r.randint(2, 254)}" for n in staff}
    evil_ip = f"198.51.100.{r.randint(2, 254)}"
    tzmin = r.choice([60, 120, -300, 330, -240])
    recs, accepted, ll = [], [], {}
    t = int(datetime(2026, r.randint(2, 10), r.randint(1, 25), 7, 0, tzinfo=timezone.utc).timestamp())
    pid = [r.randint(400, 900)]
    kernel = f"6.1.0-{r.randint(18, 28)}-amd64"

    def newpid():
        pid[0] += r.randint(3, 60)
        return pid[0]

    def add(typ, line, user, host, tt, ident=None, **kw):
        d = {"type": typ, "pid": kw.pop("pid", newpid()), "line": line, "id": ident or line[-4:], "user": user,
             "host": host, "t": tt, "usec": r.randint(0, 999999)}
        d.update(kw)
        recs.append(d)
        return d

    open_pts, open_tty = {}, {}

    def boot():
        nonlocal t
        add(BOOT_TIME, "~", "reboot", kernel, t, "~~", pid=0)
        t += r.randint(3, 9)
        add(RUN_LVL, "~", "runlevel", kernel, t, "~~", pid=53)
        t += r.randint(1, 4)
        add(LOGIN_PROCESS, "tty1", "LOGIN", "", t, "tty1")
        open_pts.clear()
        open_tty.clear()

    def ssh_login(user, host, tag=None):
        nonlocal t
        t += r.randint(30, 4000)
        sp = newpid()
        accepted.append((t, user, host))
        n = 0
        while f"pts/{n}" in open_pts:
            n += 1
        line = f"pts/{n}"
        t += r.randint(0, 2)
        rec = add(USER_PROCESS, line, user, host, t, f"ts/{n}", pid=sp + 2, tag=tag)
        open_pts[line] = rec
        ll[users[user]] = t
        return line

    def ssh_logout(line, tag=None):
        nonlocal t
        t += r.randint(60, 9000)
        rec = open_pts.pop(line)
        return add(DEAD_PROCESS, line, "", "", t, rec["id"], pid=rec["pid"], tag=tag)

    def console(user):
        nonlocal t
        t += r.randint(60, 3000)
        add(USER_PROCESS, "tty1", user, "", t, "tty1")
        ll[users[user]] = t
        t += r.randint(60, 1800)
        add(DEAD_PROCESS, "tty1", "", "", t, "tty1")
        t += 1
        add(LOGIN_PROCESS, "tty1", "LOGIN", "", t, "tty1")

    # an old login of one staff member long before the wtmp coverage (lastlog only)
    ll[users[staff[-1]]] = t - r.randint(40, 90) * 86400
    boot()
    plan = []
    for day in range(6):
        plan += ["ssh"] * r.randint(3, 5) + ["console"] * (day % 3 == 0)
        if day == 1:
            plan.append("clock")
        if day == 2:
            plan.append("shutdown")
        if day == 3:
            plan.append("attack1")
        if day == 4:
            plan += ["gone", "crash"]
        if day == 5:
            plan.append("attack2")
    evidence_tags = {}
    for step in plan:
        if step == "ssh":
            u = r.choice(staff[:-1])
            line = ssh_login(u, home_ips[u])
            if r.random() < 0.6 or len(open_pts) > 3:
                ssh_logout(line)
        elif step == "console":
            console("root")
        elif step == "clock":
            t += r.randint(100, 900)
            add(OLD_TIME, "|", "", "", t, "", pid=0)
            t -= r.randint(600, 5400)
            add(NEW_TIME, "{", "", "", t, "", pid=0)
        elif step == "shutdown":
            t += r.randint(100, 2000)
            add(RUN_LVL, "~", "shutdown", kernel, t, "~~", pid=0)
            t += r.randint(60, 600)
            boot()
        elif step == "crash":
            t += r.randint(1000, 20000)
            boot()
        elif step == "gone":
            u = r.choice(staff[:-1])
            ssh_login(u, home_ips[u])
            # sshd was killed: no DEAD_PROCESS; the line is reused later by a new login
            line = max(open_pts)
            open_pts.pop(line)
            t += r.randint(200, 2000)
            accepted.append((t, staff[0], home_ips[staff[0]]))
            rec = add(USER_PROCESS, line, staff[0], home_ips[staff[0]], t + 1, "ts/" + line[4:])
            t += 1
            open_pts[line] = rec
            ll[users[staff[0]]] = t
        elif step in ("attack1", "attack2"):
            line = ssh_login(attacker_user, evil_ip, tag=step + "-in")
            ssh_logout(line, tag=step + "-out")
    # a few sessions stay open at the end
    for _ in range(2):
        u = r.choice(staff[:-1])
        ssh_login(u, home_ips[u])

    # --- tampering -------------------------------------------------------------------------------
    removed = set()
    zero_ids = set()
    if tamper:
        zero_ids.add(id(next(x for x in recs if x.get("tag") == "attack1-in")))
        for x in recs:
            if x.get("tag") in ("attack2-in", "attack2-out"):
                removed.add(id(x))
        # backdate one ordinary logout by days
        cands = [k for k, x in enumerate(recs) if x["type"] == DEAD_PROCESS and x["line"].startswith("pts/")
                 and not x.get("tag") and k > 0 and recs[k - 1]["type"] != OLD_TIME]
        k = r.choice(cands)
        recs[k]["t"] -= r.randint(2, 30) * 86400
    else:
        # a clean host's attacker-free history: the attacker user's sessions are ordinary
        pass
    blobs = []
    for x in recs:
        if id(x) in removed:
            continue
        blobs.append(bytes(384) if id(x) in zero_ids else pack(x))
    cut = r.randint(len(blobs) // 3, len(blobs) // 2)
    # rotate at a boot record so that no session crosses the rotation... except by chance; that is fine
    old, cur = b"".join(blobs[:cut]), b"".join(blobs[cut:])
    if tamper:
        cur += pack(recs[-1])[:r.choice([96, 150, 200])]
    with open(os.path.join(out, "wtmp.1"), "wb") as f:
        f.write(old)
    with open(os.path.join(out, "wtmp"), "wb") as f:
        f.write(cur)

    # lastlog: sparse, indexed by UID
    with open(os.path.join(out, "lastlog"), "wb") as f:
        for uid, tt in sorted(ll.items()):
            f.seek(uid * 292)
            user = next(n for n, u in users.items() if u == uid)
            line, host = ("tty1", "") if user == "root" else ("pts/0", home_ips.get(user, evil_ip))
            f.write(struct.pack(LL, tt, line.encode(), host.encode()))
        f.truncate(max(users.values()) * 292 + 292)

    with open(os.path.join(out, "passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
        for n in names:
            f.write(f"{n}:x:{users[n]}:{users[n]}:{n.title()},,,:/home/{n}:/bin/bash\n")
        f.write("sshd:x:105:65534::/run/sshd:/usr/sbin/nologin\n")

    # auth.log: local time with offset; noise lines that are not interactive logins
    tz = timezone(timedelta(minutes=tzmin))
    lines = []

    def stamp(tt):
        return datetime.fromtimestamp(tt + r.randint(0, 999999) / 1e6, tz).isoformat(timespec="microseconds")

    for tt, user, host in accepted:
        sp = r.randint(2000, 60000)
        how = r.choice(["publickey", "password", "publickey"])
        extra = f": ED25519 SHA256:{''.join(r.choice('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijk0123456789+/') for _ in range(43))}" \
            if how == "publickey" else ""
        lines.append((tt, f"{hostname} sshd[{sp}]: Accepted {how} for {user} from {host} port {r.randint(30000, 65000)} ssh2{extra}"))
        lines.append((tt, f"{hostname} sshd[{sp}]: pam_unix(sshd:session): session opened for user {user}(uid={users[user]}) by (uid=0)"))
    t0, t1 = recs[0]["t"], recs[-1]["t"]
    for _ in range(25):
        tt = r.randint(t0, t1)
        kind = r.random()
        if kind < 0.4:
            lines.append((tt, f"{hostname} sshd[{r.randint(2000, 60000)}]: Failed password for invalid user admin from 203.0.113.{r.randint(2, 250)} port {r.randint(30000, 65000)} ssh2"))
        elif kind < 0.7:
            u = r.choice(staff)
            lines.append((tt, f"{hostname} sudo: {u} : TTY=pts/0 ; PWD=/home/{u} ; USER=root ; COMMAND=/usr/bin/systemctl restart nginx"))
        else:
            lines.append((tt, f"{hostname} CRON[{r.randint(2000, 60000)}]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)"))
    lines.sort(key=lambda x: x[0])
    with open(os.path.join(out, "auth.log"), "w") as f:
        for tt, msg in lines:
            f.write(f"{stamp(tt)} {msg}\n")

    files = [("wtmp.1", old), ("wtmp", cur)]
    uids = {n: u for n, u in users.items()}
    exp = analyse(files, accepted, ll, uids)
    # sanity: the planted evidence is what the rules find
    if tamper:
        assert len(exp["zeroed_records"]) == 1 and len(exp["out_of_order"]) == 1, exp
        assert len(exp["missing_logins"]) == 2 and exp["truncated"] == ["wtmp"], exp
        assert [m["user"] for m in exp["lastlog_mismatch"]] == [attacker_user], exp
        assert len(exp["orphan_logouts"]) == 1, exp
    else:
        assert not any(exp[k] for k in ("zeroed_records", "out_of_order", "orphan_logouts", "missing_logins",
                                         "lastlog_mismatch", "truncated")), exp
    return exp


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(build(int(sys.argv[1]), sys.argv[2], tamper=sys.argv[3:] != ["clean"]), indent=1))
