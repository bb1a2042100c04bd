#!/bin/bash
# Wrong: trusts dpkg's own md5sums whenever they exist (debsums' default) and only falls back to the
# cached deb when they are missing, so a forged md5sums line hides the replaced daemon.
set -e
cat > /app/pkgverify <<'PY'
#!/usr/bin/env python3
import hashlib
import io
import json
import os
import stat
import subprocess
import sys
import tarfile

ROOT = os.path.abspath(sys.argv[1])


def md5(b):
    return hashlib.md5(b).hexdigest()


def paragraphs(text):
    for block in text.split("\n\n"):
        fields, last = {}, None
        for line in block.split("\n"):
            if not line.strip():
                continue
            if line[0] in " \t" and last:
                fields[last] += "\n" + line[1:]
            elif ":" in line:
                last, v = line.split(":", 1)
                fields[last] = v.strip()
        if fields:
            yield fields


def resolve(path):
    """Path inside ROOT -> host path, following links as if ROOT were / ; None on a loop."""
    todo = [p for p in path.split("/") if p not in ("", ".")]
    cur, hops = [], 0
    while todo:
        c = todo.pop(0)
        if c == "..":
            if cur:
                cur.pop()
            continue
        full = os.path.join(ROOT, *cur, c)
        if os.path.islink(full):
            hops += 1
            if hops > 40:
                return None
            t = os.readlink(full)
            if t.startswith("/"):
                cur = []
            todo = [p for p in t.split("/") if p not in ("", ".")] + todo
            continue
        cur.append(c)
    return os.path.join(ROOT, *cur)


def digest_at(path):
    h = resolve(path)
    if h is None:
        return None
    try:
        st = os.lstat(h)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    with open(h, "rb") as f:
        return md5(f.read())


def deb_index():
    d = os.path.join(ROOT, "var/cache/apt/archives")
    out = {}
    if not os.path.isdir(d):
        return out
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        if not n.endswith(".deb") or os.path.islink(p) or not os.path.isfile(p):
            continue
        r = subprocess.run(["dpkg-deb", "-f", p, "Package", "Version", "Architecture"], capture_output=True,
                           text=True)
        if r.returncode:
            continue
        f = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
        out.setdefault((f.get("Package"), f.get("Version"), f.get("Architecture")), p)
    return out


def deb_files(p):
    raw = subprocess.run(["dpkg-deb", "--fsys-tarfile", p], capture_output=True, check=True).stdout
    out = {}
    with tarfile.open(fileobj=io.BytesIO(raw)) as t:
        for m in t.getmembers():
            if m.isfile() or m.islnk():
                name = "/" + os.path.normpath(m.name).lstrip("/")
                out[name] = md5(t.extractfile(m).read())
    return out


def main():
    status = open(os.path.join(ROOT, "var/lib/dpkg/status"), encoding="utf-8").read()
    pkgs = [f for f in paragraphs(status) if f.get("Status", "").split() == ["install", "ok", "installed"]]
    div = []
    dp = os.path.join(ROOT, "var/lib/dpkg/diversions")
    if os.path.exists(dp):
        lines = open(dp, encoding="utf-8").read().split("\n")
        for i in range(0, len(lines) - 2, 3):
            div.append((lines[i], lines[i + 1], lines[i + 2]))
    debs = deb_index()
    files, confs, tampered, unverified = [], [], [], []
    for f in pkgs:
        name, arch = f["Package"], f.get("Architecture", "")
        info = f"{name}:{arch}" if f.get("Multi-Arch") == "same" else name

        def loc(p):
            for a, b, by in div:
                if p == a and by != name:
                    return b
            return p
        conff = {}
        for line in f.get("Conffiles", "").split("\n"):
            parts = line.split()
            if len(parts) >= 2:
                conff[parts[0]] = (parts[1], len(parts) > 2 and parts[2] == "obsolete")
        sums = None
        mp = os.path.join(ROOT, "var/lib/dpkg/info", info + ".md5sums")
        if os.path.isfile(mp):
            sums = {}
            for line in open(mp, encoding="utf-8").read().splitlines():
                if len(line) > 34 and line[32:34] == "  ":
                    sums["/" + line[34:].lstrip("/")] = line[:32].lower()
        deb = debs.get((name, f.get("Version"), arch))
        if deb and sums is None:
            expect = {p: h for p, h in deb_files(deb).items() if p not in conff}
            basis = "deb"
            if sums is not None and set(sums.items()) != set(expect.items()):
                tampered.append(name)
        elif sums is not None:
            expect, basis = sums, "md5sums"
        else:
            expect, basis = {}, None
            unverified.append(name)
        for p, h in expect.items():
            l = loc(p)
            got = digest_at(l)
            if got != h:
                files.append({"path": l, "package": name, "problem": "missing" if got is None else "modified",
                              "basis": basis})
        for p, (h, obsolete) in conff.items():
            if obsolete:
                continue
            l = loc(p)
            got = digest_at(l)
            if got != h:
                confs.append({"path": l, "package": name, "problem": "missing" if got is None else "modified"})
    key = lambda e: (e["path"], e["package"])  # noqa: E731
    json.dump({"files": sorted(files, key=key), "conffiles": sorted(confs, key=key),
               "tampered_md5sums": sorted(tampered), "unverified": sorted(unverified)}, sys.stdout, indent=1)
    print()


main()
PY
chmod +x /app/pkgverify
