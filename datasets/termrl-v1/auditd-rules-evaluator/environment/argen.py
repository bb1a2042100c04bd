"""Generates an audit.rules file (auditctl syntax subset), a syscall table and a stream of syscall events;
the expected decisions come from a straightforward model of the exit-list evaluation."""
import json
import os
import random

SYSCALLS = {  # name: (b64, b32)
    "read": (0, 3), "write": (1, 4), "open": (2, 5), "close": (3, 6), "stat": (4, 106), "connect": (42, 362),
    "execve": (59, 11), "kill": (62, 37), "uname": (63, 122), "truncate": (76, 92), "rename": (82, 38),
    "mkdir": (83, 39), "rmdir": (84, 40), "creat": (85, 8), "link": (86, 9), "unlink": (87, 10),
    "chmod": (90, 15), "fchmod": (91, 94), "chown": (92, 182), "setuid": (105, 213), "setgid": (106, 214),
    "ptrace": (101, 26), "mount": (165, 21), "umount2": (166, 52), "init_module": (175, 128),
    "delete_module": (176, 129), "settimeofday": (164, 79), "adjtimex": (159, 124), "sethostname": (170, 74),
    "openat": (257, 295), "unlinkat": (263, 301), "renameat": (264, 302), "fchmodat": (268, 306),
    "fchownat": (260, 298), "finit_module": (313, 350), "execveat": (322, 358), "olduname": (None, 109),
    "oldolduname": (None, 59), "waitpid": (None, 7), "socketcall": (None, 102), "clock_settime": (227, 264), "setresuid": (117, 164),
}
UNSET = 4294967295


def write_table(path):
    with open(path, "w") as f:
        f.write("# name\tb64\tb32   (- = not available on that arch)\n")
        for n, (a, b) in sorted(SYSCALLS.items()):
            f.write(f"{n}\t{'-' if a is None else a}\t{'-' if b is None else b}\n")


HEADER = """\
## audit.rules for bastion hosts (managed by config management)
-D
-b 8192
--backlog_wait_time 60000
-f 1

# noise suppression (must come first)
-a always,exclude -F msgtype=CWD
-a {AE} -F arch=b64 -S all -F auid={svc}
-a {EA} -F arch=b32 -S all -F auid={svc}
"""

BLOCKS = [
    """# identity files
-w /etc/passwd -p wa -k {p}identity
-w {shadow} -p wa -k {p}identity
-w /etc/sudoers.d/ -p wa -k {p}sudoers
-w /etc/ssh/sshd_config -p {sshperm} -k {p}sshd
""",
    """# privileged execution by real users
-a always,exit -F arch=b64 -S execve,execveat -F euid=0 -F auid>={minuid} -F auid!=unset -k {p}root-exec
-a always,exit -F arch=b32 -S execve -S execveat -F euid=0 -F auid>={minuid} -F auid!=-1 -k {p}root-exec
# daemons running programs (no arch given)
-a always,exit -S execve -F uid=0 -F auid=unset -k {p}daemon-exec
""",
    """# failed access to files
-a always,exit -F arch=b64 -S open,openat,creat,truncate -F exit=-13 -F auid>={minuid} -F auid!=unset -k {p}access
-a always,exit -F arch=b64 -S open -S openat -S creat -S truncate -F exit=-1 -F auid>={minuid} -F auid!=4294967295 -k {p}access
""",
    """# kernel modules and time
-a always,exit -F arch=b64 -S init_module,finit_module,delete_module -k {p}modules -k kernel
-a always,exit -S clock_settime -S settimeofday -k {p}time-change
-a always,exit -F arch=b32 -S adjtimex,settimeofday -k {p}time-change
""",
    """# deletions by users, but not in /tmp
-a never,exit -F arch=b64 -S unlink,unlinkat,rename,renameat -F dir=/tmp
-a always,exit -F arch=b64 -S unlink,unlinkat,rename,renameat -F auid>={minuid} -F auid!=unset -F success=1 -k {p}delete
""",
    """# permission changes
-a always,exit -F arch=b64 -S chmod,fchmod,fchmodat -F auid>={minuid} -F auid!=unset -F key={p}perm_mod
-A always,exit -F arch=b64 -S chmod -F path=/usr/bin/sudo -k {p}sudo-perm
""",
    """# mounts without a login
-a exit,always -F arch=b64 -S mount,umount2 -F auid=unset -k {p}mount
-a always,task -F uid=0
""",
]


def make_rules(r, svc):
    blocks = list(BLOCKS)
    r.shuffle(blocks)
    fmt = {"svc": svc, "p": r.choice(["", "b-", "sec_", "aud."]), "minuid": r.choice([1000, 500]),
           "shadow": r.choice(["/etc/shadow", "/etc/gshadow"]), "sshperm": r.choice(["wa", "rwa", "w"]),
           "AE": r.choice(["never,exit", "exit,never"]), "EA": r.choice(["never,exit", "exit,never"])}
    return HEADER.format(**fmt) + "\n" + "\n".join(b.format(**fmt) for b in blocks) + "-e 2\n"


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    svc = r.choice([998, 997, 990])
    rules_text = make_rules(r, svc)
    with open(os.path.join(out, "audit.rules"), "w") as f:
        f.write(rules_text)
    write_table(os.path.join(out, "syscalls.tsv"))
    paths = ["/etc/passwd", "/etc/shadow", "/etc/sudoers.d/90-ops", "/etc/sudoers.d", "/etc/sudoers",
             "/etc/ssh/sshd_config", "/etc/ssh/sshd_config.d/x.conf", "/tmp/x", "/tmp/sub/y", "/tmpfile",
             "/home/u/notes.txt", "/usr/bin/sudo", "/usr/bin/sudoedit", "/var/log/auth.log", "/etc/passwd-"]
    names = [n for n in SYSCALLS]
    events = []
    for i in range(400):
        arch = "b64" if r.random() < 0.75 else "b32"
        cands = [n for n in names if SYSCALLS[n][0 if arch == "b64" else 1] is not None]
        n = r.choice(cands)
        nr = SYSCALLS[n][0 if arch == "b64" else 1]
        auid = r.choice([1000, 1001, 1500, 500, 0, UNSET, UNSET, svc])
        euid = r.choice([0, 0, 1000, auid if auid != UNSET else 0])
        ok = r.random() < 0.7
        ev = {"id": f"ev{i:04d}", "arch": arch, "syscall": nr, "uid": r.choice([0, 1000, euid]), "euid": euid,
              "auid": auid, "gid": r.choice([0, 1000, 27]), "pid": r.randint(300, 60000), "success": ok,
              "exit": 0 if ok else r.choice([-13, -1, -2]), "path": r.choice(paths + [None]),
              "perm": r.choice(["r", "w", "a", "x", "wa", "rw", ""])}
        events.append(ev)
    def ev(arch, name, **kw):
        d = {"id": "", "arch": arch, "syscall": SYSCALLS[name][0 if arch == "b64" else 1], "uid": 0, "euid": 0,
             "auid": UNSET, "gid": 0, "pid": r.randint(300, 60000), "success": True, "exit": 0, "path": None,
             "perm": ""}
        d.update(kw)
        return d
    crafted = [ev("b32", "oldolduname"), ev("b32", "execve"), ev("b64", "execve"), ev("b32", "setresuid"),
               ev("b64", "unlink", auid=1000, path="/tmp/sub/y"), ev("b64", "unlinkat", auid=1000, path="/tmpfile"),
               ev("b64", "rename", auid=1000, path="/tmp"), ev("b64", "open", auid=1000, success=False, exit=-13,
                                                                path="/etc/shadow", perm="r"),
               ev("b64", "open", auid=1000, success=False, exit=-2, path="/etc/shadow", perm="r"),
               ev("b64", "chmod", auid=svc, path="/usr/bin/sudo", perm="a"),
               ev("b64", "chmod", auid=1000, path="/usr/bin/sudoedit", perm="a"),
               ev("b64", "execve", auid=svc), ev("b32", "execve", auid=svc, euid=0),
               ev("b64", "mount", auid=UNSET), ev("b64", "openat", auid=1000, path="/etc/sudoers.d", perm="w"),
               ev("b64", "openat", auid=1000, path="/etc/sudoers", perm="w"),
               ev("b64", "openat", auid=1000, path="/etc/passwd-", perm="w"),
               ev("b64", "write", auid=0, path="/etc/ssh/sshd_config", perm="r"),
               ev("b32", "execve", auid=1000, euid=0), ev("b64", "execveat", auid=600, euid=0)]
    for c in crafted:
        events.insert(r.randint(0, len(events)), c)
    for i, e in enumerate(events):
        e["id"] = f"ev{i:04d}"
    with open(os.path.join(out, "events.jsonl"), "w") as f:
        for ev in events:
            f.write(json.dumps(ev) + "\n")
    return evaluate(rules_text, events)


# ---- the model ------------------------------------------------------------------------------------------
def parse_rules(text):
    rules = []
    for no, line in enumerate(text.split("\n"), 1):
        t = line.split()
        if not t or t[0].startswith("#"):
            continue
        if t[0] in ("-a", "-A"):
            a, b = t[1].split(",")
            action, lst = (a, b) if a in ("always", "never") else (b, a)
            rule = {"line": no, "action": action, "list": lst, "syscalls": [], "fields": [], "keys": []}
            k = 2
            while k < len(t):
                if t[k] == "-S":
                    rule["syscalls"] += t[k + 1].split(",")
                    k += 2
                elif t[k] == "-F":
                    f = t[k + 1]
                    for op in ("!=", ">=", "<=", "=", "<", ">"):
                        if op in f:
                            name, val = f.split(op, 1)
                            break
                    if name == "key":
                        rule["keys"].append(val)
                    else:
                        rule["fields"].append((name, op, val))
                    k += 2
                elif t[k] == "-k":
                    rule["keys"].append(t[k + 1])
                    k += 2
                else:
                    k += 1
            if lst != "exit":
                continue
            if t[0] == "-A":
                rules.insert(0, rule)
            else:
                rules.append(rule)
        elif t[0] == "-w":
            path = t[1]
            perm = t[t.index("-p") + 1] if "-p" in t else "rwxa"
            keys = [t[k + 1] for k in range(len(t) - 1) if t[k] == "-k"]
            fld = ("dir", "=", path.rstrip("/")) if path.endswith("/") else ("path", "=", path)
            rules.append({"line": no, "action": "always", "list": "exit", "syscalls": ["all"],
                          "fields": [fld, ("perm", "=", perm)], "keys": keys})
    return rules


def num(v):
    if v == "unset":
        return UNSET
    x = int(v)
    return x & 0xFFFFFFFF if x < 0 else x


def cmp(a, op, b):
    return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def matches(rule, ev):
    arch = next((v for n, o, v in rule["fields"] if n == "arch"), None)
    if rule["syscalls"] and "all" not in rule["syscalls"]:
        col = 1 if arch == "b32" else 0
        nums = {SYSCALLS[s][col] for s in rule["syscalls"] if SYSCALLS[s][col] is not None}
        if ev["syscall"] not in nums:
            return False
    for name, op, val in rule["fields"]:
        if name == "arch":
            ok = cmp(ev["arch"], op, val)
        elif name in ("uid", "euid", "auid", "gid", "pid"):
            ok = cmp(ev[name], op, num(val))
        elif name == "success":
            ok = cmp(1 if ev["success"] else 0, op, int(val))
        elif name == "exit":
            ok = cmp(ev["exit"], op, int(val))
        elif name == "path":
            ok = ev["path"] is not None and cmp(ev["path"], op, val)
        elif name == "dir":
            inside = ev["path"] is not None and (ev["path"] == val or ev["path"].startswith(val + "/"))
            ok = ev["path"] is not None and (inside if op == "=" else not inside)
        elif name == "perm":
            ok = any(c in val for c in ev["perm"])
        else:
            ok = True
        if not ok:
            return False
    return True


def evaluate(text, events):
    rules = parse_rules(text)
    res = []
    for ev in events:
        d = {"id": ev["id"], "logged": False, "keys": [], "rule": None}
        for rule in rules:
            if matches(rule, ev):
                d = {"id": ev["id"], "logged": rule["action"] == "always",
                     "keys": rule["keys"] if rule["action"] == "always" else [], "rule": rule["line"]}
                break
        res.append(d)
    return res
