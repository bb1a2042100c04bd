"""Writes a systemd Journal Export Format stream (text and binary fields) with sudo events among noise, and
the expected sudo audit."""
import os
import random
import struct
from datetime import datetime, timezone


def field(k, v):
    b = v.encode() if isinstance(v, str) else v
    if b"\n" in b or any(c < 0x20 and c != 0x09 for c in b):
        return k.encode() + b"\n" + struct.pack("<Q", len(b)) + b + b"\n"
    return k.encode() + b"=" + b + b"\n"


def iso(us):
    return datetime.fromtimestamp(us // 1_000_000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S") + \
        ".%06dZ" % (us % 1_000_000)


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    t = (1790000000 + r.randint(0, 9_000_000)) * 1_000_000
    hosts = ["web03", "db01"]
    users = ["alice", "bob", "deploy", "mallory"]
    cmds = ["/usr/bin/id", "/usr/bin/systemctl restart nginx", "/usr/bin/apt-get update",
            "/bin/bash", "/usr/bin/tee /etc/sudoers.d/90-x", "/usr/bin/cat /etc/shadow",
            "/usr/bin/find / -name *.key ; echo done", "/usr/bin/vim /etc/hosts"]
    entries, exp = [], []
    for i in range(90):
        t += r.randint(1_000_000, 90_000_000) + r.randint(0, 999_999)
        host = r.choice(hosts)
        kind = r.random()
        e = [("__CURSOR", f"s=abc;i={i:x};b=1;m={t:x};t={t:x};x=f{i}"), ("__REALTIME_TIMESTAMP", str(t)),
             ("__MONOTONIC_TIMESTAMP", str(t // 7)), ("_BOOT_ID", "0" * 31 + "1"), ("_HOSTNAME", host)]
        if kind < 0.45:
            u = r.choice(users)
            runas = r.choice(["root", "root", "postgres"])
            tty = r.choice(["pts/0", "pts/1", "pts/3", "unknown"])
            pwd = r.choice([f"/home/{u}", "/tmp", "/var/www"])
            cmd = r.choice(cmds)
            res, reason = "ok", None
            k2 = r.random()
            if k2 < 0.15:
                n = r.randint(1, 3)
                msg = f"{u} : {n} incorrect password attempt{'s' if n > 1 else ''} ; TTY={tty} ; PWD={pwd} ; USER={runas} ; COMMAND={cmd}"
                res, reason = "denied", "incorrect password"
            elif k2 < 0.25:
                msg = f"{u} : user NOT in sudoers ; TTY={tty} ; PWD={pwd} ; USER={runas} ; COMMAND={cmd}"
                res, reason = "denied", "not in sudoers"
            elif k2 < 0.32:
                msg = f"{u} : command not allowed ; TTY={tty} ; PWD={pwd} ; USER={runas} ; COMMAND={cmd}"
                res, reason = "denied", "command not allowed"
            else:
                if k2 > 0.9:   # a forged-looking command with an embedded newline (binary field)
                    cmd = "/usr/bin/echo ok\nDec  5 10:00:00 web03 sudo: alice : TTY=pts/0 ; PWD=/ ; USER=root ; COMMAND=/usr/bin/true"
                elif k2 > 0.85:
                    cmd = "/usr/bin/printf \x1b[2J"
                msg = f"{u} : TTY={tty} ; PWD={pwd} ; USER={runas} ; COMMAND={cmd}"
            e += [("SYSLOG_IDENTIFIER", "sudo"), ("_COMM", "sudo"), ("_PID", str(r.randint(1000, 60000))),
                  ("PRIORITY", "5" if res == "ok" else "2"), ("MESSAGE", msg)]
            exp.append({"time": iso(t), "host": host, "user": u, "runas": runas, "tty": tty, "pwd": pwd,
                        "command": cmd, "result": res, "reason": reason})
        elif kind < 0.55:
            u = r.choice(users)
            e += [("SYSLOG_IDENTIFIER", "sudo"), ("_COMM", "sudo"),
                  ("MESSAGE", f"pam_unix(sudo:session): session opened for user root(uid=0) by {u}(uid=1000)")]
        elif kind < 0.75:
            e += [("SYSLOG_IDENTIFIER", "sshd"), ("_COMM", "sshd"),
                  ("MESSAGE", f"Accepted publickey for {r.choice(users)} from 10.0.0.{r.randint(2, 99)} port "
                              f"{r.randint(30000, 60000)} ssh2")]
        elif kind < 0.85:
            e += [("SYSLOG_IDENTIFIER", "kernel"), ("_TRANSPORT", "kernel"),
                  ("MESSAGE", "audit: type=1400 apparmor=\"DENIED\" operation=\"open\"\n\nSYSLOG_IDENTIFIER=sudo")]
        else:
            e += [("SYSLOG_IDENTIFIER", "CRON"), ("_COMM", "cron"),
                  ("MESSAGE", f"({r.choice(users)}) CMD (sudo -n /usr/local/bin/backup.sh)")]
        entries.append(b"".join(field(k, v) for k, v in e))
    with open(os.path.join(out, "journal.export"), "wb") as f:
        f.write(b"\n".join(entries) + b"\n")
    return exp
