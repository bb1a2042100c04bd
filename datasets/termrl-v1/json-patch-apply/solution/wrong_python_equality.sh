#!/bin/bash
set -euo pipefail
cat > /app/jpatch.py <<'PY'
#!/usr/bin/env python3
import copy
import json
import re
import sys


class Fail(Exception):
    pass


def tokens(ptr):
    if not isinstance(ptr, str) or (ptr and ptr[0] != "/"):
        raise Fail("invalid pointer %r" % (ptr,))
    if ptr == "":
        return []
    parts = ptr.split("/")[1:]
    for p in parts:
        if re.search(r"~(?![01])", p):
            raise Fail("invalid escape in %r" % ptr)
    return [p.replace("~1", "/").replace("~0", "~") for p in parts]


def index(tok, arr, for_insert):
    if tok == "-" and for_insert:
        return len(arr)
    if not re.fullmatch(r"0|[1-9][0-9]*", tok):
        raise Fail("invalid array index %r" % tok)
    i = int(tok)
    if i > len(arr) or (i == len(arr) and not for_insert):
        raise Fail("array index %d out of range" % i)
    return i


def get(doc, toks):
    for t in toks:
        if isinstance(doc, dict):
            if t not in doc:
                raise Fail("no member %r" % t)
            doc = doc[t]
        elif isinstance(doc, list):
            doc = doc[index(t, doc, False)]
        else:
            raise Fail("cannot index a scalar")
    return doc


def same(a, b):
    return a == b


def add(doc, toks, val):
    if not toks:
        return val
    parent = get(doc, toks[:-1])
    if isinstance(parent, dict):
        parent[toks[-1]] = val
    elif isinstance(parent, list):
        parent.insert(index(toks[-1], parent, True), val)
    else:
        raise Fail("cannot add to a scalar")
    return doc


def remove(doc, toks):
    if not toks:
        raise Fail("cannot remove the whole document")
    parent = get(doc, toks[:-1])
    if isinstance(parent, dict):
        if toks[-1] not in parent:
            raise Fail("no member %r" % toks[-1])
        return parent.pop(toks[-1])
    if isinstance(parent, list):
        return parent.pop(index(toks[-1], parent, False))
    raise Fail("cannot remove from a scalar")


def apply(doc, patch):
    if not isinstance(patch, list):
        raise Fail("patch is not an array")
    for n, op in enumerate(patch):
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise Fail("operation %d lacks op or path" % n)
        kind = op["op"]
        path = tokens(op["path"])
        if kind in ("add", "replace", "test") and "value" not in op:
            raise Fail("operation %d lacks value" % n)
        if kind in ("move", "copy"):
            if "from" not in op:
                raise Fail("operation %d lacks from" % n)
            src = tokens(op["from"])
        if kind == "add":
            doc = add(doc, path, copy.deepcopy(op["value"]))
        elif kind == "remove":
            remove(doc, path)
        elif kind == "replace":
            get(doc, path)
            if path:
                remove(doc, path)
            doc = add(doc, path, copy.deepcopy(op["value"]))
        elif kind == "move":
            if len(src) < len(path) and path[:len(src)] == src:
                raise Fail("cannot move a value into itself")
            if src == path:
                get(doc, src)
            else:
                doc = add(doc, path, remove(doc, src))
        elif kind == "copy":
            doc = add(doc, path, copy.deepcopy(get(doc, src)))
        elif kind == "test":
            if not same(get(doc, path), op["value"]):
                raise Fail("test at operation %d failed" % n)
        else:
            raise Fail("unknown op %r" % (kind,))
    return doc


def main(argv):
    if len(argv) != 3:
        print("usage: jpatch.py DOC.json PATCH.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = json.load(f)
        with open(argv[2], encoding="utf-8") as f:
            patch = json.load(f)
    except (OSError, ValueError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    try:
        out = apply(copy.deepcopy(doc), patch)
    except Fail as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
chmod +x /app/jpatch.py
