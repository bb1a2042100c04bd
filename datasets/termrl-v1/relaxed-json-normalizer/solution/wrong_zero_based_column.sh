#!/bin/bash
set -euo pipefail
cat > /app/rjson.py <<'PY'
import json
import re
import sys


class RError(Exception):
    def __init__(self, text, pos, msg):
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1)
        super().__init__(f"error: line {line} col {col}: {msg}")


IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
NUM = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)")
ESC = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


class P:
    def __init__(self, text):
        self.t = text
        self.i = 0

    def err(self, msg, pos=None):
        raise RError(self.t, self.i if pos is None else pos, msg)

    def ws(self):
        t = self.t
        while self.i < len(t):
            c = t[self.i]
            if c in " \t\r\n":
                self.i += 1
            elif t.startswith("//", self.i):
                j = t.find("\n", self.i)
                self.i = len(t) if j < 0 else j + 1
            elif t.startswith("/*", self.i):
                j = t.find("*/", self.i + 2)
                if j < 0:
                    self.err("unterminated comment")
                self.i = j + 2
            else:
                break

    def string(self):
        t, q, start = self.t, self.t[self.i], self.i
        self.i += 1
        out = []
        while True:
            if self.i >= len(t):
                self.err("unterminated string", start)
            c = t[self.i]
            if c == q:
                self.i += 1
                return "".join(out)
            if c == "\n":
                self.err("unterminated string", start)
            if c == "\\":
                if self.i + 1 >= len(t):
                    self.err("unterminated string", start)
                e = t[self.i + 1]
                if e in ESC:
                    out.append(ESC[e])
                    self.i += 2
                elif e == "\n":
                    self.i += 2
                elif e == "u":
                    h = t[self.i + 2:self.i + 6]
                    if not re.fullmatch(r"[0-9a-fA-F]{4}", h):
                        self.err("bad escape")
                    cp = int(h, 16)
                    self.i += 6
                    if 0xD800 <= cp <= 0xDBFF and t.startswith("\\u", self.i):
                        h2 = t[self.i + 2:self.i + 6]
                        if re.fullmatch(r"[0-9a-fA-F]{4}", h2) and 0xDC00 <= int(h2, 16) <= 0xDFFF:
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (int(h2, 16) - 0xDC00)
                            self.i += 6
                    out.append(chr(cp))
                else:
                    self.err("bad escape")
            else:
                out.append(c)
                self.i += 1

    def value(self):
        self.ws()
        t = self.t
        if self.i >= len(t):
            self.err("unexpected end of input")
        c = t[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c in "\"'":
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if t.startswith(word, self.i) and not re.match(r"[A-Za-z0-9_$]", t[self.i + len(word):self.i + len(word) + 1]):
                self.i += len(word)
                return val
        m = re.compile(r"[+-]?(?:Infinity|NaN)").match(t, self.i)
        if m:
            self.err("non-finite number")
        m = NUM.match(t, self.i)
        if m and not re.match(r"[A-Za-z0-9_$.]", t[m.end():m.end() + 1]):
            s = m.group(0)
            self.i = m.end()
            body = s.lstrip("+-")
            neg = s.startswith("-")
            if body[:2].lower() == "0x":
                v = int(body, 16)
            elif re.fullmatch(r"\d+", body):
                v = int(body)
            else:
                v = float(body)
            return -v if neg else v
        self.err("unexpected character")

    def arr(self):
        self.i += 1
        out = []
        while True:
            self.ws()
            if self.i < len(self.t) and self.t[self.i] == "]":
                self.i += 1
                return out
            out.append(self.value())
            self.ws()
            if self.i < len(self.t) and self.t[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(self.t) and self.t[self.i] == "]":
                self.i += 1
                return out
            self.err("expected , or ]" if self.i < len(self.t) else "unexpected end of input")

    def obj(self):
        self.i += 1
        out = {}
        while True:
            self.ws()
            t = self.t
            if self.i < len(t) and t[self.i] == "}":
                self.i += 1
                return out
            if self.i >= len(t):
                self.err("unexpected end of input")
            if t[self.i] in "\"'":
                key = self.string()
            else:
                m = IDENT.match(t, self.i)
                if not m:
                    self.err("bad key")
                key = m.group(0)
                self.i = m.end()
            self.ws()
            if self.i >= len(t) or t[self.i] != ":":
                self.err("expected :" if self.i < len(t) else "unexpected end of input")
            self.i += 1
            out[key] = self.value()
            self.ws()
            if self.i < len(t) and t[self.i] == ",":
                self.i += 1
                continue
            if self.i < len(t) and t[self.i] == "}":
                self.i += 1
                return out
            self.err("expected , or }" if self.i < len(t) else "unexpected end of input")


def normalize(text):
    p = P(text)
    v = p.value()
    p.ws()
    if p.i != len(text):
        p.err("trailing data")
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


if __name__ == "__main__":
    src = open(sys.argv[1], encoding="utf-8").read()
    try:
        out = normalize(src)
    except RError as e:
        sys.stderr.write(str(e) + "\n")
        sys.exit(1)
    sys.stdout.write(out + "\n")
PY
