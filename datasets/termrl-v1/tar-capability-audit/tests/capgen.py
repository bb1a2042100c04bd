"""Writes root-filesystem backups as pax tar archives (GNU tar or bsdtar style xattr records) and the
expected capability / set-id audit. Tar headers are written by hand so that binary xattr values are stored
exactly as GNU tar stores them (raw bytes, no hdrcharset record)."""
import base64
import gzip
import lzma
import random
import struct

CAPS = ["chown", "dac_override", "dac_read_search", "fowner", "fsetid", "kill", "setgid", "setuid", "setpcap",
        "linux_immutable", "net_bind_service", "net_broadcast", "net_admin", "net_raw", "ipc_lock", "ipc_owner",
        "sys_module", "sys_rawio", "sys_chroot", "sys_ptrace", "sys_pacct", "sys_admin", "sys_boot", "sys_nice",
        "sys_resource", "sys_time", "sys_tty_config", "mknod", "lease", "audit_write", "audit_control",
        "setfcap", "mac_override", "mac_admin", "syslog", "wake_alarm", "block_suspend", "audit_read", "perfmon",
        "bpf", "checkpoint_restore"]
NUM = {n: i for i, n in enumerate(CAPS)}
DANGEROUS = {"sys_admin", "sys_module", "sys_ptrace", "sys_rawio", "dac_override", "dac_read_search", "setuid",
             "setgid", "setfcap", "chown", "fowner", "bpf"}


def capname(i):
    return "cap_" + CAPS[i] if i < len(CAPS) else f"cap_{i}"


def vfs_cap(permitted, inheritable=(), effective=True, rev=2, rootid=None):
    p = sum(1 << NUM[c] if isinstance(c, str) else 1 << c for c in permitted)
    i = sum(1 << NUM[c] if isinstance(c, str) else 1 << c for c in inheritable)
    magic = (rev << 24) | (1 if effective else 0)
    if rev == 1:
        return struct.pack("<III", magic, p & 0xFFFFFFFF, i & 0xFFFFFFFF)
    body = struct.pack("<IIIII", magic, p & 0xFFFFFFFF, i & 0xFFFFFFFF, p >> 32, i >> 32)
    return body + (struct.pack("<I", rootid or 0) if rev == 3 else b"")


def _octal(n, width):
    return (b"%0*o" % (width - 1, n)) + b"\0"


def _header(name, mode, uid, gid, size, typ, link="", uname="root", gname="root", mtime=1767225600):
    h = bytearray(512)
    nb = name.encode()
    prefix = b""
    if len(nb) > 100:
        cut = nb.rfind(b"/", 0, 156)
        prefix, nb = nb[:cut], nb[cut + 1:]
    h[0:len(nb)] = nb
    h[100:108] = _octal(mode, 8)
    h[108:116] = _octal(uid, 8)
    h[116:124] = _octal(gid, 8)
    h[124:136] = _octal(size, 12)
    h[136:148] = _octal(mtime, 12)
    h[148:156] = b" " * 8
    h[156:157] = typ
    lb = link.encode()
    h[157:157 + len(lb)] = lb
    h[257:263] = b"ustar\0"
    h[263:265] = b"00"
    h[265:265 + len(uname)] = uname.encode()
    h[297:297 + len(gname)] = gname.encode()
    h[345:345 + len(prefix)] = prefix
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def _pad(b):
    return b + bytes(-len(b) % 512)


def _pax(records):
    out = b""
    for k, v in records:
        body = b" " + k.encode() + b"=" + v + b"\n"
        n = len(body) + 1
        while len(str(n).encode()) + len(body) != n:
            n = len(str(n).encode()) + len(body)
        out += str(n).encode() + body
    return out


def write_tar(entries, style):
    out = bytearray()
    for e in entries:
        name = e["name"]
        recs = []
        for k, v in e.get("xattrs", {}).items():
            if style == "gnu":
                recs.append(("SCHILY.xattr." + k, v))
            else:
                recs.append(("LIBARCHIVE.xattr." + k, base64.b64encode(v).rstrip(b"=")))
                if e.get("both"):
                    recs.append(("SCHILY.xattr." + k, v))
        if len(name.encode()) > 100 and "/" not in name[-100:]:
            recs.append(("path", name.encode()))
        if recs:
            data = _pax(recs)
            base = name.rstrip("/").rsplit("/", 1)[-1]
            hname = f"./PaxHeaders/{base}"[:99] if style == "gnu" else f"PaxHeader/{base}"[:99]
            out += _header(hname, 0o644, 0, 0, len(data), b"x")
            out += _pad(data)
        typ = {"file": b"0", "dir": b"5", "symlink": b"2", "hardlink": b"1"}[e["type"]]
        data = e.get("data", b"") if e["type"] == "file" else b""
        out += _header(name, e["mode"], e["uid"], e["gid"], len(data), typ, e.get("link", ""),
                       uname=e.get("uname", "root"), gname=e.get("gname", "root"))
        out += _pad(data)
    out += bytes(1024)
    out += bytes(-len(out) % 10240)
    return bytes(out)


def build(seed, style, comp):
    """Returns (archive bytes, expected report)."""
    r = random.Random(seed)
    pre = "./" if style == "gnu" else ""
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(4, 8)))  # noqa: E731
    entries = []
    state = {}      # path -> inode id ; inode id -> metadata
    inodes = {}
    nid = [0]

    def add(path, typ="file", mode=0o755, uid=0, gid=0, caps=None, link=None, other_x=True, both=False):
        name = pre + path.lstrip("/") + ("/" if typ == "dir" else "")
        e = {"name": name, "type": typ, "mode": mode, "uid": uid, "gid": gid, "xattrs": {}, "both": both}
        if uid:
            e["uname"] = e["gname"] = "builder"
        if typ == "file":
            e["data"] = bytes(r.randrange(256) for _ in range(r.randint(50, 400)))
            if other_x and r.random() < 0.5:
                e["xattrs"]["security.selinux"] = b"system_u:object_r:bin_t:s0\0"
            if caps is not None:
                e["xattrs"]["security.capability"] = caps
            if other_x and r.random() < 0.3:
                e["xattrs"]["user.origin"] = word().encode()
            nid[0] += 1
            inodes[nid[0]] = {"mode": mode, "uid": uid, "caps": caps}
            state[path] = nid[0]
        elif typ == "hardlink":
            e["link"] = pre + link.lstrip("/")
            state[path] = state[link]
        else:
            if typ == "symlink":
                e["link"] = link
            state.pop(path, None)
        entries.append(e)

    for d in ("usr", "usr/bin", "usr/sbin", "usr/lib", "usr/local", "usr/local/bin", "var", "var/tmp", "home",
              "tmp", "opt"):
        add("/" + d, "dir", 0o1777 if d in ("tmp", "var/tmp") else 0o755)
    # ordinary, well-known capability binaries
    ping = "/usr/bin/ping"
    add(ping, caps=vfs_cap(["net_raw"]))
    add("/usr/bin/ping6", "symlink", 0o777, link="ping")
    add(f"/usr/bin/mtr-{word()}", caps=vfs_cap(["net_raw"], effective=r.random() < 0.5))
    add(f"/usr/lib/{word()}/ptp-helper", caps=vfs_cap(["net_bind_service", "net_admin"]))
    add(f"/usr/sbin/{word()}-legacy", caps=vfs_cap(["net_admin", "net_raw"], rev=1))
    add(f"/usr/bin/{word()}-perf", caps=vfs_cap(["perfmon", "bpf"], inheritable=["perfmon"]), mode=0o750)
    add(f"/usr/bin/{word()}-clock", caps=vfs_cap(["sys_time", "wake_alarm"], effective=False))
    add("/usr/bin/passwd", mode=0o4755)
    add("/usr/bin/wall", mode=0o2755, gid=5)
    add(f"/usr/bin/{word()}", mode=0o755)
    for _ in range(r.randint(3, 6)):
        add(f"/usr/bin/{word()}{r.randint(1, 9)}", mode=r.choice([0o755, 0o755, 0o644]))
    # the intruder's traces
    hid = f"/usr/local/bin/.{word()}/python3"
    add("/usr/local/bin/" + hid.split("/")[4], "dir", 0o777, uid=1000, gid=1000)
    add(hid, caps=vfs_cap(["setuid", "setgid"]), mode=0o777, uid=1000, gid=1000)
    tool = f"/usr/bin/{word()}-dbg"
    add(tool, caps=vfs_cap(["sys_ptrace", "dac_read_search"], rev=r.choice([2, 3])))
    add(f"/var/tmp/.{word()}", "hardlink", link=tool)
    rootless = f"/home/{word()}/rootless/newuidmap"
    add(rootless, caps=vfs_cap(["setuid"], rev=3, rootid=r.choice([100000, 165536, 231072])), mode=0o755)
    odd = f"/usr/sbin/{word()}"
    bad = r.choice([vfs_cap(["net_raw"])[:16], b"\x00\x00\x00\x04" + bytes(16), vfs_cap(["net_raw"], rev=1) + b"\0\0\0\0"])
    add(odd, caps=bad)
    add(f"/tmp/.{word()}", mode=0o4755)
    high = f"/opt/{word()}/bin/agent"
    add(high, caps=vfs_cap(["net_raw", 41, "checkpoint_restore"], rev=2))
    # appended later (tar -r): ping replaced with a stronger capability set; a hard link taken before a
    # replacement keeps the old file
    linked = f"/usr/sbin/{word()}d"
    add(linked, caps=vfs_cap(["net_bind_service"]))
    alias = f"/usr/sbin/{word()}-compat"
    add(alias, "hardlink", link=linked)
    add(linked, caps=vfs_cap(["net_bind_service", "sys_admin"], rev=2), other_x=False)
    add(ping, caps=vfs_cap(["net_raw", "sys_admin"], rev=r.choice([2, 3])), both=True)
    add("/usr/bin/wall", mode=0o755)   # set-gid dropped by a later package upgrade

    # expected
    users = {}
    for p, ino in state.items():
        users.setdefault(ino, []).append(p)
    files, setid = [], []
    for p, ino in sorted(state.items()):
        m = inodes[ino]
        if m["caps"] is not None:
            d = decode(m["caps"])
            f = findings(p, m, len(users[ino]), d)
            files.append(dict(path=p, **d, findings=f))
        if m["mode"] & 0o6000:
            setid.append({"path": p, "mode": "%04o" % (m["mode"] & 0o7777), "uid": m["uid"]})
    tar = write_tar(entries, style)
    if comp == "gz":
        tar = gzip.compress(tar, mtime=0)
    elif comp == "xz":
        tar = lzma.compress(tar)
    return tar, {"capabilities": files, "setid": setid}


def decode(v):
    bad = {"permitted": [], "inheritable": [], "effective": False, "rootid": None, "malformed": True}
    if len(v) < 4:
        return bad
    magic = struct.unpack("<I", v[:4])[0]
    rev = magic >> 24
    size = {1: 12, 2: 20, 3: 24}.get(rev)
    if size is None or len(v) != size:
        return bad
    w = struct.unpack("<%dI" % (size // 4), v)
    p, i = w[1], w[2]
    if rev >= 2:
        p |= w[3] << 32
        i |= w[4] << 32
    return {"permitted": [capname(b) for b in range(64) if p >> b & 1],
            "inheritable": [capname(b) for b in range(64) if i >> b & 1],
            "effective": bool(magic & 1), "rootid": w[5] if rev == 3 else None, "malformed": False}


def findings(path, m, nlinks, d):
    f = []
    if any(c[4:] in DANGEROUS for c in d["permitted"]):
        f.append("dangerous")
    if m["uid"] != 0:
        f.append("not-root-owned")
    if m["mode"] & 0o022:
        f.append("writable")
    if d["rootid"]:
        f.append("namespaced")
    if any(part.startswith(".") for part in path.split("/")):
        f.append("hidden")
    if nlinks > 1:
        f.append("hard-linked")
    if d["malformed"]:
        f.append("malformed")
    d.pop("malformed")
    return sorted(f)
