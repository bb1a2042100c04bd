import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

CTL = "/app/svc/ctl.sh"
PIDFILE = Path("/run/worker.pid")
LOG = Path("/var/log/worker.log")
# Wall-clock limit on one ctl.sh call: only a guard against a call that hangs (e.g. stays attached to the
# worker). A loaded machine stretches every call, so no test bounds a call's elapsed time; a delay is
# measured from its true start instead (see ctl_watching).
HANG_GUARD = 120


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


def ctl(*args, env=None, timeout=HANG_GUARD):
    e = dict(os.environ)
    e.update(env or {})
    t0 = time.time()
    r = subprocess.run([CTL, *args], capture_output=True, text=True, timeout=timeout, env=e)
    return r.returncode, r.stdout.strip(), r.stderr.strip(), time.time() - t0


def ctl_watching(line, *args, env=None):
    """Run ctl.sh and watch the worker's log while it runs. Returns (exit code, stderr, seconds from the
    moment ``line`` appeared in the log to the moment ctl.sh exited): how long the script went on after the
    event it must react to. Both moments are seen by the same polling loop, so load delays both alike. If the
    line never appeared (the worker was killed before it could print it), the call's own start is used."""
    e = dict(os.environ)
    e.update(env or {})
    start = LOG.stat().st_size if LOG.exists() else 0
    called = time.time()
    proc = subprocess.Popen([CTL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
    deadline = called + HANG_GUARD
    seen = None

    def look():
        if LOG.exists():
            with LOG.open("rb") as fh:
                fh.seek(start)
                return line.encode() in fh.read()
        return False

    while proc.poll() is None:
        if time.time() > deadline:
            proc.kill()
            raise AssertionError(f"ctl.sh {' '.join(args)} did not return within {HANG_GUARD} s")
        if seen is None and look():
            seen = time.time()
        time.sleep(0.02)
    done = time.time()
    if seen is None and look():   # it appeared after the last look: within one poll of the exit
        seen = done
    _, err = proc.communicate(timeout=HANG_GUARD)
    return proc.returncode, err.strip(), done - (called if seen is None else seen)


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
    t0 = time.time()
    rc, out, err, _ = ctl("stop", env={"STOP_TIMEOUT": "1"})
    assert rc == 0, err
    assert time.time() - t0 >= 1.0, "SIGKILL came before STOP_TIMEOUT=1 s had passed"
    assert workers() == [] and not PIDFILE.exists()


def test_failed_start():
    rc, err, after_crash = ctl_watching("worker: cannot connect to queue", "start", env={"WORKER_MODE": "crash"})
    assert rc == 1 and "failed to start" in err
    assert not PIDFILE.exists() and workers() == []
    # the script notices the death instead of sitting out the 10 s readiness window
    assert after_crash < 8, f"start returned {after_crash:.1f} s after the worker died"


def test_restart_and_usage():
    ctl("start")
    old = int(PIDFILE.read_text())
    rc, _, err, _ = ctl("restart")
    assert rc == 0, err
    new = int(PIDFILE.read_text())
    assert new != old and workers() == [new]
    assert ctl("bogus")[0] == 2
