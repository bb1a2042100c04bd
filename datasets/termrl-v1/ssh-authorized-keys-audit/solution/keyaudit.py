#!/usr/bin/env python3
"""Audit every authorized_keys file of a root file system copy."""
import base64
import binascii
import calendar
import hashlib
import json
import os
import re
import struct
import sys

TYPES = {"ssh-rsa", "ssh-dss", "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"}
CURVE_BITS = {"nistp256": 256, "nistp384": 384, "nistp521": 521}


class Bad(Exception):
    pass


def split_options(line):
    """Return (options list, rest) for a line that starts with options."""
    opts, cur, i, quoted = [], "", 0, False
    while i < len(line):
        c = line[i]
        if quoted:
            if c == "\\" and i + 1 < len(line) and line[i + 1] == '"':
                cur += '"'
                i += 2
                continue
            if c == '"':
                quoted = False
            else:
                cur += c
        elif c == '"':
            quoted = True
        elif c == ",":
            opts.append(cur)
            cur = ""
        elif c in " \t":
            break
        else:
            cur += c
        i += 1
    if quoted:
        raise Bad("unterminated quote")
    opts.append(cur)
    return opts, line[i:].strip()


def read_string(buf, pos):
    if pos + 4 > len(buf):
        raise Bad("short")
    n, = struct.unpack_from(">I", buf, pos)
    if pos + 4 + n > len(buf):
        raise Bad("short")
    return buf[pos + 4:pos + 4 + n], pos + 4 + n


def key_bits(ktype, blob):
    name, pos = read_string(blob, 0)
    if name.decode("latin-1") != ktype:
        raise Bad("type mismatch")
    fields = []
    while pos < len(blob):
        f, pos = read_string(blob, pos)
        fields.append(f)
    if ktype == "ssh-rsa":
        if len(fields) != 2:
            raise Bad("rsa")
        return int.from_bytes(fields[1], "big").bit_length()
    if ktype == "ssh-dss":
        if len(fields) != 4:
            raise Bad("dss")
        return int.from_bytes(fields[0], "big").bit_length()
    if ktype == "ssh-ed25519":
        if len(fields) != 1 or len(fields[0]) != 32:
            raise Bad("ed25519")
        return 256
    curve = ktype.split("-")[-1]
    if len(fields) != 2 or fields[0].decode("latin-1") != curve:
        raise Bad("ecdsa")
    return CURVE_BITS[curve]


def parse_line(line):
    first = line.split(None, 1)[0]
    opts = []
    rest = line
    if first not in TYPES:
        opts, rest = split_options(line)
    parts = rest.split()
    if len(parts) < 2 or parts[0] not in TYPES:
        raise Bad("no key")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise Bad("base64")
    bits = key_bits(parts[0], blob)
    options = {}
    for o in opts:
        if not o:
            continue
        name, _, value = o.partition("=")
        options[name.lower()] = value
    return parts[0], bits, blob, options


def expiry(value):
    if not re.fullmatch(r"\d{8}(\d{4}(\d{2})?)?", value):
        raise Bad("expiry")
    v = value.ljust(14, "0")
    return calendar.timegm((int(v[0:4]), int(v[4:6]), int(v[6:8]), int(v[8:10]), int(v[10:12]), int(v[12:14])))


def main(argv):
    root = argv[0]
    now = int(argv[argv.index("--now") + 1])
    revoked = set()
    try:
        for line in open(os.path.join(root, "etc/ssh/revoked_keys")):
            line = line.split("#", 1)[0].strip()
            if line:
                revoked.add(line)
    except FileNotFoundError:
        pass
    files = []
    if os.path.isfile(os.path.join(root, "root/.ssh/authorized_keys")):
        files.append(("root", os.path.join(root, "root/.ssh/authorized_keys")))
    home = os.path.join(root, "home")
    if os.path.isdir(home):
        for user in os.listdir(home):
            p = os.path.join(home, user, ".ssh/authorized_keys")
            if os.path.isfile(p):
                files.append((user, p))
    entries = []
    for user, path in files:
        for no, line in enumerate(open(path, encoding="utf-8", errors="replace").read().split("\n"), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            e = {"user": user, "line": no, "type": None, "bits": None, "fingerprint": None, "findings": []}
            try:
                ktype, bits, blob, options = parse_line(line)
                exp = expiry(options["expiry-time"]) if "expiry-time" in options else None
            except Bad:
                e["findings"] = ["malformed"]
                entries.append(e)
                continue
            fp = "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
            e.update(type=ktype, bits=bits, fingerprint=fp)
            f = []
            if ktype == "ssh-dss":
                f.append("dsa")
            if ktype == "ssh-rsa" and bits < 3072:
                f.append("weak-rsa")
            if fp in revoked:
                f.append("revoked")
            if exp is not None and exp <= now:
                f.append("expired")
            if user == "root" and not ({"from", "command", "restrict"} & set(options)):
                f.append("root-unrestricted")
            e["findings"] = f
            entries.append(e)
    owners = {}
    for e in entries:
        if e["fingerprint"]:
            owners.setdefault(e["fingerprint"], set()).add(e["user"])
    for e in entries:
        if e["fingerprint"] and len(owners[e["fingerprint"]]) > 1:
            e["findings"].append("shared")
        e["findings"].sort()
    entries.sort(key=lambda e: (e["user"], e["line"]))
    print(json.dumps(entries, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
