#!/usr/bin/env python3
"""Scan a directory tree for secrets by the rules in /app/instructions."""
import fnmatch
import gzip
import json
import math
import os
import re
import sys
import zlib
from collections import Counter

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
GH = re.compile(r"(?<![A-Za-z0-9_])(gh[pos]_)([A-Za-z0-9]{30})([A-Za-z0-9]{6})(?![A-Za-z0-9_])")
AWS = re.compile(r"(?<![A-Za-z0-9])((?:AKIA|ASIA)[A-Z2-7]{16})(?![A-Za-z0-9])")
BEGIN = re.compile(r"^\s*-----BEGIN ((?:RSA |EC |DSA |OPENSSH )?PRIVATE KEY)-----\s*$")
ASSIGN = re.compile(r"([A-Za-z0-9_.-]+)[\"']?\s*[:=]\s*(\"[^\"]*\"|'[^']*'|[^\s\"',;#]+)")
WORDS = ("password", "passwd", "secret", "token", "apikey", "api_key")


def b62(n):
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(6, "0")


def entropy(s):
    c = Counter(s)
    return -sum(v / len(s) * math.log2(v / len(s)) for v in c.values())


def load_ignores(root):
    pats = []
    try:
        for line in open(os.path.join(root, ".scanignore"), encoding="utf-8"):
            line = line.strip()
            if line and not line.startswith("#"):
                pats.append(line)
    except FileNotFoundError:
        pass
    return pats


def ignored(rel, pats):
    parts = rel.split("/")
    for p in pats:
        if "/" in p:
            if fnmatch.fnmatchcase(rel, p):
                return True
        elif any(fnmatch.fnmatchcase(part, p) for part in parts):
            return True
    return False


def scan_text(text):
    lines = text.split("\n")
    out = []
    for no, raw in enumerate(lines, 1):
        line = raw.rstrip("\r")
        if "scan:ignore" in line:
            continue
        spans = []
        for m in GH.finditer(line):
            if b62(zlib.crc32(m.group(2).encode())) == m.group(3):
                out.append((no, "github-token", m.group(0)))
                spans.append(m.span())
        for m in AWS.finditer(line):
            if not m.group(1).endswith("EXAMPLE"):
                out.append((no, "aws-access-key", m.group(1)))
                spans.append(m.span(1))
        for m in ASSIGN.finditer(line):
            name = m.group(1).lower()
            if not any(w in name for w in WORDS):
                continue
            val = m.group(2)
            vs, ve = m.span(2)
            if val[:1] in "\"'":
                val, vs, ve = val[1:-1], vs + 1, ve - 1
            if len(val) < 12 or any(c in val for c in "${<"):
                continue
            if any(a < ve and vs < b for a, b in spans):
                continue
            if entropy(val) >= 3.5:
                out.append((no, "generic-secret", val))
        m = BEGIN.match(line)
        if m:
            end = f"-----END {m.group(1)}-----"
            for later in lines[no:]:
                later = later.rstrip("\r")
                if later.strip() == end:
                    out.append((no, "private-key", line.strip()))
                    break
                if later.strip() == "Proc-Type: 4,ENCRYPTED" or BEGIN.match(later):
                    break
    return out


def main(root):
    pats = load_ignores(root)
    findings = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git" and not os.path.islink(os.path.join(dirpath, d))]
        for fn in filenames:
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.islink(full) or not os.path.isfile(full) or rel == ".scanignore":
                continue
            if any(part == ".git" for part in rel.split("/")) or ignored(rel, pats):
                continue
            data = open(full, "rb").read()
            if fn.endswith(".gz"):
                try:
                    data = gzip.decompress(data)
                except (OSError, EOFError, zlib.error):
                    continue
            if b"\x00" in data[:8192]:
                continue
            for no, rule, secret in scan_text(data.decode("utf-8", "replace")):
                findings.append({"path": rel, "line": no, "rule": rule, "secret": secret})
    findings.sort(key=lambda f: (f["path"], f["line"], f["rule"], f["secret"]))
    print(json.dumps(findings, indent=1))


if __name__ == "__main__":
    main(sys.argv[1])
