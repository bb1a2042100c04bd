#!/usr/bin/env python3
"""cccache: a small compiler cache (reference)."""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

NOCACHE = {"-E", "-S", "-M", "-MM", "-", "--version", "-v", "-###"}
DEP_FLAGS = {"-MD", "-MMD"}
DEP_ARGS = {"-MF", "-MT"}


def cache_dir():
    return os.environ.get("CCCACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cccache")


def bump(field, n=1):
    d = cache_dir()
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "stats.lock"), "a") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        p = os.path.join(d, "stats.json")
        try:
            st = json.load(open(p))
        except (OSError, ValueError):
            st = {"hits": 0, "misses": 0, "passthrough": 0}
        if field is None:
            st = {"hits": 0, "misses": 0, "passthrough": 0}
        else:
            st[field] += n
        tmp = p + ".tmp"
        with open(tmp, "w") as f:
            json.dump(st, f)
        os.replace(tmp, p)
        return st


def analyse(args):
    """-> None (not cacheable) or dict(source, out, key_args, pre_args, dep)"""
    src, out, dep, mf, mt = [], None, None, None, None
    key_args, compile_seen = [], False
    i = 0
    while i < len(args):
        a = args[i]
        if a in NOCACHE:
            return None
        if a == "-c":
            compile_seen = True
            i += 1
            continue
        if a == "-o":
            if i + 1 >= len(args):
                return None
            out = args[i + 1]
            i += 2
            continue
        if a.startswith("-o") and len(a) > 2:
            out = a[2:]
            i += 1
            continue
        if a in DEP_FLAGS:
            dep = a
            i += 1
            continue
        if a in DEP_ARGS:
            if i + 1 >= len(args):
                return None
            if a == "-MF":
                mf = args[i + 1]
            else:
                mt = args[i + 1]
            i += 2
            continue
        if a in ("-I", "-D", "-U", "-include", "-isystem", "-x"):
            if i + 1 >= len(args):
                return None
            key_args += [a, args[i + 1]]
            i += 2
            continue
        if not a.startswith("-") and a.endswith(".c"):
            src.append(a)
        key_args.append(a)
        i += 1
    if not compile_seen or len(src) != 1 or out is None:
        return None
    if dep and mf is None:
        mf = os.path.splitext(out)[0] + ".d"
    return {"source": src[0], "out": out, "key_args": key_args, "dep": dep, "mf": mf, "mt": mt}


def main(argv):
    if argv == ["--stats"]:
        st = bump("hits", 0)
        print(f"hits {st['hits']}\nmisses {st['misses']}\npassthrough {st['passthrough']}")
        return 0
    if argv == ["--zero"]:
        bump(None)
        return 0
    if argv == ["--clear"]:
        d = cache_dir()
        if os.path.isdir(d):
            for name in os.listdir(d):
                if name not in ("stats.json", "stats.lock"):
                    p = os.path.join(d, name)
                    shutil.rmtree(p) if os.path.isdir(p) else os.unlink(p)
        return 0
    if not argv:
        print("usage: cccache COMPILER ARGS... | --stats | --zero | --clear", file=sys.stderr)
        return 2
    compiler, args = argv[0], argv[1:]
    info = analyse(args)
    if info is None:
        bump("passthrough")
        return subprocess.call([compiler] + args)
    pre = subprocess.run([compiler] + info["key_args"] + ["-E"], capture_output=True)
    if pre.returncode != 0:
        bump("misses")
        return subprocess.call([compiler] + args)
    h = hashlib.sha256()
    for part in [compiler, info["dep"] or ""] + info["key_args"]:
        h.update(part.encode() + b"\0")
    h.update(b"\1" + pre.stdout)
    key = h.hexdigest()
    entry = os.path.join(cache_dir(), key[:2], key)
    target = info["mt"] if info["mt"] is not None else info["out"]
    if os.path.isfile(os.path.join(entry, "object")):
        tmp = info["out"] + ".cccache-tmp"
        shutil.copyfile(os.path.join(entry, "object"), tmp)
        os.replace(tmp, info["out"])
        if info["dep"]:
            tpl = open(os.path.join(entry, "deps"), encoding="utf-8").read()
            with open(info["mf"], "w", encoding="utf-8") as f:
                f.write(target + tpl)
        sys.stderr.buffer.write(open(os.path.join(entry, "stderr"), "rb").read())
        sys.stderr.flush()
        bump("hits")
        return 0
    bump("misses")
    r = subprocess.run([compiler] + args, stderr=subprocess.PIPE)
    sys.stderr.buffer.write(r.stderr)
    sys.stderr.flush()
    if r.returncode != 0:
        return r.returncode
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    tmpd = tempfile.mkdtemp(dir=os.path.dirname(entry))
    shutil.copyfile(info["out"], os.path.join(tmpd, "object"))
    with open(os.path.join(tmpd, "stderr"), "wb") as f:
        f.write(r.stderr)
    if info["dep"]:
        text = open(info["mf"], encoding="utf-8").read()
        if not text.startswith(target + ":"):
            shutil.rmtree(tmpd)
            return 0
        with open(os.path.join(tmpd, "deps"), "w", encoding="utf-8") as f:
            f.write(text[len(target):])
    try:
        os.rename(tmpd, entry)
    except OSError:
        shutil.rmtree(tmpd, ignore_errors=True)  # another process stored it first
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
