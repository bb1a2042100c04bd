"""hosts.allow / hosts.deny (hosts_access(5) subset) with queries; expected decisions from a model."""
import ipaddress
import json
import os
import random

ALLOW_TMPL = [
    "# /etc/hosts.allow",
    "sshd : 10.{a}.0.0/255.255.0.0 , .{dom} EXCEPT bastion-old.{dom}",
    "sshd, in.ftpd : LOCAL",
    "ALL EXCEPT in.telnetd EXCEPT vsftpd : 192.168.{b}.",
    "rpcbind mountd : 172.16.{c}.0/255.255.255.0 \\\n    172.17.{c}.4",
    "snmpd : {mon} : allow",
    "sshd : {evil} : deny",
    "in.telnetd : KNOWN EXCEPT .{dom}",
]
DENY_TMPL = [
    "# /etc/hosts.deny",
    "sshd : UNKNOWN",
    "in.telnetd : ALL",
    "ALL EXCEPT sshd : 203.0.113.",
    "snmpd : ALL : allow",
    "ALL : ALL",
]


def split_list(s):
    return [t for t in s.replace(",", " ").split() if t]


def parse(text):
    rules, buf, start = [], "", None
    for no, line in enumerate(text.split("\n"), 1):
        if start is None:
            start = no
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        s = buf.strip()
        if s and not s.startswith("#"):
            parts = [p.strip() for p in s.split(":")]
            rules.append({"line": start, "daemons": split_list(parts[0]), "clients": split_list(parts[1]),
                          "opts": parts[2:]})
        buf, start = "", None
    return rules


def list_match(items, f):
    if "EXCEPT" in items:
        k = items.index("EXCEPT")
        return list_match(items[:k], f) and not list_match(items[k + 1:], f)
    return any(f(t) for t in items)


def client_match(t, ip, host):
    tl = t.lower()
    if t == "ALL":
        return True
    if t == "LOCAL":
        return host is not None and "." not in host
    if t == "UNKNOWN":
        return host is None
    if t == "KNOWN":
        return host is not None
    if t.startswith("."):
        return host is not None and host.lower().endswith(tl)
    if t.endswith("."):
        return ip.startswith(t)
    if "/" in t:
        net, mask = t.split("/")
        m = int(ipaddress.IPv4Address(mask))
        return int(ipaddress.IPv4Address(ip)) & m == int(ipaddress.IPv4Address(net)) & m
    return ip == t or (host is not None and host.lower() == tl)


def decide(allow, deny, daemon, ip, host):
    for fname, rules, default in (("hosts.allow", allow, "allow"), ("hosts.deny", deny, "deny")):
        for r in rules:
            if list_match(r["daemons"], lambda t: t == "ALL" or t == daemon) and \
                    list_match(r["clients"], lambda t: client_match(t, ip, host)):
                d = default
                if r["opts"] and r["opts"][-1].strip() in ("allow", "deny"):
                    d = r["opts"][-1].strip()
                return {"decision": d, "file": fname, "line": r["line"]}
    return {"decision": "allow", "file": None, "line": None}


def build(seed, out):
    r = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    dom = r.choice(["corp.example", "int.example.net"])
    fmt = {"a": r.randint(1, 200), "b": r.randint(0, 255), "c": r.randint(0, 255), "dom": dom,
           "mon": f"10.250.{r.randint(0, 255)}.{r.randint(1, 254)}", "evil": f"10.{r.randint(1, 200)}.6.6"}
    allow_text = "\n".join(ALLOW_TMPL).format(**fmt) + "\n"
    deny_text = "\n".join(DENY_TMPL if r.random() < 0.5 else DENY_TMPL[:-1]) + "\n"
    with open(os.path.join(out, "hosts.allow"), "w") as f:
        f.write(allow_text)
    with open(os.path.join(out, "hosts.deny"), "w") as f:
        f.write(deny_text)
    allow, deny = parse(allow_text), parse(deny_text)
    daemons = ["sshd", "in.ftpd", "in.telnetd", "vsftpd", "rpcbind", "mountd", "snmpd", "nrpe"]
    ips = [f"10.{fmt['a']}.{r.randint(0, 255)}.{r.randint(1, 254)}", f"10.{fmt['a'] + 1}.3.3",
           f"192.168.{fmt['b']}.{r.randint(1, 254)}", f"192.168.{fmt['b'] + 1 if fmt['b'] < 255 else 0}.7",
           f"172.16.{fmt['c']}.{r.randint(1, 254)}", f"172.17.{fmt['c']}.4", f"172.17.{fmt['c']}.5",
           fmt["mon"], fmt["evil"], f"203.0.113.{r.randint(1, 254)}", f"198.51.100.{r.randint(1, 254)}"]
    hosts = [None, f"web{r.randint(1, 9)}.{dom}", f"bastion-old.{dom}", f"BASTION-OLD.{dom.upper()}",
             "printer", f"x{r.randint(1, 99)}.other.example", "localhost"]
    queries, exp = [], []
    for i in range(120):
        q = {"id": f"q{i:03d}", "daemon": r.choice(daemons), "client": r.choice(ips), "hostname": r.choice(hosts)}
        queries.append(q)
        exp.append({"id": q["id"], **decide(allow, deny, q["daemon"], q["client"], q["hostname"])})
    with open(os.path.join(out, "queries.jsonl"), "w") as f:
        for q in queries:
            f.write(json.dumps(q) + "\n")
    return exp
