from .errors import ToyError

KEYWORDS = {"let", "fn", "return", "if", "else", "while", "print", "true", "false", "nil"}
TWO = {"==", "!=", "<=", ">=", "&&", "||"}
ONE = set("+-*/%<>=!(){},;")
ESCAPES = {"n": "\n", "t": "\t", '"': '"'}


def tokenize(src):
    toks = []
    i, n, line = 0, len(src), 1
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "#":
            while i < n and src[i] != "\n":
                i += 1
        elif c.isdigit():
            j = i
            while j < n and src[j].isdigit():
                j += 1
            toks.append(("int", int(src[i:j]), line))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[i:j]
            toks.append(("kw" if word in KEYWORDS else "name", word, line))
            i = j
        elif c == '"':
            i += 1
            buf = []
            while True:
                if i >= n:
                    raise ToyError(f"line {line}: unterminated string")
                ch = src[i]
                if ch == '"':
                    i += 1
                    break
                if ch == "\\":
                    nxt = src[i + 1] if i + 1 < n else ""
                    if nxt not in ESCAPES:
                        raise ToyError(f"line {line}: bad escape")
                    buf.append(ESCAPES[nxt])
                    i += 2
                    continue
                buf.append(ch)
                i += 1
            toks.append(("str", "".join(buf), line))
        elif src[i:i + 2] in TWO:
            toks.append(("op", src[i:i + 2], line))
            i += 2
        elif c in ONE:
            toks.append(("op", c, line))
            i += 1
        else:
            raise ToyError(f"line {line}: unexpected character {c!r}")
    toks.append(("eof", None, line))
    return toks
