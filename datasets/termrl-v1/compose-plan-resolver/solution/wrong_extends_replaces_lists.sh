#!/bin/bash
# Plausible but wrong: extends replaces ports and volumes instead of appending to the base's lists.
set -euo pipefail
cat > /app/composeplan <<'PY'
#!/usr/bin/env python3
"""Resolve a compose file: interpolation, extends, depends_on long form, profiles, start waves."""
import argparse
import copy
import json
import os
import re
import sys

import yaml

TOKEN = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


class Fail(Exception):
    def __init__(self, msg, code):
        super().__init__(msg)
        self.code = code


def read_env_file(path):
    env = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.lstrip().startswith("#") or "=" not in line:
                    continue
                k, v = line.split("=", 1)
                if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                    v = v[1:-1]
                env[k.strip()] = v
    return env


def interpolate(value, env):
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def sub(m):
        if m.group(0) == "$$":
            return "$"
        name = m.group(1) or m.group(4)
        op, arg = m.group(2), m.group(3)
        val = env.get(name)
        if op == ":-":
            return arg if not val else val
        if op == "-":
            return arg if val is None else val
        if op == ":?" and not val or op == "?" and val is None:
            raise Fail(f"error: {name}: {arg}", 3)
        return val or ""

    return TOKEN.sub(sub, value)


def merge(base, own):
    out = copy.deepcopy(base)
    for k, v in own.items():
        if False:
            items = []
            for x in out[k] + v:
                if x not in items:
                    items.append(x)
            out[k] = items
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def resolve(services):
    done, visiting = {}, []

    def get(name):
        if name in done:
            return done[name]
        if name not in services:
            raise Fail(f"error: extends unknown service {name}", 2)
        if name in visiting:
            raise Fail("error: extends cycle: " + " -> ".join(visiting + [name]), 2)
        visiting.append(name)
        svc = dict(services[name] or {})
        ext = svc.pop("extends", None)
        if ext is not None:
            base_name = ext["service"] if isinstance(ext, dict) else ext
            svc = merge(get(base_name), svc)
        visiting.pop()
        done[name] = svc
        return svc

    return {name: get(name) for name in services}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="append", default=[])
    ap.add_argument("--env-file")
    ap.add_argument("file")
    args = ap.parse_args()
    try:
        with open(args.file, encoding="utf-8") as f:
            doc = yaml.safe_load(f) or {}
        env_file = args.env_file or os.path.join(os.path.dirname(os.path.abspath(args.file)), ".env")
        env = {**read_env_file(env_file), **os.environ}
        services = interpolate(doc.get("services") or {}, env)
        services = resolve(services)
        active = {n: s for n, s in services.items()
                  if not s.get("profiles") or any(p in args.profile for p in s["profiles"])}
        for name, s in active.items():
            deps = s.get("depends_on")
            if deps is None:
                continue
            if isinstance(deps, list):
                deps = {d: {"condition": "service_started"} for d in deps}
            else:
                deps = {d: {**(c or {}), "condition": (c or {}).get("condition", "service_started")} for d, c in deps.items()}
            for d in deps:
                if d not in active:
                    raise Fail(f"error: {name} depends on missing service {d}", 2)
            s["depends_on"] = deps
        order, placed = [], set()
        while len(placed) < len(active):
            wave = sorted(n for n, s in active.items() if n not in placed and set(s.get("depends_on", {})) <= placed)
            if not wave:
                raise Fail("error: dependency cycle", 2)
            order.append(wave)
            placed |= set(wave)
    except Fail as e:
        print(str(e), file=sys.stderr)
        sys.exit(e.code)
    print(json.dumps({"services": active, "order": order}, indent=2, sort_keys=True))


main()
PY
chmod +x /app/composeplan
