"""Variable references and escapes inside values."""
import re

from .errors import EnvError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "$": "$"}


def unescape(text):
    """Backslash escapes of double-quoted values."""
    out = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\\" and pos + 1 < len(text):
            nxt = text[pos + 1]
            out.append(_ESCAPES[nxt] if nxt in _ESCAPES else ch + nxt)
            pos += 2
        else:
            out.append(ch)
            pos += 1
    return "".join(out)


def substitute(text, lookup, line):
    """Expand $NAME / ${NAME} / ${NAME:-default}."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch == "$" and text.startswith("{", pos + 1):
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
