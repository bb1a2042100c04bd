"""Builds a copied Debian root filesystem with a package database, cached .debs and tampering.

build(seed, root) writes the tree under `root` and returns the report a correct verifier prints.
Only the standard library is used; .deb files are written by hand (ar + tar).
"""
import gzip
import hashlib
import io
import lzma
import os
import random
import tarfile

ARCH = "amd64"
TRIPLET = "x86_64-linux-gnu"


def md5(b):
    return hashlib.md5(b).hexdigest()


def _ar(members):
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        hdr = f"{name:<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(data):<10}`\n"
        assert len(hdr) == 60
        out += hdr.encode() + data
        if len(data) % 2:
            out += b"\n"
    return bytes(out)


def _tar(entries, comp):
    """entries: list of (name, kind, payload, mode); kind: dir|file|hardlink|symlink."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
        for name, kind, payload, mode in entries:
            ti = tarfile.TarInfo(name)
            ti.mtime = 1700000000
            ti.uname = ti.gname = "root"
            ti.mode = mode
            if kind == "dir":
                ti.type = tarfile.DIRTYPE
                t.addfile(ti)
            elif kind == "file":
                ti.size = len(payload)
                t.addfile(ti, io.BytesIO(payload))
            elif kind == "hardlink":
                ti.type = tarfile.LNKTYPE
                ti.linkname = payload
                t.addfile(ti)
            else:
                ti.type = tarfile.SYMTYPE
                ti.linkname = payload
                t.addfile(ti)
    raw = buf.getvalue()
    if comp == "gz":
        return gzip.compress(raw, mtime=0), ".gz"
    if comp == "xz":
        return lzma.compress(raw), ".xz"
    return raw, ""


class Pkg:
    def __init__(self, name, version, arch=ARCH, ma=None):
        self.name, self.version, self.arch, self.ma = name, version, arch, ma
        self.files = {}       # path -> bytes (regular files, non-conffile)
        self.hardlinks = {}   # path -> target path (same package)
        self.conffiles = {}   # path -> bytes
        self.obsolete = {}    # path -> md5 of an obsolete conffile (status only)
        self.symlinks = {}    # path -> target (shipped symlinks)

    @property
    def info(self):
        return f"{self.name}:{self.arch}" if self.ma == "same" else self.name

    def regular(self):
        """path -> content of every regular file and hard link (non-conffile)."""
        d = dict(self.files)
        for p, t in self.hardlinks.items():
            d[p] = self.files[t]
        return d

    def dirs(self):
        ds = set()
        for p in list(self.files) + list(self.hardlinks) + list(self.conffiles) + list(self.symlinks):
            parts = p.strip("/").split("/")[:-1]
            for i in range(1, len(parts) + 1):
                ds.add("/" + "/".join(parts[:i]))
        return sorted(ds)

    def control(self):
        lines = [f"Package: {self.name}", f"Version: {self.version}", f"Architecture: {self.arch}"]
        if self.ma:
            lines.append(f"Multi-Arch: {self.ma}")
        lines += ["Maintainer: Debian Maintainers <pkg@lists.example.org>", "Installed-Size: 512",
                  f"Description: {self.name} utilities", " Long description of the package."]
        return "\n".join(lines) + "\n"

    def md5sums_text(self, overrides=None, drop=()):
        rows = []
        for p, b in sorted(self.regular().items()):
            if p in drop:
                continue
            h = (overrides or {}).get(p, md5(b))
            rows.append(f"{h}  {p.lstrip('/')}\n")
        return "".join(rows)

    def deb(self, comp_control, comp_data):
        ctl = [("./", "dir", None, 0o755), ("./control", "file", self.control().encode(), 0o644),
               ("./md5sums", "file", self.md5sums_text().encode(), 0o644)]
        if self.conffiles:
            ctl.append(("./conffiles", "file", "".join(p + "\n" for p in sorted(self.conffiles)).encode(), 0o644))
        data = [("./", "dir", None, 0o755)]
        for d in self.dirs():
            data.append(("." + d + "/", "dir", None, 0o755))
        for p in sorted(set(self.files) | set(self.conffiles)):
            b = self.files.get(p, self.conffiles.get(p))
            mode = 0o755 if "/bin/" in p or "/sbin/" in p or "/libexec/" in p else 0o644
            data.append(("." + p, "file", b, mode))
        for p, t in sorted(self.hardlinks.items()):
            data.append(("." + p, "hardlink", "." + t, 0o755))
        for p, t in sorted(self.symlinks.items()):
            data.append(("." + p, "symlink", t, 0o777))
        c, cext = _tar(ctl, comp_control)
        d, dext = _tar(data, comp_data)
        return _ar([("debian-binary", b"2.0\n"), ("control.tar" + cext, c), ("data.tar" + dext, d)])

    def deb_name(self):
        return f"{self.name}_{self.version.replace(':', '%3a')}_{self.arch}.deb"


def blob(r, kind="bin"):
    n = r.randint(200, 3000)
    if kind == "bin":
        return b"\x7fELF\x02\x01\x01" + bytes(r.randrange(256) for _ in range(n))
    words = ["option", "enable", "path", "timeout", "user", "level", "cache", "listen", "allow", "deny"]
    return ("".join(f"{r.choice(words)} {r.randint(0, 9999)}\n" for _ in range(n // 40))).encode()


def build(seed, root):
    r = random.Random(seed)
    root = os.path.abspath(root)
    sfx = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(3))  # noqa: E731
    used = set()

    def tool():
        while True:
            w = "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 6)))
            if w not in used:
                used.add(w)
                return w
    files_report, conf_report = [], []
    tampered, unverified = set(), set()

    # the rootfs skeleton: merged /usr with one absolute and several relative alias links
    def phys(p):
        """Where the generator writes logical path p (mirrors the links it creates)."""
        for a, b in (("/bin/", "/usr/bin/"), ("/sbin/", "/usr/sbin/"), ("/lib/", "/usr/lib/"),
                     ("/usr/libexec/agent/", "/opt/agent/")):
            if p.startswith(a):
                p = b + p[len(a):]
        return root + p

    for d in ("usr/bin", "usr/sbin", f"usr/lib/{TRIPLET}", "usr/libexec", "opt/agent", "etc", "tmp",
              "var/lib/dpkg/info", "var/cache/apt/archives/partial", "usr/share/doc"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.symlink("usr/bin", os.path.join(root, "bin"))
    os.symlink("/usr/sbin", os.path.join(root, "sbin"))
    os.symlink("usr/lib", os.path.join(root, "lib"))
    os.symlink("../../../../../opt/agent", os.path.join(root, "usr/libexec/agent"))

    pk = {}

    def new(key, name, version, **kw):
        p = Pkg(name, version, **kw)
        pk[key] = p
        return p

    # --- packages -------------------------------------------------------------------------------
    core = new("core", f"coretools-{sfx()}", f"2:{r.randint(8, 9)}.{r.randint(10, 40)}-{r.randint(1, 5)}")
    t = [tool() + str(i) for i in range(5)]
    for i, x in enumerate(t[:3]):
        core.files[f"/bin/{x}"] = blob(r)
    core.files[f"/usr/bin/{t[3]}"] = blob(r)
    core.hardlinks[f"/usr/bin/{t[4]}"] = f"/usr/bin/{t[3]}"
    core.files[f"/usr/share/doc/{core.name}/copyright"] = blob(r, "txt")
    core.symlinks[f"/usr/bin/{tool()}"] = t[0]

    init = new("init", f"initkit-{sfx()}", f"{r.randint(1, 3)}.{r.randint(0, 9)}-{r.randint(1, 9)}")
    for x in ("start", "halt", "runlevel"):
        init.files[f"/sbin/{x}-{sfx()}"] = blob(r)
    init.conffiles[f"/etc/{init.name}/inittab"] = blob(r, "txt")

    ssh = new("ssh", f"remote-shelld-{sfx()}", f"1:{r.randint(8, 9)}.{r.randint(1, 9)}p1-{r.randint(1, 9)}")
    sshd = f"/usr/sbin/{tool()}d"
    ssh.files[sshd] = blob(r)
    ssh.files[f"/usr/lib/{ssh.name}/session-helper"] = blob(r)
    ssh.files[f"/usr/share/doc/{ssh.name}/README"] = blob(r, "txt")
    ssh.conffiles[f"/etc/{ssh.name}/daemon.conf"] = blob(r, "txt")
    ssh.conffiles[f"/etc/{ssh.name}/moduli"] = blob(r, "txt")

    lib = new("lib", f"libquux{r.randint(1, 4)}", f"{r.randint(1, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}-{r.randint(1, 4)}",
              ma="same")
    libso = f"/lib/{TRIPLET}/libquux.so.{r.randint(1, 4)}.{r.randint(0, 9)}.{r.randint(0, 9)}"
    lib.files[libso] = blob(r)
    lib.files[f"/usr/lib/{TRIPLET}/quux/plugin-{sfx()}.so"] = blob(r)
    lib.files[f"/usr/share/doc/{lib.name}/changelog.Debian.gz"] = blob(r)

    ed = new("ed", f"editor-{sfx()}", f"{r.randint(2, 4)}.{r.randint(0, 9)}-{r.randint(2, 6)}")
    edbin = f"/usr/bin/{tool()}"
    ed.files[edbin] = blob(r)
    ed.files[f"/usr/share/doc/{ed.name}/NEWS"] = blob(r, "txt")
    wrap = new("wrap", f"{ed.name}-wrapper", f"0.{r.randint(1, 9)}")
    wrap.files[edbin] = blob(r)             # diverts the editor's binary and ships its own
    wrap.files[f"/usr/share/doc/{wrap.name}/copyright"] = blob(r, "txt")

    net = new("net", f"netcfg-{sfx()}", f"0.{r.randint(10, 99)}-{r.randint(1, 3)}")
    ifup = f"/usr/sbin/if{tool()}"
    net.files[ifup] = blob(r)
    net.files[f"/usr/share/doc/{net.name}/copyright"] = blob(r, "txt")

    agent = new("agent", f"mon-agent-{sfx()}", f"{r.randint(3, 7)}.{r.randint(0, 9)}.{r.randint(0, 9)}", arch="all")
    agent.files["/usr/libexec/agent/agent-run"] = blob(r)
    agent.files["/usr/libexec/agent/agent-collect"] = blob(r)
    agent.files[f"/usr/share/doc/{agent.name}/copyright"] = blob(r, "txt")

    sudo = new("sudo", f"privtool-{sfx()}", f"1.9.{r.randint(10, 16)}p{r.randint(1, 3)}-{r.randint(1, 3)}")
    sudob = f"/usr/bin/{tool()}"
    sudo.files[sudob] = blob(r)
    sudo.files[f"/usr/share/doc/{sudo.name}/copyright"] = blob(r, "txt")

    docs = new("docs", f"handbook-{sfx()}", f"{r.randint(2020, 2025)}.{r.randint(1, 12)}", arch="all")
    docs.files[f"/usr/share/doc/{docs.name}/Release Notes.txt"] = blob(r, "txt")
    docs.files[f"/usr/share/doc/{docs.name}/admin guide/chapter {r.randint(1, 9)}.txt"] = blob(r, "txt")

    legacy = new("legacy", f"legacyd-{sfx()}", f"0.{r.randint(1, 9)}.{r.randint(0, 9)}")
    legacy.files[f"/usr/sbin/{tool()}"] = blob(r)
    legacy.conffiles[f"/etc/{legacy.name}.conf"] = blob(r, "txt")
    legacy.obsolete[f"/etc/{legacy.name}/old-defaults"] = md5(blob(r, "txt"))

    nsh = new("nsh", f"netshell-{sfx()}", f"{r.randint(1, 5)}.{r.randint(0, 9)}-{r.randint(1, 5)}")
    nshb = [f"/usr/bin/{tool()}" for _ in range(3)]
    for p in nshb:
        nsh.files[p] = blob(r)

    noise = []
    for i in range(4):
        p = new(f"noise{i}", f"{tool()}-{tool()}", f"{r.randint(0, 9)}.{r.randint(0, 30)}-{r.randint(1, 4)}")
        for _ in range(r.randint(2, 4)):
            p.files[f"/usr/{r.choice(['bin', 'share/' + p.name, 'lib/' + p.name])}/{tool()}"] = blob(r)
        noise.append(p)

    removed = Pkg(f"oldsvc-{sfx()}", "1.0-1")
    removed.files[f"/usr/sbin/{tool()}"] = blob(r)
    removed.conffiles[f"/etc/{removed.name}.conf"] = blob(r, "txt")

    # which packages have their .deb in the cache, and how it is compressed
    with_deb = {"core": ("xz", "xz"), "init": ("gz", "gz"), "ssh": ("xz", "gz"), "ed": ("gz", "xz"),
                "wrap": ("xz", "none"), "agent": ("gz", "gz"), "nsh": ("xz", "xz")}
    for i, p in enumerate(noise):
        if i % 2 == 0:
            with_deb[f"noise{i}"] = (r.choice(["gz", "xz"]), r.choice(["gz", "xz", "none"]))
    if r.random() < 0.5:
        with_deb["sudo"] = ("gz", "xz")
    no_md5sums = {"legacy"}     # neither a deb nor an md5sums file: unverified
    if "sudo" in with_deb and r.random() < 0.5:
        no_md5sums.add("sudo")  # verifiable from the deb alone

    # --- install: write every file where dpkg would have put it --------------------------------
    diversions = [(edbin, edbin + ".distrib", wrap.name), (ifup, ifup + ".real", ":")]

    def location(pkg, path):
        for frm, to, by in diversions:
            if path == frm and by != pkg.name:
                return to
        return path

    def write(path, data, mode=0o644):
        full = phys(path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
        os.chmod(full, mode)

    installed = [p for k, p in pk.items()]
    for p in installed:
        for path, data in p.regular().items():
            write(location(p, path), data, 0o755 if "bin/" in path else 0o644)
        for path, data in p.conffiles.items():
            write(path, data)
        for path, target in p.symlinks.items():
            os.symlink(target, phys(path))
    write(ifup, b"#!/bin/sh\n# local wrapper installed by the admins\nexec " + ifup.encode() + b".real \"$@\"\n", 0o755)

    # --- tampering ------------------------------------------------------------------------------
    info_md5 = {k: p.md5sums_text() for k, p in pk.items()}

    def report(p, path, problem):
        files_report.append({"path": path, "package": p.name, "problem": problem,
                             "basis": "deb" if key_of[p.name] in with_deb else "md5sums"})
    key_of = {p.name: k for k, p in pk.items()}

    # 1. a trojaned binary reached through the relative /bin link
    victim = f"/bin/{t[1]}"
    write(victim, blob(r), 0o755)
    report(core, victim, "modified")
    # 2. the daemon replaced and its md5sums line forged to match
    evil = blob(r)
    write(sshd, evil, 0o755)
    report(ssh, sshd, "modified")
    info_md5["ssh"] = ssh.md5sums_text(overrides={sshd: md5(evil)})
    tampered.add(ssh.name)
    # 3. an admin edited a conffile; another conffile deleted
    write(f"/etc/{ssh.name}/daemon.conf", ssh.conffiles[f"/etc/{ssh.name}/daemon.conf"] + b"PermitRootLogin yes\n")
    conf_report.append({"path": f"/etc/{ssh.name}/daemon.conf", "package": ssh.name, "problem": "modified"})
    os.unlink(phys(f"/etc/{legacy.name}.conf"))
    conf_report.append({"path": f"/etc/{legacy.name}.conf", "package": legacy.name, "problem": "missing"})
    # 4. the library behind /lib (no deb: md5sums is the basis)
    write(libso, lib.files[libso][:-64] + blob(r)[:64])
    report(lib, libso, "modified")
    # 5. the privileged binary replaced by an absolute symlink to a file in the rootfs' /tmp
    os.makedirs(phys("/tmp/.X11-cache"), exist_ok=True)
    write("/tmp/.X11-cache/" + sudob.rsplit("/", 1)[1], blob(r), 0o755)
    os.unlink(phys(sudob))
    os.symlink("/tmp/.X11-cache/" + sudob.rsplit("/", 1)[1], phys(sudob))
    report(sudo, sudob, "modified")
    # 6. one agent helper deleted (the other reached through the clamped ../ link must verify fine)
    os.unlink(phys("/usr/libexec/agent/agent-collect"))
    report(agent, "/usr/libexec/agent/agent-collect", "missing")
    # 7. /sbin (absolute link) binary replaced by a dangling link
    sb = sorted(init.files)[r.randrange(3)]
    os.unlink(phys(sb))
    os.symlink("/usr/lib/" + init.name + "/gone", phys(sb))
    report(init, sb, "missing")
    # 8. netshell: one binary modified and its md5sums line dropped, the hard link's target intact
    nb = nshb[r.randrange(3)]
    write(nb, blob(r), 0o755)
    report(nsh, nb, "modified")
    info_md5["nsh"] = nsh.md5sums_text(drop={nb})
    tampered.add(nsh.name)
    # 9. the edited diverted-away original of the editor (checked at its diverted location)
    if r.random() < 0.5:
        write(edbin + ".distrib", blob(r), 0o755)
        report(ed, edbin + ".distrib", "modified")
    for k in no_md5sums:
        info_md5.pop(k)
    if "legacy" in no_md5sums:
        unverified.add(legacy.name)
    # leftovers of a removed package: its info files list a file that no longer exists
    info_md5["removed"] = removed.md5sums_text()

    # --- package database ------------------------------------------------------------------------
    info = os.path.join(root, "var/lib/dpkg/info")
    status = []
    for k, p in list(pk.items()) + [("removed", removed)]:
        st = "deinstall ok config-files" if k == "removed" else "install ok installed"
        para = [f"Package: {p.name}", f"Status: {st}", "Priority: optional", "Section: misc",
                "Installed-Size: 512", "Maintainer: Debian Maintainers <pkg@lists.example.org>",
                f"Architecture: {p.arch}"]
        if p.ma:
            para.append(f"Multi-Arch: {p.ma}")
        para.append(f"Version: {p.version}")
        if p.conffiles or p.obsolete:
            para.append("Conffiles:")
            for c, b in sorted(p.conffiles.items()):
                para.append(f" {c} {md5(b)}")
            for c, h in sorted(p.obsolete.items()):
                para.append(f" {c} {h} obsolete")
        para += [f"Description: {p.name} utilities", " Long description of the package.", " ."]
        status.append("\n".join(para) + "\n")
        if k != "removed":
            listing = ["/."] + p.dirs() + sorted(list(p.regular()) + list(p.conffiles) + list(p.symlinks))
            with open(os.path.join(info, p.info + ".list"), "w") as f:
                f.write("".join(x + "\n" for x in listing))
            if p.conffiles:
                with open(os.path.join(info, p.info + ".conffiles"), "w") as f:
                    f.write("".join(c + "\n" for c in sorted(p.conffiles)))
        if k in info_md5:
            with open(os.path.join(info, p.info + ".md5sums"), "w") as f:
                f.write(info_md5[k])
    r.shuffle(status)
    with open(os.path.join(root, "var/lib/dpkg/status"), "w") as f:
        f.write("\n".join(status))
    with open(os.path.join(root, "var/lib/dpkg/diversions"), "w") as f:
        for frm, to, by in diversions:
            f.write(f"{frm}\n{to}\n{by}\n")

    # --- the apt cache ---------------------------------------------------------------------------
    arch_dir = os.path.join(root, "var/cache/apt/archives")
    for k, (cc, dc) in with_deb.items():
        p = pk[k]
        with open(os.path.join(arch_dir, p.deb_name()), "wb") as f:
            f.write(p.deb(cc, dc))
    # an older editor build (other content), a rebuild of the daemon's previous version, a deb of a
    # package that is not installed, and a truncated download (partial/ is not part of the cache)
    old = Pkg(ed.name, ed.version.rsplit("-", 1)[0] + "-1")
    old.files = {p: blob(r) for p in ed.files}
    with open(os.path.join(arch_dir, old.deb_name()), "wb") as f:
        f.write(old.deb("gz", "gz"))
    prev = Pkg(ssh.name, ssh.version.rsplit("-", 1)[0] + "-0")
    prev.files = {p: blob(r) for p in ssh.files}
    prev.conffiles = dict(ssh.conffiles)
    with open(os.path.join(arch_dir, f"{ssh.name}_{ssh.version.split(':')[-1].rsplit('-', 1)[0]}-0+b1_{ARCH}.deb"),
              "wb") as f:
        f.write(prev.deb("xz", "xz"))
    extra = Pkg(f"extras-{sfx()}", "3.0-1")
    extra.files[f"/usr/bin/{tool()}"] = blob(r)
    with open(os.path.join(arch_dir, extra.deb_name()), "wb") as f:
        f.write(extra.deb("xz", "xz"))
    part = pk["lib"].deb("xz", "xz")
    with open(os.path.join(arch_dir, "partial", pk["lib"].deb_name()), "wb") as f:
        f.write(part[: len(part) // 2])

    key = lambda e: (e["path"], e["package"])  # noqa: E731
    return {"files": sorted(files_report, key=key), "conffiles": sorted(conf_report, key=key),
            "tampered_md5sums": sorted(tampered), "unverified": sorted(unverified)}


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(build(int(sys.argv[1]), sys.argv[2]), indent=1))
