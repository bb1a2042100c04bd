import configparser
import json
import os
import shlex
import signal
import subprocess
import sys
import time


class Prog:
    def __init__(self, name, sec):
        self.name = name
        self.argv = shlex.split(sec["command"])
        self.autostart = sec.get("autostart", "true").strip().lower() == "true"
        self.autorestart = sec.get("autorestart", "unexpected").strip().lower()
        self.exitcodes = {int(x) for x in sec.get("exitcodes", "0").split(",") if x.strip()}
        self.startsecs = float(sec.get("startsecs", "1"))
        self.startretries = int(sec.get("startretries", "3"))
        self.stopwaitsecs = float(sec.get("stopwaitsecs", "5"))
        self.deps = [d.strip() for d in sec.get("depends_on", "").split(",") if d.strip()]
        self.log = sec.get("log", "/dev/null")
        self.state = "STOPPED"
        self.proc = None
        self.started_at = 0.0
        self.failures = 0
        self.restarts = 0
        self.exit_code = None
        self.retry_at = None
        self.pending = self.autostart


class Supervisor:
    def __init__(self, path):
        cp = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
        cp.read(path)
        self.state_file = cp["supervise"]["state_file"]
        self.progs = {}
        for s in cp.sections():
            if s.startswith("program:"):
                self.progs[s[8:]] = Prog(s[8:], cp[s])
        self.stopping = False

    def write_state(self):
        data = {n: {"state": p.state, "pid": p.proc.pid if p.proc and p.state in ("STARTING", "RUNNING") else None,
                    "restarts": p.restarts, "exit_code": p.exit_code} for n, p in self.progs.items()}
        tmp = self.state_file + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(data, fh)
        os.replace(tmp, self.state_file)

    def spawn(self, p):
        env = dict(os.environ, SUPERVISE_PROGRAM=p.name)
        log = open(p.log, "ab")
        try:
            p.proc = subprocess.Popen(p.argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
                                      start_new_session=True)
        except OSError:
            p.proc = None
            p.exit_code = 127
            self.fail_start(p)
            return
        finally:
            log.close()
        p.started_at = time.monotonic()
        p.state = "STARTING"
        p.pending = False
        self.write_state()

    def fail_start(self, p):
        p.failures += 1
        if p.failures >= 1 + p.startretries:
            p.state = "FATAL"
            p.retry_at = None
        else:
            p.state = "BACKOFF"
            p.retry_at = time.monotonic() + 0.5
        p.pending = False
        self.write_state()

    def tick(self):
        now = time.monotonic()
        for p in self.progs.values():
            if p.proc is not None and p.state in ("STARTING", "RUNNING"):
                rc = p.proc.poll()
                if rc is not None:
                    p.exit_code = rc
                    p.proc = None
                    if p.state == "STARTING":
                        self.fail_start(p)
                    else:
                        expected = rc in p.exitcodes
                        again = p.autorestart == "true" or (p.autorestart == "unexpected" and not expected)
                        if again:
                            p.restarts += 1
                            p.failures = 0
                            self.spawn(p)
                        else:
                            p.state = "EXITED"
                            self.write_state()
                elif p.state == "STARTING" and now - p.started_at >= p.startsecs:
                    p.state = "RUNNING"
                    p.failures = 0
                    self.write_state()
            elif p.state == "BACKOFF" and p.retry_at is not None and now >= p.retry_at:
                self.spawn(p)
            elif p.state == "STOPPED" and p.pending:
                if all(self.progs[d].state == "RUNNING" for d in p.deps if d in self.progs) and \
                        all(d in self.progs for d in p.deps):
                    self.spawn(p)

    def stop_order(self):
        order, seen = [], set()

        def visit(n):
            if n in seen:
                return
            seen.add(n)
            for m, q in self.progs.items():
                if n in q.deps:
                    visit(m)
            order.append(n)

        for n in sorted(self.progs):
            visit(n)
        return order

    def shutdown(self):
        for n in self.stop_order():
            p = self.progs[n]
            if p.proc is not None and p.proc.poll() is None:
                try:
                    os.killpg(p.proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                deadline = time.monotonic() + p.stopwaitsecs
                while p.proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.05)
                if p.proc.poll() is None:
                    try:
                        os.killpg(p.proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    p.proc.wait()
                p.exit_code = p.proc.returncode
            p.proc = None
            p.state = "STOPPED"
        self.write_state()

    def run(self):
        def on_sig(signum, frame):
            self.stopping = True

        signal.signal(signal.SIGTERM, on_sig)
        signal.signal(signal.SIGINT, on_sig)
        self.write_state()
        while not self.stopping:
            self.tick()
            time.sleep(0.05)
        self.shutdown()
        return 0


if __name__ == "__main__":
    sys.exit(Supervisor(sys.argv[1]).run())
