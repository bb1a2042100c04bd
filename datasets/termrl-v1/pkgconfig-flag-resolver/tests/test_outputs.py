"""/app/pcq on .pc trees generated here. Scenario tests spell out the expected output by hand; the
randomized tests compare against an independent implementation of the instruction (pcq_ref.py)."""
import os
import random
import subprocess
import sys

import pytest

TOOL = "/app/pcq"
HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "pcq_ref.py")
sys.path.insert(0, HERE)
import pcq_ref  # noqa: E402


def run(args, libdir, extra_env=None, tool=TOOL):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PKG_CONFIG")}
    env["PKG_CONFIG_LIBDIR"] = str(libdir)
    env.update(extra_env or {})
    cmd = ([tool] if tool == TOOL else [sys.executable, tool]) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, cwd="/")


def out(args, libdir, extra_env=None):
    r = run(args, libdir, extra_env)
    assert r.returncode == 0, f"{args}: exit {r.returncode} {r.stderr[-500:]}"
    return r.stdout


def fails(args, libdir, extra_env=None):
    r = run(args, libdir, extra_env)
    assert r.returncode == 1 and r.stdout == "", f"{args}: expected an error, got exit {r.returncode} {r.stdout!r}"


def pc(d, name, body):
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{name}.pc").write_text(body)


# ---------------------------------------------------------------- example

def test_example_tree():
    d = "/app/example/pc"
    assert out(["--cflags", "--libs", "app-kit"], d) == (
        "-DAPPKIT -DCORE_SHARED -I/opt/acme/include -I/app/example/pc/../../include/net "
        "-I/app/example/pc/../../include -I/opt/acme/include/core "
        "-L/opt/acme/lib -L/app/example/pc/../../lib -lappkit -lnet -lcore\n")
    assert out(["app-kit", "--static", "--libs"], d) == (
        "-L/opt/acme/lib -L/app/example/pc/../../lib -lappkit -lnet -lzlite -lcore -lm -pthread\n")
    assert out(["--modversion", "net", "core"], d) == "2.0rc1\n1.4.2\n"
    assert out(["--variable=plugindir", "net", "zlite"], d) == "/app/example/pc/../../lib/net-plugins \n"
    assert out(["--exists", "net >= 2.0"], d) == ""
    fails(["--exists", "net", "<", "2.0"], d)


# ---------------------------------------------------------------- versions

KNOWN = [
    ("1.10", "1.9", 1), ("1.0", "1.0.0", -1), ("2.0rc1", "2.0", 1), ("1.a", "1.1", -1), ("1.01", "1.1", 0),
    ("1_0", "1.0", 0), ("1.0a", "1.0b", -1), ("1.0Z", "1.0a", -1), ("10", "9.99", 1), ("1.2.3", "1.2.3", 0),
    ("0001.2", "1.02", 0), ("2.0.0.", "2.0.0", 0), ("1.0-1", "1.0.1", 0), ("abc", "abd", -1), ("1.0.post1", "1.0.1", -1), ("3.0", "3.0rc2", -1),
]


def _rand_version(rng):
    parts = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.6:
            parts.append(str(rng.randint(0, 12)).zfill(rng.choice([1, 1, 2])))
        elif r < 0.85:
            parts.append(rng.choice(["a", "b", "rc", "alpha", "Z"]) + (str(rng.randint(0, 3)) if rng.random() < 0.5 else ""))
        else:
            parts.append(str(rng.randint(0, 3)) + rng.choice(["a", "pre", "b"]))
    seps = [rng.choice([".", ".", ".", "-", "_", "+", ""]) for _ in parts]
    return "".join(p + s for p, s in zip(parts, seps)).rstrip(".-_+") or "0"


def test_version_comparison(tmp_path):
    rng = random.Random(4242)
    pairs = [(a, b) for a, b, _ in KNOWN]
    for _ in range(70):
        a = _rand_version(rng)
        b = a if rng.random() < 0.1 else _rand_version(rng)
        pairs.append((a, b))
    for k, (a, b) in enumerate(pairs):
        if k < len(KNOWN):
            assert pcq_ref.vercmp(a, b) == KNOWN[k][2]
        want = pcq_ref.vercmp(a, b)
        d = tmp_path / f"v{k}"
        pc(d, "m", f"Name: m\nDescription: x\nVersion: {a}\n")
        op = rng.choice(["<", "<=", ">", ">=", "=", "!="]) if k >= len(KNOWN) else ("=" if want == 0 else "<" if want < 0 else ">")
        holds = {"=": want == 0, "!=": want != 0, "<": want < 0, "<=": want <= 0, ">": want > 0, ">=": want >= 0}[op]
        r = run(["--exists", f"m {op} {b}"], d)
        assert r.returncode == (0 if holds else 1), f"version {a!r} {op} {b!r} should be {holds}"


# ---------------------------------------------------------------- reading .pc files

def test_variables_and_file_reading(tmp_path):
    d = tmp_path / "lib" / "pkgconfig"
    pc(d, "va", """\
# comment line
prefix = /opt/va   # trailing comment
exec_prefix=${prefix}
libdir=${exec_prefix}/lib
price=$$5 and $x
this line is junk and is ignored
pcfiledir=/not/used
Name: va
Description: variable tests: a: b = c
Version: 3.1
Cflags: -I${prefix}/include -DPRICE="${price}" -DHERE=${pcfiledir}
Libs: -L${libdir} -lva
late=${libdir}/late
""")
    pc(d, "vb", "prefix=/usr\nName: vb\nVersion: 1\nRequires: va\nCflags: -I${prefix}/include/vb\nLibs: -lvb\n")
    pc(d, "fwd", "Name: fwd\nVersion: 1\nCflags: -I${later}\nlater=/x\n")
    pc(d, "undef", "Name: undef\nVersion: 1\nLibs: -L${nolibdir}\n")
    pc(d, "dup", "Name: dup\nVersion: 1\nLibs: -ldup\nLibs: -ldup2\n")
    pc(d, "nover", "Name: nover\nDescription: no version\nLibs: -lnover\n")
    assert out(["--cflags", "va"], d) == f'-DPRICE="$5 and $x" -DHERE={d} -I/opt/va/include\n'
    assert out(["--variable=late", "va"], d) == "/opt/va/lib/late\n"
    assert out(["--variable=pcfiledir", "va"], d) == f"{d}\n"
    assert out(["--variable=prefix", "va", "vb"], d) == "/opt/va /usr\n"
    # --define-variable reaches every file read, and lines defining it are ignored
    assert out(["--define-variable=prefix=/stage", "--cflags", "--libs", "vb"], d) == (
        f'-DPRICE="$5 and $x" -DHERE={d} -I/stage/include/vb -I/stage/include -L/stage/lib -lvb -lva\n')
    assert out(["--define-variable=prefix=/a", "--define-variable=prefix=/b", "--variable=libdir", "va"], d) == "/b/lib\n"
    for m in ("fwd", "undef", "dup", "nover"):
        fails(["--cflags", m], d)
    fails(["--exists", "vb", "fwd"], d)
    # trailing slashes of the search directory are not part of pcfiledir
    assert out(["--variable=pcfiledir", "va"], str(d) + "//") == f"{d}\n"


def test_search_path_and_specs(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    pc(a, "one", "Name: one\nVersion: 1.0\n")
    pc(b, "one", "Name: one\nVersion: 2.0\n")
    pc(b, "two", "Name: two\nVersion: 2.5\n")
    pc(c, "three", "Name: three\nVersion: 3\n")
    env = {"PKG_CONFIG_PATH": f":{a}::{b}"}
    assert out(["--modversion", "one", "two"], c, env) == "1.0\n2.5\n"
    assert out(["--modversion", "three"], c, env) == "3\n"
    fails(["--modversion", "three"], c, {"PKG_CONFIG_PATH": f"{a}", "PKG_CONFIG_LIBDIR": ""})
    r = run(["--modversion", "one"], c, {"PKG_CONFIG_PATH": f"{b}:{a}"})
    assert r.stdout == "2.0\n"
    for spec in (["one>=1.0,two"], ["one", ">=", "1.0", "two"], ["one >=1.0", "two  <3"], ["one>= 1.0 ,  two"]):
        assert run(["--exists"] + spec, c, env).returncode == 0, spec
    for spec in (["one >= 1.1"], ["two<2.5"], ["two != 2.5"], ["one =1"]):
        assert run(["--exists"] + spec, c, env).returncode == 1, spec
    assert run(["--exists", "one = 1.0.", "two = 02.5"], c, env).returncode == 0
    for bad in (["one =>", "1"], ["one", ">="], [">= 1"], ["one", "<>", "2"], []):
        fails(["--exists"] + bad, c, env)
    fails(["--exists", "--modversion", "one"], c, env)
    fails(["--cflags", "--variable=x", "one"], c, env)
    fails(["--bogus", "one"], c, env)
    fails(["--exists", "nosuch"], c, env)


# ---------------------------------------------------------------- resolution

def _diamond(d):
    pc(d, "top", "Name: top\nVersion: 1\nRequires: left, right\nCflags: -DTOP -I/top/inc\n"
                 "Libs: -L/top/lib -ltop -lshared\n")
    pc(d, "left", "Name: left\nVersion: 1\nRequires: base\nRequires.private: priv >= 2\n"
                  "Cflags: -I/left/inc -DCOMMON\nLibs: -L/left/lib -lleft\nLibs.private: -lpthread -lshared\n")
    pc(d, "right", "Name: right\nVersion: 1\nRequires: left, base\nCflags: -I/right/inc -DCOMMON -I/top/inc\n"
                   "Libs: -L/top/lib -lright -lshared\n")
    pc(d, "base", "Name: base\nVersion: 1\nCflags: -I/base/inc -I/usr/include\nLibs: -L/usr/lib -L/base/lib -lbase -lshared\n"
                  "Libs.private: -lm -lpthread\n")
    pc(d, "priv", "Name: priv\nVersion: 2.1\nRequires: base\nCflags: -I/priv/inc -DPRIV\nLibs: -L/priv/lib -lpriv\n"
                  "Libs.private: -ldl\n")


def test_order_and_duplicates(tmp_path):
    d = tmp_path / "pc"
    _diamond(d)
    # libs graph without private edges: top, right, left, base
    assert out(["--libs", "top"], d) == "-L/top/lib -L/left/lib -L/base/lib -ltop -lright -lleft -lbase -lshared\n"
    # with --static: top, right, left, priv, base
    assert out(["--libs", "--static", "top"], d) == (
        "-L/top/lib -L/left/lib -L/priv/lib -L/base/lib "
        "-ltop -lright -lleft -lpriv -ldl -lbase -lshared -lm -lpthread\n")
    # cflags always follow private edges
    assert out(["--cflags", "top"], d) == "-DTOP -DCOMMON -DPRIV -I/top/inc -I/right/inc -I/left/inc -I/priv/inc -I/base/inc\n"
    # requested modules keep their order; each package once
    assert out(["--libs", "base", "left"], d) == "-L/left/lib -L/base/lib -lleft -lbase -lshared\n"
    assert out(["--cflags", "--libs", "left", "base"], d) == (
        "-DCOMMON -DPRIV -I/left/inc -I/priv/inc -I/base/inc -L/left/lib -L/base/lib -lleft -lbase -lshared\n")


def test_system_dirs_and_sysroot(tmp_path):
    d = tmp_path / "pc"
    _diamond(d)
    assert out(["--cflags", "base"], d, {"PKG_CONFIG_ALLOW_SYSTEM_CFLAGS": ""}) == "-I/base/inc -I/usr/include\n"
    assert out(["--libs", "base"], d, {"PKG_CONFIG_ALLOW_SYSTEM_LIBS": "1"}) == "-L/usr/lib -L/base/lib -lbase -lshared\n"
    assert out(["--libs", "base"], d, {"PKG_CONFIG_ALLOW_SYSTEM_CFLAGS": "1"}) == "-L/base/lib -lbase -lshared\n"
    pc(d, "rel", "Name: rel\nVersion: 1\nRequires: base\nCflags: -Iinclude -I/usr/include/rel -isystem /x\n"
                 "Libs: -Llib -L/lib -lrel\n")
    env = {"PKG_CONFIG_SYSROOT_DIR": "/sr"}
    assert out(["--cflags", "--libs", "rel"], d, env) == (
        "-isystem /x -Iinclude -I/sr/usr/include/rel -I/sr/base/inc -Llib -L/sr/base/lib -lrel -lbase -lshared\n")
    env["PKG_CONFIG_ALLOW_SYSTEM_LIBS"] = "yes"
    assert out(["--libs", "rel"], d, env) == "-Llib -L/sr/lib -L/sr/usr/lib -L/sr/base/lib -lrel -lbase -lshared\n"
    assert out(["--variable=pcfiledir", "rel"], d, env) == f"{d}\n"
    assert out(["--cflags", "base"], d, {"PKG_CONFIG_SYSROOT_DIR": ""}) == "-I/base/inc\n"


def test_private_requirements_checks_and_conflicts(tmp_path):
    d = tmp_path / "pc"
    _diamond(d)
    # a private requirement is loaded and checked even when only --libs is asked for
    pc(d, "priv", "Name: priv\nVersion: 1.9\nLibs: -lpriv\n")
    fails(["--libs", "left"], d)
    fails(["--modversion", "top"], d)
    (d / "priv.pc").unlink()
    fails(["--libs", "left"], d)
    _diamond(d)
    assert out(["--libs", "left"], d) == "-L/left/lib -L/base/lib -lleft -lbase -lshared\n"
    # conflicts against any loaded module, private ones included
    pc(d, "cx", "Name: cx\nVersion: 1\nRequires: left\nConflicts: priv < 2.1\nLibs: -lcx\n")
    assert out(["--libs", "cx"], d) == "-L/left/lib -L/base/lib -lcx -lleft -lbase -lshared\n"
    pc(d, "cx", "Name: cx\nVersion: 1\nRequires: left\nConflicts: priv <= 2.1\nLibs: -lcx\n")
    fails(["--libs", "cx"], d)
    pc(d, "cy", "Name: cy\nVersion: 1\nConflicts: base\nLibs: -lcy\n")
    assert out(["--libs", "cy"], d) == "-lcy\n"
    fails(["--libs", "cy", "base"], d)
    # a cycle is resolved by the traversal rule
    pc(d, "c1", "Name: c1\nVersion: 1\nRequires: c2\nLibs: -lc1\n")
    pc(d, "c2", "Name: c2\nVersion: 1\nRequires: c1 >= 1\nLibs: -lc2 -lc1\n")
    assert out(["--libs", "c1"], d) == "-lc2 -lc1\n"
    assert out(["--libs", "c2"], d) == "-lc2 -lc1\n"


# ---------------------------------------------------------------- randomized comparison

def random_tree(rng, d):
    n = rng.randint(6, 10)
    names = [f"p{k}{rng.choice(['', '-dev', '+x', '.core'])}" for k in range(n)]
    versions = [_rand_version(rng) for _ in range(n)]
    shared = ["-lshared", "-pthread", "-lm", "-DCOMMON", "-I/usr/include", "-L/usr/lib", "-Wl,--as-needed"]
    for k, nm in enumerate(names):
        later = names[k + 1:]
        req = rng.sample(later, min(len(later), rng.randint(0, 3)))
        priv = rng.sample(later, min(len(later), rng.randint(0, 2)))
        if k > 2 and rng.random() < 0.1:
            req.append(names[rng.randrange(k)])  # an occasional cycle

        def spec(m):
            if rng.random() < 0.35:
                j = names.index(m)
                return f"{m} {rng.choice(['>=', '<=', '='])} {versions[j]}"
            return m

        pfx = rng.choice(["/usr", "/opt/" + nm, "${pcfiledir}/.."])
        lines = [f"prefix={pfx}", "libdir=${prefix}/lib", "includedir=${prefix}/include",
                 f"Name: {nm}", "Description: generated", f"Version: {versions[k]}"]
        if req:
            lines.append("Requires: " + rng.choice([", ", " ", " , "]).join(spec(m) for m in req))
        if priv:
            lines.append("Requires.private: " + ", ".join(spec(m) for m in priv))
        cf = ["-I${includedir}", f"-I${{includedir}}/{nm}"] + rng.sample(shared, 2)
        lb = ["-L${libdir}", f"-l{nm}"] + rng.sample(shared, 2)
        lp = rng.sample(shared, rng.randint(0, 3)) + [f"-l{nm}-priv"] * rng.randint(0, 1)
        rng.shuffle(cf)
        lines += ["Cflags: " + " ".join(cf), "Libs: " + " ".join(lb)]
        if lp:
            lines.append("Libs.private: " + " ".join(lp))
        pc(d, nm, "\n".join(lines) + "\n")
    return names


@pytest.mark.parametrize("seed", [3, 14, 15, 92, 65, 35])
def test_random_trees_match_rules(tmp_path, seed):
    rng = random.Random(seed * 1009)
    d = tmp_path / "pc"
    names = random_tree(rng, d)
    for _ in range(12):
        roots = rng.sample(names, rng.randint(1, 3))
        args = rng.choice([["--cflags"], ["--libs"], ["--libs", "--static"], ["--cflags", "--libs", "--static"],
                           ["--modversion"], ["--variable=includedir"], ["--cflags", "--libs"]])
        env = {}
        if rng.random() < 0.3:
            env["PKG_CONFIG_SYSROOT_DIR"] = "/sys-root"
        if rng.random() < 0.2:
            env["PKG_CONFIG_ALLOW_SYSTEM_LIBS"] = "1"
        if rng.random() < 0.2:
            args = args + ["--define-variable=prefix=/relocated"]
        if rng.random() < 0.2:
            roots = [roots[0] + " >= " + _rand_version(rng)] + roots[1:]
        full = args + roots
        rng.shuffle(full)
        a = run(full, d, env)
        b = run(full, d, env, tool=REF)
        assert (a.returncode, a.stdout) == (b.returncode, b.stdout), \
            f"pcq {' '.join(full)} env {env}\nexpected exit {b.returncode}: {b.stdout}\ngot exit {a.returncode}: {a.stdout}"
