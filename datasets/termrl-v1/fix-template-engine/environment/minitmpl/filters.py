def _escape(s):
    return (s.replace("<", "&lt;").replace(">", "&gt;").replace("&", "&amp;")
             .replace('"', "&quot;").replace("'", "&#39;"))


FILTERS = {
    "upper": lambda v: str(v).upper(),
    "lower": lambda v: str(v).lower(),
    "trim": lambda v: str(v).strip(),
    "length": lambda v: len(v),
    "default": lambda v: v or "-",
    "join": lambda v: ", ".join(str(x) for x in v),
    "safe": lambda v: v,
}


def escape(value):
    return _escape("" if value is None else str(value))
