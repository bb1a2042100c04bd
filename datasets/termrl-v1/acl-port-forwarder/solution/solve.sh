#!/bin/bash
set -euo pipefail
mkdir -p /app/portfw
cat > /app/portfw/portfw.py <<'PY'
"""TCP forwarder with first-match CIDR ACLs, per-source caps, PROXY v1 and a JSON connection log."""
import configparser
import ipaddress
import json
import os
import socket
import threading

CONFIG = os.environ.get("PORTFW_CONFIG", "/etc/portfw/portfw.ini")
LOG = os.environ.get("PORTFW_LOG", "/var/log/portfw/conn.log")
LOG_LOCK = threading.Lock()


def addr(text):
    host, port = text.strip().rsplit(":", 1)
    return host, int(port)


class Section:
    def __init__(self, name, conf):
        self.name = name
        self.listen = addr(conf["listen"])
        self.upstream = addr(conf["upstream"])
        self.rules = []
        for rule in conf.get("rules", "").split(","):
            if rule.strip():
                action, net = rule.split()
                self.rules.append((action, ipaddress.ip_network(net, strict=False)))
        self.max = int(conf.get("max_conn_per_ip", "1000000"))
        self.proxy = conf.get("proxy_protocol", "no").strip().lower() == "yes"
        self.open = {}
        self.lock = threading.Lock()

    def allowed(self, ip):
        a = ipaddress.ip_address(ip)
        for action, net in self.rules:
            if a in net:
                return action == "allow"
        return False


def log(entry):
    with LOG_LOCK:
        with open(LOG, "a") as f:
            f.write(json.dumps(entry) + "\n")


def pump(src, dst, counter, key):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
            counter[key] += len(data)
    except OSError:
        pass
    try:
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def serve(sec, client, peer):
    ip, port = peer[0], peer[1]
    entry = {"section": sec.name, "client": f"{ip}:{port}", "action": "allow", "bytes_up": 0, "bytes_down": 0}
    counted = False
    try:
        if not sec.allowed(ip):
            entry["action"] = "deny"
            return
        with sec.lock:
            if sec.open.get(ip, 0) >= sec.max:
                entry["action"] = "limit"
                return
            sec.open[ip] = sec.open.get(ip, 0) + 1
            counted = True
        try:
            up = socket.create_connection(sec.upstream, timeout=10)
            up.settimeout(None)
        except OSError:
            return
        with up:
            if sec.proxy:
                lip, lport = client.getsockname()[:2]
                up.sendall(f"PROXY TCP4 {ip} {lip} {port} {lport}\r\n".encode())
            t = threading.Thread(target=pump, args=(up, client, entry, "bytes_down"), daemon=True)
            t.start()
            pump(client, up, entry, "bytes_up")
            t.join()
    finally:
        client.close()
        if counted:
            with sec.lock:
                sec.open[ip] -= 1
        log(entry)


def listener(sec):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(sec.listen)
    s.listen(128)
    while True:
        client, peer = s.accept()
        threading.Thread(target=serve, args=(sec, client, peer), daemon=True).start()


def main():
    cp = configparser.ConfigParser(inline_comment_prefixes=None)
    cp.read(CONFIG)
    sections = [Section(name, cp[name]) for name in cp.sections()]
    os.makedirs(os.path.dirname(LOG) or ".", exist_ok=True)
    threads = [threading.Thread(target=listener, args=(s,), daemon=True) for s in sections]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


if __name__ == "__main__":
    main()
PY
cat > /app/portfw/run.sh <<'SH'
#!/bin/bash
exec python3 /app/portfw/portfw.py
SH
chmod +x /app/portfw/run.sh
