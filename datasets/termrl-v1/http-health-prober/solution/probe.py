import concurrent.futures
import http.client
import json
import socket
import sys
import time
import urllib.parse


def attempt(url, timeout, expect, contains):
    u = urllib.parse.urlsplit(url)
    deadline = time.monotonic() + timeout
    path = (u.path or "/") + (("?" + u.query) if u.query else "")
    try:
        conn = http.client.HTTPConnection(u.hostname, u.port or 80, timeout=timeout)
        conn.connect()
    except socket.timeout:
        return None, "timeout"
    except OSError:
        return None, "connection"
    try:
        conn.request("GET", path, headers={"Connection": "close"})
        conn.sock.settimeout(max(0.01, deadline - time.monotonic()))
        resp = conn.getresponse()
        body = b""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            conn.sock.settimeout(left) if conn.sock else None
            chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(65536)
            if not chunk:
                break
            body += chunk
        status = resp.status
    except socket.timeout:
        return None, "timeout"
    except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine):
        return None, "connection"
    finally:
        conn.close()
    if time.monotonic() > deadline:
        return None, "timeout"
    if status != expect:
        return status, "status"
    if contains is not None and contains not in body.decode("utf-8", "replace"):
        return status, "body"
    return status, None


def run_check(c):
    tries = 1 + int(c.get("retries", 0))
    n = 0
    for _ in range(tries):
        n += 1
        status, err = attempt(c["url"], float(c.get("timeout", 2.0)), int(c.get("expect_status", 200)), c.get("body_contains"))
        if err is None:
            break
    return {"name": c["name"], "ok": err is None, "status": status, "error": err, "attempts": n}


def main(cfg, out):
    checks = json.load(open(cfg))["checks"]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(checks))) as ex:
        results = list(ex.map(run_check, checks))
    ok = sum(r["ok"] for r in results)
    json.dump({"results": results, "summary": {"ok": ok, "failed": len(results) - ok}}, open(out, "w"), indent=2)
    return 0 if ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
