#!/usr/bin/env python3
"""Migrate mailrelay 1.x INI configuration to the 2.x TOML layout."""
import re
import sys


class Bad(Exception):
    pass


def parse_ini(text):
    sections, cur, last_key = {}, None, None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in ";#":
            last_key = None
            continue
        if raw[:1] in (" ", "\t") and last_key is not None and cur is not None:
            cur[last_key] = cur[last_key] + " " + line
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower()
            cur = sections.setdefault(name, {})
            last_key = None
            continue
        pos = [p for p in (line.find("="), line.find(":")) if p >= 0]
        if not pos or cur is None:
            last_key = None
            continue
        p = min(pos)
        key, val = line[:p].strip().lower(), line[p + 1:].strip()
        if val.startswith('"'):
            end = val.find('"', 1)
            val = val[1:end] if end >= 0 else val[1:]
        else:
            m = re.search(r"(?:^|[ \t])[;#]", val)
            if m:
                val = val[:m.start()]
            val = val.strip()
        cur.pop(key, None)
        cur[key] = val
        last_key = key
    return sections


def whole(v, where):
    if not re.fullmatch(r"[0-9]+", v):
        raise Bad(f"error: {where}: not a whole number {v}")
    return int(v)


def size(v, where):
    m = re.fullmatch(r"([0-9]+)([kKmMgG]?)", v)
    if not m:
        raise Bad(f"error: {where}: bad size {v}")
    return int(m.group(1)) * 1024 ** " kmg".index((m.group(2) or " ").lower())


def duration(v, where):
    if re.fullmatch(r"[0-9]+", v):
        return int(v)
    m = re.fullmatch(r"(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?", v)
    if not v or not m:
        raise Bad(f"error: {where}: bad duration {v}")
    d, h, mi, s = (int(x or 0) for x in m.groups())
    return ((d * 24 + h) * 60 + mi) * 60 + s


def boolean(v, where):
    t = v.lower()
    if t in ("yes", "true", "on", "1"):
        return True
    if t in ("no", "false", "off", "0"):
        return False
    raise Bad(f"error: {where}: bad boolean {v}")


def listen(v, where):
    m = re.fullmatch(r"\[([^\]]+)\]:([0-9]+)", v) or re.fullmatch(r"([^:\[\]]+):([0-9]+)", v)
    if not m:
        raise Bad(f"error: {where}: bad listen address {v}")
    return m.group(1), int(m.group(2))


def clist(v):
    return [x.strip() for x in v.split(",") if x.strip()]


def convert(sections):
    out, legacy, relays = {}, {}, []
    for sec, kv in sections.items():
        if sec == "server":
            for k, v in kv.items():
                w = f"server.{k}"
                if k == "listen":
                    h, p = listen(v, w)
                    out.setdefault("server", {}).update(host=h, port=p)
                elif k == "hostname":
                    out.setdefault("server", {})["hostname"] = v
                elif k == "allowed_networks":
                    out.setdefault("server", {})["allowed_networks"] = clist(v)
                elif k == "max_size":
                    out.setdefault("limits", {})["max_message_bytes"] = size(v, w)
                elif k == "timeout":
                    out.setdefault("limits", {})["timeout_seconds"] = duration(v, w)
                elif k == "tls":
                    out.setdefault("tls", {})["enabled"] = boolean(v, w)
                elif k in ("tls_cert", "tls_key"):
                    out.setdefault("tls", {})[k[4:]] = v
                else:
                    legacy.setdefault(sec, {})[k] = v
        elif sec.startswith("relay:"):
            r = {"name": sec[6:].strip(), "port": 25, "priority": 100, "domains": []}
            for k, v in kv.items():
                w = f"{sec}.{k}"
                if k == "host":
                    r["host"] = v
                elif k in ("port", "priority"):
                    r[k] = whole(v, w)
                elif k == "domains":
                    r["domains"] = clist(v)
                elif k not in ("user", "password"):
                    legacy.setdefault(sec, {})[k] = v
            if "user" in kv:
                r["auth"] = {"user": kv["user"], "password": kv.get("password", "")}
            elif "password" in kv:
                legacy.setdefault(sec, {})["password"] = kv["password"]
            relays.append(r)
        else:
            for k, v in kv.items():
                legacy.setdefault(sec, {})[k] = v
    if relays:
        out["relays"] = sorted(relays, key=lambda r: (r["priority"], r["name"]))
    if legacy:
        out["legacy"] = legacy
    return out


def tstr(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def tval(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return tstr(v)
    if isinstance(v, list):
        return "[" + ", ".join(tval(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{tstr(k)} = {tval(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def dump(data):
    lines = []
    for top, val in data.items():
        if top == "relays":
            for r in val:
                lines.append("[[relays]]")
                lines += [f"{tstr(k)} = {tval(x)}" for k, x in r.items()]
                lines.append("")
        elif top == "legacy":
            for sec, kv in val.items():
                lines.append(f"[legacy.{tstr(sec)}]")
                lines += [f"{tstr(k)} = {tval(x)}" for k, x in kv.items()]
                lines.append("")
        else:
            lines.append(f"[{top}]")
            lines += [f"{tstr(k)} = {tval(x)}" for k, x in val.items()]
            lines.append("")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3:
        print("usage: migrate-conf OLD.ini NEW.toml", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        sections = parse_ini(f.read())
    try:
        data = convert(sections)
    except Bad as e:
        print(e, file=sys.stderr)
        return 1
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(dump(data))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
