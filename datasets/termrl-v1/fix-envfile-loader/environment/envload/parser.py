"""Line reader for ENVFILE."""
import re

from .errors import EnvError
from .expand import substitute, unescape

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
        if name in environ:
            return environ[name]
        return values.get(name)

    lines = [ln.rstrip("\r") if ln.endswith("\r") else ln for ln in text.split("\n")]
    idx = 0
    lineno = 0
    while idx < len(lines):
        start = lineno + 1
        line = lines[idx].lstrip(" \t")
        idx += 1
        lineno += 1
        hash_at = line.find(" #")
        if hash_at != -1:  # drop trailing comments
            line = line[:hash_at]
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
            values[key] = unescape(substitute(body[:close], lookup, start))
        else:
            cm = _COMMENT.search(rest)
            if cm:
                rest = rest[:cm.start()]
            values[key] = substitute(rest.rstrip(" \t"), lookup, start)
    return values


def load(path, environ=None):
    with open(path, encoding="utf-8", newline="") as f:
        return parse(f.read(), environ)
