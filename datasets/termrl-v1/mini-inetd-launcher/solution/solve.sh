#!/bin/bash
set -euo pipefail
mkdir -p /app/inetd
cat > /app/inetd/inetd.py <<'PY'
"""inetd-lite: one process per connection, stdin/stdout on the socket, per-service instance caps."""
import os
import socket
import subprocess
import threading

CONF = os.environ.get("INETD_CONF", "/etc/inetd-lite.conf")
LOCK = threading.Lock()


def services():
    out = []
    for line in open(CONF, encoding="utf-8"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        port, maxconn, *argv = line.split()
        out.append((int(port), int(maxconn), argv))
    return out


def reap(proc, counter):
    proc.wait()
    with LOCK:
        counter[0] -= 1


def serve(port, maxconn, argv):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(64)
    running = [0]
    while True:
        conn, (ip, cport) = s.accept()
        with conn:
            with LOCK:
                if running[0] >= maxconn:
                    continue
                running[0] += 1
            env = dict(os.environ, REMOTE_ADDR=ip, REMOTE_PORT=str(cport), SERVICE_PORT=str(port))
            try:
                proc = subprocess.Popen(argv, stdin=conn.fileno(), stdout=conn.fileno(), stderr=subprocess.DEVNULL,
                                        env=env, close_fds=True)
            except OSError:
                with LOCK:
                    running[0] -= 1
                continue
        threading.Thread(target=reap, args=(proc, running), daemon=True).start()


def main():
    threads = [threading.Thread(target=serve, args=svc, daemon=True) for svc in services()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


main()
PY
cat > /app/inetd/run.sh <<'SH'
#!/bin/bash
exec python3 /app/inetd/inetd.py
SH
chmod +x /app/inetd/run.sh
