"""Reference JSON Patch (RFC 6902) applier used by the tests."""
import copy


class PatchError(Exception):
    pass


def parse_pointer(ptr):
    if not isinstance(ptr, str):
        raise PatchError("pointer must be a string")
    if ptr == "":
        return []
    if not ptr.startswith("/"):
        raise PatchError("pointer must start with /")
    out = []
    for tok in ptr[1:].split("/"):
        i = 0
        res = []
        while i < len(tok):
            c = tok[i]
            if c == "~":
                if i + 1 < len(tok) and tok[i + 1] in "01":
                    res.append("~" if tok[i + 1] == "0" else "/")
                    i += 2
                    continue
                raise PatchError("bad escape")
            res.append(c)
            i += 1
        out.append("".join(res))
    return out


def array_index(tok, n, allow_end):
    if tok == "-":
        if allow_end:
            return n
        raise PatchError("- not allowed here")
    if not tok or not tok.isascii() or not tok.isdigit() or (len(tok) > 1 and tok[0] == "0"):
        raise PatchError("bad array index")
    i = int(tok)
    limit = n if allow_end else n - 1
    if i > limit:
        raise PatchError("index out of range")
    return i


def resolve(doc, toks):
    cur = doc
    for t in toks:
        if isinstance(cur, dict):
            if t not in cur:
                raise PatchError("missing member")
            cur = cur[t]
        elif isinstance(cur, list):
            cur = cur[array_index(t, len(cur), False)]
        else:
            raise PatchError("cannot descend into scalar")
    return cur


def json_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return False


def do_add(doc, toks, value):
    if not toks:
        return value
    parent = resolve(doc, toks[:-1])
    last = toks[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(array_index(last, len(parent), True), value)
    else:
        raise PatchError("parent is a scalar")
    return doc


def do_remove(doc, toks):
    if not toks:
        raise PatchError("cannot remove the root")
    parent = resolve(doc, toks[:-1])
    last = toks[-1]
    if isinstance(parent, dict):
        if last not in parent:
            raise PatchError("missing member")
        return doc, parent.pop(last)
    if isinstance(parent, list):
        return doc, parent.pop(array_index(last, len(parent), False))
    raise PatchError("parent is a scalar")


def apply_patch(doc, patch):
    if not isinstance(patch, list):
        raise PatchError("patch must be an array")
    doc = copy.deepcopy(doc)
    for op in patch:
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise PatchError("operation needs op and path")
        name = op["op"]
        toks = parse_pointer(op["path"])
        if name in ("add", "replace", "test") and "value" not in op:
            raise PatchError("missing value")
        if name in ("move", "copy"):
            if "from" not in op:
                raise PatchError("missing from")
            ftoks = parse_pointer(op["from"])
        if name == "add":
            doc = do_add(doc, toks, copy.deepcopy(op["value"]))
        elif name == "remove":
            doc, _ = do_remove(doc, toks)
        elif name == "replace":
            resolve(doc, toks)
            if not toks:
                doc = copy.deepcopy(op["value"])
            else:
                doc, _ = do_remove(doc, toks)
                doc = do_add(doc, toks, copy.deepcopy(op["value"]))
        elif name == "move":
            if len(ftoks) < len(toks) and toks[: len(ftoks)] == ftoks:
                raise PatchError("cannot move into own child")
            if ftoks == toks:
                resolve(doc, ftoks)
                continue
            if not ftoks:
                raise PatchError("cannot move the root")
            doc, val = do_remove(doc, ftoks)
            doc = do_add(doc, toks, val)
        elif name == "copy":
            val = copy.deepcopy(resolve(doc, ftoks))
            doc = do_add(doc, toks, val)
        elif name == "test":
            if not json_equal(resolve(doc, toks), op["value"]):
                raise PatchError("test failed")
        else:
            raise PatchError("unknown op")
    return doc
