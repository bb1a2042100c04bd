#!/bin/bash
# RUN cache key includes only the ARGs the command mentions (Docker uses every ARG in scope)
set -euo pipefail
cat > /app/buildplan <<'PY'
#!/usr/bin/env python3
"""buildplan: which steps of a Dockerfile build would be cache hits (reference implementation)."""
import hashlib
import json
import os
import posixpath
import re
import sys

KEYWORDS = {"FROM", "ARG", "ENV", "WORKDIR", "RUN", "COPY", "USER", "LABEL", "EXPOSE", "CMD", "ENTRYPOINT"}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Fail(Exception):
    pass


def H(*parts):
    h = hashlib.sha256()
    for p in parts:
        b = p.encode() if isinstance(p, str) else p
        h.update(str(len(b)).encode() + b":" + b)
    return h.hexdigest()


def read_instructions(text):
    out, cur, start = [], None, 0
    for no, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        s = line.strip()
        if s.startswith("#") or (not s and cur is None):
            continue
        if cur is None:
            cur, start = "", no
        body = line.rstrip()
        if body.endswith("\\"):
            cur += body[:-1]
            continue
        cur += line
        out.append((start, cur))
        cur = None
    if cur is not None and cur.strip():
        out.append((start, cur))
    res = []
    for no, t in out:
        t = t.strip()
        parts = t.split(None, 1)
        kw = parts[0].upper()
        if kw not in KEYWORDS:
            raise Fail(f"line {no}: unknown instruction {parts[0]}")
        res.append((kw, parts[1].strip() if len(parts) > 1 else ""))
    return res


def subst(text, lookup):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and text[i + 1:i + 2] == "$":
            out.append("$")
            i += 2
            continue
        if c != "$":
            out.append(c)
            i += 1
            continue
        m = NAME.match(text, i + 1)
        if m:
            out.append(lookup(m.group(0)) or "")
            i = m.end()
            continue
        if text[i + 1:i + 2] == "{":
            m = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:(:[-+])([^}]*))?\}").match(text, i + 1)
            if m:
                val = lookup(m.group(1))
                op, word = m.group(2), m.group(3)
                if op is None:
                    out.append(val or "")
                elif op == ":-":
                    out.append(val if val else word)
                else:
                    out.append(word if val else "")
                i = m.end()
                continue
        out.append("$")
        i += 1
    return "".join(out)


def collapse(s):
    return " ".join(s.split())


def glob_re(comp):
    r, i = "", 0
    while i < len(comp):
        c = comp[i]
        if c == "*":
            r += "[^/]*"
        elif c == "?":
            r += "[^/]"
        elif c == "[":
            j = comp.find("]", i + 2)
            if j < 0:
                r += re.escape(c)
            else:
                body = comp[i + 1:j]
                if body[:1] in "!^" and body:
                    body = "^" + body[1:]
                r += "[" + body.replace("\\", "\\\\") + "]"
                i = j
        else:
            r += re.escape(c)
        i += 1
    return re.compile(r + r"\Z")


def match_parts(pat, parts):
    if not pat:
        return not parts
    if pat[0] == "**":
        return any(match_parts(pat[1:], parts[k:]) for k in range(len(parts) + 1))
    if not parts:
        return False
    return bool(glob_re(pat[0]).match(parts[0])) and match_parts(pat[1:], parts[1:])


def matches_or_parent(pat, path):
    parts = path.split("/")
    return any(match_parts(pat, parts[:k]) for k in range(1, len(parts) + 1))


def context_files(ctx):
    ign = []
    p = os.path.join(ctx, ".dockerignore")
    if os.path.isfile(p):
        with open(p, encoding="utf-8") as f:
            for line in f.read().split("\n"):
                s = line.strip()
                if not s or s.startswith("#"):
                    continue
                exc = s.startswith("!")
                if exc:
                    s = s[1:].strip()
                s = posixpath.normpath(s).lstrip("/")
                if not s or s == ".":
                    continue
                ign.append((exc, s.split("/")))
    files = {}
    for root, dirs, names in os.walk(ctx):
        dirs.sort()
        for nm in sorted(names):
            full = os.path.join(root, nm)
            if not os.path.isfile(full) or os.path.islink(full):
                continue
            rel = os.path.relpath(full, ctx).replace(os.sep, "/")
            excluded = False
            for exc, pat in ign:
                if matches_or_parent(pat, rel):
                    excluded = not exc
            if excluded:
                continue
            with open(full, "rb") as f:
                data = f.read()
            files[rel] = (hashlib.sha256(data).hexdigest(), "x" if os.stat(full).st_mode & 0o100 else "-")
    return files


def parse_env(args):
    pairs, i, n = [], 0, len(args)
    pat = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|(\S*))')
    while i < n:
        if not args[i:].strip():
            break
        m = pat.match(args, i)
        if not m:
            raise Fail("bad ENV")
        pairs.append((m.group(1), m.group(2) if m.group(2) is not None else m.group(3)))
        i = m.end()
        if i < n and not args[i].isspace():
            raise Fail("bad ENV")
    if not pairs:
        raise Fail("bad ENV")
    return pairs


def main(argv):
    target, cache_path, bargs, ctx = None, None, {}, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--target", "--cache", "--build-arg"):
            if i + 1 >= len(argv):
                raise Fail("missing value")
            v = argv[i + 1]
            if a == "--target":
                target = v.lower()
            elif a == "--cache":
                cache_path = v
            else:
                if "=" not in v:
                    raise Fail("bad --build-arg")
                k, val = v.split("=", 1)
                bargs[k] = val
            i += 2
            continue
        if ctx is not None or a.startswith("--"):
            raise Fail("usage")
        ctx = a
        i += 1
    if ctx is None or not os.path.isfile(os.path.join(ctx, "Dockerfile")):
        raise Fail("no Dockerfile")
    with open(os.path.join(ctx, "Dockerfile"), encoding="utf-8") as f:
        instrs = read_instructions(f.read())

    # split into global args and stages
    global_args, stages = {}, []
    for kw, args in instrs:
        if kw == "FROM":
            m = re.fullmatch(r"(\S+)(?:\s+[Aa][Ss]\s+(\S+))?", args)
            if not m:
                raise Fail("bad FROM")
            stages.append({"image": m.group(1), "name": (m.group(2) or "").lower(), "body": []})
        elif not stages:
            if kw != "ARG":
                raise Fail("instruction before FROM")
            nm, eq, dflt = args.partition("=")
            if not NAME.fullmatch(nm):
                raise Fail("bad ARG")
            global_args[nm] = bargs[nm] if nm in bargs else (subst(dflt, global_args.get) if eq else None)
        else:
            stages[-1]["body"].append((kw, args))
    if not stages:
        raise Fail("no stages")
    labels = [s["name"] or str(k) for k, s in enumerate(stages)]
    for k, s in enumerate(stages):
        s["label"] = labels[k]
        s["ref"] = subst(s["image"], global_args.get)

    def stage_ref(ref, upto):
        r = ref.lower()
        for k in range(upto):
            if stages[k]["name"] and stages[k]["name"] == r:
                return k
        return None

    if target is None:
        tidx = len(stages) - 1
    else:
        cand = [k for k, s in enumerate(stages) if s["name"] == target]
        if not cand:
            raise Fail("unknown target")
        tidx = cand[0]

    # needed stages: resolved lazily while walking (from refs need substitution with stage vars)
    # first pass: evaluate every needed stage (dependencies first, memoised)
    results = {}
    cache = set()
    if cache_path and os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            cache = set(json.load(f))
    built = set()
    files_memo = {}

    def files():
        if "f" not in files_memo:
            files_memo["f"] = context_files(ctx)
        return files_memo["f"]

    order_needed = set()
    visiting = set()

    def evaluate(k):
        if k in results:
            return results[k]
        if k in visiting:
            raise Fail("cycle")
        visiting.add(k)
        s = stages[k]
        base = stage_ref(s["ref"], k)
        if base is not None:
            b = evaluate(base)
            key, env, workdir, user = b["key"], dict(b["env"]), b["workdir"], b["user"]
        else:
            key, env, workdir, user = H("image", s["ref"]), {}, "/", ""
        args = {}
        lines = [f"{s['label']} FROM {s['ref']}"]
        steps = []

        def lookup(nm):
            if nm in env:
                return env[nm]
            return args.get(nm)

        for kw, a in s["body"]:
            if kw == "ARG":
                nm, eq, dflt = a.partition("=")
                if not NAME.fullmatch(nm):
                    raise Fail("bad ARG")
                if nm in bargs:
                    args[nm] = bargs[nm]
                elif eq:
                    args[nm] = subst(dflt, lookup)
                else:
                    args[nm] = global_args.get(nm)
            elif kw == "ENV":
                pairs = parse_env(a)
                vals = [(nm, subst(v, lookup)) for nm, v in pairs]
                for nm, v in vals:
                    env[nm] = v
            elif kw == "USER":
                user = collapse(subst(a, lookup))
            elif kw == "WORKDIR":
                text = collapse(subst(a, lookup))
                workdir = posixpath.normpath(posixpath.join(workdir, text))
                if workdir.startswith("//"):
                    workdir = "/" + workdir.lstrip("/")
                key = H(key, "WORKDIR", workdir)
                steps.append((key, "WORKDIR " + text))
            elif kw == "RUN":
                text = collapse(a)
                argv_ = sorted((n, v) for n, v in args.items() if v is not None and ('$' + n in a or '${' + n in a))
                key = H(key, "RUN", text, json.dumps(sorted(env.items())), json.dumps(argv_), user, workdir)
                steps.append((key, "RUN " + text))
            elif kw == "COPY":
                text = collapse(subst(a, lookup))
                toks = text.split()
                frm, chown = None, ""
                while toks and toks[0].startswith("--"):
                    t = toks.pop(0)
                    if t.startswith("--from="):
                        frm = t[7:]
                    elif t.startswith("--chown="):
                        chown = t[8:]
                    else:
                        raise Fail("bad COPY flag")
                if len(toks) < 2:
                    raise Fail("COPY needs source and destination")
                srcs, dest = toks[:-1], toks[-1]
                if frm is not None:
                    if frm.isdigit():
                        fk = int(frm)
                        if fk >= k:
                            raise Fail("bad --from")
                        content = "stage:" + evaluate(fk)["key"]
                    else:
                        fk = stage_ref(frm, k)
                        content = "stage:" + evaluate(fk)["key"] if fk is not None else "image:" + frm
                    content += "|" + json.dumps(srcs)
                else:
                    fl = files()
                    parts = []
                    for src in srcs:
                        sp = posixpath.normpath(src).lstrip("/")
                        if sp in ("", "."):
                            sel = sorted(fl)
                        else:
                            pat = sp.split("/")
                            sel = sorted(f for f in fl if matches_or_parent(pat, f))
                        if not sel:
                            raise Fail(f"COPY source not found: {src}")
                        parts.append([[f, fl[f][0], fl[f][1]] for f in sel])
                    content = json.dumps(parts)
                key = H(key, "COPY", text, chown, content)
                steps.append((key, "COPY " + text))
            # LABEL EXPOSE CMD ENTRYPOINT: no effect on caching
        res = {"key": key, "env": env, "workdir": workdir, "user": user, "lines": lines, "steps": steps}
        visiting.discard(k)
        results[k] = res
        order_needed.add(k)
        return res

    evaluate(tidx)
    out = []
    for k in sorted(order_needed):
        r = results[k]
        out.extend(r["lines"])
        for key, text in r["steps"]:
            status = "CACHED" if key in cache or key in built else "BUILD"
            built.add(key)
            out.append(f"{stages[k]['label']} {status} {text}")
    if cache_path:
        tmp = cache_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(sorted(cache | built), f)
        os.replace(tmp, cache_path)
    sys.stdout.write("".join(l + "\n" for l in out))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"buildplan: {e}", file=sys.stderr)
        sys.exit(1)
PY
chmod +x /app/buildplan
