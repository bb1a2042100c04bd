"""Docker sandbox provider: one container per episode, one persistent shell per container.

PID 1 is a shell loop that owns no child (``KEEPER``): it blocks reading a FIFO it holds open
for writing itself, and ignores SIGCHLD so the kernel reaps every orphan handed to it. The
kernel never delivers an unhandled or SIGKILL signal from inside the container to PID 1, so
``kill -9 -1``, killing the shells, or any other signal the agent sends cannot end the
container (``docker-init`` would exit with its child). Two long-lived shells are attached
through the Docker API:

* the *agent shell* (bash, or sh where bash is absent) that runs every ``exec`` command;
* a *control shell* (sh, in its own session) that kills process trees. It uses only shell
  builtins, so it still works when a fork bomb has used up the container's PID limit.

A timed-out command is stopped by killing every process in the agent shell's session
(its pipelines, their children, and anything they put in the background) except the
shell itself. If the command was a shell builtin loop, the shell is killed and restarted.
Network is toggled by connecting and disconnecting the default bridge network.

Faults: any failure talking to the engine or the container inside a sandbox call is a
``SandboxError`` (an infrastructure error the trainer masks). When the engine itself stops
answering (a restart), ``DockerProvider.start`` and ``image_for`` pause and ping it with
exponential backoff (0.5 s doubling to 10 s) for up to ``engine_retry_s`` (default 120 s), then
raise ``EngineUnavailable``, which stops the run resumably. Containers that could not be removed
while the engine was away are removed once it answers again.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import shlex
import stat
import tarfile
import threading
import time
import uuid
from pathlib import Path
from typing import Callable

import docker
import docker.errors
import requests.exceptions

from termrl.errors import EngineUnavailable, SandboxError
from termrl.rollout.shutdown import STOP
from termrl.sandbox.reaper import LABEL, owner_labels, owner_state, reap_orphans
from termrl.sandbox.base import SandboxSpec
from termrl.sandbox.inventory import (_PY_INVENTORY, Inventory, cached, inventory, inventory_key, parse_inventory,
                                      store)
from termrl.sandbox.inventory import script as inventory_script
from termrl.sandbox.procs import servers
from termrl.sandbox.stream import ShellDied, StreamReply, StreamShell
from termrl.images.build import ImageConfig, build_task_image
from termrl.types import ExecResult, Task

log = logging.getLogger(__name__)

SANDBOX_LABEL = f"{LABEL}.sandbox"
"""A unique token per container, to find one whose creation the engine finished but never confirmed."""
DEFAULT_COMMAND_TIMEOUT = 180.0
DEFAULT_ENGINE_RETRY_S = 120.0
"""How long start/image_for wait for a Docker engine that stopped answering before giving up."""
ENGINE_BACKOFF_S = (0.5, 10.0)
"""First and longest pause between pings of an engine that does not answer."""

# Builtins only (dash, bash, busybox sh): no fork is needed to find or kill processes.
CONTROL_PRELUDE = r"""
__termrl_kill() {
  __mode=$1; __arg=$2; __n=0
  for __sig in STOP STOP KILL KILL; do
    for __d in /proc/[0-9]*; do
      __p=${__d#/proc/}
      [ "$__p" = 1 ] && continue
      [ "$__p" = "$$" ] && continue
      { read -r __st < "$__d/stat"; } 2>/dev/null || continue
      set -- ${__st##*) }
      if [ "$__mode" = session ]; then
        [ "$4" = "$__arg" ] || continue
        [ "$__p" = "$__arg" ] && continue
      elif [ "$__mode" = except ]; then
        case " $__arg " in *" $__p "*) continue ;; esac
      else
        [ "$__p" = "$__arg" ] && continue
      fi
      if kill -$__sig "$__p" 2>/dev/null && [ "$__sig" = KILL ]; then __n=$((__n+1)); fi
    done
  done
  echo "$__n"
}
__termrl_stopall() {
  for __i in 1 2; do
    for __d in /proc/[0-9]*; do
      __p=${__d#/proc/}
      [ "$__p" = 1 ] && continue
      [ "$__p" = "$$" ] && continue
      kill -STOP "$__p" 2>/dev/null
    done
  done
}
__termrl_ps() {
  for __d in /proc/[0-9]*; do
    { read -r __st < "$__d/stat"; } 2>/dev/null || continue
    set -- ${__st##*) }
    echo "${__d#/proc/} $2"
  done
}
__termrl_cat() {
  while IFS= read -r __l || [ -n "$__l" ]; do echo "$__l"; done < "$1"
}
__termrl_keeper() {
  for __d in /proc/[0-9]*; do
    { read -r __st < "$__d/stat"; } 2>/dev/null || continue
    set -- ${__st##*) }
    if [ "$2" = 1 ]; then echo "${__d#/proc/}"; return; fi
  done
  echo 1
}
"""

# PID 1: holds no child process to lose. ``trap '' CHLD`` = SIG_IGN: orphans are reaped by the
# kernel. The FIFO is opened read-write, so the read never sees end-of-file.
KEEPER = ('f=/dev/.termrl-keeper; mkfifo "$f" 2>/dev/null; '
          'if [ -p "$f" ]; then exec 3<>"$f"; trap "" CHLD INT TERM HUP QUIT USR1 USR2 ALRM PIPE; while :; do read -r _ <&3; done; fi; '
          'while :; do sleep 3600 & wait; done')

AGENT_SHELL = ["sh", "-c", "if command -v bash >/dev/null 2>&1; then exec bash --noprofile --norc; else exec sh; fi"]
AGENT_ENV = {"PAGER": "cat", "GIT_PAGER": "cat", "DEBIAN_FRONTEND": "noninteractive", "TERM": "dumb"}


def engine_down(exc: BaseException) -> bool:
    """True when ``exc`` says the engine itself is unreachable (not that a request was refused)."""
    return isinstance(exc, (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError)) or (
        isinstance(exc, docker.errors.DockerException) and not isinstance(exc, docker.errors.APIError)
        and "connection" in str(exc).lower())


def engine_url(client: docker.DockerClient) -> str:
    """Where the engine listens, as a person would write it (unix:///var/run/docker.sock, tcp://...)."""
    socket_path = getattr(getattr(client.api, "_custom_adapter", None), "socket_path", None)
    return f"unix://{socket_path}" if socket_path else str(getattr(client.api, "base_url", "?"))


def wait_for_engine(client: docker.DockerClient, bound_s: float, why: str = "") -> None:
    """Ping the engine with exponential backoff until it answers; EngineUnavailable after ``bound_s``.

    Returns at once (raising ``SandboxError``) when the run is being stopped.
    """
    start = time.monotonic()
    delay, longest = ENGINE_BACKOFF_S
    url = engine_url(client)
    warned = False
    while True:
        try:
            client.ping()
            if warned:
                log.warning("Docker engine at %s answers again after %.0f s", url, time.monotonic() - start)
            return
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            last = exc
        if not warned:
            log.warning("Docker engine at %s does not answer (%s); pausing, retrying for up to %.0f s",
                        url, why or type(last).__name__, bound_s)
            warned = True
        waited = time.monotonic() - start
        if waited + delay > bound_s:
            raise EngineUnavailable(f"the Docker engine at {url} did not answer for {waited:.0f} s (last error: "
                                    f"{type(last).__name__}: {last}) -- fix: start or repair dockerd, then resume "
                                    f"the run (or raise engine_retry_s)")
        if STOP.wait(delay):
            raise SandboxError(f"stopped while waiting for the Docker engine at {url}")
        delay = min(delay * 2, longest)


def _at_boundary(method):
    """Any failure of the engine, the connection or the container becomes a SandboxError."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (FileNotFoundError, IsADirectoryError, SandboxError):
            raise  # the file contract, or already at the boundary
        except (docker.errors.DockerException, requests.exceptions.RequestException, OSError, ShellDied) as exc:
            lost = "lost the Docker engine: " if engine_down(exc) else ""
            raise SandboxError(f"container {self.container.id[:12]}: {lost}{type(exc).__name__}: {exc}") from exc

    return wrapper


def docker_client() -> docker.DockerClient:
    """A client for the local engine, with a clear error when none answers."""
    try:
        client = docker.from_env(timeout=300)
        client.ping()
    except docker.errors.DockerException as exc:
        raise SandboxError(f"no Docker engine answers ({exc}) -- fix: start dockerd (make test does it)") from exc
    return client


class _AttachedShell:
    """A StreamShell plus the exec it runs in (kept to read its exit code)."""

    def __init__(self, api: docker.APIClient, container_id: str, argv: list[str], *,
                 workdir: str | None = None, env: dict[str, str] | None = None, prelude: str = ""):
        self.api = api
        try:
            self.exec_id = api.exec_create(container_id, argv, stdin=True, stdout=True, stderr=True, tty=False,
                                           workdir=workdir, environment=env)["Id"]
            self._io = api.exec_start(self.exec_id, socket=True)
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot start a shell in container {container_id[:12]}: {exc}") from exc
        self.shell = StreamShell(self._io._sock)
        try:
            self.shell.start()
            if prelude:
                self.shell.run(prelude, timeout=30)
        except (ShellDied, TimeoutError) as exc:
            raise SandboxError(f"shell {argv} did not start in container {container_id[:12]}: {exc}") from exc

    def exit_code(self) -> int:
        for _ in range(20):
            info = self.api.exec_inspect(self.exec_id)
            if not info.get("Running"):
                return int(info.get("ExitCode") or 0)
            time.sleep(0.05)
        return -1

    def close(self) -> None:
        self.shell.close()
        try:
            self._io.close()
        except OSError:
            pass


def _archive(container, path: str, where: str) -> bytes | None:
    """``path`` (file, link or folder) from ``container`` as a tar archive; None if absent.

    Raises:
        SandboxError: the engine refused (``where`` says which copy, for the message).
    """
    try:
        stream, _ = container.get_archive(path)
        return b"".join(stream)
    except docker.errors.NotFound:
        return None
    except docker.errors.APIError as exc:
        raise SandboxError(f"cannot read {path}{where}: {exc}") from exc


class DockerSandbox:
    """A started container. Implements the ``Sandbox`` protocol."""

    def __init__(self, client: docker.DockerClient, container, spec: SandboxSpec,
                 on_lost: "Callable[[str], None] | None" = None):
        self.client = client
        self._on_lost = on_lost
        """Called with the container id when close() cannot reach the engine (removed later)."""
        self.api = client.api
        self.container = container
        self.spec = spec
        self.network = spec.network
        self._closed = False
        self._control = _AttachedShell(self.api, container.id, ["sh"], prelude=CONTROL_PRELUDE)
        self.keeper_pid = int(self._control.shell.run("__termrl_keeper", timeout=10).output.strip() or 1)
        self._agent: _AttachedShell | None = None
        self._take_inventory()
        self._agent = self._start_agent_shell()

    def _take_inventory(self) -> None:
        """List the image's toolchain now, while the container is still exactly its image (once per image)."""
        key = inventory_key(self.client, self.image_id, self.image_env().get("PATH", ""))
        if cached(key) is None:
            text = self._control_run(f"PYINV={shlex.quote(_PY_INVENTORY)}\n{inventory_script()}", timeout=300)
            store(key, parse_inventory(text))

    @property
    def id(self) -> str:
        return self.container.id

    def _start_agent_shell(self) -> _AttachedShell:
        return _AttachedShell(self.api, self.container.id, AGENT_SHELL, workdir=self.spec.workdir, env=AGENT_ENV)

    def _control_run(self, command: str, timeout: float = 30) -> str:
        try:
            return self._control.shell.run(command, timeout=timeout).output.decode(errors="replace")
        except (ShellDied, TimeoutError):
            # The control shell can be OOM-killed like anything else: start a new one once.
            self._control.close()
            self._control = _AttachedShell(self.api, self.container.id, ["sh"], prelude=CONTROL_PRELUDE)
            try:
                return self._control.shell.run(command, timeout=timeout).output.decode(errors="replace")
            except (ShellDied, TimeoutError) as exc:
                raise SandboxError(f"the control shell of container {self.id[:12]} died twice: {exc}") from exc

    # -- per-command calls -------------------------------------------------------------

    @_at_boundary
    def exec(self, command: str, timeout: float | None = None) -> ExecResult:
        self._check_open()
        timeout = DEFAULT_COMMAND_TIMEOUT if timeout is None else timeout
        start = time.monotonic()
        restarted = False
        if self._agent is None:
            try:
                self._agent = self._start_agent_shell()
            except SandboxError as exc:
                self.container.reload()
                if self.container.status != "running":
                    raise
                return ExecResult(exit_code=-1, output=f"[termrl: the shell could not be started: {exc}]\n",
                                  shell_restarted=True, duration_s=time.monotonic() - start)
            restarted = True
        agent = self._agent
        try:
            token = agent.shell.send_command(command)
            reply = agent.shell.collect(token, start + timeout, self.spec.output_cap)
            if reply is not None:
                return self._result(reply, start, shell_restarted=restarted)
            # Timed out: kill the command's whole tree, keep the shell.
            self._control_run(f"__termrl_kill session {agent.shell.pid}")
            reply = agent.shell.collect(token, time.monotonic() + 3, self.spec.output_cap)
            if reply is not None:
                # Reap the killed jobs now, so bash's "Killed ..." notices don't leak into the next command.
                agent.shell.run("wait", timeout=5, cap=4096)
                return self._result(reply, start, timed_out=True, shell_restarted=restarted)
            # Still running: a builtin loop in the shell itself. The shell has to go.
            partial = agent.shell.partial()
            self._control_run(f"kill -9 {agent.shell.pid} 2>/dev/null; __termrl_kill session {agent.shell.pid}")
            self._replace_agent_shell()
            return self._result(partial, start, timed_out=True, shell_restarted=True)
        except ShellDied:
            partial = agent.shell.partial()
            code = agent.exit_code()
            partial.exit_code = code
            try:
                self._replace_agent_shell()
            except SandboxError as exc:
                # The agent broke the shell itself (e.g. replaced /bin/sh): its episode goes on, the
                # next command tries again, and the verifier restores the shell before the tests.
                self._agent = None
                partial.output += f"\n[termrl: the shell could not be restarted: {exc}]\n".encode()
            return self._result(partial, start, shell_restarted=True)

    def _replace_agent_shell(self) -> None:
        if self._agent is not None:
            self._agent.close()
        self._agent = None
        self._agent = self._start_agent_shell()

    @staticmethod
    def _result(reply: StreamReply, start: float, *, timed_out: bool = False,
                shell_restarted: bool = False) -> ExecResult:
        return ExecResult(
            exit_code=124 if timed_out else reply.exit_code,
            output=reply.text(),
            timed_out=timed_out,
            output_truncated=reply.dropped_bytes > 0,
            shell_restarted=shell_restarted,
            duration_s=time.monotonic() - start,
        )

    @_at_boundary
    def run(self, argv: list[str], *, timeout: float | None = None, env: dict[str, str] | None = None,
            workdir: str | None = None, raw: bool = False, cap: int | None = None) -> ExecResult:
        """A fresh process under coreutils ``timeout`` (which signals the whole process group).

        ``raw``: run ``argv`` as given (an absolute program path is then never looked up in PATH);
        the deadline is only enforced on reading. ``cap``: bytes of output kept (head and tail).
        """
        self._check_open()
        timeout = DEFAULT_COMMAND_TIMEOUT if timeout is None else timeout
        start = time.monotonic()
        wrapped = list(argv) if raw else ["timeout", "-k", "5", str(max(1, int(round(timeout)))), *argv]
        try:
            exec_id = self.api.exec_create(self.container.id, wrapped, stdout=True, stderr=True, tty=False,
                                           environment=env, workdir=workdir)["Id"]
            io_ = self.api.exec_start(exec_id, socket=True)
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot run {argv[:3]} in container {self.container.id[:12]}: {exc}") from exc
        shell = StreamShell(io_._sock)
        chunks = bytearray()
        dropped, cap = 0, cap or self.spec.output_cap * 4
        deadline = start + timeout + 15
        try:
            while True:
                data = shell._recv(deadline)
                if data is None:
                    break
                chunks += data
                if len(chunks) > 2 * cap:
                    dropped += len(chunks) - 2 * cap
                    del chunks[cap : len(chunks) - cap]
        except ShellDied:
            pass
        finally:
            io_.close()
        info = self.api.exec_inspect(exec_id)
        code = -1 if info.get("Running") else int(info.get("ExitCode") or 0)
        if code in (-1, 126, 137) and self._stopping():
            # Killed with its container (docker kill, an engine restart), not by what it ran: no verdict.
            raise SandboxError(f"container {self.container.id[:12]} stopped while running {argv[:3]} (exit {code})")
        reply = StreamReply(code, bytes(chunks), dropped, cap)
        return ExecResult(exit_code=code, output=reply.text(), timed_out=code in (124, 137) and
                          time.monotonic() - start >= timeout, output_truncated=dropped > 0,
                          duration_s=time.monotonic() - start)

    @_at_boundary
    def read_file(self, path: str) -> bytes:
        self._check_open()
        try:
            stream, stat = self.container.get_archive(path)
        except docker.errors.NotFound as exc:
            raise FileNotFoundError(path) from exc
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot read {path}: {exc}") from exc
        if stat.get("mode", 0) & (1 << 31):
            raise IsADirectoryError(path)
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            member = tar.next()
            if member is None or not member.isfile():
                raise SandboxError(f"cannot read {path}: not a regular file")
            handle = tar.extractfile(member)
            return handle.read() if handle else b""

    @_at_boundary
    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        self._check_open()
        payload = data.encode() if isinstance(data, str) else data
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo(path.lstrip("/"))
            info.size, info.mode, info.mtime = len(payload), mode, int(time.time())
            tar.addfile(info, io.BytesIO(payload))
        self._put("/", buf.getvalue(), path)

    @_at_boundary
    def upload_dir(self, local: Path, remote: str) -> None:
        self._check_open()
        if self._exists(remote):  # asked through the API: no process starts for a path that is absent
            self.run(["rm", "-rf", remote], timeout=60)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            tar.add(str(local), arcname=remote.strip("/"))
        self._put("/", buf.getvalue(), remote)

    @_at_boundary
    def download_dir(self, remote: str, max_file_bytes: int = 10 << 20) -> dict[str, bytes]:
        self._check_open()
        try:
            stream, _ = self.container.get_archive(remote.rstrip("/") + "/.")
        except docker.errors.NotFound:
            return {}
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot read {remote}: {exc}") from exc
        files: dict[str, bytes] = {}
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            for member in tar:
                if member.isfile() and member.size <= max_file_bytes:
                    handle = tar.extractfile(member)
                    if handle is not None:
                        name = member.name[2:] if member.name.startswith("./") else member.name
                        files[name] = handle.read()
        return files

    def _exists(self, path: str) -> bool:
        """Whether ``path`` exists in the container (the engine's archive stat; True when it cannot tell)."""
        try:
            res = self.api.head(self.api._url("/containers/{0}/archive", self.container.id), params={"path": path},
                                timeout=30)
        except Exception:  # noqa: BLE001 -- unknown: assume it is there, the rm decides
            return True
        return res.status_code != 404

    def _put(self, at: str, archive: bytes, what: str) -> None:
        try:
            ok = self.container.put_archive(at, archive)
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot write {what}: {exc}") from exc
        if not ok:
            raise SandboxError(f"cannot write {what}")

    @_at_boundary
    def set_network(self, enabled: bool) -> None:
        self._check_open()
        if enabled == self.network:
            return
        bridge = self.client.networks.get("bridge")
        try:
            (bridge.connect if enabled else bridge.disconnect)(self.container)
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot {'connect' if enabled else 'disconnect'} network: {exc}") from exc
        self.network = enabled

    @_at_boundary
    def stop_agent_processes(self, ls: str = "ls") -> tuple[int, list[int]]:
        """Kill every process except PID 1 and those that serve: a process holding a listening
        socket (TCP, or a Unix stream socket), its descendants and its ancestors (below the
        shells Docker started). The agent shell goes too. Returns (killed, kept pids).
        """
        self._check_open()
        # Freeze everything first (builtins only: a fork bomb cannot outrun it, and nothing changes
        # while we look); the servers found are thawed again below.
        try:
            self._control_run("__termrl_stopall")
        except SandboxError:
            # No shell can start (a fork bomb holds every pid, or the OOM killer took the control
            # shell): on a local engine, kill the container's processes from this machine instead.
            if not self._host_kill_all():
                raise
            return self.stop_agent_processes(ls)
        ps = self._control_run("__termrl_ps")
        if len(ps.splitlines()) >= self.spec.pids_limit - 16:
            keep: set[int] = set()  # (near) the pid limit: a fork bomb; listing sockets needs a fork, keep nothing
        else:
            keep = servers(ps, self._control_run("for t in /proc/net/tcp /proc/net/tcp6 /proc/net/unix; do "
                                                 "echo \"== $t\"; __termrl_cat $t 2>/dev/null; done"),
                           self._control_run(f"{ls} -l /proc/[0-9]*/fd/ 2>/dev/null", timeout=60))
        out = self._control_run(f"__termrl_kill except '{' '.join(map(str, sorted(keep)))}'")
        if keep:
            self._control_run(f"kill -CONT {' '.join(map(str, sorted(keep)))} 2>/dev/null; true")
        if self._agent is not None:
            self._agent.close()
            self._agent = None
        try:
            return int(out.strip().splitlines()[-1]), sorted(keep)
        except (ValueError, IndexError):
            return 0, sorted(keep)

    def _host_kill_all(self) -> bool:
        """SIGKILL every process of the container but its PID 1, by host pid (local engine only)."""
        try:
            self.container.reload()
            init = int(self.container.attrs["State"]["Pid"])
            top = self.container.top(ps_args="-eo pid")
        except (docker.errors.APIError, KeyError, ValueError):
            return False
        pids = [int(row[0]) for row in top.get("Processes") or [] if row and str(row[0]).isdigit()]
        killed = False
        for _ in range(3):
            for pid in pids:
                if pid != init and os.path.exists(f"/proc/{pid}"):
                    try:
                        os.kill(pid, 9)
                        killed = True
                    except OSError:
                        pass
            time.sleep(0.2)
            try:
                pids = [int(r[0]) for r in self.container.top(ps_args="-eo pid").get("Processes") or []]
            except docker.errors.APIError:
                break
        if self._control is not None:
            self._control.close()
        self._control = _AttachedShell(self.api, self.container.id, ["sh"], prelude=CONTROL_PRELUDE)
        return killed

    @_at_boundary
    def kill_all(self) -> int:
        """Kill every process except PID 1 and the keeper (agent shell included)."""
        self._check_open()
        out = self._control_run(f"__termrl_kill all {self.keeper_pid}")
        if self._agent is not None:
            self._agent.close()
            self._agent = None
        try:
            return int(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            return 0

    # -- the integrity step's view of the container (Docker API only: nothing runs inside) ------

    @_at_boundary
    def changes(self) -> list[tuple[str, str]]:
        """Paths the container added (A), changed (C) or deleted (D) against its image.

        Docker's diff endpoint is the reference, but this engine's build answers it by walking
        the whole image (seconds for a 600 MB image); when the engine is local and uses
        overlay2, the same answer is read from the container's upper layer directly
        (milliseconds). tests/test_integrity.py checks the two agree.
        """
        self._check_open()
        fast = overlay_changes(self.container.attrs.get("GraphDriver") or {})
        if fast is not None:
            return fast
        return self.api_changes()

    @_at_boundary
    def api_changes(self) -> list[tuple[str, str]]:
        try:
            rows = self.container.diff() or []
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot list the changes of container {self.id[:12]}: {exc}") from exc
        return [(row["Path"], "CAD"[row["Kind"]]) for row in rows]

    @property
    def image_id(self) -> str:
        return self.container.attrs["Image"]

    @_at_boundary
    def image_inventory(self) -> Inventory:
        """The image's toolchain (programs, PATH), for the verifier: cached per image."""
        return inventory(self.client, self.image_id, self.image_env().get("PATH", ""))

    def image_env(self) -> dict[str, str]:
        """The environment the image declares (the agent cannot change it)."""
        pairs = (item.partition("=") for item in self.container.attrs["Config"].get("Env") or [])
        return {k: v for k, _, v in pairs}

    def image_workdir(self) -> str:
        return self.container.attrs["Config"].get("WorkingDir") or "/"

    @_at_boundary
    def read_archive(self, path: str) -> bytes | None:
        """``path`` (file, link or folder) as a tar archive from the container; None if absent."""
        self._check_open()
        return _archive(self.container, path, "")

    @_at_boundary
    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a folder now (not a link): from the upper layer when local, else a stat
        through the API (HEAD .../archive)."""
        self._check_open()
        data = (self.container.attrs.get("GraphDriver") or {}).get("Data") or {}
        upper = data.get("UpperDir")
        if upper and os.path.isdir(upper):
            mine = os.path.join(upper, path.lstrip("/"))
            if os.path.lexists(mine):
                return os.path.isdir(mine) and not os.path.islink(mine)
            return True  # untouched: still the image's folder
        res = self.api.head(self.api._url("/containers/{0}/archive", self.id), params={"path": path})
        header = res.headers.get("X-Docker-Container-Path-Stat")
        if res.status_code != 200 or not header:
            return False
        import base64
        import json

        return bool(json.loads(base64.b64decode(header)).get("mode", 0) & (1 << 31))

    def changed_since(self, path: str, when: float) -> bool:
        """Whether ``path`` in the upper layer was changed after ``when`` (epoch seconds); False when
        the upper layer cannot be read (then a copy the integrity step put back is trusted)."""
        data = (self.container.attrs.get("GraphDriver") or {}).get("Data") or {}
        upper = data.get("UpperDir")
        if not upper or not os.path.isdir(upper):
            return False
        try:
            return os.lstat(os.path.join(upper, path.lstrip("/"))).st_ctime > when
        except OSError:
            return True  # gone or replaced since

    @_at_boundary
    def put_archive(self, at: str, archive: bytes) -> None:
        self._check_open()
        self._put(at, archive, at)

    @_at_boundary
    def pristine(self) -> "PristineImage":
        """A never-started container of this sandbox's image: the image's own files, to copy back."""
        return PristineImage(self.client, self.image_id)

    @_at_boundary
    def pause(self) -> None:
        try:
            self.container.pause()
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot pause container {self.id[:12]}: {exc}") from exc

    @_at_boundary
    def unpause(self) -> None:
        try:
            self.container.unpause()
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot unpause container {self.id[:12]}: {exc}") from exc
    def _stopping(self, window_s: float = 2.0) -> bool:
        """Whether the container stops within ``window_s`` (a killed one still reads as running for a moment)."""
        deadline = time.monotonic() + window_s
        while True:
            try:
                if not self.api.inspect_container(self.container.id)["State"].get("Running"):
                    return True
            except docker.errors.NotFound:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.2)

    def _check_open(self) -> None:
        if self._closed:
            raise SandboxError("sandbox already closed")

    # -- lifecycle ----------------------------------------------------------------------

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for shell in (self._agent, self._control):
            if shell is not None:
                shell.close()
        try:
            self.container.remove(force=True, v=True)
        except docker.errors.NotFound:
            pass
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            if self._on_lost is not None and not isinstance(exc, docker.errors.APIError):
                self._on_lost(self.container.labels.get(SANDBOX_LABEL, ""))  # removed when the engine is back
            else:
                log.warning("could not remove container %s: %s", self.container.id[:12], exc)

    def __enter__(self) -> "DockerSandbox":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def overlay_changes(driver: dict) -> list[tuple[str, str]] | None:
    """Docker's container diff computed from an overlay2 upper layer on this machine; None if unreadable.

    Whiteouts (character devices 0:0) are deletions; an opaque folder hides everything below
    it in the image, so the image's entries it no longer shows are deletions too.
    """
    data = driver.get("Data") or {}
    upper, lowers = data.get("UpperDir"), [d for d in (data.get("LowerDir") or "").split(":") if d]
    if driver.get("Name") != "overlay2" or not upper or not os.path.isdir(upper) or not os.access(upper, os.R_OK):
        return None
    out: list[tuple[str, str]] = []

    def in_image(rel: str) -> bool:
        return any(os.path.lexists(os.path.join(low, rel)) for low in lowers)

    for root, dirs, files in os.walk(upper):
        rel_root = os.path.relpath(root, upper)
        rel_root = "" if rel_root == "." else rel_root
        for name in dirs + files:
            full = os.path.join(root, name)
            rel = os.path.join(rel_root, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            if stat.S_ISCHR(st.st_mode) and st.st_rdev == 0:
                out.append(("/" + rel, "D"))
                continue
            out.append(("/" + rel, "C" if in_image(rel) else "A"))
            if stat.S_ISDIR(st.st_mode) and not stat.S_ISLNK(st.st_mode):
                try:
                    opaque = os.getxattr(full, "trusted.overlay.opaque", follow_symlinks=False) == b"y"
                except OSError:
                    opaque = False
                if opaque:
                    shown = set(os.listdir(full))
                    for low in lowers:
                        try:
                            hidden = os.listdir(os.path.join(low, rel))
                        except OSError:
                            continue
                        out.extend(("/" + os.path.join(rel, h), "D") for h in hidden if h not in shown)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
    return sorted(set(out))


class PristineImage:
    """A created (never started) container of an image: reading its files reads the image's."""

    def __init__(self, client: docker.DockerClient, image: str):
        self.client = client
        labels = {LABEL: "1", **owner_labels(), f"{LABEL}.created": str(int(time.time())), f"{LABEL}.role": "pristine"}
        try:
            self.container = client.containers.create(image, ["true"], labels=labels, network_disabled=True)
        except (docker.errors.DockerException, requests.exceptions.RequestException) as exc:
            lost = "lost the Docker engine: " if engine_down(exc) else ""
            raise SandboxError(f"cannot create a pristine container of {image[:19]}: {lost}{exc}") from exc

    @_at_boundary
    def archive(self, path: str) -> bytes | None:
        """``path`` from the image as a tar archive (links stay links); None if the image lacks it."""
        return _archive(self.container, path, " from the image")

    def close(self) -> None:
        try:
            self.container.remove(force=True, v=True)
        except (docker.errors.DockerException, requests.exceptions.RequestException):
            pass  # gone, or the engine is: the reaper removes it (labelled) on the next run

    def __enter__(self) -> "PristineImage":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DockerProvider:
    """Starts DockerSandbox containers, labelled with their owning process (see ``sandbox.reaper``).

    On construction it removes the containers of ended termrl runs on its engine (``reap=False``
    to skip). ``engine_retry_s`` bounds the pause when the engine stops answering.
    """

    name = "docker"

    def __init__(self, client: docker.DockerClient | None = None, *, reap: bool = True,
                 engine_retry_s: float = DEFAULT_ENGINE_RETRY_S):
        self.client = client or docker_client()
        self.engine_retry_s = engine_retry_s
        self._lost: set[str] = set()
        self._lost_lock = threading.Lock()
        self._bridge: bool | None = None
        if reap:
            reap_orphans(self.client)

    def _engine_call(self, what: str, fn):
        """``fn()``, pausing while the engine is away (bounded); then remove containers lost meanwhile."""
        for _ in range(5):  # an engine that keeps dropping out mid-call is as good as down
            try:
                out = fn()
            except Exception as exc:
                if not engine_down(exc) and not engine_down(exc.__cause__ or exc):
                    raise
                wait_for_engine(self.client, self.engine_retry_s, f"{what}: {type(exc).__name__}")
                continue
            self._remove_lost()
            return out
        raise EngineUnavailable(f"the Docker engine kept dropping the connection during {what} -- fix: check dockerd "
                                "and its log, then resume the run")

    def _lose(self, token: str) -> None:
        """Remember a container (by its ``termrl.sandbox`` label) to remove once the engine answers."""
        if token:
            with self._lost_lock:
                self._lost.add(token)

    def _remove_lost(self) -> None:
        with self._lost_lock:
            lost, self._lost = self._lost, set()
        for token in lost:
            try:
                for c in self.client.containers.list(all=True, ignore_removed=True,
                                                     filters={"label": f"{SANDBOX_LABEL}={token}"}):
                    c.remove(force=True, v=True)
            except docker.errors.NotFound:
                pass
            except (docker.errors.DockerException, requests.exceptions.RequestException):
                self._lose(token)

    def close(self) -> None:
        """Remove containers that could not be removed while the engine was away (if it answers now)."""
        if self._lost:
            try:
                self.client.ping()
            except (docker.errors.DockerException, requests.exceptions.RequestException):
                log.warning("%d container(s) could not be removed (engine away); the next termrl command "
                            "reaps them", len(self._lost))
                return
            self._remove_lost()

    def _has_bridge(self) -> bool:
        """Whether the engine has its default bridge (``dockerd --bridge=none`` has none: no network at all)."""
        if self._bridge is None:
            self._bridge = any(n.name == "bridge" for n in self.client.networks.list(names=["bridge"]))
        return self._bridge

    def image_for(self, task: Task, config: ImageConfig) -> str:
        return self._engine_call(f"building the image of {task.name}",
                                 lambda: build_task_image(self.client, task, config))

    def start(self, spec: SandboxSpec) -> DockerSandbox:
        return self._engine_call(f"starting a container from {spec.image}", lambda: self._start(spec))

    def _start(self, spec: SandboxSpec) -> DockerSandbox:
        token = uuid.uuid4().hex
        labels = {LABEL: "1", **owner_labels(), f"{LABEL}.created": str(int(time.time())), SANDBOX_LABEL: token}
        labels.update(dict(spec.labels))
        bridge = self._has_bridge()
        if spec.network and not bridge:
            raise SandboxError(f"the Docker engine at {engine_url(self.client)} has no default bridge network, and "
                               "this sandbox needs network -- fix: run dockerd with a bridge, or set "
                               "allow_internet = false")
        try:
            container = self.client.containers.create(
                spec.image, ["sh", "-c", KEEPER], init=False, detach=True, labels=labels,
                nano_cpus=int(spec.cpus * 1e9), mem_limit=f"{spec.memory_mb}m", memswap_limit=f"{spec.memory_mb}m",
                pids_limit=spec.pids_limit, working_dir=spec.workdir or None, hostname="sandbox",
                **({} if bridge else {"network_mode": "none"}),
            )
        except docker.errors.ImageNotFound as exc:
            raise SandboxError(f"image {spec.image} not found -- fix: build it first (termrl images build)") from exc
        except requests.exceptions.RequestException:
            self._lose(token)  # the engine may have created it before the connection dropped
            raise
        except docker.errors.APIError as exc:
            raise SandboxError(f"cannot create a container from {spec.image}: {exc}") from exc
        try:
            if not spec.network and bridge:
                # Disconnect before start: no process ever runs with network.
                self.client.networks.get("bridge").disconnect(container)
            container.start()
            return DockerSandbox(self.client, container, spec, on_lost=self._lose)
        except Exception as exc:
            try:
                container.remove(force=True)
            except (docker.errors.DockerException, requests.exceptions.RequestException):
                self._lose(token)
            if engine_down(exc):
                raise
            if isinstance(exc, (docker.errors.DockerException, requests.exceptions.RequestException)):
                raise SandboxError(f"cannot start a container from {spec.image}: {exc}") from exc
            raise


def clean_orphans(client: docker.DockerClient, *, everything: bool = False) -> list[str]:
    """``termrl clean``: remove termrl containers whose owning process is gone (or all of them).

    Besides what :func:`reap_orphans` removes automatically, this also takes containers labelled
    by older termrl versions (a pid only) when no process has that pid on this host.
    """
    import os

    removed = []
    for container in client.containers.list(all=True, ignore_removed=True, filters={"label": LABEL}):
        state = owner_state(container.labels)
        owner = container.labels.get(f"{LABEL}.owner_pid", "")
        if state == "unknown" and f"{LABEL}.owner_start" not in container.labels and owner.isdigit():
            try:
                os.kill(int(owner), 0)
                state = "alive"
            except ProcessLookupError:
                state = "gone"
            except PermissionError:
                state = "alive"
        if everything or state == "gone":
            try:
                container.remove(force=True, v=True)
            except docker.errors.NotFound:
                continue
            removed.append(container.name)
    return removed
