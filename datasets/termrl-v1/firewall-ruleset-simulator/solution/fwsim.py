#!/usr/bin/env python3
import ipaddress
import json
import shlex
import sys

BUILTIN = ("INPUT", "FORWARD", "OUTPUT")


def parse(path):
    policies, chains, table = {}, {}, None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#") or line == "COMMIT":
            continue
        if line.startswith("*"):
            table = line[1:]
            continue
        if table != "filter":
            continue
        if line.startswith(":"):
            name, pol = line[1:].split()[:2]
            chains.setdefault(name, [])
            if pol != "-":
                policies[name] = pol
            continue
        toks = shlex.split(line)
        if toks[0] == "-A":
            chains.setdefault(toks[1], []).append(parse_rule(toks[2:]))
    return policies, chains


def port_range(s):
    if ":" in s:
        a, b = s.split(":")
        return (int(a) if a else 0, int(b) if b else 65535)
    return (int(s), int(s))


def parse_rule(toks):
    matches, target, neg, i = [], None, False, 0
    while i < len(toks):
        t = toks[i]
        if t == "!":
            neg = True
            i += 1
            continue
        if t == "-j":
            target = toks[i + 1]
            i += 2
            # skip target options
            while i < len(toks) and toks[i].startswith("--"):
                i += 2
            continue
        if t == "-m":
            i += 2
            continue
        if t in ("-s", "-d", "--source", "--destination"):
            matches.append((neg, "src" if t in ("-s", "--source") else "dst", ipaddress.ip_network(toks[i + 1], strict=False)))
        elif t in ("-i", "-o", "--in-interface", "--out-interface"):
            matches.append((neg, "in" if t in ("-i", "--in-interface") else "out", toks[i + 1]))
        elif t in ("-p", "--protocol"):
            matches.append((neg, "proto", toks[i + 1]))
        elif t in ("--sport", "--dport", "--source-port", "--destination-port"):
            matches.append((neg, "sport" if t in ("--sport", "--source-port") else "dport", [port_range(toks[i + 1])]))
        elif t in ("--dports", "--sports", "--ports", "--destination-ports", "--source-ports"):
            kind = {"--dports": "dport", "--destination-ports": "dport", "--sports": "sport",
                    "--source-ports": "sport", "--ports": "ports"}[t]
            matches.append((neg, kind, [port_range(x) for x in toks[i + 1].split(",")]))
        elif t in ("--ctstate", "--state"):
            matches.append((neg, "state", set(toks[i + 1].split(","))))
        elif t == "--comment":
            pass
        else:
            raise SystemExit(f"unsupported option {t}")
        neg = False
        i += 2
    return matches, target


def iface_match(pat, name):
    if name is None:
        return False
    if pat.endswith("+"):
        return name.startswith(pat[:-1])
    return name == pat


def in_ranges(p, ranges):
    return p is not None and any(a <= p <= b for a, b in ranges)


def match(pkt, m):
    neg, kind, val = m
    if kind in ("src", "dst"):
        r = ipaddress.ip_address(pkt[kind]) in val
    elif kind in ("in", "out"):
        r = iface_match(val, pkt.get(kind))
    elif kind == "proto":
        r = val == "all" or pkt["proto"] == val
    elif kind in ("sport", "dport"):
        r = in_ranges(pkt.get(kind), val)
    elif kind == "ports":
        r = in_ranges(pkt.get("sport"), val) or in_ranges(pkt.get("dport"), val)
    elif kind == "state":
        r = pkt["state"] in val
    return (not r) if neg else r


def run_chain(chains, name, pkt):
    """Returns (verdict, chain, idx) or None for RETURN / fall-through."""
    for idx, (matches, target) in enumerate(chains[name], 1):
        if not all(match(pkt, m) for m in matches):
            continue
        if target in ("ACCEPT", "DROP", "REJECT"):
            return target, name, idx
        if target is None or target == "LOG":
            continue
        if target == "RETURN":
            return None
        res = run_chain(chains, target, pkt)
        if res is not None:
            return res
    return None


def main():
    policies, chains = parse(sys.argv[1])
    for line in open(sys.argv[2]):
        if not line.strip():
            continue
        pkt = json.loads(line)
        res = run_chain(chains, pkt["chain"], pkt)
        if res is None:
            print(f"{policies[pkt['chain']]} {pkt['chain']}:policy")
        else:
            print(f"{res[0]} {res[1]}:{res[2]}")


if __name__ == "__main__":
    main()
