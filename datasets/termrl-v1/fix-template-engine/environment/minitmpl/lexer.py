import re

from .errors import TemplateError

TOKEN_RE = re.compile(r"({{-?.*?-?}}|{%-?.*?-?%}|{#.*#})", re.S)


def tokenize(src):
    """Yield ('text', s) / ('var', inner) / ('tag', inner) tokens, applying whitespace control."""
    parts = TOKEN_RE.split(src)
    tokens = []
    strip_next = False
    for i, part in enumerate(parts):
        if i % 2 == 0:
            if strip_next:
                part = part.lstrip()
            tokens.append(["text", part])
            strip_next = False
            continue
        if part.startswith("{#"):
            continue
        kind = "var" if part.startswith("{{") else "tag"
        inner = part[2:-2]
        if inner.startswith("-"):
            inner = inner[1:]
            if tokens and tokens[-1][0] == "text":
                tokens[-1][1] = tokens[-1][1].rstrip()
        if inner.endswith("-"):
            inner = inner[:-1]
            strip_next = True
        tokens.append([kind, inner.strip()])
    return [tuple(t) for t in tokens if not (t[0] == "text" and t[1] == "")]
