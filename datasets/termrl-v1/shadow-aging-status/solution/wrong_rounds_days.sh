#!/bin/bash
# Wrong: works in seconds-rounded days (rounds AT to the nearest day).
set -e
cat > /app/agingstatus <<'PY'
#!/usr/bin/env python3
import json
import sys
from datetime import datetime, timezone

at = datetime.strptime(sys.argv[2], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
D = round(at.timestamp() / 86400)
out = []
for line in open(sys.argv[1], encoding="utf-8"):
    f = line.rstrip("\n").split(":")
    if len(f) < 8 or not f[0]:
        continue
    name, pw, last, mn, mx, warn, inact, expire = f[:8]
    status, left = "ok", None
    if last == "0":
        status = "must-change"
    elif last == "" or mx == "":
        status = "no-aging"
    else:
        X = int(last) + int(mx)
        if D >= X:
            status = "inactive" if inact != "" and D >= X + int(inact) else "expired"
        elif warn != "" and D >= X - int(warn):
            status, left = "warning", X - D
    can = not (last not in ("", "0") and mn not in ("", "0") and D < int(last) + int(mn))
    out.append({"user": name, "account_expired": expire != "" and D >= int(expire), "password": status,
                "days_left": left, "can_change": can, "locked": pw.startswith(("!", "*"))})
out.sort(key=lambda x: x["user"])
json.dump(out, sys.stdout, indent=1)
print()
PY
chmod +x /app/agingstatus
