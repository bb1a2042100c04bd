#!/usr/bin/env python3
"""Verify a forward-secure, hash-chained audit log over its rotated files."""
import gzip
import hashlib
import hmac
import json
import os
import re
import sys

FIELDS = {"seq": int, "epoch": int, "ts": str, "host": str, "msg": str, "mac": str}


def files_in_order(logdir):
    rotated = []
    for name in os.listdir(logdir):
        m = re.fullmatch(r"audit\.log\.(\d+)(\.gz)?", name)
        if m:
            rotated.append((int(m.group(1)), name))
    out = [name for _, name in sorted(rotated, reverse=True)]
    if os.path.exists(os.path.join(logdir, "audit.log")):
        out.append("audit.log")
    return out


def parse(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if not isinstance(obj, dict) or set(obj) != set(FIELDS):
        return None
    for k, t in FIELDS.items():
        if type(obj[k]) is not t:
            return None
    if obj["seq"] < 0 or obj["epoch"] < 0 or not re.fullmatch(r"[0-9a-f]{64}", obj["mac"]):
        return None
    return obj


def main(keyfile, logdir):
    k0 = bytes.fromhex(open(keyfile).read().strip())
    keys = [k0]

    def key(e):
        while len(keys) <= e:
            keys.append(hashlib.sha256(b"fss-evolve" + keys[-1]).digest())
        return keys[e]

    prev = None
    problems, count, trusted, clean = [], 0, None, True
    for name in files_in_order(logdir):
        raw = open(os.path.join(logdir, name), "rb").read()
        if name.endswith(".gz"):
            raw = gzip.decompress(raw)
        for no, line in enumerate(raw.decode("utf-8").split("\n"), 1):
            if not line.strip():
                continue
            obj = parse(line)
            problem = None
            if obj is None:
                problem = "malformed"
            else:
                count += 1
                body = {k: obj[k] for k in FIELDS if k != "mac"}
                canon = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
                link = bytes.fromhex(prev["mac"]) if prev else bytes(32)
                want = hmac.new(key(obj["epoch"]), link + canon, hashlib.sha256).hexdigest()
                if prev and obj["seq"] != prev["seq"] + 1:
                    problem = "seq-gap"
                elif prev and obj["epoch"] < prev["epoch"]:
                    problem = "epoch-regress"
                elif not hmac.compare_digest(want, obj["mac"]):
                    problem = "bad-mac"
                prev = obj
            if problem:
                clean = False
                problems.append({"file": name, "line": no, "seq": obj["seq"] if obj else None, "problem": problem})
            elif clean:
                trusted = obj["seq"]
    print(json.dumps({"entries": count, "trusted_through": trusted, "problems": problems}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
