#!/bin/bash
# Requires.private packages only contribute Cflags with --static
set -euo pipefail
cat > /app/pcq <<'PY'
#!/usr/bin/env python3
"""pcq: a pkg-config subset (reference implementation)."""
import os
import re
import sys

DEFAULT_LIBDIR = "/usr/local/lib/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig"
OPS = ("<=", ">=", "!=", "=", "<", ">")


class Fail(Exception):
    pass


def _alnum(c):
    return c.isascii() and c.isalnum()


def _digit(c):
    return c in "0123456789"


def _alpha(c):
    return c.isascii() and c.isalpha()


def vercmp(a, b):
    if a == b:
        return 0
    i = j = 0
    while True:
        while i < len(a) and not _alnum(a[i]):
            i += 1
        while j < len(b) and not _alnum(b[j]):
            j += 1
        if i >= len(a) or j >= len(b):
            break
        isnum = _digit(a[i])
        cls = _digit if isnum else _alpha
        si, sj = i, j
        while i < len(a) and cls(a[i]):
            i += 1
        while j < len(b) and cls(b[j]):
            j += 1
        x, y = a[si:i], b[sj:j]
        if not y:
            return 1 if isnum else -1
        if isnum:
            x, y = x.lstrip("0"), y.lstrip("0")
            if len(x) != len(y):
                return 1 if len(x) > len(y) else -1
        if x != y:
            return 1 if x > y else -1
    if i >= len(a) and j >= len(b):
        return 0
    return 1 if i < len(a) else -1


def satisfies(version, op, want):
    c = vercmp(version, want)
    return {"=": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]


def parse_deps(text):
    """'a, b >= 1.0 c<2' -> [(name, op, version)]"""
    out = []
    toks = re.findall(r"[^\s,<>=!]+|[<>=!]+", text)
    k = 0
    while k < len(toks):
        t = toks[k]
        if re.fullmatch(r"[<>=!]+", t):
            raise Fail(f"bad dependency list: {text!r}")
        name, op, ver = t, None, None
        if k + 1 < len(toks) and re.fullmatch(r"[<>=!]+", toks[k + 1]):
            op = toks[k + 1]
            if op not in OPS or k + 2 >= len(toks) or re.fullmatch(r"[<>=!]+", toks[k + 2]):
                raise Fail(f"bad dependency list: {text!r}")
            ver = toks[k + 2]
            k += 3
        else:
            k += 1
        out.append((name, op, ver))
    return out


class Pkg:
    pass


def expand(value, vars_, where):
    out, i = [], 0
    while i < len(value):
        c = value[i]
        if c == "$" and value[i + 1:i + 2] == "$":
            out.append("$")
            i += 2
        elif c == "$" and value[i + 1:i + 2] == "{":
            end = value.find("}", i + 2)
            if end < 0:
                raise Fail(f"{where}: unterminated variable reference")
            name = value[i + 2:end]
            if name not in vars_:
                raise Fail(f"{where}: undefined variable {name!r}")
            out.append(vars_[name])
            i = end + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def load_pc(path, pcdir, name, overrides):
    p = Pkg()
    p.name = name
    vars_ = {"pcfiledir": pcdir}
    vars_.update(overrides)
    fields = {}
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f.read().split("\n"), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.match(r"([A-Za-z0-9_.]+)\s*([=:])\s*(.*)\Z", line)
            if not m:
                continue
            key, kind, val = m.group(1), m.group(2), m.group(3).strip()
            where = f"{path}:{no}"
            if kind == "=":
                if key in overrides or key == "pcfiledir":
                    continue
                vars_[key] = expand(val, vars_, where)
            else:
                if key in fields:
                    raise Fail(f"{where}: duplicate field {key}")
                fields[key] = expand(val, vars_, where)
    if "Version" not in fields:
        raise Fail(f"{path}: no Version field")
    p.version = fields["Version"]
    p.vars = vars_
    p.requires = parse_deps(fields.get("Requires", ""))
    p.requires_private = parse_deps(fields.get("Requires.private", ""))
    p.conflicts = parse_deps(fields.get("Conflicts", ""))
    p.libs = fields.get("Libs", "").split()
    p.libs_private = fields.get("Libs.private", "").split()
    p.cflags = fields.get("Cflags", "").split()
    return p


def main(argv):
    env = os.environ
    modes, static, variable, defines, specs = [], False, None, {}, []
    for a in argv:
        if a in ("--cflags", "--libs", "--modversion", "--exists"):
            if a not in modes:
                modes.append(a)
        elif a == "--static":
            static = True
        elif a.startswith("--variable="):
            variable = a.split("=", 1)[1]
            if "--variable" not in modes:
                modes.append("--variable")
        elif a.startswith("--define-variable="):
            nv = a.split("=", 1)[1]
            if "=" not in nv:
                raise Fail("bad --define-variable")
            n, v = nv.split("=", 1)
            defines[n] = v
        elif a.startswith("--"):
            raise Fail(f"unknown option {a}")
        else:
            specs.append(a)
    exclusive = [m for m in modes if m in ("--modversion", "--exists", "--variable")]
    if len(exclusive) > 1 or (exclusive and len(modes) > len(exclusive)):
        raise Fail("incompatible options")
    roots = parse_deps(" ".join(specs))
    if not roots:
        raise Fail("no package given")

    dirs = [d for d in env.get("PKG_CONFIG_PATH", "").split(":") if d]
    libdir = env["PKG_CONFIG_LIBDIR"] if "PKG_CONFIG_LIBDIR" in env else DEFAULT_LIBDIR
    dirs += [d for d in libdir.split(":") if d]
    cache = {}

    def find(name):
        if name in cache:
            return cache[name]
        for d in dirs:
            path = os.path.join(d, name + ".pc")
            if os.path.isfile(path):
                pcdir = d.rstrip("/") or "/"
                cache[name] = load_pc(path, pcdir, name, defines)
                return cache[name]
        raise Fail(f"package {name!r} not found")

    def check(dep, who):
        name, op, ver = dep
        p = find(name)
        if op and not satisfies(p.version, op, ver):
            raise Fail(f"{who} requires '{name} {op} {ver}' but version of {name} is {p.version}")
        return p

    # load and check the full closure
    seen, stack = [], []
    for r in roots:
        p = check(r, "command line")
        if p.name not in seen:
            seen.append(p.name)
            stack.append(p)
    while stack:
        p = stack.pop()
        for d in p.requires + p.requires_private:
            q = check(d, p.name)
            if q.name not in seen:
                seen.append(q.name)
                stack.append(q)
    for n in seen:
        for (cn, op, ver) in cache[n].conflicts:
            if cn in seen and cn != n:
                q = cache[cn]
                if op is None or satisfies(q.version, op, ver):
                    raise Fail(f"{n} conflicts with {cn} {q.version}")

    root_pkgs = [cache[r[0]] for r in roots]

    def order(private):
        out, visited = [], set()

        def visit(p):
            if p.name in visited:
                return
            visited.add(p.name)
            deps = p.requires + (p.requires_private if private else [])
            for d in reversed(deps):
                visit(cache[d[0]])
            out.append(p)

        for p in reversed(root_pkgs):
            visit(p)
        out.reverse()
        return out

    if not modes or modes == ["--exists"]:
        return 0
    if modes == ["--modversion"]:
        sys.stdout.write("".join(p.version + "\n" for p in root_pkgs))
        return 0
    if modes == ["--variable"]:
        sys.stdout.write(" ".join(p.vars.get(variable, "") for p in root_pkgs) + "\n")
        return 0

    sysroot = env.get("PKG_CONFIG_SYSROOT_DIR", "")

    def fix_path(tok, flag):
        path = tok[2:]
        if sysroot and path.startswith("/"):
            return flag + sysroot + path
        return tok

    words = []
    if "--cflags" in modes:
        toks = [t for p in order(static) for t in p.cflags]
        allow = "PKG_CONFIG_ALLOW_SYSTEM_CFLAGS" in env
        inc, other = [], []
        for t in toks:
            if t.startswith("-I"):
                if t == "-I/usr/include" and not allow:
                    continue
                t = fix_path(t, "-I")
                if t not in inc:
                    inc.append(t)
            elif t not in other:
                other.append(t)
        words += other + inc
    if "--libs" in modes:
        toks = [t for p in order(static) for t in (p.libs + (p.libs_private if static else []))]
        allow = "PKG_CONFIG_ALLOW_SYSTEM_LIBS" in env
        lpath, rest = [], []
        for t in toks:
            if t.startswith("-L"):
                if t in ("-L/usr/lib", "-L/lib") and not allow:
                    continue
                t = fix_path(t, "-L")
                if t not in lpath:
                    lpath.append(t)
            else:
                rest.append(t)
        # other library tokens: keep the last occurrence
        last = []
        for k, t in enumerate(rest):
            if t not in rest[k + 1:]:
                last.append(t)
        words += lpath + last
    sys.stdout.write(" ".join(words) + "\n")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"pcq: {e}", file=sys.stderr)
        sys.exit(1)
    except OSError as e:
        print(f"pcq: {e}", file=sys.stderr)
        sys.exit(1)
PY
chmod +x /app/pcq
