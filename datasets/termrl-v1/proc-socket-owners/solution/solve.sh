#!/bin/bash
# Reference solution: decode /proc/net socket tables and map inodes to processes through fd links.
set -e
cat > /app/sockowners <<'PY'
#!/usr/bin/env python3
import ipaddress
import json
import os
import struct
import sys


def addr(h, port, v6):
    if v6:
        raw = b"".join(struct.pack("<I", int(h[i:i + 8], 16)) for i in range(0, 32, 8))
        return f"[{ipaddress.IPv6Address(raw)}]:{port}"
    return f"{ipaddress.IPv4Address(struct.pack('<I', int(h, 16)))}:{port}"


def main(proc):
    owners, cmds = {}, {}
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        fd = os.path.join(proc, pid, "fd")
        try:
            raw = open(os.path.join(proc, pid, "cmdline"), "rb").read()
            cmds[int(pid)] = " ".join(p.decode("utf-8", "replace") for p in raw.split(b"\0") if p)
        except OSError:
            cmds[int(pid)] = ""
        if not os.path.isdir(fd):
            continue
        for n in os.listdir(fd):
            try:
                t = os.readlink(os.path.join(fd, n))
            except OSError:
                continue
            if t.startswith("socket:[") and t.endswith("]"):
                owners.setdefault(int(t[8:-1]), set()).add(int(pid))
    listening, established = [], []
    for proto in ("tcp", "tcp6", "udp", "udp6"):
        p = os.path.join(proc, "net", proto)
        if not os.path.exists(p):
            continue
        for line in open(p).read().split("\n")[1:]:
            f = line.split()
            if len(f) < 10:
                continue
            la, lp = f[1].split(":")
            ra, rp = f[2].split(":")
            st, uid, ino = int(f[3], 16), int(f[7]), int(f[9])
            v6 = proto.endswith("6")
            pids = sorted(owners.get(ino, ()))
            row = {"proto": proto, "local": addr(la, int(lp, 16), v6), "uid": uid, "inode": ino, "pids": pids,
                   "commands": [cmds.get(x, "") for x in pids]}
            if proto.startswith("udp") or st == 0x0A:
                listening.append(row)
            elif st == 0x01:
                row["remote"] = addr(ra, int(rp, 16), v6)
                established.append(row)
    key = lambda x: (x["proto"], x["inode"])  # noqa: E731
    json.dump({"listening": sorted(listening, key=key), "established": sorted(established, key=key)},
              sys.stdout, indent=1)
    print()


main(sys.argv[1])
PY
chmod +x /app/sockowners
