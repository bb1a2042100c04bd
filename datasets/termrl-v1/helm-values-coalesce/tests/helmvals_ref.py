#!/usr/bin/env python3
"""helmvals: compute a chart's final values like Helm does (JSON charts). Reference implementation."""
import copy
import json
import os
import re
import sys


class Fail(Exception):
    pass


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise Fail(f"{what}: {e}")


def deep_merge(dst, src):
    """-f files: maps merge recursively, anything else replaces."""
    for k, v in src.items():
        if isinstance(v, dict) and isinstance(dst.get(k), dict):
            deep_merge(dst[k], v)
        else:
            dst[k] = copy.deepcopy(v)
    return dst


def coalesce(dst, src):
    """dst wins; src fills in what is missing; maps on both sides recurse."""
    for k, v in src.items():
        if k not in dst:
            dst[k] = copy.deepcopy(v)
        elif isinstance(dst[k], dict) and isinstance(v, dict):
            coalesce(dst[k], v)
    return dst


def drop_nulls(v):
    if isinstance(v, dict):
        for k in [k for k, x in v.items() if x is None]:
            del v[k]
        for x in v.values():
            drop_nulls(x)
    return v


# ---------------------------------------------------------------- --set
def split_unescaped(s, sep):
    parts, cur, i = [], "", 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            cur += s[i:i + 2]
            i += 2
            continue
        if c == sep:
            parts.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    parts.append(cur)
    return parts


def unescape(s):
    out, i = "", 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out += s[i + 1]
            i += 2
        else:
            out += s[i]
            i += 1
    return out


def split_assignments(expr, string=False):
    """commas separate assignments, except escaped ones and those inside {...} after '='."""
    out, cur, i, depth, in_value = [], "", 0, 0, False
    while i < len(expr):
        c = expr[i]
        if c == "\\" and i + 1 < len(expr):
            cur += expr[i:i + 2]
            i += 2
            continue
        if c == "=" and not in_value:
            in_value = True
            cur += c
            if expr[i + 1:i + 2] == "{" and not string:
                depth = 1
                cur += "{"
                i += 2
                continue
        elif c == "}" and depth:
            depth = 0
            cur += c
        elif c == "," and not depth:
            out.append(cur)
            cur, in_value = "", False
        else:
            cur += c
        i += 1
    if depth:
        raise Fail("unterminated {")
    out.append(cur)
    return out


INT = re.compile(r"-?[1-9][0-9]*|0")


def typed(raw):
    if raw == "null":
        return None
    if raw == "true":
        return True
    if raw == "false":
        return False
    if INT.fullmatch(raw):
        return int(raw)
    return unescape(raw)


def parse_path(path):
    segs = []
    for part in split_unescaped(path, "."):
        m = re.fullmatch(r"((?:[^\[\]\\]|\\.)*)((?:\[[0-9]+\])*)", part, re.S)
        if not m or not m.group(1):
            raise Fail(f"bad key {path!r}")
        segs.append(unescape(m.group(1)))
        for idx in re.findall(r"\[([0-9]+)\]", m.group(2)):
            segs.append(int(idx))
    return segs


def set_path(root, segs, value):
    cur = root
    for k, seg in enumerate(segs):
        last = k == len(segs) - 1
        nxt = None if last else segs[k + 1]
        if isinstance(seg, int):
            while len(cur) <= seg:
                cur.append(None)
            if last:
                cur[seg] = value
            else:
                want = list if isinstance(nxt, int) else dict
                if not isinstance(cur[seg], want):
                    cur[seg] = want()
                cur = cur[seg]
        else:
            if last:
                cur[seg] = value
            else:
                want = list if isinstance(nxt, int) else dict
                if not isinstance(cur.get(seg), want):
                    cur[seg] = want()
                cur = cur[seg]


def apply_set(root, expr, string):
    for a in split_assignments(expr, string):
        parts = split_unescaped(a, "=")
        if len(parts) < 2:
            raise Fail(f"bad assignment {a!r}")
        path, raw = parts[0], "=".join(parts[1:])
        segs = parse_path(path)
        if string:
            value = unescape(raw)
        elif raw.startswith("{") and raw.endswith("}"):
            inner = raw[1:-1]
            value = [] if inner == "" else [typed(x) for x in split_unescaped(inner, ",")]
        else:
            value = typed(raw)
        set_path(root, segs, value)


# ---------------------------------------------------------------- charts
def lookup(values, path):
    cur = values
    for seg in path.split("."):
        if not isinstance(cur, dict) or seg not in cur:
            return None, False
        cur = cur[seg]
    return cur, True


def chart_values(chart_dir, vals, top):
    """vals: the values given for this chart (already holding user/parent data). Returns the final values."""
    meta = load_json(os.path.join(chart_dir, "Chart.json"), "Chart.json")
    if not isinstance(meta, dict):
        raise Fail("Chart.json must be an object")
    dflt = {}
    vp = os.path.join(chart_dir, "values.json")
    if os.path.exists(vp):
        dflt = load_json(vp, "values.json")
        if not isinstance(dflt, dict):
            raise Fail("values.json must be an object")
    coalesce(vals, dflt)
    if top is None:
        top = vals
    for dep in meta.get("dependencies", []):
        name = dep["name"]
        key = dep.get("alias") or name
        enabled = None
        for p in [p.strip() for p in dep.get("condition", "").split(",") if p.strip()]:
            v, ok = lookup(vals, p)
            if ok and isinstance(v, bool):
                enabled = v
                break
        if enabled is None and dep.get("tags"):
            tagvals = [top.get("tags", {}).get(t) for t in dep["tags"]] if isinstance(top.get("tags"), dict) else []
            bools = [t for t in tagvals if isinstance(t, bool)]
            if bools:
                enabled = any(bools)
        if enabled is False:
            continue
        sub_dir = os.path.join(chart_dir, "charts", name)
        if not os.path.isdir(sub_dir):
            raise Fail(f"missing subchart {name}")
        sub = vals.get(key)
        sub = copy.deepcopy(sub) if isinstance(sub, dict) else {}
        g = vals.get("global")
        if isinstance(g, dict):
            sub["global"] = coalesce(copy.deepcopy(g), sub.get("global") if isinstance(sub.get("global"), dict) else {})
        vals[key] = chart_values(sub_dir, sub, top)
    return vals


def main(argv):
    chart, files, sets = None, [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-f", "--set", "--set-string"):
            if i + 1 >= len(argv):
                raise Fail(f"{a} needs a value")
            if a == "-f":
                files.append(argv[i + 1])
            else:
                sets.append((argv[i + 1], a == "--set-string"))
            i += 2
            continue
        if a.startswith("-") or chart is not None:
            raise Fail("usage: helmvals CHART [-f FILE]... [--set EXPR]... [--set-string EXPR]...")
        chart = a
        i += 1
    if chart is None:
        raise Fail("no chart")
    user = {}
    for f in files:
        v = load_json(f, f)
        if not isinstance(v, dict):
            raise Fail(f"{f}: not an object")
        deep_merge(user, v)
    for expr, string in sets:
        apply_set(user, expr, string)
    final = drop_nulls(chart_values(chart, user, None))
    print(json.dumps(final, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"helmvals: {e}", file=sys.stderr)
        sys.exit(1)
