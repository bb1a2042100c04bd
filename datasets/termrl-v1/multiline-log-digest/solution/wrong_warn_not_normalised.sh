#!/bin/bash
set -euo pipefail
cat > /app/logdigest.py <<'PY'
import re

HEAD = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{3}) \[(DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL)\] ([\w.]+) - (.*)$")
EXC = re.compile(r"^(?:Caused by: )?([A-Za-z_][\w.$]*(?:Error|Exception))(?::.*)?$")


def digest(text):
    entries = []
    for line in text.split("\n"):
        m = HEAD.match(line)
        if m:
            entries.append({"ts": m.group(1), "level": m.group(2),
                            "logger": m.group(3), "cont": []})
        elif entries:
            entries[-1]["cont"].append(line)
    by_level, exc, per = {}, {}, {}
    for e in entries:
        by_level[e["level"]] = by_level.get(e["level"], 0) + 1
        p = per.setdefault(e["logger"], [0, 0])
        p[0] += 1
        p[1] += e["level"] in ("ERROR", "CRITICAL")
        typ = None
        for c in e["cont"]:
            m = EXC.match(c.strip())
            if m:
                typ = m.group(1)
        if typ:
            x = exc.setdefault(typ, {"type": typ, "count": 0, "first_seen": e["ts"], "loggers": set()})
            x["count"] += 1
            x["loggers"].add(e["logger"])
    excs = sorted(exc.values(), key=lambda x: (-x["count"], x["type"]))
    for x in excs:
        x["loggers"] = sorted(x["loggers"])
    return {"entries": len(entries), "by_level": by_level, "exceptions": excs,
            "error_rate_per_logger": {k: round(v[1] / v[0], 4) for k, v in per.items()}}


if __name__ == "__main__":
    import json
    import sys
    with open(sys.argv[1], encoding="utf-8") as f:
        res = digest(f.read())
    with open(sys.argv[2], "w") as f:
        json.dump(res, f, indent=2)
PY
