"""Real faults on demand, for the fault tests and ``bench/soak.py``.

* :class:`PrivateEngine` — a dockerd of our own (own data root, exec root, pid file, socket and
  bridge interface; no iptables) that can be stopped and restarted mid-run without touching the
  machine's main Docker engine, which other runs share. Not ``--bridge=none``: dockerd 20.10 then
  deletes the host's ``docker0`` interface at start, which cuts the main engine's containers off.
* :class:`StubOpenAI` — an OpenAI-compatible chat endpoint on loopback that answers with scripted
  replies, and can be taken down (connection refused) or made to answer 503 for a while.
* :func:`small_disk` — a small tmpfs mounted on a folder, to fill the disk under a run directory.

Everything here starts real processes and sockets; every ``start`` has its ``close``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class PrivateEngine:
    """A private Docker engine under ``/run/<name>`` and ``<data_root>``; never the main one."""

    def __init__(self, name: str | None = None, data_root: Path | None = None):
        self.name = name or f"termrl-faults-{os.getpid()}"
        self.run_dir = Path("/run") / self.name
        self.data_root = Path(data_root) if data_root else Path("/tmp") / self.name / "data"
        self.socket = self.run_dir / "docker.sock"
        self.url = f"unix://{self.socket}"
        self.log_path = self.data_root.parent / "dockerd.log"
        digest = hashlib.sha256(self.name.encode()).hexdigest()
        self.bridge = f"trl-{digest[:10]}"  # (interface names: at most 15 characters)
        self.bridge_ip = f"10.213.{int(digest[10:12], 16) % 250 + 1}.1/24"
        self._proc: subprocess.Popen | None = None

    def _make_bridge(self) -> None:
        if Path(f"/sys/class/net/{self.bridge}").exists():
            return
        for cmd in (["ip", "link", "add", "name", self.bridge, "type", "bridge"],
                    ["ip", "addr", "add", self.bridge_ip, "dev", self.bridge],
                    ["ip", "link", "set", self.bridge, "up"]):
            subprocess.run(cmd, check=True, capture_output=True)

    def start(self, timeout: float = 90) -> "PrivateEngine":
        if self._proc is not None and self._proc.poll() is None:
            return self
        if shutil.which("dockerd") is None:
            raise RuntimeError("dockerd is not installed (scripts/setup.sh installs docker.io)")
        if self.answers():
            raise RuntimeError(f"a dockerd already listens on {self.socket}: not ours -- stop it, or pick another name")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.data_root.mkdir(parents=True, exist_ok=True)
        self._make_bridge()
        log = open(self.log_path, "ab")
        self._proc = subprocess.Popen(
            ["dockerd", "--data-root", str(self.data_root), "--exec-root", str(self.run_dir / "exec"),
             "--pidfile", str(self.run_dir / "docker.pid"), "-H", self.url, f"--bridge={self.bridge}",
             "--iptables=false", "--ip-masq=false", "--ip-forward=false"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise RuntimeError(f"private dockerd exited with {self._proc.returncode}; see {self.log_path}")
            if self.answers():
                return self
            time.sleep(0.3)
        raise RuntimeError(f"private dockerd did not answer within {timeout:.0f} s; see {self.log_path}")

    def answers(self) -> bool:
        import docker

        try:
            client = docker.DockerClient(base_url=self.url, timeout=5)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False

    def stop(self, timeout: float = 60) -> None:
        """Stop the daemon (SIGTERM, as ``systemctl stop docker`` does): its containers die with it."""
        if self._proc is None or self._proc.poll() is not None:
            return
        self._proc.send_signal(signal.SIGTERM)
        try:
            self._proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(10)

    def restart(self, down_s: float = 0.0) -> None:
        self.stop()
        time.sleep(down_s)
        self.start()

    def client(self, timeout: int = 120):
        import docker

        return docker.DockerClient(base_url=self.url, timeout=timeout)

    def load_image(self, tag: str) -> None:
        """Copy ``tag`` from the main engine (``docker save | docker -H <private> load``), if missing here."""
        import docker

        client = self.client()
        try:
            client.images.get(tag)
            return
        except docker.errors.ImageNotFound:
            pass
        finally:
            client.close()
        save = subprocess.Popen(["docker", "save", tag], stdout=subprocess.PIPE)
        load = subprocess.run(["docker", "-H", self.url, "load", "-q"], stdin=save.stdout, capture_output=True)
        save.stdout.close()
        if save.wait() != 0 or load.returncode != 0:
            raise RuntimeError(f"could not copy {tag} into the private engine: {load.stderr.decode()[-500:]}")

    def close(self, remove_data: bool = True) -> None:
        """Stop the daemon and remove its containers' and images' files."""
        if self.answers():
            client = self.client()
            for c in client.containers.list(all=True, ignore_removed=True):
                c.remove(force=True, v=True)
            client.close()
        self.stop()
        subprocess.run(["ip", "link", "del", self.bridge], check=False, capture_output=True)
        if remove_data:
            subprocess.run(["umount", str(self.data_root)], check=False, capture_output=True)  # dockerd's own mount
            subprocess.run(["rm", "-rf", str(self.data_root.parent)], check=False)
            shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> "PrivateEngine":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()


def chat_reply(text: str) -> dict:
    return {"id": "stub", "object": "chat.completion", "model": "stub",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1}}


class StubOpenAI:
    """An OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1 with switchable faults.

    ``reply(messages) -> str`` writes each answer. :meth:`down` closes the port (connection
    refused), :meth:`erroring` answers 503, :meth:`up` serves again on the same port.
    ``requests`` counts the chat requests that reached it, ``failed`` the ones it refused with 503.
    """

    def __init__(self, reply: Callable[[list[dict]], str]):
        self.reply = reply
        self.mode = "up"
        self.fail_next = 0
        self.requests = 0
        self.failed = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self.port = 0
        self._serve()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _serve(self) -> None:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:  # /v1/models
                self._send(200, {"object": "list", "data": [{"id": "stub", "object": "model"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                with stub._lock:
                    stub.requests += 1
                    erroring = stub.mode == "erroring" or stub.fail_next > 0
                    stub.fail_next = max(0, stub.fail_next - 1)
                    stub.failed += erroring
                if erroring:
                    self._send(503, {"error": {"message": "stub: temporarily unavailable"}})
                    return
                self._send(200, chat_reply(stub.reply(body.get("messages") or [])))

        server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        server.daemon_threads = True
        self.port = server.server_address[1]
        self._server = server
        threading.Thread(target=server.serve_forever, name="stub-openai", daemon=True).start()

    def down(self) -> None:
        """Connection refused from now on."""
        with self._lock:
            self.mode = "down"
            server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    def erroring(self, requests: int | None = None) -> None:
        """Answer 503 from now on, or to the next ``requests`` chat requests only."""
        self.up()
        if requests is None:
            self.mode = "erroring"
        else:
            self.fail_next = requests

    def up(self) -> None:
        if self._server is None:
            for _ in range(50):  # the port was just closed; rebinding it can take a moment
                try:
                    self._serve()
                    break
                except OSError:
                    time.sleep(0.1)
        self.mode = "up"

    def close(self) -> None:
        self.down()


@contextlib.contextmanager
def small_disk(path: Path, size_kb: int) -> Iterator[Path]:
    """Mount a ``size_kb`` tmpfs on ``path`` for the block (needs root); unmounted afterwards."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755", "tmpfs", str(path)], check=True,
                   capture_output=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


def fill(path: Path, leave_bytes: int) -> Path:
    """Fill the filesystem holding ``path`` until about ``leave_bytes`` are free; returns the filler file."""
    filler = path / ".filler"
    st = os.statvfs(path)
    free = st.f_bavail * st.f_frsize
    with open(filler, "wb") as fh:
        fh.write(b"\0" * max(0, free - leave_bytes))
    return filler
