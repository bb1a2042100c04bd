import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

# Every wait is a bounded poll whose deadline only matters if something is truly stuck.
WAIT = 120


def eventually(pred, what, timeout=WAIT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not reached within {timeout} s")

# Times are on the boot-time clock. A child logs as its start the moment the kernel created it (its
# /proc/self/stat start time, i.e. when the supervisor spawned it), not when Python got going, which a loaded
# machine delays. Programs that must exit while RUNNING wait until the state file says they are RUNNING;
# programs that must fail while STARTING have a long startsecs. So what is checked does not depend on how
# fast the machine is, and a delay is measured from its true start (load can only lengthen it).
CHILD = textwrap.dedent('''
    import json, os, signal, sys, time
    name, mode, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    def log(path, text):
        with open(os.path.join(workdir, path), "a") as fh:
            fh.write(text + "\\n")
    def now():
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    with open("/proc/self/stat") as fh:
        created = int(fh.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    log(name + ".starts", repr(created))
    log(name + ".env", os.environ.get("SUPERVISE_PROGRAM", "-"))
    print(f"{name} says hello", flush=True)
    def on_term(s, f):
        log("terms", f"{name} {now()!r}")
        if mode != "stubborn":
            sys.exit(0)
    signal.signal(signal.SIGTERM, on_term)
    log(name + ".ready", str(os.getpid()))
    n = len(open(os.path.join(workdir, name + ".starts")).read().split())
    if mode == "crash":
        log(name + ".exits", repr(now()))
        sys.exit(3)
    if mode.startswith("exit"):          # exitCODE[:once]: exit with CODE once the supervisor says RUNNING
        code, _, once = mode[4:].partition(":")
        if not once or n == 1:
            while True:
                try:
                    with open(os.path.join(workdir, "state.json")) as fh:
                        me = json.load(fh).get(name, {})
                    if me.get("state") == "RUNNING" and me.get("pid") == os.getpid():
                        break
                except (OSError, ValueError):
                    pass
                time.sleep(0.05)
            sys.exit(int(code))
    if mode == "stubborn":
        subprocess_pid = os.fork()
        if subprocess_pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            log("grandchild.pid", str(os.getpid()))
            while True:
                time.sleep(1)
    while True:
        time.sleep(0.1)
''')


class Sup:
    def __init__(self, tmp, programs):
        self.dir = tmp
        (tmp / "child.py").write_text(CHILD)
        self.state_file = tmp / "state.json"
        lines = ["[supervise]", f"state_file = {self.state_file}", ""]
        for name, opts in programs.items():
            mode = opts.pop("mode", "ok")
            lines.append(f"[program:{name}]")
            lines.append(f"command = {sys.executable} {tmp}/child.py {name} {mode} {tmp}")
            lines.append(f"log = {tmp}/{name}.log")
            for k, v in opts.items():
                lines.append(f"{k} = {v}")
            lines.append("")
        (tmp / "sup.ini").write_text("\n".join(lines))
        self.proc = subprocess.Popen([sys.executable, "/app/supervise.py", str(tmp / "sup.ini")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def state(self):
        return json.loads(self.state_file.read_text())

    def wait_for(self, pred, timeout=WAIT):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                last = self.state()
                if pred(last):
                    return last
            except (FileNotFoundError, json.JSONDecodeError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"condition not reached; last state: {last}")

    def starts(self, name):
        p = self.dir / f"{name}.starts"
        return [float(x) for x in p.read_text().split()] if p.exists() else []

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        return self.proc.returncode


@pytest.fixture
def sups():
    made = []
    yield made
    for s in made:
        s.stop()
        try:
            os.killpg(s.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        st = {}
        try:
            st = s.state()
        except Exception:
            pass
        for v in st.values():
            if v.get("pid"):
                try:
                    os.killpg(v["pid"], signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    st = Path(f"/proc/{pid}/status").read_text()
    return "State:\tZ" not in st


def test_basic_running_program(tmp_path, sups):
    s = Sup(tmp_path, {"web": {"startsecs": "1"}})
    sups.append(s)
    st = s.wait_for(lambda st: st["web"]["state"] in ("STARTING", "RUNNING"))
    st = s.wait_for(lambda st: st["web"]["state"] == "RUNNING")
    pid = st["web"]["pid"]
    assert alive(pid) and os.getpgid(pid) == pid
    assert os.readlink(f"/proc/{pid}/fd/0") == "/dev/null"
    eventually(lambda: (tmp_path / "web.ready").exists(), "the child got going")
    assert (tmp_path / "web.env").read_text().split() == ["web"]
    eventually(lambda: "web says hello" in (tmp_path / "web.log").read_text(), "the child's output in its log")
    assert st["web"]["restarts"] == 0 and st["web"]["exit_code"] is None


def test_backoff_then_fatal(tmp_path, sups):
    s = Sup(tmp_path, {"bad": {"mode": "crash", "startsecs": "30", "startretries": "2"},
                       "good": {"startsecs": "0.2"}})
    sups.append(s)
    st = s.wait_for(lambda st: st["bad"]["state"] == "FATAL")
    assert st["bad"]["pid"] is None and st["bad"]["exit_code"] == 3
    time.sleep(2)
    starts = s.starts("bad")
    assert len(starts) == 3, "1 + startretries attempts"
    # the 0.5 s back-off: from the child's own exit to the creation of the next child
    exits = [float(x) for x in (tmp_path / "bad.exits").read_text().split()]
    assert len(exits) == 3
    assert starts[1] - exits[0] >= 0.45 and starts[2] - exits[1] >= 0.45, (starts, exits)
    s.wait_for(lambda st: st["good"]["state"] == "RUNNING")


def test_restart_policies(tmp_path, sups):
    s = Sup(tmp_path, {
        "clean_exit": {"mode": "exit0", "startsecs": "0.5"},
        "bad_exit": {"mode": "exit5:once", "startsecs": "0.5"},
        "always": {"mode": "exit0:once", "startsecs": "0.5", "autorestart": "true"},
        "never": {"mode": "exit9", "startsecs": "0.5", "autorestart": "false"},
        "expected2": {"mode": "exit2", "startsecs": "0.5", "exitcodes": "0,2"},
    })
    sups.append(s)
    st = s.wait_for(lambda st: st["clean_exit"]["state"] == "EXITED" and st["never"]["state"] == "EXITED"
                    and st["expected2"]["state"] == "EXITED" and st["bad_exit"]["restarts"] == 1
                    and st["always"]["restarts"] == 1)
    assert (st["clean_exit"]["exit_code"], st["clean_exit"]["restarts"]) == (0, 0)
    assert (st["never"]["exit_code"], st["never"]["restarts"]) == (9, 0)
    assert (st["expected2"]["exit_code"], st["expected2"]["restarts"]) == (2, 0)
    st = s.wait_for(lambda st: st["bad_exit"]["state"] == "RUNNING" and st["always"]["state"] == "RUNNING")
    assert st["bad_exit"]["exit_code"] == 5 and st["always"]["exit_code"] == 0
    eventually(lambda: len(s.starts("bad_exit")) == 2, "the restarted child logged its start")
    assert len(s.starts("clean_exit")) == 1


def test_dependencies(tmp_path, sups):
    s = Sup(tmp_path, {
        "app": {"depends_on": "db, cache", "startsecs": "0.5"},
        "db": {"startsecs": "1.5"},
        "cache": {"startsecs": "0.5"},
        "manual": {"autostart": "false"},
        "blocked": {"depends_on": "manual"},
        "broken": {"mode": "crash", "startsecs": "30", "startretries": "0"},
        "orphan": {"depends_on": "broken"},
    })
    sups.append(s)
    st = s.wait_for(lambda st: st["app"]["state"] == "RUNNING")
    # a child logs its creation time once Python got going, which may be after the state says RUNNING
    eventually(lambda: all(s.starts(n) for n in ("app", "db", "cache")), "the children logged their start")
    # app is spawned only after db (startsecs 1.5) and cache (0.5) are RUNNING: compare creation times
    assert s.starts("app")[0] >= s.starts("db")[0] + 1.4, (s.starts("app"), s.starts("db"))
    assert s.starts("app")[0] >= s.starts("cache")[0] + 0.4, (s.starts("app"), s.starts("cache"))
    s.wait_for(lambda st: st["broken"]["state"] == "FATAL")
    time.sleep(1.0)
    st = s.state()
    assert st["manual"]["state"] == "STOPPED" and st["blocked"]["state"] == "STOPPED"
    assert st["broken"]["state"] == "FATAL" and st["orphan"]["state"] == "STOPPED"
    assert s.starts("manual") == [] and s.starts("blocked") == [] and s.starts("orphan") == []


def test_shutdown_order_and_escalation(tmp_path, sups):
    s = Sup(tmp_path, {
        "db": {"startsecs": "0.3"},
        "app": {"depends_on": "db", "startsecs": "0.3"},
        "stubborn": {"mode": "stubborn", "startsecs": "0.3", "stopwaitsecs": "1"},
    })
    sups.append(s)
    st = s.wait_for(lambda st: all(v["state"] == "RUNNING" for v in st.values()))
    pids = [v["pid"] for v in st.values()]
    # every child has its SIGTERM handler in place (and the stubborn one its grandchild) before the shutdown
    eventually(lambda: all((tmp_path / f"{n}.ready").exists() for n in ("db", "app", "stubborn")), "children ready")
    gp = tmp_path / "grandchild.pid"
    eventually(lambda: gp.exists() and gp.read_text().split(), "the grandchild started")
    grand = int((tmp_path / "grandchild.pid").read_text().split()[0])
    rc = s.stop()   # the stubborn child ignores SIGTERM: only the escalation to SIGKILL ends the supervisor
    assert rc == 0
    for p in pids + [grand]:
        assert not alive(p), f"process {p} survived the shutdown"
    final = s.state()
    assert all(v["state"] == "STOPPED" and v["pid"] is None for v in final.values())
    terms = [l.split()[0] for l in (tmp_path / "terms").read_text().splitlines()]
    assert terms.index("app") < terms.index("db")


def test_state_file_always_valid_json(tmp_path, sups):
    s = Sup(tmp_path, {f"p{i}": {"mode": "crash", "startsecs": "30", "startretries": "3"} for i in range(4)})
    sups.append(s)
    # read the file over and over while 16 failed starts rewrite it: every read must be a whole JSON object
    deadline = time.time() + WAIT
    reads, done = 0, False
    while not (done and reads >= 50):
        assert time.time() < deadline, f"not all FATAL within {WAIT} s ({reads} reads)"
        try:
            data = s.state_file.read_text()
        except FileNotFoundError:
            continue
        done = all(v["state"] == "FATAL" for v in json.loads(data).values())
        reads += 1
        time.sleep(0.005)
    assert sum(len(s.starts(f"p{i}")) for i in range(4)) == 16
