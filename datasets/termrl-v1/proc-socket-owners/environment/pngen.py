"""Writes a copied /proc snapshot (net/tcp, tcp6, udp; per-PID cmdline, status and fd symlinks) and the
expected socket ownership report."""
import ipaddress
import os
import random
import struct

STATES = {"LISTEN": 0x0A, "ESTABLISHED": 0x01, "TIME_WAIT": 0x06, "CLOSE": 0x07, "SYN_SENT": 0x02}


def hex4(ip):
    return "%08X" % struct.unpack("<I", ipaddress.IPv4Address(ip).packed)[0]


def hex6(ip):
    b = ipaddress.IPv6Address(ip).packed
    return "".join("%08X" % struct.unpack("<I", b[i:i + 4])[0] for i in range(0, 16, 4))


def build(seed, out):
    r = random.Random(seed)
    proc = os.path.join(out, "proc")
    os.makedirs(os.path.join(proc, "net"), exist_ok=True)
    inode = [r.randint(20000, 40000)]

    def ino():
        inode[0] += r.randint(1, 50)
        return inode[0]

    procs = {}   # pid -> (name, uid, cmdline list)
    socks = []   # (proto, local_ip, lport, rem_ip, rport, state, uid, inode, pids)

    def proc_(name, uid, cmd):
        while True:
            pid = r.randint(300, 40000)
            if pid not in procs:
                break
        procs[pid] = (name, uid, cmd, [])
        return pid

    sshd = proc_("sshd", 0, ["/usr/sbin/sshd", "-D"])
    nginx_m = proc_("nginx", 0, ["nginx: master process /usr/sbin/nginx", ""])
    nginx_w = [proc_("nginx", 33, ["nginx: worker process", ""]) for _ in range(2)]
    dns = proc_("systemd-resolve", 101, ["/lib/systemd/systemd-resolved"])
    chrony = proc_("chronyd", 104, ["/usr/sbin/chronyd", "-F", "1"])
    pg = proc_("postgres", 112, ["/usr/lib/postgresql/15/bin/postgres", "-D", "/var/lib/postgresql/15/main"])
    evil = proc_("kworker/0:2", 33, ["/tmp/.X11-unix/.k", "-l", str(r.choice([4444, 31337, 1337]))])
    evil2 = proc_("python3", 33, ["python3", "-c", "import socket,os,pty;s=socket.socket();..."])
    lp = r.choice([4444, 31337, 1337])
    procs[evil] = ("kworker/0:2", 33, ["/tmp/.X11-unix/.k", "-l", str(lp)], [])

    def sock(proto, lip, lport, rip, rport, state, uid, pids):
        i = ino()
        socks.append((proto, lip, lport, rip, rport, state, uid, i, sorted(pids)))
        for p in pids:
            procs[p][3].append(i)

    sock("tcp", "0.0.0.0", 22, "0.0.0.0", 0, "LISTEN", 0, [sshd])
    sock("tcp6", "::", 22, "::", 0, "LISTEN", 0, [sshd])
    sock("tcp", "0.0.0.0", 80, "0.0.0.0", 0, "LISTEN", 0, [nginx_m] + nginx_w)
    sock("tcp", "0.0.0.0", 443, "0.0.0.0", 0, "LISTEN", 0, [nginx_m] + nginx_w)
    sock("tcp", "127.0.0.53", 53, "0.0.0.0", 0, "LISTEN", 101, [dns])
    sock("udp", "127.0.0.53", 53, "0.0.0.0", 0, "CLOSE", 101, [dns])
    sock("udp", "0.0.0.0", 123, "0.0.0.0", 0, "CLOSE", 104, [chrony])
    sock("udp6", "::1", 323, "::", 0, "CLOSE", 104, [chrony])
    sock("tcp", "127.0.0.1", 5432, "0.0.0.0", 0, "LISTEN", 112, [pg])
    sock("tcp6", "::1", 5432, "::", 0, "LISTEN", 112, [pg])
    sock("tcp", "0.0.0.0", lp, "0.0.0.0", 0, "LISTEN", 33, [evil])
    c2 = f"198.51.100.{r.randint(2, 250)}"
    sock("tcp", f"10.0.{r.randint(0, 9)}.5", r.randint(40000, 60000), c2, 443, "ESTABLISHED", 33, [evil2])
    sock("tcp6", "2001:db8::5", 22, f"2001:db8:{r.randint(1, 999):x}::{r.randint(1, 999):x}", r.randint(40000, 60000),
         "ESTABLISHED", 0, [sshd])
    for _ in range(4):
        sock("tcp", f"10.0.0.5", 443, f"203.0.113.{r.randint(2, 250)}", r.randint(1024, 65535),
             r.choice(["ESTABLISHED", "TIME_WAIT"]), 33 if r.random() < 0.5 else 0,
             r.sample(nginx_w, 1) if r.random() < 0.7 else [])
    sock("tcp", "0.0.0.0", 111, "0.0.0.0", 0, "LISTEN", 0, [])              # owner not visible
    r.shuffle(socks)

    hdr = {"tcp": "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
           "udp": "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops"}
    files = {"tcp": [hdr["tcp"]], "tcp6": [hdr["tcp"]], "udp": [hdr["udp"]], "udp6": [hdr["udp"]]}
    for proto, lip, lport, rip, rport, state, uid, i, pids in socks:
        h = hex6 if proto.endswith("6") else hex4
        n = len(files[proto]) - 1
        files[proto].append(f"{n:4d}: {h(lip)}:{lport:04X} {h(rip)}:{rport:04X} {STATES[state]:02X} "
                            f"00000000:00000000 00:00000000 00000000 {uid:5d}        0 {i} 1 0000000000000000 "
                            f"100 0 0 10 0")
    for proto, lines in files.items():
        with open(os.path.join(proc, "net", proto), "w") as f:
            f.write("\n".join(lines) + "\n")
    for pid, (name, uid, cmd, inodes) in procs.items():
        d = os.path.join(proc, str(pid))
        os.makedirs(os.path.join(d, "fd"))
        with open(os.path.join(d, "cmdline"), "wb") as f:
            f.write(b"\0".join(c.encode() for c in cmd) + (b"\0" if cmd[-1] != "" else b""))
        with open(os.path.join(d, "status"), "w") as f:
            f.write(f"Name:\t{name}\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t{pid}\nPid:\t{pid}\n"
                    f"PPid:\t1\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nGid:\t{uid}\t{uid}\t{uid}\t{uid}\n")
        fds = ["/dev/null", "/dev/null", "/dev/null"] + [f"socket:[{i}]" for i in inodes] + \
              [f"pipe:[{ino()}]", "anon_inode:[eventpoll]", f"/var/log/{name.split('/')[0]}.log"]
        for k, t in enumerate(fds):
            os.symlink(t, os.path.join(d, "fd", str(k)))
    os.makedirs(os.path.join(proc, "self"), exist_ok=True)

    def fmt(proto, ip, port):
        a = str(ipaddress.ip_address(ip))
        return f"[{a}]:{port}" if proto.endswith("6") else f"{a}:{port}"

    listeners, conns = [], []
    for proto, lip, lport, rip, rport, state, uid, i, pids in socks:
        cmds = [" ".join(c for c in procs[p][2] if c != "") for p in pids]
        row = {"proto": proto.rstrip("6") + ("6" if proto.endswith("6") else ""), "local": fmt(proto, lip, lport),
               "uid": uid, "inode": i, "pids": pids, "commands": cmds}
        if (proto.startswith("tcp") and state == "LISTEN") or proto.startswith("udp"):
            listeners.append(row)
        elif state == "ESTABLISHED":
            row["remote"] = fmt(proto, rip, rport)
            conns.append(row)
    listeners.sort(key=lambda x: (x["proto"], x["inode"]))
    conns.sort(key=lambda x: (x["proto"], x["inode"]))
    return {"listening": listeners, "established": conns}
