"""Stopping a run cleanly: on SIGTERM/SIGINT, or on a fault that makes going on pointless.

What a stop does (the same for both signals, and for a fatal fault such as the Docker engine
staying down or the run's disk filling up):

1. no new episode is drawn (the rollout engine and ``termrl run`` check :meth:`Shutdown.requested`);
2. every sandbox in flight is closed at once, so its episode ends now; the episode runner records
   it with ``error.boundary = "interrupted"`` (an infrastructure error: the trainer masks it, and a
   resumed run runs it again);
3. the trainer saves a checkpoint if it updated the model since its last one;
4. the command exits non-zero with one line saying how to resume.

All of that has ``grace_s`` seconds (``TrainConfig.grace_s`` / ``--grace``, default 30). Past it a
watchdog removes this process's containers (bounded) and exits anyway: the next ``termrl`` command
that starts sandboxes reaps whatever is left (:mod:`termrl.sandbox.reaper`), and a resumed run
reruns what has no row.

One :data:`STOP` per process: signal handlers are per process too.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_GRACE_S = 30.0
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}
FAULT_EXIT_CODE = 3
"""Exit status after a fatal fault (engine down past its bound, disk full)."""


class Shutdown:
    """A process-wide stop request, the sandboxes in flight, and the grace-period watchdog."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._live: dict[int, Any] = {}
        self._installed = 0
        self._previous: dict[int, Any] = {}
        self.grace_s = DEFAULT_GRACE_S
        self.reason: str | None = None
        self.signum: int | None = None
        self.fatal = False
        self.interrupted_episodes = 0
        self._watchdog: threading.Timer | None = None

    # -- state ----------------------------------------------------------------------------

    @property
    def requested(self) -> bool:
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True at once when a stop is requested (for backoff loops)."""
        return self._event.wait(max(0.0, seconds))

    @property
    def exit_code(self) -> int:
        if self.signum is not None:
            return EXIT_CODES.get(self.signum, 128 + self.signum)
        return FAULT_EXIT_CODE

    def reset(self) -> None:
        """Forget a previous stop (a new command, or a test, in the same process)."""
        with self._lock:
            self._event.clear()
            self.reason, self.signum, self.fatal, self.interrupted_episodes = None, None, False, 0
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None

    # -- sandboxes in flight --------------------------------------------------------------

    def track(self, sandbox: Any) -> None:
        """Register an episode's sandbox; if a stop came meanwhile, close it at once."""
        with self._lock:
            self._live[id(sandbox)] = sandbox
            stopping = self._event.is_set()
        if stopping:
            _close_quietly(sandbox)

    def untrack(self, sandbox: Any) -> None:
        with self._lock:
            self._live.pop(id(sandbox), None)

    # -- requests -------------------------------------------------------------------------

    def request(self, reason: str, *, signum: int | None = None, fatal: bool = False) -> None:
        """Ask the run to stop (idempotent: the first reason is kept)."""
        with self._lock:
            first = not self._event.is_set()
            if first:
                self.reason, self.signum, self.fatal = reason, signum, fatal
                self._event.set()
                boxes = list(self._live.values())
                if self._installed and self.grace_s > 0:
                    self._watchdog = threading.Timer(self.grace_s, self._expire)
                    self._watchdog.daemon = True
                    self._watchdog.start()
        if not first:
            return
        log.warning("stopping: %s", reason)
        # Closing sandboxes blocks on the engine: not in the signal handler's frame.
        threading.Thread(target=lambda: [_close_quietly(b) for b in boxes], name="termrl-stop", daemon=True).start()

    def _on_signal(self, signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        if self.requested:
            print(f"termrl: {name} again; still stopping (at most {self.grace_s:g} s from the first signal)",
                  file=sys.stderr, flush=True)
            return
        self.request(f"{name} received", signum=signum)

    def _expire(self) -> None:
        print(f"termrl: the {self.grace_s:g} s grace period is over; exiting now (leftover containers are "
              "removed by the next termrl command, and resuming reruns unfinished episodes)",
              file=sys.stderr, flush=True)
        done = threading.Event()

        def remove() -> None:
            try:
                import docker

                from termrl.sandbox.reaper import remove_own

                remove_own(docker.from_env(timeout=10))
            except Exception:  # the last resort may fail: the next command reaps
                pass
            done.set()

        threading.Thread(target=remove, daemon=True).start()
        done.wait(10)
        os._exit(self.exit_code)

    @contextlib.contextmanager
    def installed(self, grace_s: float = DEFAULT_GRACE_S) -> Iterator["Shutdown"]:
        """Handle SIGTERM and SIGINT as a stop request while the block runs (main thread only)."""
        if grace_s < 0:
            raise ValueError(f"grace period must be >= 0 seconds, got {grace_s}")
        self.reset()
        self.grace_s = grace_s
        main = threading.current_thread() is threading.main_thread()
        if main:
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._previous[sig] = signal.signal(sig, self._on_signal)
        self._installed += 1
        try:
            yield self
        finally:
            self._installed -= 1
            if main:
                for sig, handler in self._previous.items():
                    signal.signal(sig, handler)
                self._previous.clear()
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None

    def resume_line(self, how: str) -> str:
        """The one line a stopped command prints."""
        what = f"{self.interrupted_episodes} episode(s) in flight recorded as interrupted; " \
            if self.interrupted_episodes else ""
        return f"termrl: stopped ({self.reason}); {what}resume with: {how}"


def _close_quietly(sandbox: Any) -> None:
    try:
        sandbox.close()
    except Exception as exc:  # closing during a stop: the reaper gets what is left
        log.warning("could not close a sandbox while stopping: %s", exc)


STOP = Shutdown()
"""This process's stop request (signal handlers are per process)."""


def command_line(extra: str = "") -> str:
    """The command this process was started with (to tell the user how to resume)."""
    import shlex

    argv = list(sys.argv)
    if argv and argv[0].endswith(("__main__.py", "/termrl")):
        argv[0] = "termrl"
    parts = [shlex.quote(a) for a in argv]
    if extra and extra not in argv:
        parts.append(extra)
    return " ".join(parts)
