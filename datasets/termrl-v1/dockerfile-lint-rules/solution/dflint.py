#!/usr/bin/env python3
"""dflint: a small Dockerfile linter (reference)."""
import json
import re
import shlex
import sys

KNOWN = {"FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
         "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"}
ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")


def logical_lines(text):
    lines = text.split("\n")
    escape = "\\"
    i = 0
    while i < len(lines):
        m = re.match(r"^#\s*([A-Za-z]+)\s*=\s*(\S+)\s*$", lines[i])
        if not m:
            break
        if m.group(1).lower() == "escape" and m.group(2) in ("\\", "`"):
            escape = m.group(2)
        i += 1
    out, cur, start = [], None, 0
    for n in range(i, len(lines)):
        raw = lines[n]
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if cur is None:
            cur, start = "", n + 1
        st = raw.rstrip()
        if st.endswith(escape):
            cur += st[:-1]
            continue
        cur += raw
        out.append((start, cur.strip()))
        cur = None
    if cur is not None and cur.strip():
        out.append((start, cur.strip()))
    return out


def split_flags(rest):
    """leading --name=value flags, and the rest of the arguments as a string"""
    flags = {}
    rest = rest.strip()
    while rest.startswith("--"):
        tok, _, rest = rest.partition(" ")
        k, _, v = tok[2:].partition("=")
        flags[k.lower()] = v
        rest = rest.strip()
    return flags, rest


def arg_list(s):
    if s.startswith("["):
        try:
            v = json.loads(s)
            if isinstance(v, list) and all(isinstance(x, str) for x in v):
                return v
        except ValueError:
            pass
    return s.split()


def untagged(ref):
    if "@" in ref:
        return False
    last = ref.rsplit("/", 1)[-1]
    if ":" not in last:
        return True
    return last.split(":", 1)[1] == "latest"


def simple_commands(cmd):
    out = []
    for part in re.split(r"&&|\|\||;|\|", cmd):
        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        if words:
            out.append(words)
    return out


def lint(text):
    found = set()
    stages = []  # lower-case names ("" when unnamed)
    gargs = {}
    seen_from = False
    cmds, eps = [], []
    last_user = None

    def close_stage():
        for ln in cmds[:-1]:
            found.add((ln, "multiple-cmd"))
        for ln in eps[:-1]:
            found.add((ln, "multiple-entrypoint"))
        cmds.clear()
        eps.clear()

    for ln, text_ in logical_lines(text):
        m = re.match(r"(\S+)\s*(.*)", text_, re.S)
        kw, rest = m.group(1).upper(), m.group(2)
        if kw not in KNOWN:
            found.add((ln, "unknown-instruction"))
            continue
        if kw == "ARG" and not seen_from:
            name, _, val = rest.strip().partition("=")
            gargs[name.strip()] = val.strip().strip('"')
            continue
        if kw == "FROM":
            if seen_from:
                close_stage()
            seen_from = True
            last_user = None
            flags, args = split_flags(rest)
            words = args.split()
            image = words[0] if words else ""
            name = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else ""
            undefined = False

            def sub(mm):
                nonlocal undefined
                var = mm.group(1) or mm.group(2)
                if var not in gargs:
                    undefined = True
                    return ""
                return gargs[var]
            expanded = re.sub(r"\$\{(\w+)\}|\$(\w+)", sub, image)
            if undefined:
                found.add((ln, "from-undefined-arg"))
            elif expanded.lower() != "scratch" and expanded.lower() not in [s for s in stages if s] \
                    and untagged(expanded):
                found.add((ln, "from-latest"))
            if name and name in stages:
                found.add((ln, "duplicate-stage"))
            stages.append(name)
            continue
        cur = len(stages) - 1
        if kw == "COPY":
            flags, _ = split_flags(rest)
            if "from" in flags:
                src = flags["from"].lower()
                if src.isdigit():
                    ok = int(src) < cur
                elif src in stages[:cur]:
                    ok = True
                elif src in stages[cur:]:
                    ok = False
                else:
                    ok = "/" in src or ":" in src
                if not ok:
                    found.add((ln, "copy-from"))
        elif kw == "ADD":
            srcs = arg_list(split_flags(rest)[1])[:-1]
            if srcs and all("://" not in s and not s.startswith("git@") and not s.lower().endswith(ARCHIVES)
                            for s in srcs):
                found.add((ln, "add-local"))
        elif kw == "RUN":
            cmd = split_flags(rest)[1]
            if cmd.startswith("[") and arg_list(cmd) != cmd.split():
                continue  # exec form: not checked
            scs = simple_commands(cmd)
            for k, w in enumerate(scs):
                if w[0] == "apt-get" and "install" in w[1:]:
                    yes = any(x in ("-y", "--yes", "--assume-yes") or
                              (re.fullmatch(r"-[A-Za-z]+", x) and "y" in x) for x in w[1:])
                    if not yes:
                        found.add((ln, "apt-yes"))
                    cleaned = any(v[0] == "rm" and any(a.startswith("/var/lib/apt/lists") for a in v[1:])
                                  and "r" in "".join(a[1:] for a in v[1:] if re.fullmatch(r"-[A-Za-z]+", a))
                                  and "f" in "".join(a[1:] for a in v[1:] if re.fullmatch(r"-[A-Za-z]+", a))
                                  for v in scs[k + 1:])
                    if not cleaned:
                        found.add((ln, "apt-lists"))
        elif kw in ("CMD", "ENTRYPOINT"):
            (cmds if kw == "CMD" else eps).append(ln)
            r = rest.strip()
            if r.startswith("["):
                try:
                    v = json.loads(r)
                    if not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
                        raise ValueError
                except ValueError:
                    found.add((ln, "json-invalid"))
            elif kw == "ENTRYPOINT":
                found.add((ln, "entrypoint-shell"))
        elif kw == "WORKDIR":
            p = rest.strip().strip('"')
            if not p.startswith("/") and not p.startswith("$"):
                found.add((ln, "workdir-relative"))
        elif kw == "EXPOSE":
            for tok in rest.split():
                if tok.startswith("$"):
                    continue
                mm = re.fullmatch(r"(\d+)(?:-(\d+))?(?:/(tcp|udp|sctp))?", tok, re.I)
                if not mm or not (1 <= int(mm.group(1)) <= 65535) or \
                        (mm.group(2) and not (int(mm.group(1)) <= int(mm.group(2)) <= 65535)):
                    found.add((ln, "expose-port"))
        elif kw == "MAINTAINER":
            found.add((ln, "maintainer"))
        elif kw == "USER":
            last_user = (ln, rest.strip())
    close_stage()
    if last_user and re.fullmatch(r"(root|0)(:.*)?", last_user[1]):
        found.add((last_user[0], "user-root"))
    return sorted(found)


def main():
    if len(sys.argv) != 2:
        print("usage: dflint DOCKERFILE", file=sys.stderr)
        return 2
    try:
        text = open(sys.argv[1], encoding="utf-8").read()
    except OSError as e:
        print(f"dflint: {e}", file=sys.stderr)
        return 2
    res = lint(text)
    for ln, rule in res:
        print(f"{ln}:{rule}")
    return 1 if res else 0


if __name__ == "__main__":
    sys.exit(main())
