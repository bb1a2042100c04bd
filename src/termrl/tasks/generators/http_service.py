"""http-service: set up (levels 1-2) or repair (level 3) a small HTTP service that the tests start.

A seed draws the structure of the problem:

- the **config format** the shipped server reads: JSON, INI, TOML, or environment variables from an env
  file (the start script must export them);
- the **endpoints** beyond ``/health``: a greeting, an echo with a digest, static files (level 1), plus at
  level 2-3 a token and state persisted across restarts: a key-value store (PUT/GET/DELETE, 201 vs 200,
  404, 204), counters, or an item collection (POST 201 with ids, 400 on bad input);
- at level 3 the service is shipped set up but broken: one fault in its setup (the start script blocks,
  the config does not parse, the port is wrong, the start script names a missing config) and one or two
  in the server's code (status codes, the auth header, ids, lost state, content type, unknown paths),
  drawn from those that touch the chosen endpoints. The instruction only says the service does not
  behave as API.md describes: the agent has to run it and probe it to find out why.

The tests start the service with ``/app/start.sh`` (the verifier ends what the agent left running) and
probe it over loopback, restarting it to check persistence. The reference solution is composed of the
format's config writer and the start script (levels 1-2) or one repair per fault (level 3).
"""

from __future__ import annotations

import json
import random

from termrl.tasks.generators._common import WORDS, Family, Instance, bullet_list, render

# config format -> its file (the formats are keys, not a module-level word list: the diversity measure blanks
# the words of such lists as names, and a format is structure, not a name)
CONFIG_FILE = {"json": "service.json", "ini": "service.ini", "toml": "service.toml", "env": "service.env"}
SIMPLE = ("greeting", "echo", "static")
SERVICE_KINDS = ["api", "svc", "gateway", "backend", "relay"]  # a name pool (the measure blanks these)
STATEFUL = ("kv", "counter", "items")

LOADERS = {
    "json": ("python3 server.py --config FILE.json", "a JSON object",
             "    return json.loads(Path(sys.argv[sys.argv.index('--config') + 1]).read_text())\n"),
    "ini": ("python3 server.py --config FILE.ini", "an INI file whose keys are in a `[service]` section",
            "    parser = configparser.ConfigParser(interpolation=None)\n"
            "    parser.read_string(Path(sys.argv[sys.argv.index('--config') + 1]).read_text())\n"
            "    return dict(parser['service'])\n"),
    "toml": ("python3 server.py --config FILE.toml", "a TOML file with the keys at the top level",
             "    return tomllib.loads(Path(sys.argv[sys.argv.index('--config') + 1]).read_text())\n"),
    "env": ("SVC_PORT=... python3 server.py", "environment variables: `SVC_` and the key in capitals "
            "(`SVC_PORT`, ...)",
            "    return {k[4:].lower(): v for k, v in os.environ.items() if k.startswith('SVC_')}\n"),
}

SERVER_HEAD = '''"""@@NAME@@: a small HTTP service (see /app/API.md for what it must do).

Usage: @@USAGE@@
Config: @@CONFIG_KIND@@. Keys: @@KEYS@@.
"""
import configparser
import hashlib
import json
import os
import sys
import threading
import tomllib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def load_config():
@@LOADER@@

CONFIG = load_config()
TOKEN = CONFIG.get("token")
STATE_FILE = Path(CONFIG["data_dir"], "state.json") if CONFIG.get("data_dir") else None
LOCK = threading.Lock()


def load_state():
    if STATE_FILE and STATE_FILE.exists():
        return json.loads(STATE_FILE.read_text())
    return {"kv": {}, "counters": {}, "items": []}


def save_state():
    STATE_FILE.write_text(json.dumps(STATE))


STATE = load_state()


class Handler(BaseHTTPRequestHandler):
    def send(self, status, body=None, content_type="application/json"):
        data = body if isinstance(body, bytes) else b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def route(self, method):
        path = self.path.split("?")[0]
        if path == "/health":
            return self.send(200, {"status": "ok", "service": CONFIG["name"]})
        if TOKEN and self.headers.get("X-Api-Token") != TOKEN:
            return self.send(401, {"error": "unauthorized"})
@@ROUTES@@
        return self.send(404, {"error": "not found"})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")

    def log_message(self, fmt, *args):
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(CONFIG["port"])), Handler)
    server.serve_forever()
'''

ROUTES = {
    "greeting": '''
        if path == "/greeting":
            if method != "GET":
                return self.send(405, {"error": "method not allowed"})
            return self.send(200, {"message": CONFIG["greeting"]})
''',
    "echo": '''
        if path == "/echo":
            if method != "POST":
                return self.send(405, {"error": "method not allowed"})
            data = self.body()
            return self.send(200, {"length": len(data), "sha256": hashlib.sha256(data).hexdigest()})
''',
    "static": '''
        if path.startswith("/files/"):
            name = path[len("/files/"):]
            target = Path(CONFIG["static_dir"], name)
            if method == "GET" and name and "/" not in name and target.is_file():
                return self.send(200, target.read_bytes(), "text/plain")
''',
    "kv": '''
        if path.startswith("/kv/") and len(path) > 4:
            key = path[4:]
            with LOCK:
                if method == "PUT":
                    created = key not in STATE["kv"]
                    STATE["kv"][key] = self.body().decode()
                    save_state()
                    return self.send(201 if created else 200, {"key": key})
                if method == "GET":
                    if key not in STATE["kv"]:
                        return self.send(404, {"error": "no such key"})
                    return self.send(200, STATE["kv"][key].encode(), "text/plain")
                if method == "DELETE":
                    if key not in STATE["kv"]:
                        return self.send(404, {"error": "no such key"})
                    del STATE["kv"][key]
                    save_state()
                    return self.send(204)
            return self.send(405, {"error": "method not allowed"})
''',
    "counter": '''
        if path.startswith("/counters/") and len(path) > 10:
            name = path[10:]
            with LOCK:
                if method == "POST":
                    STATE["counters"][name] = STATE["counters"].get(name, 0) + 1
                    save_state()
                    return self.send(200, {"name": name, "value": STATE["counters"][name]})
                if method == "GET":
                    return self.send(200, {"name": name, "value": STATE["counters"].get(name, 0)})
            return self.send(405, {"error": "method not allowed"})
''',
    "items": '''
        if path == "/items" or path.startswith("/items/"):
            with LOCK:
                if path == "/items" and method == "POST":
                    try:
                        item = json.loads(self.body())
                        title = item["title"]
                    except (ValueError, KeyError, TypeError):
                        return self.send(400, {"error": "need a JSON object with a title"})
                    if not isinstance(title, str) or not title:
                        return self.send(400, {"error": "need a JSON object with a title"})
                    new = {"id": len(STATE["items"]) + 1, "title": title}
                    STATE["items"].append(new)
                    save_state()
                    return self.send(201, new)
                if path == "/items" and method == "GET":
                    return self.send(200, STATE["items"])
                if method == "GET" and path[7:].isdigit():
                    found = [i for i in STATE["items"] if i["id"] == int(path[7:])]
                    return self.send(200, found[0]) if found else self.send(404, {"error": "no such item"})
            return self.send(404 if method == "GET" else 405, {"error": "not found"})
''',
}

API = {
    "greeting": "- `GET /greeting` -> 200, `{\"message\": <the configured greeting>}`.",
    "echo": "- `POST /echo` with any body -> 200, `{\"length\": <bytes in the body>, \"sha256\": <its hex digest>}`.",
    "static": "- `GET /files/<name>` -> 200 with the content of `<name>` in the static folder (`text/plain`); 404 "
              "if there is no such file.",
    "kv": "- `PUT /kv/<key>` with the value as the body -> 201 when the key is new, 200 when it replaces a value; "
          "`GET /kv/<key>` -> 200 with the value as the body, 404 if unknown; `DELETE /kv/<key>` -> 204, 404 if "
          "unknown. Values survive a restart of the service.",
    "counter": "- `POST /counters/<name>` -> 200, `{\"name\": ..., \"value\": <the count after adding 1>}`; "
               "`GET /counters/<name>` -> 200 with the current value (0 if never counted). Counts survive a restart.",
    "items": "- `POST /items` with `{\"title\": \"...\"}` -> 201 and the new item `{\"id\": ..., \"title\": ...}`, ids "
             "1, 2, 3, ... in order of creation; anything else as the body (not JSON, no non-empty string title) -> "
             "400. `GET /items` -> 200, the list of items; `GET /items/<id>` -> 200 with the item, 404 if unknown. "
             "Items survive a restart.",
}

# code faults (level 3): endpoint it needs, (good code, shipped bad code), what the wrong repair does
CODE_FAULTS = {
    "kv_put_status": ("kv", ('return self.send(201 if created else 200, {"key": key})',
                             'return self.send(200, {"key": key})')),
    "kv_delete_missing": ("kv", ('''                if method == "DELETE":
                    if key not in STATE["kv"]:
                        return self.send(404, {"error": "no such key"})
                    del STATE["kv"][key]''', '''                if method == "DELETE":
                    del STATE["kv"][key]''')),
    "counter_not_saved": ("counter", ('''                    STATE["counters"][name] = STATE["counters"].get(name, 0) + 1
                    save_state()''', '''                    STATE["counters"][name] = STATE["counters"].get(name, 0) + 1''')),
    "items_first_id": ("items", ('new = {"id": len(STATE["items"]) + 1, "title": title}',
                                 'new = {"id": len(STATE["items"]), "title": title}')),
    "items_bad_input": ("items", ('''                    except (ValueError, KeyError, TypeError):''',
                                  '''                    except KeyError:''')),
    "auth_header": ("token", ('self.headers.get("X-Api-Token") != TOKEN', 'self.headers.get("X-Token") != TOKEN')),
    "greeting_key": ("greeting", ('{"message": CONFIG["greeting"]}', '{"message": CONFIG.get("motd", "")}')),
    "echo_digest": ("echo", ('"sha256": hashlib.sha256(data).hexdigest()', '"sha256": hashlib.md5(data).hexdigest()')),
    "unknown_path": ("any", ('        return self.send(404, {"error": "not found"})\n\n    def do_GET',
                             '        return self.send(200, {})\n\n    def do_GET')),
}
SETUP_FAULTS = ("foreground", "config_syntax", "wrong_port", "config_path")

TESTS = """
import hashlib
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

PORT = @@PORT@@
NAME = @@NAME@@
TOKEN = @@TOKEN@@
ENDPOINTS = @@ENDPOINTS@@
GREETING = @@GREETING@@
FILES = @@FILES@@


def call(method, path, body=None, token=TOKEN):
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", data=body, method=method)
    if token:
        request.add_header("X-Api-Token", token)
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as err:
        return err.code, err.read(), err.headers.get("Content-Type", "")


def servers():
    found = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and b"server.py" in open(f"/proc/{pid}/cmdline", "rb").read():
                found.append(int(pid))
        except OSError:
            pass
    return found


def start():
    result = subprocess.run(["bash", "/app/start.sh"], cwd="/", stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
    assert result.returncode == 0, "start.sh failed"
    # generous on a loaded machine while a server process is alive; quick to give up once none is
    began = time.monotonic()
    while time.monotonic() < began + 30:
        try:
            if call("GET", "/health")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > began + 5 and not servers():
            break
        time.sleep(0.1)
    pytest.fail(f"nothing answers GET /health on 127.0.0.1:{PORT} after start.sh (servers running: {servers()})")


def stop():
    for pid in servers():
        os.kill(pid, signal.SIGKILL)
    began = time.monotonic()
    while servers() and time.monotonic() < began + 15:
        time.sleep(0.05)


@pytest.fixture(scope="module")
def service():
    stop()
    start()
    yield
    stop()


def test_health(service):
    status, body, kind = call("GET", "/health")
    assert status == 200 and json.loads(body) == {"status": "ok", "service": NAME}
    assert kind.startswith("application/json")


def test_unknown_path_is_404(service):
    assert call("GET", "/no-such-thing")[0] == 404


def test_errors_are_json(service):
    status, body, kind = call("GET", "/no-such-thing/" + os.urandom(3).hex())
    assert status == 404 and kind.startswith("application/json")
    assert isinstance(json.loads(body), dict)


def test_endpoints(service):
    if "greeting" in ENDPOINTS:
        status, body, _ = call("GET", "/greeting")
        assert status == 200 and json.loads(body) == {"message": GREETING}
        assert call("DELETE", "/greeting")[0] == 405
    if "echo" in ENDPOINTS:
        data = os.urandom(37) + b"payload"
        status, body, _ = call("POST", "/echo", data)
        assert status == 200 and json.loads(body) == {"length": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if "static" in ENDPOINTS:
        for name, content in FILES.items():
            assert call("GET", f"/files/{name}")[:2] == (200, content.encode())
        assert call("GET", "/files/missing.txt")[0] == 404
"""

TOKEN_TEST = """

def test_token_required(service):
    assert call("GET", "/health", token=None)[0] == 200
    path = {"greeting": "/greeting", "kv": "/kv/anything", "counter": "/counters/x", "items": "/items",
            "echo": "/echo", "static": "/files/x"}[ENDPOINTS[-1]]
    method = "POST" if path == "/echo" else "GET"
    assert call(method, path, b"", token=None)[0] == 401
    assert call(method, path, b"", token=TOKEN + "x")[0] == 401
"""

STATE_TESTS = {
    "kv": """

def test_kv(service):
    key = "k" + os.urandom(4).hex()
    assert call("GET", f"/kv/{key}")[0] == 404
    assert call("PUT", f"/kv/{key}", b"first")[0] == 201
    assert call("PUT", f"/kv/{key}", b"second value")[0] == 200
    assert call("GET", f"/kv/{key}")[:2] == (200, b"second value")
    assert call("DELETE", f"/kv/{key}")[0] == 204
    assert call("DELETE", f"/kv/{key}")[0] == 404
    assert call("GET", f"/kv/{key}")[0] == 404


def test_state_survives_restart(service):
    key = "keep" + os.urandom(4).hex()
    assert call("PUT", f"/kv/{key}", b"kept")[0] == 201
    stop()
    start()
    assert call("GET", f"/kv/{key}")[:2] == (200, b"kept")
""",
    "counter": """

def test_counter(service):
    name = "c" + os.urandom(4).hex()
    assert json.loads(call("GET", f"/counters/{name}")[1]) == {"name": name, "value": 0}
    for expected in (1, 2, 3):
        status, body, _ = call("POST", f"/counters/{name}")
        assert status == 200 and json.loads(body) == {"name": name, "value": expected}
    assert call("DELETE", f"/counters/{name}")[0] == 405


def test_state_survives_restart(service):
    name = "keep" + os.urandom(4).hex()
    call("POST", f"/counters/{name}")
    call("POST", f"/counters/{name}")
    stop()
    start()
    assert json.loads(call("GET", f"/counters/{name}")[1]) == {"name": name, "value": 2}
""",
    "items": """

def test_items(service):
    before = json.loads(call("GET", "/items")[1])
    status, body, _ = call("POST", "/items", json.dumps({"title": "first thing"}).encode())
    assert status == 201
    item = json.loads(body)
    assert item == {"id": len(before) + 1, "title": "first thing"}
    assert json.loads(call("GET", f"/items/{item['id']}")[1]) == item
    assert call("GET", "/items/999999")[0] == 404
    for bad in (b"not json", b"[1, 2]", json.dumps({"name": "x"}).encode(), json.dumps({"title": 5}).encode()):
        assert call("POST", "/items", bad)[0] == 400, bad
    assert json.loads(call("GET", "/items")[1]) == before + [item]


def test_state_survives_restart(service):
    status, body, _ = call("POST", "/items", json.dumps({"title": "kept"}).encode())
    assert status == 201
    item = json.loads(body)
    stop()
    start()
    assert json.loads(call("GET", f"/items/{item['id']}")[1]) == item
""",
}

START = """#!/bin/bash
# Starts the service in the background and returns at once.
cd /app
@@PREPARE@@nohup @@COMMAND@@ > /app/service.log 2>&1 &
"""


STOP = """cat > /app/stop.sh <<'EOF'
#!/bin/bash
if [ -f /app/service.pid ]; then
  kill "$(cat /app/service.pid)" 2>/dev/null || true
  rm -f /app/service.pid
fi
EOF
chmod +x /app/stop.sh
"""

STOP_TEST = """

def test_stop_script(service):
    result = subprocess.run(["bash", "/app/stop.sh"], cwd="/", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, timeout=20)
    assert result.returncode == 0, "stop.sh failed"
    began = time.monotonic()
    while servers() and time.monotonic() < began + 15:
        time.sleep(0.1)
    assert not servers(), "a server.py process is still running after stop.sh"
    start()
    assert call("GET", "/health")[0] == 200
"""


def _config_text(fmt: str, config: dict) -> str:
    """The config file as the format writes it (every value a string but the port)."""
    if fmt == "json":
        return json.dumps(config, indent=2) + "\n"
    if fmt == "ini":
        return "[service]\n" + "".join(f"{k} = {v}\n" for k, v in config.items())
    if fmt == "toml":
        return "".join(f"{k} = {json.dumps(v)}\n" for k, v in config.items())
    return "".join(f"SVC_{k.upper()}={json.dumps(str(v))}\n" for k, v in config.items())


CONFIG_WRITERS = {  # solution code: writes `config` (a dict bound just before) in the format
    "json": "Path(path).write_text(json.dumps(config, indent=2) + \"\\n\")",
    "ini": "Path(path).write_text(\"[service]\\n\" + \"\".join(f\"{k} = {v}\\n\" for k, v in config.items()))",
    "toml": "Path(path).write_text(\"\".join(f\"{k} = {json.dumps(v)}\\n\" for k, v in config.items()))",
    "env": "Path(path).write_text(\"\".join(f\"SVC_{k.upper()}={json.dumps(str(v))}\\n\" for k, v in config.items()))",
}


def _start_command(fmt: str, config_path: str) -> tuple[str, str]:
    """(lines before the launch, the launch command) for a start script."""
    if fmt == "env":
        return f"set -a\n. {config_path}\nset +a\n", "python3 /app/server.py"
    return "", f"python3 /app/server.py --config {config_path}"


def _start_script(fmt: str, config_path: str, data_dir: str | None, prepare_dir: bool = True) -> str:
    prepare, command = _start_command(fmt, config_path)
    if data_dir and prepare_dir:
        prepare = f"mkdir -p {data_dir}\n" + prepare
    return START.replace("@@PREPARE@@", prepare).replace("@@COMMAND@@", command)


def make(rng: random.Random, difficulty: int) -> Instance:
    fmt = rng.choice(sorted(CONFIG_FILE))
    name = f"{rng.choice(WORDS)}-{rng.choice(SERVICE_KINDS)}"
    port = rng.randint(2000, 9999)
    simple = rng.sample(SIMPLE, rng.randint(1, 2))
    stateful = [rng.choice(STATEFUL)] if difficulty >= 2 else []
    endpoints = simple + stateful
    config: dict = {"name": name, "port": port}
    files: dict[str, str] = {}
    greeting = None
    if "greeting" in endpoints:
        greeting = f"{rng.choice(['Hello', 'Welcome', 'Greetings', 'Hi'])} from {rng.choice(WORDS)} #{rng.randint(1, 999)}"
        config["greeting"] = greeting
    static: dict[str, str] = {}
    if "static" in endpoints:
        config["static_dir"] = "/app/public"
        static = {f"{w}.txt": f"{rng.choice(WORDS)} {rng.randint(100, 999)}\n" for w in rng.sample(WORDS, 2)}
    token = None
    data_dir = None
    if difficulty >= 2:
        token = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(16))
        data_dir = f"/var/lib/{name}"
        config.update(token=token, data_dir=data_dir)
    config_path = f"/app/{CONFIG_FILE[fmt]}"
    usage, kind, loader = LOADERS[fmt]
    server = (SERVER_HEAD.replace("@@LOADER@@", loader).replace("@@USAGE@@", usage)
              .replace("@@CONFIG_KIND@@", kind).replace("@@NAME@@", name)
              .replace("@@KEYS@@", "name, port, greeting, static_dir, token, data_dir (a key a route needs must "
                                   "be set; token and data_dir are optional)")
              .replace("@@ROUTES@@", "".join(ROUTES[e] for e in endpoints).rstrip("\n")))
    api = ["- `GET /health` -> 200, `{\"status\": \"ok\", \"service\": <name>}`; never needs the token.",
           *[API[e] for e in endpoints],
           "- Any other path -> 404. A known path with a method it does not list -> 405.",
           "- Every response but file contents and key-value values is JSON (`Content-Type: application/json`)."]
    if token:
        api.append(f"- Every path but `/health` needs the header `X-Api-Token: {token}`; without it (or with "
                   "another value) -> 401.")
    files["API.md"] = f"# {name}\n\nListens on `127.0.0.1:{port}`.\n\n" + "\n".join(api) + "\n"
    tests = TESTS + (TOKEN_TEST if token else "") + "".join(STATE_TESTS[s] for s in stateful)
    rendered_tests = render(tests, port=port, name=name, token=token, endpoints=endpoints, greeting=greeting,
                            files=static)
    public = "".join(f"mkdir -p /app/public\nprintf '%s\\n' '{c.strip()}' > /app/public/{n}\n"
                     for n, c in static.items())
    if difficulty < 3:
        return _setup_instance(rng, difficulty, fmt, name, port, config, config_path, data_dir, server, files,
                               public, static, rendered_tests, endpoints)
    return _repair_instance(rng, fmt, name, port, config, config_path, data_dir, server, files, static,
                            rendered_tests, endpoints, token)


def _setup_instance(rng, difficulty, fmt, name, port, config, config_path, data_dir, server, files, public, static,
                    tests, endpoints) -> Instance:
    files = {**files, "server.py": server}
    spec = [f"`{k}`: `{v}`" + (" (a number)" if k == "port" else "") for k, v in config.items()]
    static_text = ("\n{n}. The static folder `/app/public` must hold exactly these files (create them; `\\n` is a "
                   "newline): " + ", ".join(f"`{n}` containing `{c.strip()}\\n`" for n, c in static.items())
                   if static else "")
    persist = (f"\n{{n}}. The service keeps its state in `{data_dir}` (the `data_dir` key), which does not exist yet: "
               "start.sh must create it if it is missing, and state must survive a restart." if data_dir else "")
    with_stop = rng.random() < 0.5
    stop_text = ("\n{n}. Write `/app/stop.sh`: `bash /app/stop.sh` stops the service that start.sh started (no "
                 "`server.py` process is left running) and exits 0; start.sh must work again afterwards."
                 if with_stop else "")
    extra = "".join(text.replace("{n}", str(k + 3))
                    for k, text in enumerate(t for t in (static_text, persist, stop_text) if t))
    instruction = f"""
`/app/server.py` is a small HTTP service; `/app/API.md` says what it must do. Its docstring says how it
reads its configuration ({LOADERS[fmt][1]}). Set it up:

1. Write its configuration to `{config_path}` with these keys:
{bullet_list(spec)}
2. Write `/app/start.sh`: `bash /app/start.sh` must start the service with that configuration, listening on
   `127.0.0.1:{port}`, in the background, and return at once (exit code 0); the service must keep running.{extra}

Nothing needs to be running when you finish: the tests start the service with your start.sh (more than
once) and then use it as API.md describes.
"""
    config_code = ("#!/bin/bash\nset -euo pipefail\n" + public + "python3 - <<'PY'\nimport json\nfrom pathlib import Path\n"
                   f"path = {config_path!r}\nconfig = {json.dumps(config)}\n{CONFIG_WRITERS[fmt]}\nPY\n")

    def solution(start: str, pid: str = "$!") -> str:
        script = config_code + f"cat > /app/start.sh <<'EOF'\n{start}EOF\nchmod +x /app/start.sh\n"
        if with_stop:  # the start script records the server's pid; stop.sh ends that process
            script = script.replace("&\nEOF\n", f"&\necho {pid} > /app/service.pid\nEOF\n") + STOP
        return script

    good = solution(_start_script(fmt, config_path, data_dir))
    prepare, command = _start_command(fmt, config_path)
    wrong = {"wrong_config_not_passed.sh": solution(START.replace("@@PREPARE@@", f"mkdir -p {data_dir}\n" if data_dir
                                                                  else "").replace("@@COMMAND@@",
                                                                                   "python3 /app/server.py"))}
    if data_dir:
        wrong["wrong_data_dir_not_created.sh"] = solution(_start_script(fmt, config_path, data_dir, prepare_dir=False))
    if with_stop:
        wrong["wrong_pidfile_holds_shell_pid.sh"] = solution(_start_script(fmt, config_path, data_dir), pid="$$")
        tests += STOP_TEST
    return Instance(instruction=instruction, files=files, solve=good, wrong=wrong, tests=tests,
                    answer={"format": fmt, "endpoints": endpoints, "config": config})


def _break_config(rng: random.Random, fmt: str, text: str, port: int) -> tuple[str, str, str]:
    """(broken config text, repair step, plausible wrong step) for a config that does not parse."""
    if fmt == "json":
        broken = text.replace("\n}", ",\n}")
        return broken, "python3 - <<'PY'\nimport re\nfrom pathlib import Path\np = Path(\"CONFIG\")\n" \
                       "p.write_text(re.sub(r\",\\s*}\", \"\\n}\", p.read_text()))\nPY", \
            "sed -i '$d' CONFIG"
    if fmt == "ini":
        return text.replace("[service]\n", ""), "sed -i '1i [service]' CONFIG", "sed -i '1i [DEFAULT]' CONFIG"
    if fmt == "toml":
        key = "name"
        broken = "".join(f"{line.split(' = ')[0]} = {json.loads(line.split(' = ', 1)[1])}\n"
                         if line.startswith(f"{key} = ") else line for line in text.splitlines(keepends=True))
        return broken, ("python3 - <<'PY'\nfrom pathlib import Path\np = Path(\"CONFIG\")\nlines = []\n"
                        "for line in p.read_text().splitlines():\n    k, _, v = line.partition(' = ')\n"
                        "    lines.append(f'{k} = \"{v}\"' if k == 'name' else line)\n"
                        "p.write_text('\\n'.join(lines) + '\\n')\nPY"), \
            "sed -i '/^name = /d' CONFIG"
    broken = text.replace("SVC_PORT=", "SVC_PORT = ")
    return broken, "sed -i 's/^SVC_PORT = /SVC_PORT=/' CONFIG", "sed -i '/^SVC_PORT/d' CONFIG"


def _repair_instance(rng, fmt, name, port, config, config_path, data_dir, server, files, static, tests, endpoints,
                     token) -> Instance:
    needs = set(endpoints) | {"token", "any"}
    code_faults = rng.sample(sorted(k for k, (need, _) in CODE_FAULTS.items() if need in needs), rng.randint(1, 2))
    setup_fault = rng.choice(SETUP_FAULTS)
    broken_server = server
    for fault in code_faults:
        good, bad = CODE_FAULTS[fault][1]
        if good not in broken_server:
            raise AssertionError(f"{fault}: code to break not found")  # a generator bug
        broken_server = broken_server.replace(good, bad)
    config_text = _config_text(fmt, config)
    start = _start_script(fmt, config_path, data_dir)
    steps: list[tuple[str, str, str]] = []  # (wrong name, right step, wrong step)
    if setup_fault == "foreground":
        start = start.replace("nohup ", "").replace(" > /app/service.log 2>&1 &", "")
        steps.append(("wrong_nohup_without_background.sh",
                      "sed -i 's|^\\(python3 /app/server.py.*\\)$|nohup \\1 > /app/service.log 2>\\&1 \\&|' /app/start.sh",
                      "sed -i 's|^\\(python3 /app/server.py.*\\)$|nohup \\1 > /app/service.log 2>\\&1|' /app/start.sh"))
    elif setup_fault == "config_syntax":
        config_text, right, bad = _break_config(rng, fmt, config_text, port)
        steps.append(("wrong_config_repair.sh", right.replace("CONFIG", config_path),
                      bad.replace("CONFIG", config_path)))
    elif setup_fault == "wrong_port":
        # a port whose digits appear nowhere else in the file, so one substitution undoes it
        other = next(o for o in (port + d for d in rng.sample([1, 10, 100, -1, -10, 11, 101, -101], 8))
                     if str(o) not in config_text and config_text.count(str(port)) == 1)
        config_text = config_text.replace(str(port), str(other), 1)
        steps.append(("wrong_port_in_start_script.sh", f"sed -i 's/{other}/{port}/' {config_path}",
                      f"sed -i 's/{other}/{port}/' /app/start.sh"))
    else:  # config_path: the start script names a config file that does not exist
        missing = f"/app/conf/{CONFIG_FILE[fmt]}"
        start = start.replace(config_path, missing)
        steps.append(("wrong_copies_config_elsewhere.sh", f"sed -i 's|{missing}|{config_path}|' /app/start.sh",
                      f"mkdir -p /app/conf && touch {missing}"))
    for fault in code_faults:
        good, bad = CODE_FAULTS[fault][1]
        steps.append((f"wrong_leaves_{fault}.sh",
                      "python3 - <<'PY'\nfrom pathlib import Path\np = Path('/app/server.py')\n"
                      f"p.write_text(p.read_text().replace({bad!r}, {good!r}))\nPY", ""))
    files = {**files, "server.py": broken_server, "start.sh": start, CONFIG_FILE[fmt]: config_text}
    if static:
        files.update({f"public/{n}": c for n, c in static.items()})
    head = "#!/bin/bash\nset -euo pipefail\n"
    solve = head + "".join(right + "\n" for _, right, _ in steps)
    wrong = {label: head + "".join((bad if k == n else right) + "\n" for k, (_, right, bad) in enumerate(steps))
             for n, (label, _, _) in enumerate(steps)}
    instruction = f"""
`/app/server.py` is a small HTTP service, `/app/API.md` says what it must do, and `bash /app/start.sh` is
meant to start it in the background with its configuration (`{config_path}`; the server's docstring says
how it reads it) and return at once (exit code 0). It does not work as API.md describes: some of the
setup (start script, configuration) and of the server's code is wrong. Find out what, by running and probing
it, and fix it, changing as little as needed: keep the configuration's values as they are meant to be
(API.md gives the port and the token), and keep the server's routes, messages and storage as they are
except where they break API.md.

Nothing needs to be running when you finish: the tests start the service with `/app/start.sh` (more than
once, and after stopping it) and then use it as API.md describes.
"""
    return Instance(instruction=instruction, files=files, solve=solve, wrong=wrong, tests=tests,
                    answer={"format": fmt, "endpoints": endpoints, "setup": setup_fault, "code": code_faults,
                            "port": port, "token": token})


FAMILY = Family(
    name="http-service",
    category="networking-services",
    tags=("http", "service", "config", "debugging", "bash"),
    summary="Set up or repair a small HTTP service the tests start: config format, endpoints, persistence and "
            "(level 3) faults in its setup and code drawn per seed.",
    make=make,
)
