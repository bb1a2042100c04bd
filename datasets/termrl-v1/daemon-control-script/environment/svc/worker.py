"""queue worker daemon (runs in the foreground; a control script must daemonize it).

Environment: WORKER_MODE = normal | ignore_term | crash   (default normal)
Signals readiness by creating /run/worker.ready about one second after start.
"""
import os
import signal
import sys
import time

mode = os.environ.get("WORKER_MODE", "normal")
READY = "/run/worker.ready"


def on_term(signum, frame):
    if mode == "ignore_term":
        print("worker: ignoring SIGTERM", flush=True)
        return
    print("worker: shutting down", flush=True)
    try:
        os.unlink(READY)
    except FileNotFoundError:
        pass
    sys.exit(0)


signal.signal(signal.SIGTERM, on_term)
print(f"worker: starting (mode={mode}, pid={os.getpid()})", flush=True)
time.sleep(0.5)
if mode == "crash":
    print("worker: cannot connect to queue", flush=True)
    sys.exit(1)
time.sleep(0.5)
open(READY, "w").write(str(os.getpid()))
while True:
    time.sleep(0.2)
