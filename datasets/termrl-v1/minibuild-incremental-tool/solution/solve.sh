#!/bin/bash
set -euo pipefail
cat > /app/minibuild.py <<'PY'
import argparse
import hashlib
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait


class BuildError(Exception):
    pass


def parse(path):
    rules, default, producer = [], None, {}
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        i += 1
        if not s or s.startswith("#"):
            continue
        if line[0].isspace():
            raise BuildError(f"line {i}: unexpected indented line")
        if s.startswith("build ") and ":" in s:
            head, _, tail = s[6:].partition(":")
            outs, ins = head.split(), tail.split()
            if not outs:
                raise BuildError(f"line {i}: no outputs")
            if i >= len(lines) or not lines[i][:1].isspace() or not lines[i].strip():
                raise BuildError(f"line {i}: missing command")
            cmd = lines[i].strip()
            i += 1
            rule = {"outs": outs, "ins": ins, "cmd": cmd, "id": len(rules)}
            for o in outs:
                if o in producer:
                    raise BuildError(f"output {o} declared twice")
                producer[o] = rule
            rules.append(rule)
        elif s.startswith("default ") or s == "default":
            if default is not None:
                raise BuildError("default given twice")
            default = s.split()[1:]
        else:
            raise BuildError(f"line {i}: cannot parse {s!r}")
    return rules, default, producer


def digest(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except (FileNotFoundError, IsADirectoryError):
        return None


def main(argv):
    ap = argparse.ArgumentParser(prog="minibuild")
    ap.add_argument("-f", default="BUILD")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args(argv)
    buildfile = os.path.abspath(args.f)
    root = os.path.dirname(buildfile)
    try:
        rules, default, producer = parse(buildfile)
    except (OSError, BuildError) as e:
        print(f"minibuild: {e}", file=sys.stderr)
        return 2
    os.chdir(root)
    targets = args.targets or default or [o for r in rules for o in r["outs"]]
    # collect needed rules, check inputs and cycles
    needed, state_mark, order = {}, {}, []

    def visit(rule, stack):
        if state_mark.get(rule["id"]) == 2:
            return
        if state_mark.get(rule["id"]) == 1:
            raise BuildError("dependency cycle: " + " -> ".join(stack))
        state_mark[rule["id"]] = 1
        for inp in rule["ins"]:
            if inp in producer:
                visit(producer[inp], stack + [inp])
            elif not os.path.isfile(inp):
                raise BuildError(f"missing input {inp}")
        state_mark[rule["id"]] = 2
        needed[rule["id"]] = rule
        order.append(rule)

    try:
        for t in targets:
            if t not in producer:
                raise BuildError(f"no rule produces {t}")
            visit(producer[t], [t])
    except BuildError as e:
        print(f"minibuild: {e}", file=sys.stderr)
        return 2
    statedir = os.path.join(root, ".minibuild")
    os.makedirs(statedir, exist_ok=True)
    statefile = os.path.join(statedir, "state.json")
    try:
        db = json.load(open(statefile))
    except (OSError, ValueError):
        db = {}
    lock = threading.Lock()

    def key(rule):
        return "\0".join(rule["outs"])

    def up_to_date(rule):
        rec = db.get(key(rule))
        if not rec or rec["cmd"] != rule["cmd"]:
            return False
        if rec["ins"] != {i: digest(i) for i in rule["ins"]}:
            return False
        return rec["outs"] == {o: digest(o) for o in rule["outs"]}

    def save():
        tmp = statefile + ".tmp"
        with open(tmp, "w") as f:
            json.dump(db, f)
        os.replace(tmp, statefile)

    def run(rule):
        with lock:
            print(rule["cmd"], flush=True)
        r = subprocess.run(["/bin/sh", "-c", rule["cmd"]])
        ok = r.returncode == 0 and all(os.path.exists(o) for o in rule["outs"])
        return ok

    deps = {r["id"]: {producer[i]["id"] for i in r["ins"] if i in producer} for r in order}
    done, failed = set(), False
    pending = list(order)
    running = {}
    with ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        while pending or running:
            if not failed:
                for rule in list(pending):
                    if len(running) >= max(1, args.j):
                        break
                    if deps[rule["id"]] <= done:
                        pending.remove(rule)
                        if up_to_date(rule):
                            done.add(rule["id"])
                            continue
                        running[pool.submit(run, rule)] = rule
                if not running and pending and all(not (deps[r["id"]] <= done) for r in pending):
                    if not any(deps[r["id"]] <= done for r in pending):
                        pass
            if not running:
                if failed or not pending:
                    break
                continue
            fin, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for fut in fin:
                rule = running.pop(fut)
                if fut.result():
                    db[key(rule)] = {"cmd": rule["cmd"], "ins": {i: digest(i) for i in rule["ins"]},
                                     "outs": {o: digest(o) for o in rule["outs"]}}
                    save()
                    done.add(rule["id"])
                else:
                    failed = True
                    db.pop(key(rule), None)
                    save()
                    for o in rule["outs"]:
                        try:
                            os.remove(o)
                        except OSError:
                            pass
    save()
    if failed:
        print("minibuild: build failed", file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1:]))
PY
