#!/bin/bash
# Wrong: reads the export as text lines (binary fields are not length-aware).
set -e
cat > /app/sudojournal <<'PY'
#!/usr/bin/env python3
import json
import re
import struct
import sys
from datetime import datetime, timezone


def entries(data):
    cur = {}
    for line in data.decode("utf-8", "replace").split("\n"):
        if not line:
            if cur:
                yield cur
            cur = {}
            continue
        if "=" in line:
            k, v = line.split("=", 1)
            cur.setdefault(k, v)
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
                    "runas": m.group(7), "tty": m.group(5), "pwd": m.group(6), "command": msg[m.end():],
                    "result": "denied" if reason else "ok", "reason": reason})
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()


main(sys.argv[1])
PY
chmod +x /app/sudojournal
