"""Random process/file situations for execve() and the resulting credentials, following the kernel's
capability rules as written in the instruction."""
import json
import os
import random

LAST = 40
FULL = (1 << (LAST + 1)) - 1
NAMED = {"chown": 0, "dac_override": 1, "dac_read_search": 2, "fowner": 3, "kill": 5, "setgid": 6, "setuid": 7,
         "setpcap": 8, "net_bind_service": 10, "net_admin": 12, "net_raw": 13, "sys_chroot": 18,
         "sys_ptrace": 19, "sys_admin": 21, "sys_nice": 23, "sys_resource": 24, "sys_time": 25,
         "audit_write": 29, "setfcap": 31, "syslog": 34, "perfmon": 38, "bpf": 39}


def mask(r, k):
    m = 0
    for c in r.sample(list(NAMED.values()), k):
        m |= 1 << c
    return m


def transition(p, f):
    ruid, euid = p["ruid"], p["euid"]
    P, E, I, A, B = p["permitted"], p["effective"], p["inheritable"], p["ambient"], p["bounding"]
    new_euid = f["uid"] if f["setuid"] and not f["nosuid"] else euid
    has_fcap = f["caps"] is not None and not f["nosuid"]
    if has_fcap:
        Pn = (B & f["caps"]["permitted"]) | (I & f["caps"]["inheritable"])
        eff = f["caps"]["effective"]
    else:
        Pn, eff = 0, False
    if not p["noroot"]:
        if not (has_fcap and new_euid == 0 and ruid != 0):
            if new_euid == 0 or ruid == 0:
                Pn = B | I
            if new_euid == 0:
                eff = True
    is_setid = new_euid != euid
    if p["no_new_privs"] and (is_setid or Pn & ~P):
        new_euid = ruid
        Pn &= P
    A2 = 0 if (has_fcap or is_setid) else A
    P2 = Pn | A2
    E2 = P2 if eff else A2
    return {"euid": new_euid, "permitted": P2, "effective": E2, "inheritable": I, "ambient": A2}


CAPS = ["chown", "dac_override", "dac_read_search", "fowner", "fsetid", "kill", "setgid", "setuid", "setpcap",
        "linux_immutable", "net_bind_service", "net_broadcast", "net_admin", "net_raw", "ipc_lock", "ipc_owner",
        "sys_module", "sys_rawio", "sys_chroot", "sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
        "sys_resource", "sys_time", "sys_tty_config", "mknod", "lease", "audit_write", "audit_control",
        "setfcap", "mac_override", "mac_admin", "syslog", "wake_alarm", "block_suspend", "audit_read", "perfmon",
        "bpf", "checkpoint_restore"]


def names(m):
    return ["cap_" + CAPS[b] for b in range(64) if m >> b & 1]


def build(seed, out):
    r = random.Random(seed)
    cases, exp = [], []
    for i in range(160):
        ruid = r.choice([0, 0, 1000, 1001, 33])
        euid = r.choice([ruid, ruid, 0, 1000])
        I = mask(r, r.randint(0, 3))
        P = mask(r, r.randint(0, 5)) | (I if r.random() < 0.5 else 0)
        if ruid == 0 or euid == 0:
            P |= mask(r, 6) if r.random() < 0.5 else 0
        A = (P & I) if r.random() < 0.4 else 0
        E = P if r.random() < 0.5 else (P & mask(r, 3)) | A
        B = FULL if r.random() < 0.7 else FULL & ~mask(r, r.randint(1, 6))
        proc = {"ruid": ruid, "euid": euid, "permitted": P, "effective": E, "inheritable": I, "ambient": A,
                "bounding": B, "noroot": r.random() < 0.15, "no_new_privs": r.random() < 0.2}
        caps = None
        if r.random() < 0.5:
            caps = {"permitted": mask(r, r.randint(0, 3)), "inheritable": mask(r, r.randint(0, 3)),
                    "effective": r.random() < 0.7}
        fil = {"uid": r.choice([0, 0, 1000, 33]), "setuid": r.random() < 0.35, "nosuid": r.random() < 0.1,
               "caps": caps}
        res = transition(proc, fil)
        hx = lambda m: "%016x" % m  # noqa: E731
        pj = dict(proc)
        for k in ("permitted", "effective", "inheritable", "ambient", "bounding"):
            pj[k] = hx(proc[k])
        fj = dict(fil)
        if caps:
            fj["caps"] = {"permitted": hx(caps["permitted"]), "inheritable": hx(caps["inheritable"]),
                          "effective": caps["effective"]}
        cases.append({"id": f"x{i:03d}", "process": pj, "file": fj})
        exp.append({"id": f"x{i:03d}", "euid": res["euid"],
                    **{k: names(res[k]) for k in ("permitted", "effective", "inheritable", "ambient")}})
    with open(out, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    return exp
