#!/bin/bash
# Wrong: splits the message on ' ; ' and takes the COMMAND item, cutting commands that contain ' ; '.
set -e
cat > /app/sudojournal <<'PY'
#!/usr/bin/env python3
import json
import re
import struct
import sys
from datetime import datetime, timezone


def entries(data):
    i, cur = 0, {}
    while i < len(data):
        if data[i:i + 1] == b"\n":
            if cur:
                yield cur
            cur = {}
            i += 1
            continue
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if b"=" in line:
            k, v = line.split(b"=", 1)
            cur[k.decode()] = v.decode("utf-8", "replace")
            i = nl + 1
        else:
            n = struct.unpack_from("<Q", data, nl + 1)[0]
            v = data[nl + 9:nl + 9 + n]
            cur[line.decode()] = v.decode("utf-8", "replace")
            i = nl + 9 + n + 1
    if cur:
        yield cur


HEAD = re.compile(r"^(\S+) : (?:(\d+) incorrect password attempts? ; |(user NOT in sudoers) ; |(command not allowed) ; )?"
                  r"TTY=(.*?) ; PWD=(.*?) ; USER=(.*?) ; COMMAND=", re.S)


def main(p):
    out = []
    for e in entries(open(p, "rb").read()):
        if e.get("SYSLOG_IDENTIFIER") != "sudo":
            continue
        msg = e.get("MESSAGE", "")
        m = HEAD.match(msg)
        if not m:
            continue
        reason = "incorrect password" if m.group(2) else "not in sudoers" if m.group(3) else \
            "command not allowed" if m.group(4) else None
        us = int(e["__REALTIME_TIMESTAMP"])
        out.append({"time": datetime.fromtimestamp(us // 1000000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
                    + ".%06dZ" % (us % 1000000), "host": e.get("_HOSTNAME"), "user": m.group(1),
                    "runas": m.group(7), "tty": m.group(5), "pwd": m.group(6), "command": msg[m.end():].split(" ; ")[0],
                    "result": "denied" if reason else "ok", "reason": reason})
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1])
PY
chmod +x /app/sudojournal
