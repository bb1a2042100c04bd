#!/bin/bash
# Mistake: uses urllib.request, which silently follows redirects (and probes sequentially).
set -euo pipefail
cat > /app/probe.py <<'PY'
import json, socket, sys, urllib.request, urllib.error


def attempt(c):
    try:
        with urllib.request.urlopen(c["url"], timeout=float(c.get("timeout", 2.0))) as r:
            status, body = r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        status, body = e.code, e.read().decode("utf-8", "replace")
    except (socket.timeout, TimeoutError):
        return None, "timeout"
    except urllib.error.URLError as e:
        return None, "timeout" if isinstance(e.reason, (socket.timeout, TimeoutError)) else "connection"
    except ConnectionError:
        return None, "connection"
    if status != int(c.get("expect_status", 200)):
        return status, "status"
    if c.get("body_contains") is not None and c["body_contains"] not in body:
        return status, "body"
    return status, None


res = []
for c in json.load(open(sys.argv[1]))["checks"]:
    n = 0
    for _ in range(1 + int(c.get("retries", 0))):
        n += 1
        st, err = attempt(c)
        if err is None:
            break
    res.append({"name": c["name"], "ok": err is None, "status": st, "error": err, "attempts": n})
ok = sum(r["ok"] for r in res)
json.dump({"results": res, "summary": {"ok": ok, "failed": len(res) - ok}}, open(sys.argv[2], "w"))
sys.exit(0 if ok == len(res) else 1)
PY
