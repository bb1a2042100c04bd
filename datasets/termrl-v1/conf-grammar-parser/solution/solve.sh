#!/bin/bash
set -euo pipefail
cat > /app/confparse.py <<'PY'
import json
import os
import re
import sys

NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
PATH_RE = re.compile(rf"^{NAME}(\.{NAME})*$")
ASSIGN_RE = re.compile(rf"^({NAME})\s*(\+=|=)\s*(.*)$")
INT_RE = re.compile(r"^-?\d+(_\d+)*$")
FLOAT_RE = re.compile(r"^-?\d+(_\d+)*\.\d+(_\d+)*$")


class ConfError(Exception):
    def __init__(self, file, line, msg):
        super().__init__(f"error: {file}:{line}: {msg}")


def parse_quoted(s, pos, err):
    # s[pos] == '"'; returns (string, index after closing quote)
    out = []
    i = pos + 1
    while i < len(s):
        c = s[i]
        if c == "\\":
            if i + 1 >= len(s):
                err("unterminated escape")
            e = s[i + 1]
            if e not in '\\"nt':
                err(f"bad escape \\{e}")
            out.append({"\\": "\\", '"': '"', "n": "\n", "t": "\t"}[e])
            i += 2
        elif c == '"':
            return "".join(out), i + 1
        else:
            out.append(c)
            i += 1
    err("missing closing quote")


def scalar(text):
    if text == "true":
        return True
    if text == "false":
        return False
    if INT_RE.match(text):
        return int(text.replace("_", ""))
    if FLOAT_RE.match(text):
        return float(text.replace("_", ""))
    return None


class Parser:
    def __init__(self):
        self.root = {}
        self.stack = []

    def lookup(self, path, err):
        cur = self.root
        for part in path.split("."):
            if not isinstance(cur, dict) or part not in cur:
                err(f"undefined reference {path}")
            cur = cur[part]
        if isinstance(cur, (dict, list)):
            err(f"cannot interpolate {path}")
        return cur

    def interp(self, s, err):
        def rep(m):
            v = self.lookup(m.group(1), err)
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, float):
                return repr(v)
            return str(v)
        return re.sub(r"\$\{([^}]*)\}", rep, s)

    def value(self, text, err):
        if text.startswith('"'):
            s, end = parse_quoted(text, 0, err)
            rest = text[end:].strip()
            if rest and not rest.startswith("#"):
                err("junk after string")
            return self.interp(s, err)
        if text.startswith("["):
            items = []
            i = 1
            expect_item = True
            while True:
                while i < len(text) and text[i] in " \t":
                    i += 1
                if i >= len(text):
                    err("unterminated list")
                c = text[i]
                if c == "]":
                    i += 1
                    break
                if not expect_item:
                    err("expected , or ]")
                if c == '"':
                    s, i = parse_quoted(text, i, err)
                    items.append(s)
                else:
                    m = re.match(r"[^,\]\s]+", text[i:])
                    if not m:
                        err("bad list element")
                    v = scalar(m.group(0))
                    if v is None:
                        err("bad list element")
                    items.append(v)
                    i += m.end()
                while i < len(text) and text[i] in " \t":
                    i += 1
                if i < len(text) and text[i] == ",":
                    i += 1
                    expect_item = True
                else:
                    expect_item = False
            rest = text[i:].strip()
            if rest and not rest.startswith("#"):
                err("junk after list")
            return items
        m = re.search(r"\s#", text)
        if m:
            text = text[:m.start()]
        text = text.strip()
        v = scalar(text)
        if v is not None:
            return v
        return self.interp(text, err)

    def section(self, path, err):
        cur = self.root
        for part in path.split("."):
            if part not in cur:
                cur[part] = {}
            elif not isinstance(cur[part], dict):
                err(f"{part} is not a section")
            cur = cur[part]
        return cur

    def parse_file(self, fname, line_no_of_include=None):
        real = os.path.realpath(fname)
        with open(fname, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        self.stack.append(real)
        current = self.root
        for n, raw in enumerate(lines, 1):
            def err(msg, n=n):
                raise ConfError(fname, n, msg)
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("@include"):
                m = re.match(r'^@include\s+(".*)$', line)
                if not m:
                    err("bad include")
                path, end = parse_quoted(m.group(1), 0, err)
                rest = m.group(1)[end:].strip()
                if rest and not rest.startswith("#"):
                    err("junk after include")
                target = os.path.join(os.path.dirname(fname), path)
                if not os.path.isfile(target):
                    err(f"cannot include {path}")
                if os.path.realpath(target) in self.stack:
                    err(f"include cycle via {path}")
                self.parse_file(target)
                continue
            if line.startswith("["):
                m = re.match(r"^\[\s*([^\]]*?)\s*\]$", line)
                if not m or not PATH_RE.match(m.group(1)):
                    err("bad section header")
                current = self.section(m.group(1), err)
                continue
            m = ASSIGN_RE.match(line)
            if not m:
                err("syntax error")
            key, op, text = m.groups()
            val = self.value(text.strip(), err)
            if op == "=":
                current[key] = val
            else:
                if key not in current or not isinstance(current[key], list):
                    err(f"{key} is not a list")
                if isinstance(val, list):
                    current[key].extend(val)
                else:
                    current[key].append(val)
        self.stack.pop()


def main():
    p = Parser()
    try:
        p.parse_file(sys.argv[1])
    except ConfError as e:
        sys.stderr.write(str(e) + "\n")
        sys.exit(1)
    sys.stdout.write(json.dumps(p.root, indent=2) + "\n")


main()
PY
