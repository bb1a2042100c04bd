import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

CTL = "/app/svc/ctl.sh"
PIDFILE = Path("/run/worker.pid")


def workers():
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                cmd = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                state = [l for l in Path(f"/proc/{p}/status").read_text().splitlines() if l.startswith("State:")][0]
            except (OSError, IndexError):
                continue
            if "/app/svc/worker.py" in cmd and "Z" not in state.split()[1]:
                out.append(int(p))
    return out


def ctl(*args, env=None, timeout=8):
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.time()
    r = subprocess.run([CTL, *args], capture_output=True, text=True, timeout=timeout, env=e)
    return r.returncode, r.stdout.strip(), r.stderr.strip(), time.time() - t0


@pytest.fixture(autouse=True)
def clean():
    yield
    for pid in workers():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    PIDFILE.unlink(missing_ok=True)
    Path("/run/worker.ready").unlink(missing_ok=True)


def test_start_detached_and_status():
    rc, out, err, dt = ctl("start")
    assert rc == 0, err
    pid = int(PIDFILE.read_text().strip())
    assert workers() == [pid]
    assert os.getsid(pid) == pid, "worker must run in its own session"
    assert os.readlink(f"/proc/{pid}/fd/0") == "/dev/null"
    assert "worker: starting" in Path("/var/log/worker.log").read_text()
    assert ctl("status")[:2] == (0, f"running (pid {pid})")


def test_start_twice_is_idempotent():
    assert ctl("start")[0] == 0
    pid = int(PIDFILE.read_text())
    rc, out, _, _ = ctl("start")
    assert (rc, out) == (0, f"already running (pid {pid})")
    assert workers() == [pid]


def test_stop_and_not_running():
    ctl("start")
    pid = int(PIDFILE.read_text())
    rc, out, err, dt = ctl("stop")
    assert rc == 0 and workers() == [] and not PIDFILE.exists()
    assert ctl("stop")[:2] == (0, "not running")
    assert ctl("status")[:2] == (3, "not running")


def test_stale_pidfile_with_reused_pid():
    decoy = subprocess.Popen(["sleep", "60"])
    try:
        PIDFILE.write_text(f"{decoy.pid}\n")
        assert ctl("status")[:2] == (1, "dead but pid file exists")
        rc, out, err, _ = ctl("start")
        assert rc == 0, err
        pid = int(PIDFILE.read_text())
        assert pid != decoy.pid and workers() == [pid]
        assert ctl("stop")[0] == 0
        assert decoy.poll() is None, "stop killed an unrelated process"
        assert workers() == []
    finally:
        decoy.kill()
        decoy.wait()


def test_stop_escalates_to_sigkill():
    assert ctl("start", env={"WORKER_MODE": "ignore_term"})[0] == 0
    rc, out, err, dt = ctl("stop", env={"STOP_TIMEOUT": "1"})
    assert rc == 0 and dt < 5
    assert workers() == [] and not PIDFILE.exists()


def test_failed_start():
    rc, out, err, dt = ctl("start", env={"WORKER_MODE": "crash"})
    assert rc == 1 and "failed to start" in err
    assert not PIDFILE.exists() and workers() == []
    assert dt < 8


def test_restart_and_usage():
    ctl("start")
    old = int(PIDFILE.read_text())
    rc, _, err, _ = ctl("restart")
    assert rc == 0, err
    new = int(PIDFILE.read_text())
    assert new != old and workers() == [new]
    assert ctl("bogus")[0] == 2
