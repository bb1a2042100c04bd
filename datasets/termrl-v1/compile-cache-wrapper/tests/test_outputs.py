"""/app/cccache driving gcc (through a counting shim) on a C project generated here: real compiles
counted, objects compared with uncached builds, depfiles, replayed warnings, failures, pass-through."""
import os
import random
import re
import shutil
import stat
import subprocess

import pytest

TOOL = "/app/cccache"
RNG = random.Random(os.urandom(8))


@pytest.fixture()
def env(tmp_path):
    log = tmp_path / "compiles.log"
    shim = tmp_path / "bin" / "cc-count"
    shim.parent.mkdir()
    shim.write_text('#!/bin/sh\ncase " $* " in *" -E "*) ;; *) echo "$*" >> "$COUNT_LOG";; esac\nexec gcc "$@"\n')
    shim.chmod(0o755)
    e = dict(os.environ, CCCACHE_DIR=str(tmp_path / "cache"), COUNT_LOG=str(log), HOME=str(tmp_path / "home"))
    return {"env": e, "shim": str(shim), "log": log, "tmp": tmp_path}


def sh(cmd, env, cwd=None):
    return subprocess.run(cmd, shell=True, cwd=cwd, env=env["env"], capture_output=True, text=True, timeout=300)


def real_compiles(env):
    if not env["log"].exists():
        return []
    return [ln for ln in env["log"].read_text().splitlines() if " -c " in f" {ln} "]


def stats(env):
    r = sh(f"{TOOL} --stats", env)
    assert r.returncode == 0, r.stderr
    vals = dict(re.findall(r"^(hits|misses|passthrough) (\d+)$", r.stdout, re.M))
    assert len(vals) == 3, r.stdout
    return {k: int(v) for k, v in vals.items()}


def make_project(root):
    """n modules, two headers, a main; returns (n, {header: modules using it}, expected output)"""
    n = RNG.randint(4, 6)
    (root / "src").mkdir(parents=True)
    (root / "include").mkdir()
    k1, k2 = RNG.randint(2, 9), RNG.randint(11, 99)
    (root / "include/consts.h").write_text(f"#define K1 {k1}\n")
    (root / "include/scale.h").write_text(f"#define SCALE(x) ((x) * {k2})\n")
    uses = {"consts.h": [], "scale.h": []}
    total = 0
    decls = []
    for i in range(n):
        hs = [h for h in ("consts.h", "scale.h") if RNG.random() < 0.5 or i == ("consts.h", "scale.h").index(h)]
        for h in hs:
            uses[h].append(i)
        inc = "".join(f'#include "{h}"\n' for h in hs)
        c = RNG.randint(1, 50)
        expr = f"{c}"
        val = c
        if "consts.h" in hs:
            expr += " + K1"
            val += k1
        if "scale.h" in hs:
            expr = f"SCALE({expr})"
            val *= k2
        total += val
        (root / f"src/m{i}.c").write_text(f"{inc}int m{i}(void) {{ return {expr}; }}\n")
        decls.append(f"int m{i}(void);")
    body = " + ".join(f"m{i}()" for i in range(n))
    (root / "src/main.c").write_text("#include <stdio.h>\n" + "\n".join(decls) +
                                     f"\nint main(void) {{ printf(\"%d\\n\", {body}); return 0; }}\n")
    objs = " ".join(f"build/m{i}.o" for i in range(n)) + " build/main.o"
    (root / "Makefile").write_text(
        "CFLAGS ?= -O2 -Wall\n"
        f"app: {objs}\n\t$(CC) -o $@ $^\n"
        "build/%.o: src/%.c | build\n\t$(CC) $(CFLAGS) -Iinclude -MMD -MF build/$*.d -c $< -o $@\n"
        "build:\n\tmkdir -p build\n"
        "clean:\n\trm -rf build app\n"
        "-include build/*.d\n")
    return n + 1, uses, total


def objects(root):
    return {p: (root / "build" / p).read_bytes() for p in sorted(os.listdir(root / "build")) if p.endswith(".o")}


def test_cold_then_warm_build(env):
    proj = env["tmp"] / "proj"
    n, uses, total = make_project(proj)
    cc = f'CC="{TOOL} {env["shim"]}"'
    r = sh(f"make -j4 {cc}", env, cwd=proj)
    assert r.returncode == 0, r.stderr
    assert sh("./app", env, cwd=proj).stdout == f"{total}\n"
    assert len(real_compiles(env)) == n
    assert stats(env) == {"hits": 0, "misses": n, "passthrough": 1}
    first = objects(proj)
    plain = env["tmp"] / "plain"
    shutil.copytree(proj, plain)
    assert sh("make clean && make CC=gcc", env, cwd=plain).returncode == 0
    assert objects(plain) == first, "cached build must produce the compiler's own objects"
    assert sh("make clean", env, cwd=proj).returncode == 0
    r = sh(f"make -j4 {cc}", env, cwd=proj)
    assert r.returncode == 0, r.stderr
    assert len(real_compiles(env)) == n, "a warm rebuild must not run the compiler"
    assert stats(env) == {"hits": n, "misses": n, "passthrough": 2}
    assert objects(proj) == first
    assert sh("./app", env, cwd=proj).stdout == f"{total}\n"
    for i in range(n - 1):
        dep = (proj / f"build/m{i}.d").read_text()
        assert dep.startswith(f"build/m{i}.o: src/m{i}.c"), dep


def test_header_change_misses_dependents(env):
    proj = env["tmp"] / "proj"
    n, uses, total = make_project(proj)
    cc = f'CC="{TOOL} {env["shim"]}"'
    assert sh(f"make -j4 {cc}", env, cwd=proj).returncode == 0
    h = RNG.choice(["consts.h", "scale.h"])
    p = proj / "include" / h
    p.write_text("/* a comment changes nothing */\n" + re.sub(r"\b(\d+)\b", lambda m: str(int(m.group(1)) + 1), p.read_text()))
    assert sh(f"{TOOL} --zero", env).returncode == 0
    assert sh(f"make clean && make -j4 {cc}", env, cwd=proj).returncode == 0
    k = len(uses[h])
    assert stats(env) == {"hits": n - k, "misses": k, "passthrough": 1}
    assert len(real_compiles(env)) == n + k


def write_src(env, name, text):
    p = env["tmp"] / name
    p.write_text(text)
    return p


def test_key_covers_flags_not_output_path(env):
    src = write_src(env, "k.c", "int f(void) { return X * 3; }\n")
    (env["tmp"] / "o").mkdir()
    s = env["shim"]
    for args, expect in [("-O2 -DX=2 -c k.c -o o/a.o", "misses"), ("-O2 -DX=2 -c k.c -o o/b.o", "hits"),
                         ("-O2 -DX=3 -c k.c -o o/c.o", "misses"), ("-O0 -DX=2 -c k.c -o o/d.o", "misses"),
                         ("-O2 -DX=2 -c -oo/e.o k.c", "hits")]:
        before = stats(env)
        r = sh(f"{TOOL} {s} {args}", env, cwd=env["tmp"])
        assert r.returncode == 0, r.stderr
        assert stats(env)[expect] == before[expect] + 1, args
    o = env["tmp"] / "o"
    assert (o / "a.o").read_bytes() == (o / "b.o").read_bytes() == (o / "e.o").read_bytes()
    assert (o / "a.o").read_bytes() != (o / "c.o").read_bytes()


def test_depfile_rewritten_on_hit(env):
    inc = env["tmp"] / "inc"
    inc.mkdir()
    (inc / "v.h").write_text("#define V 7\n")
    write_src(env, "d.c", '#include "v.h"\nint g(void) { return V; }\n')
    (env["tmp"] / "sub").mkdir()
    s = env["shim"]
    assert sh(f"{TOOL} {s} -Iinc -MD -MF one.d -c d.c -o one.o", env, cwd=env["tmp"]).returncode == 0
    before = stats(env)["hits"]
    assert sh(f"{TOOL} {s} -Iinc -MD -MF sub/two.d -c d.c -o sub/two.o", env, cwd=env["tmp"]).returncode == 0
    assert stats(env)["hits"] == before + 1
    ref = sh("gcc -Iinc -MD -MF ref.d -c d.c -o sub/two.o", env, cwd=env["tmp"])
    assert ref.returncode == 0
    assert (env["tmp"] / "sub/two.d").read_text() == (env["tmp"] / "ref.d").read_text()
    assert sh(f"{TOOL} {s} -Iinc -MD -MT custom-target -c d.c -o sub/three.o", env, cwd=env["tmp"]).returncode == 0
    assert (env["tmp"] / "sub/three.d").read_text().startswith("custom-target: d.c")


def test_warnings_replayed_and_errors_not_cached(env):
    tag = f"unused_{RNG.randint(0, 10**6)}"
    write_src(env, "w.c", f"int h(void) {{ int {tag} = 1; return 2; }}\n")
    s = env["shim"]
    r1 = sh(f"{TOOL} {s} -Wall -c w.c -o w1.o", env, cwd=env["tmp"])
    r2 = sh(f"{TOOL} {s} -Wall -c w.c -o w2.o", env, cwd=env["tmp"])
    assert r1.returncode == 0 and r2.returncode == 0
    assert tag in r1.stderr and r2.stderr == r1.stderr
    assert stats(env)["hits"] == 1
    write_src(env, "e.c", "int broken(void) { return nope; }\n")
    before = stats(env)
    for _ in range(2):
        r = sh(f"{TOOL} {s} -c e.c -o e.o", env, cwd=env["tmp"])
        assert r.returncode != 0 and "nope" in r.stderr
    after = stats(env)
    assert after["misses"] == before["misses"] + 2 and after["hits"] == before["hits"]
    assert len([c for c in real_compiles(env) if "e.c" in c]) == 2


def test_passthrough(env):
    write_src(env, "p1.c", "int p1(void) { return 1; }\n")
    write_src(env, "p2.c", "int p1(void);\nint main(void) { return p1() + 40; }\n")
    s = env["shim"]
    r = sh(f"{TOOL} {s} -o both p1.c p2.c", env, cwd=env["tmp"])
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(env["tmp"] / "both")]).returncode == 41
    r = sh(f"{TOOL} {s} -E p2.c", env, cwd=env["tmp"])
    assert r.returncode == 0 and "int main(void)" in r.stdout
    r = sh(f"{TOOL} {s} -c p1.c p2.c", env, cwd=env["tmp"])
    assert r.returncode == 0 and (env["tmp"] / "p1.o").exists() and (env["tmp"] / "p2.o").exists()
    r = sh(f"{TOOL} {s} -c missing.c -o m.o", env, cwd=env["tmp"])
    assert r.returncode != 0
    st = stats(env)
    assert st["passthrough"] == 3 and st["hits"] == 0
    assert sh(f"{TOOL} --zero", env).returncode == 0
    assert stats(env) == {"hits": 0, "misses": 0, "passthrough": 0}
