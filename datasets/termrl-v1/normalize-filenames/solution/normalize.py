#!/usr/bin/env python3
import os
import re
import sys
import uuid


def natural(name):
    i = name.rfind(".")
    if i <= 0:
        stem, ext = name, ""
    else:
        stem, ext = name[:i], name[i + 1:]
    stem, ext = stem.lower(), ext.lower()
    stem = re.sub(r"[^a-z0-9]+", "-", stem).strip("-") or "file"
    ext = re.sub(r"[^a-z0-9]", "", ext)
    if ext == "jpeg":
        ext = "jpg"
    return stem, ext


def main(d):
    names = sorted((n for n in os.listdir(d) if os.path.isfile(os.path.join(d, n)) and not os.path.islink(os.path.join(d, n))),
                   key=lambda s: s.encode())
    given, plan = set(), []
    for n in names:
        stem, ext = natural(n)
        k = 1
        while True:
            s = stem if k == 1 else f"{stem}-{k}"
            cand = f"{s}.{ext}" if ext else s
            if cand not in given:
                break
            k += 1
        given.add(cand)
        plan.append((n, cand))
    tmp = {}
    for old, new in plan:
        if old != new:
            t = f".normalize-{uuid.uuid4().hex}"
            os.rename(os.path.join(d, old), os.path.join(d, t))
            tmp[old] = t
    for old, new in plan:
        if old != new:
            os.rename(os.path.join(d, tmp[old]), os.path.join(d, new))
    for old, new in plan:
        print(f"{old}\t{new}")


if __name__ == "__main__":
    main(sys.argv[1])
