#!/usr/bin/env python3
"""audit_sessions.py AUDIT_LOG: per-login-session report of what was executed, created and deleted."""
import json
import posixpath
import re
import sys
from collections import OrderedDict

UNSET = "4294967295"
HEAD = re.compile(r"^type=(\S+) msg=audit\((\d+)\.(\d+):(\d+)\): ?(.*)$")
TOKEN = re.compile(r"""([\w\[\]]+)=("[^"]*"|'[^']*'|\S*)""")


def fields(body):
    out = {}
    for k, v in TOKEN.findall(body):
        if v.startswith("'") and v.endswith("'"):
            out.update(fields(v[1:-1]))  # the nested msg='...' of user-space records
        else:
            out.setdefault(k, v)
    return out


def untrusted(v):
    """auditd's encoding: "quoted" or hex"""
    if v.startswith('"') and v.endswith('"') and len(v) >= 2:
        return v[1:-1]
    if v in ("(null)", "?", ""):
        return None
    try:
        return bytes.fromhex(v).decode("utf-8", "surrogateescape")
    except ValueError:
        return v


def read_events(path):
    events = OrderedDict()
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "surrogateescape").rstrip("\n")
            line = line.split("\x1d", 1)[0]  # enriched format: interpreted fields after GS
            m = HEAD.match(line)
            if not m:
                continue
            typ, sec, frac, serial, body = m.groups()
            key = (int(sec), int(frac.ljust(3, "0")[:3]), int(serial))
            events.setdefault(key, []).append((typ, body))
    return sorted(events.items())


def execve_argv(recs):
    args, lens, pieces, argc = {}, {}, {}, None
    for typ, body in recs:
        if typ != "EXECVE":
            continue
        for k, v in TOKEN.findall(body):
            if k == "argc":
                argc = int(v)
                continue
            m = re.fullmatch(r"a(\d+)(?:\[(\d+)\]|(_len))?", k)
            if not m:
                continue
            i = int(m.group(1))
            if m.group(3):
                lens[i] = int(v)
            elif m.group(2) is not None:
                pieces.setdefault(i, {})[int(m.group(2))] = v
            else:
                args[i] = untrusted(v)
    for i, ps in pieces.items():
        args[i] = bytes.fromhex("".join(ps[k] for k in sorted(ps))).decode("utf-8", "surrogateescape")
    n = argc if argc is not None else len(args)
    return [args.get(i, "") for i in range(n)]


def main():
    sessions = OrderedDict()
    for key, recs in read_events(sys.argv[1]):
        types = [t for t, _ in recs]
        first = fields(recs[0][1])
        if recs[0][0] == "USER_START":
            ses = first.get("ses")
            if ses and ses != UNSET and ses not in sessions:
                addr = first.get("addr")
                sessions[ses] = {"ses": int(ses), "auid": int(first["auid"]), "user": untrusted(first.get("acct", "")),
                                 "addr": None if addr in (None, "?") else addr,
                                 "commands": [], "created": [], "deleted": []}
            continue
        if "SYSCALL" not in types:
            continue
        sc = fields(next(b for t, b in recs if t == "SYSCALL"))
        ses = sc.get("ses")
        if ses not in sessions or sc.get("success") != "yes":
            continue
        s = sessions[ses]
        cwd = next((untrusted(fields(b)["cwd"]) for t, b in recs if t == "CWD"), "/")
        if sc.get("syscall") == "59":
            s["commands"].append({"serial": key[2], "pid": int(sc["pid"]), "ppid": int(sc["ppid"]),
                                  "exe": untrusted(sc["exe"]), "argv": execve_argv(recs), "cwd": cwd})
        for t, b in recs:
            if t != "PATH":
                continue
            p = fields(b)
            nt = p.get("nametype")
            if nt not in ("CREATE", "DELETE"):
                continue
            name = untrusted(p["name"])
            full = posixpath.normpath(posixpath.join(cwd, name))
            lst = s["created" if nt == "CREATE" else "deleted"]
            if full not in lst:
                lst.append(full)
    json.dump({"sessions": list(sessions.values())}, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
