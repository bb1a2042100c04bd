"""Reference reader for the ENVFILE format (independent of /app/envload)."""
import re

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ESC = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "$": "$"}


class RefError(Exception):
    def __init__(self, line, msg):
        super().__init__(f"line {line}: {msg}")
        self.line = line


def _expand(body, dq, lookup, lineno):
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if dq and c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            out.append(ESC.get(n, "\\" + n))
            i += 2
            continue
        if c == "$":
            if body.startswith("{", i + 1):
                close = body.find("}", i + 2)
                if close < 0:
                    raise RefError(lineno, "unterminated ${")
                inner = body[i + 2:close]
                name, sep, default = inner.partition(":-")
                if not NAME.fullmatch(name):
                    raise RefError(lineno, "bad substitution")
                val = lookup(name)
                if sep and not val:
                    val = default
                out.append(val or "")
                i = close + 1
                continue
            m = NAME.match(body, i + 1)
            if m:
                out.append(lookup(m.group()) or "")
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


def parse(text, environ):
    lines = text.split("\n")
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    result = {}

    def lookup(name):
        if name in result:
            return result[name]
        return environ.get(name)

    i = 0
    while i < len(lines):
        lineno = i + 1
        s = lines[i].lstrip(" \t")
        i += 1
        if not s.strip(" \t") or s.startswith("#"):
            continue
        m = re.match(r"(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*", s)
        if not m:
            raise RefError(lineno, "expected KEY=VALUE")
        key, rest = m.group(1), s[m.end():]
        if rest.startswith("'"):
            end = rest.find("'", 1)
            if end < 0:
                raise RefError(lineno, "unterminated single quote")
            val, tail = rest[1:end], rest[end + 1:]
        elif rest.startswith('"'):
            buf = rest[1:]
            while True:
                j = 0
                end = -1
                while j < len(buf):
                    if buf[j] == "\\":
                        j += 2
                        continue
                    if buf[j] == '"':
                        end = j
                        break
                    j += 1
                if end >= 0:
                    break
                if i >= len(lines):
                    raise RefError(lineno, "unterminated double quote")
                buf += "\n" + lines[i]
                i += 1
            val, tail = _expand(buf[:end], True, lookup, lineno), buf[end + 1:]
        else:
            cm = re.search(r"(^|[ \t])#", rest)
            raw = rest[:cm.start()] if cm else rest
            val, tail = _expand(raw.rstrip(" \t"), False, lookup, lineno), ""
        t = tail.lstrip(" \t")
        if t and not t.startswith("#"):
            raise RefError(lineno, "unexpected text after closing quote")
        result[key] = val
    return result
