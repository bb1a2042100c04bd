#!/bin/bash
set -euo pipefail
cd /app/envload
cat > parser.py <<'PY'
"""Line reader for ENVFILE."""
import re

from .errors import EnvError
from .expand import substitute

_ENTRY = re.compile(r"(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)$", re.S)
_COMMENT = re.compile(r"(?:^|[ \t])#")


def _find_closing_quote(text):
    i = 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i
        else:
            i += 1
    return -1


def _check_tail(tail, line):
    tail = tail.strip(" \t")
    if tail and not tail.startswith("#"):
        raise EnvError(line, f"unexpected text after closing quote: {tail!r}")


def parse(text, environ=None):
    environ = {} if environ is None else environ
    values = {}

    def lookup(name):
        if name in values:
            return values[name]
        return environ.get(name)

    lines = [ln.rstrip("\r") if ln.endswith("\r") else ln for ln in text.split("\n")]
    idx = 0
    lineno = 0
    while idx < len(lines):
        lineno += 1
        start = lineno
        line = lines[idx].lstrip(" \t")
        idx += 1
        if line.strip(" \t") == "" or line.startswith("#"):
            continue
        m = _ENTRY.match(line)
        if not m:
            raise EnvError(start, "expected KEY=VALUE")
        key, rest = m.group(1), m.group(2)
        if rest.startswith("'"):
            close = rest.find("'", 1)
            if close == -1:
                raise EnvError(start, "unterminated single quote")
            _check_tail(rest[close + 1:], start)
            values[key] = rest[1:close]
        elif rest.startswith('"'):
            body = rest[1:]
            close = _find_closing_quote(body)
            while close == -1:
                if idx >= len(lines):
                    raise EnvError(start, "unterminated double quote")
                body += "\n" + lines[idx]
                idx += 1
                close = _find_closing_quote(body)
            _check_tail(body[close + 1:], start)
            values[key] = substitute(body[:close], lookup, start, escapes=True)
        else:
            cm = _COMMENT.search(rest)
            if cm:
                rest = rest[:cm.start()]
            values[key] = substitute(rest.rstrip(" \t"), lookup, start, escapes=False)
    return values


def load(path, environ=None):
    with open(path, encoding="utf-8", newline="") as f:
        return parse(f.read(), environ)
PY
cat > expand.py <<'PY'
"""Variable references and escapes inside values."""
import re

from .errors import EnvError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "$": "$"}


def substitute(text, lookup, line, escapes):
    """Expand $NAME / ${NAME} / ${NAME:-default}; with ``escapes`` also backslash escapes."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if escapes and ch == "\\" and pos + 1 < n:
            nxt = text[pos + 1]
            out.append(_ESCAPES[nxt] if nxt in _ESCAPES else ch + nxt)
            pos += 2
        elif ch == "$" and text.startswith("{", pos + 1):
            end = text.find("}", pos)
            if end == -1:
                raise EnvError(line, "unterminated ${")
            name, colon_dash, default = text[pos + 2:end].partition(":-")
            if not _NAME.fullmatch(name):
                raise EnvError(line, f"bad substitution ${{{text[pos + 2:end]}}}")
            value = lookup(name)
            if colon_dash and not value:
                value = default
            out.append(value or "")
            pos = end + 1
        elif ch == "$" and _NAME.match(text, pos + 1):
            m = _NAME.match(text, pos + 1)
            out.append(lookup(m.group()) or "")
            pos = m.end()
        else:
            out.append(ch)
            pos += 1
    return "".join(out)
PY
