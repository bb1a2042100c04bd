"""http-service: configure a tiny HTTP service and write the script that starts it.

The server (``/app/server.py``, shipped) reads a JSON config; the agent writes the config to a
generated spec and ``/app/start.sh``, which the hidden tests run and then query on loopback.
Level 2 adds a token and static files; level 3 a pid file, an access log and a re-runnable start.
"""

from __future__ import annotations

import json
import random

from termrl.tasks.generators._common import WORDS, Family, Instance, bullet_list, render

SERVER = '''"""A tiny status service. Usage: python3 server.py --config FILE.json

Config keys: name, port, greeting (required); bind (default 127.0.0.1), token, static_dir,
pidfile, access_log (optional). With a token, every path but /health needs the header
X-Api-Token. Routes: /health, /greeting, /files/<name> (from static_dir).
"""
import argparse
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Handler(BaseHTTPRequestHandler):
    def _send(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        cfg = self.server.cfg
        if self.path == "/health":
            return self._send(200, {"status": "ok", "service": cfg["name"]})
        if cfg.get("token") and self.headers.get("X-Api-Token") != cfg["token"]:
            return self._send(401, {"error": "unauthorized"})
        if self.path == "/greeting":
            return self._send(200, {"message": cfg["greeting"]})
        if self.path.startswith("/files/") and cfg.get("static_dir"):
            name = self.path[len("/files/"):]
            target = Path(cfg["static_dir"], name)
            if name and "/" not in name and target.is_file():
                return self._send(200, target.read_bytes(), "text/plain")
        return self._send(404, {"error": "not found"})

    def log_message(self, fmt, *args):
        if self.server.cfg.get("access_log"):
            with open(self.server.cfg["access_log"], "a") as fh:
                fh.write("%s %s\\n" % (self.address_string(), fmt % args))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default=None)
    args = parser.parse_args()
    cfg = {"name": "unnamed", "port": 8000, "greeting": "hello"}
    if args.config:
        cfg.update(json.loads(Path(args.config).read_text()))
    server = ThreadingHTTPServer((cfg.get("bind", "127.0.0.1"), int(cfg["port"])), Handler)
    server.cfg = cfg
    if cfg.get("pidfile"):
        Path(cfg["pidfile"]).write_text(f"{os.getpid()}\\n")
    server.serve_forever()


if __name__ == "__main__":
    main()
'''

TESTS = """
import json
import os
import subprocess
import time
import urllib.error
import urllib.request

import pytest

PORT = @@PORT@@
NAME = @@NAME@@
GREETING = @@GREETING@@
TOKEN = @@TOKEN@@
FILES = @@FILES@@
PIDFILE = @@PIDFILE@@
ACCESS_LOG = @@ACCESS_LOG@@


def get(path, token=TOKEN):
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}")
    if token:
        request.add_header("X-Api-Token", token)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def start():
    result = subprocess.run(["bash", "/app/start.sh"], cwd="/", stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
    assert result.returncode == 0, "start.sh failed"


def listening_ports():
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        ports.update(int(r.split()[1].rsplit(":", 1)[1], 16) for r in rows if r.split()[3] == "0A")
    return ports


@pytest.fixture(scope="module")
def service():
    start()
    began = time.monotonic()
    while time.monotonic() < began + 10:
        try:
            if get("/health")[0] == 200:
                return
        except OSError:
            pass
        # Fail fast when a server is up but on another port (no need to wait out the deadline).
        if time.monotonic() > began + 1 and listening_ports() and PORT not in listening_ports():
            break
        time.sleep(0.1)
    pytest.fail(f"nothing answers /health on 127.0.0.1:{PORT} after start.sh (listening: {listening_ports()})")


def test_health(service):
    status, body = get("/health")
    assert status == 200 and json.loads(body) == {"status": "ok", "service": NAME}


def test_greeting(service):
    status, body = get("/greeting")
    assert status == 200 and json.loads(body) == {"message": GREETING}


def test_unknown_path_is_404(service):
    assert get("/nope")[0] == 404


def test_config_file():
    config = json.loads(open("/app/service.json").read())
    assert config["port"] == PORT and config["name"] == NAME
"""

LEVEL2_TESTS = """

def test_token_required(service):
    assert get("/greeting", token=None)[0] == 401
    assert get("/greeting", token=TOKEN + "x")[0] == 401


@pytest.mark.parametrize("name", sorted(FILES))
def test_static_file(service, name):
    assert get(f"/files/{name}") == (200, FILES[name].encode())
"""

LEVEL3_TESTS = """

def test_pidfile_names_the_server(service):
    pid = int(open(PIDFILE).read().strip())
    cmdline = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\\0", b" ")
    assert b"server.py" in cmdline


def test_access_log(service):
    get("/health")
    time.sleep(0.2)
    assert "/health" in open(ACCESS_LOG).read()


def test_second_start_keeps_one_server(service):
    pid = open(PIDFILE).read().strip()
    start()
    time.sleep(0.5)
    assert open(PIDFILE).read().strip() == pid
    assert get("/health")[0] == 200
    servers = [p for p in os.listdir("/proc") if p.isdigit() and b"server.py" in _cmdline(p)]
    assert len(servers) == 1, servers


def _cmdline(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read()
    except OSError:
        return b""
"""

START = """#!/bin/bash
# Starts the service in the background and returns at once.
mkdir -p /app/run /app/logs
if [ -f PIDFILE ] && kill -0 "$(cat PIDFILE)" 2>/dev/null; then
  exit 0
fi
nohup python3 /app/server.py CONFIG_ARG >/dev/null 2>&1 &
"""


def make(rng: random.Random, difficulty: int) -> Instance:
    name = f"{rng.choice(WORDS)}-{rng.choice(['api', 'status', 'svc', 'gateway'])}"
    port = rng.randint(2000, 9999)
    greeting = f"{rng.choice(['Hello', 'Welcome', 'Greetings', 'Hi'])} from {rng.choice(WORDS)} #{rng.randint(1, 999)}"
    config: dict = {"name": name, "port": port, "greeting": greeting}
    spec = [f"`name`: `{name}`", f"`port`: `{port}` (a JSON number)", f"`greeting`: `{greeting}`"]
    files: dict[str, str] = {}
    token = None
    pidfile = access_log = None
    if difficulty >= 2:
        token = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(16))
        config.update(token=token, static_dir="/app/public")
        files = {f"{rng.choice(WORDS)}.txt": f"{rng.choice(WORDS)} {rng.randint(100, 999)}\n" for _ in range(2)}
        spec += [f"`token`: `{token}` (clients send it in the `X-Api-Token` header)",
                 "`static_dir`: `/app/public`, which must hold exactly these files (create them; `\\n` is a newline): "
                 + ", ".join(f"`{n}` containing `{c.strip()}\\n`" for n, c in files.items())]
    if difficulty == 3:
        pidfile, access_log = f"/app/run/{name}.pid", "/app/logs/access.log"
        config.update(pidfile=pidfile, access_log=access_log)
        spec += [f"`pidfile`: `{pidfile}`", f"`access_log`: `{access_log}`"]
    instruction = f"""
`/app/server.py` is a small HTTP service (read its docstring). Set it up:

1. Write its config, `/app/service.json`, with these keys:
{bullet_list(spec)}
2. Write `/app/start.sh`: `bash /app/start.sh` must start the service with that config, listening on
   `127.0.0.1:{port}`, in the background, and return at once (exit code 0); the service must keep running.
{"3. `/app/run` and `/app/logs` may not exist: start.sh creates them. Running start.sh while the service is "
 "already up must not start a second server (it just exits 0)." if difficulty == 3 else ""}

Nothing needs to be running when you finish: the service is started with your start.sh and checked then.
"""
    start = START.replace("PIDFILE", pidfile or "/app/run/service.pid")
    public = "".join(f"printf '%s\\n' '{c.strip()}' > /app/public/{n}\n" for n, c in files.items())
    solve = ("#!/bin/bash\nset -euo pipefail\n" + (f"mkdir -p /app/public\n{public}" if files else "")
             + f"cat > /app/service.json <<'EOF'\n{json.dumps(config, indent=2)}\nEOF\n"
             + f"cat > /app/start.sh <<'EOF'\n{start}EOF\nchmod +x /app/start.sh\n")
    return Instance(
        instruction=instruction,
        files={"server.py": SERVER},
        solve=solve.replace("CONFIG_ARG", "--config /app/service.json"),
        wrong={"wrong_config_not_passed.sh": solve.replace(" CONFIG_ARG", "")},
        tests=render(TESTS + (LEVEL2_TESTS if difficulty >= 2 else "") + (LEVEL3_TESTS if difficulty == 3 else ""),
                     port=port, name=name, greeting=greeting, token=token, files=files, pidfile=pidfile,
                     access_log=access_log),
        answer=config,
    )


FAMILY = Family(
    name="http-service",
    category="networking-services",
    tags=("http", "service", "config", "bash"),
    summary="Configure a tiny HTTP service to a generated spec and write a start script the tests run.",
    make=make,
)
