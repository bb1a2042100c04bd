#!/bin/bash
# Reference: decode the file, join soft breaks / unfold, parse content lines, decode QP, unescape, normalise.
set -euo pipefail
cat > /app/vcards.py <<'PY'
#!/usr/bin/env python3
"""vcards.py FILE.vcf... -> JSON array of contacts on stdout."""
import json
import quopri
import re
import sys


def decode_file(data):
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    return data.decode("utf-8")


def split_outside_quotes(s, sep, maxsplit=-1):
    parts, cur, quoted = [], [], False
    for ch in s:
        if ch == '"':
            quoted = not quoted
        if ch == sep and not quoted and maxsplit != 0:
            parts.append("".join(cur))
            cur = []
            maxsplit -= 1
            continue
        cur.append(ch)
    parts.append("".join(cur))
    return parts


def is_qp(logical):
    head = split_outside_quotes(logical, ":", 1)[0]
    return "QUOTED-PRINTABLE" in head.upper()


def logical_lines(text):
    out = []
    for line in re.split(r"\r\n|\r|\n", text):
        if out and is_qp(out[-1]) and out[-1].endswith("=") and ":" in out[-1]:
            out[-1] = out[-1][:-1] + line          # quoted-printable soft break: next line verbatim
        elif out and line[:1] in (" ", "\t"):
            out[-1] += line[1:]                    # folded line
        else:
            out.append(line)
    return [l for l in out if l.strip()]


def parse_line(line):
    hv = split_outside_quotes(line, ":", 1)
    head, value = hv[0], (hv[1] if len(hv) > 1 else "")
    parts = split_outside_quotes(head, ";")
    name = parts[0].rsplit(".", 1)[-1].strip().upper()
    params = {}
    for p in parts[1:]:
        k, eq, v = p.partition("=")
        if not eq:   # vCard 2.1 bare parameter
            k, v = ("ENCODING" if k.strip().upper() in ("QUOTED-PRINTABLE", "BASE64", "8BIT") else "TYPE"), k
        k = k.strip().upper()
        for item in v.strip().strip('"').split(","):
            params.setdefault(k, []).append(item.strip())
    if any(x.upper() == "QUOTED-PRINTABLE" for x in params.get("ENCODING", [])):
        charset = (params.get("CHARSET") or ["UTF-8"])[0]
        value = quopri.decodestring(value.encode("ascii")).decode(charset)
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return name, params, value


ESC = {"\\": "\\", ",": ",", ";": ";", "n": "\n", "N": "\n"}


def components(value):
    """Split on unescaped ';' and unescape each component."""
    comps, cur, i = [], [], 0
    while i < len(value):
        ch = value[i]
        if ch == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            cur.append(ESC.get(nxt, "\\" + nxt))
            i += 2
            continue
        if ch == ";":
            comps.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    comps.append("".join(cur))
    return comps


def unescape(value):
    out, i = [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            out.append(ESC.get(value[i + 1], value[i:i + 2]))
            i += 2
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def birthday(v):
    v = v.strip()
    if re.fullmatch(r"\d{8}", v):
        return f"{v[:4]}-{v[4:6]}-{v[6:]}"
    if re.fullmatch(r"--\d{4}", v):
        return f"--{v[2:4]}-{v[4:]}"
    return v


def contact(props):
    c = {"name": "", "given": "", "family": "", "org": "", "emails": [], "phones": [], "note": "", "birthday": ""}
    fn = None
    seen_mail = set()
    done = set()
    for name, params, value in props:
        if name == "N" and name not in done:
            comps = components(value) + ["", ""]
            c["family"], c["given"] = comps[0].strip(), comps[1].strip()
        elif name == "FN" and name not in done:
            fn = unescape(value).strip()
        elif name == "ORG" and name not in done:
            c["org"] = components(value)[0].strip()
        elif name == "NOTE" and name not in done:
            c["note"] = unescape(value)
        elif name == "BDAY" and name not in done:
            c["birthday"] = birthday(value)
        elif name == "EMAIL":
            e = unescape(value).strip()
            if e and e.lower() not in seen_mail:
                seen_mail.add(e.lower())
                c["emails"].append(e)
        elif name == "TEL":
            v = unescape(value).strip()
            if v.lower().startswith("tel:"):
                v = v[4:].strip()
            number = ("+" if v.startswith("+") else "") + "".join(ch for ch in v if ch.isdigit())
            types = sorted({t.lower() for t in params.get("TYPE", []) if t and t.lower() != "pref"})
            c["phones"].append({"number": number, "types": types})
        done.add(name)
    c["name"] = fn or " ".join(x for x in (c["given"], c["family"]) if x)
    return c


def main(paths):
    out = []
    for path in paths:
        with open(path, "rb") as f:
            text = decode_file(f.read())
        props = None
        for line in logical_lines(text):
            name, params, value = parse_line(line)
            if name == "BEGIN" and value.strip().upper() == "VCARD":
                props = []
            elif name == "END" and value.strip().upper() == "VCARD":
                if props is not None:
                    out.append(contact(props))
                props = None
            elif props is not None:
                props.append((name, params, value))
    sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
PY
chmod +x /app/vcards.py
