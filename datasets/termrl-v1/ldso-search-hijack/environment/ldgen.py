"""A root filesystem with ld.so.conf (+ include globs), libraries, /etc/ld.so.preload and a list of programs
(needed libraries, rpath/runpath, set-uid, environment); expected library resolution per the stated rules."""
import json
import os
import random


def build(seed, out):
    r = random.Random(seed)
    root = os.path.join(out, "root")
    os.makedirs(root, exist_ok=True)
    word = lambda: "".join(r.choice("abcdefghkmnprstuvwxz") for _ in range(r.randint(3, 6)))  # noqa: E731

    def touch(p):
        full = os.path.join(root, p.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(b"\x7fELF" + bytes(r.randrange(256) for _ in range(32)))

    libs = [f"lib{word()}.so.{r.randint(0, 9)}" for _ in range(8)]
    system = "/usr/lib/x86_64-linux-gnu"
    for lb in libs:
        touch(f"{system}/{lb}")
    local = "/usr/local/lib"
    opt = f"/opt/{word()}/lib"
    shadow = r.sample(libs, 3)                       # also present in other directories
    touch(f"{local}/{shadow[0]}")
    touch(f"{opt}/{shadow[1]}")
    touch(f"/tmp/.cache/{shadow[2]}")
    touch(f"/dev/shm/{shadow[0]}")
    touch(f"/tmp/.cache/libpreload.so")
    only_opt = f"lib{word()}.so.1"
    touch(f"{opt}/{only_opt}")
    missing = f"lib{word()}.so.2"
    os.makedirs(os.path.join(root, "etc/ld.so.conf.d"), exist_ok=True)
    with open(os.path.join(root, "etc/ld.so.conf"), "w") as f:
        f.write("include /etc/ld.so.conf.d/*.conf\n")
    confs = {"libc.conf": f"# libc default configuration\n{local}\n",
             "x86_64-linux-gnu.conf": f"# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n{system}\n",
             f"zz-{word()}.conf": f"{opt}\n", "README": "/tmp/.cache\n"}
    for n, t in confs.items():
        with open(os.path.join(root, "etc/ld.so.conf.d", n), "w") as f:
            f.write(t)
    with open(os.path.join(root, "etc/ld.so.preload"), "w") as f:
        f.write("# preload\n/tmp/.cache/libpreload.so /lib/libmissing-preload.so\n")
    # search directories from ld.so.conf, in order (files of the glob sorted by name)
    cache_dirs = []
    for n in sorted(k for k in confs if k.endswith(".conf")):
        for line in confs[n].split("\n"):
            line = line.strip()
            if line and not line.startswith("#") and line not in cache_dirs:
                cache_dirs.append(line)
    default_dirs = ["/lib", "/usr/lib"]

    def exists(d, lib):
        return os.path.isfile(os.path.join(root, d.lstrip("/"), lib))

    progs, exp = [], []
    for i in range(30):
        needed = r.sample(libs + [only_opt, missing], r.randint(2, 5))
        rpath = r.choice([[], [], [f"/tmp/.cache"], [local], ["$ORIGIN/../lib"]])
        runpath = r.choice([[], [], [opt], ["/dev/shm"]])
        setuid = r.random() < 0.25
        env = r.choice([None, None, "/dev/shm", f"/tmp/.cache:{local}", ""])
        prog = {"id": f"p{i:02d}", "path": f"/usr/bin/{word()}", "needed": needed, "rpath": rpath,
                "runpath": runpath, "setuid": setuid, "ld_library_path": env}
        progs.append(prog)
        res = {}
        for lib in needed:
            order = []
            if not runpath:
                order += [("rpath", d) for d in rpath]
            if env and not setuid:
                order += [("ld_library_path", d) for d in env.split(":") if d]
            order += [("runpath", d) for d in runpath]
            order += [("cache", d) for d in cache_dirs]
            order += [("default", d) for d in default_dirs]
            hit = None
            for how, d in order:
                if "$ORIGIN" in d and setuid:
                    continue
                if "$ORIGIN" in d:
                    d = d.replace("$ORIGIN", os.path.dirname(prog["path"]))
                    d = os.path.normpath(d)
                if exists(d, lib):
                    hit = {"file": os.path.join(d, lib), "via": how}
                    break
            res[lib] = hit
        pre = [p for p in "/tmp/.cache/libpreload.so /lib/libmissing-preload.so".split()
               if os.path.isfile(os.path.join(root, p.lstrip("/")))]
        exp.append({"id": prog["id"], "preload": pre,
                    "libraries": [{"name": lib, "file": res[lib]["file"] if res[lib] else None,
                                   "via": res[lib]["via"] if res[lib] else None} for lib in needed]})
    with open(os.path.join(out, "programs.jsonl"), "w") as f:
        for p in progs:
            f.write(json.dumps(p) + "\n")
    return exp
