#!/usr/bin/env python3
"""Evaluate a pam-lite stack (see /app/SPEC.md) for one service and management group."""
import json
import os
import sys

KEYWORDS = {
    "required": {"success": "ok", "new_authtok_reqd": "ok", "ignore": "ignore", "default": "bad"},
    "requisite": {"success": "ok", "new_authtok_reqd": "ok", "ignore": "ignore", "default": "die"},
    "sufficient": {"success": "done", "new_authtok_reqd": "done", "default": "ignore"},
    "optional": {"success": "ok", "new_authtok_reqd": "ok", "default": "ignore"},
}


def parse_file(path):
    lines = []
    for raw in open(path):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        dash = s.startswith("-")
        if dash:
            s = s[1:]
        typ, rest = s.split(None, 1)
        if rest.startswith("["):
            end = rest.index("]")
            ctl_text, rest = rest[1:end], rest[end + 1:]
            control = {}
            for pair in ctl_text.split():
                k, v = pair.split("=", 1)
                control[k] = int(v) if v.isdigit() else v
            control.setdefault("default", "bad")
            kind = "module"
        else:
            word, rest = rest.split(None, 1) if " " in rest or "\t" in rest else (rest, "")
            if word in ("include", "substack"):
                kind, control = word, None
            else:
                kind, control = "module", KEYWORDS[word]
        parts = rest.split()
        lines.append({"type": typ, "dash": dash, "kind": kind, "control": control, "target": parts[0], "args": parts[1:]})
    return lines


def build(pamdir, service, typ, installed):
    """Flatten includes; keep substacks as nested entries; drop missing '-' modules."""
    out = []
    for line in parse_file(os.path.join(pamdir, service)):
        if line["type"] != typ:
            continue
        if line["kind"] == "include":
            out += build(pamdir, line["target"], typ, installed)
        elif line["kind"] == "substack":
            out.append({"kind": "substack", "stack": build(pamdir, line["target"], typ, installed)})
        else:
            if line["dash"] and line["target"] not in installed:
                continue
            out.append(line)
    return out


def run(stack, installed, trace):
    impression, status = None, "perm_denied"
    i = 0
    while i < len(stack):
        line = stack[i]
        i += 1
        if line["kind"] == "substack":
            sub_imp, sub_status = run(line["stack"], installed, trace)
            if sub_imp == "pass":
                action, r = "ok", sub_status
            elif sub_imp == "fail":
                action, r = "bad", sub_status
            else:
                continue
        else:
            mod = line["target"]
            if mod in installed:
                trace.append(mod)
                r = installed[mod]
            else:
                r = "module_unknown"
            action = line["control"].get(r, line["control"]["default"])
        if isinstance(action, int):
            i += action
        elif action in ("ok", "done"):
            if impression is None or (impression == "pass" and status == "success"):
                if r != "ignore":
                    impression, status = "pass", r
            if action == "done" and impression != "fail":
                break
        elif action in ("bad", "die"):
            if impression != "fail":
                impression, status = "fail", r
            if action == "die":
                break
        elif action == "reset":
            impression, status = None, "perm_denied"
    return impression, status


def main(pamdir, scenario, service, typ):
    installed = json.load(open(scenario))["modules"]
    trace = []
    _, status = run(build(pamdir, service, typ, installed), installed, trace)
    print(json.dumps({"result": status, "trace": trace}))


if __name__ == "__main__":
    main(*sys.argv[1:5])
