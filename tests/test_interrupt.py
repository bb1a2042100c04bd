"""Preemption: real `termrl run` / `termrl train` processes sent SIGTERM, SIGINT or SIGKILL.

SIGTERM/SIGINT: in-flight episodes are recorded as interrupted, a checkpoint is saved if the model
changed since the last one, no container of the run is left, the process exits non-zero with one line
saying how to resume, and resuming finishes the run without counting anything twice.
SIGKILL (no chance to clean up): resuming continues at the checkpointed step and reuses stored rollouts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import docker
import pytest

from termrl.cache import CACHE_DIR
from termrl.sandbox.reaper import LABEL

TERMRL = [str(Path(sys.executable).with_name("termrl"))]


def _owned(docker_client, pid: int) -> list:
    return docker_client.containers.list(all=True, ignore_removed=True,
                                         filters={"label": [LABEL, f"termrl.owner_pid={pid}"]})


def _wait(predicate, timeout: float, what: str, lines: list[str] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    tail = "\n".join((lines or [])[-15:])
    raise AssertionError(f"timed out waiting for {what}; the process's stderr ends with:\n{tail}")


def _runs_sleep(container) -> bool:
    try:
        return any("sleep 120" in " ".join(p) for p in container.top()["Processes"] or [])
    except docker.errors.APIError:  # not running (yet, or any more)
        return False


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_run_stopped_by_a_signal_records_interrupted_episodes_and_resumes(tmp_path, task_factory, docker_client, sig):
    task = task_factory(solve="if [ -f /solution/slow ]; then sleep 120; fi\necho done > /app/out.txt\n")
    (task / "solution" / "slow").write_text("")
    out = tmp_path / "out"
    args = [*TERMRL, "run", "--agent", "oracle", str(task), "-n", "3", "-j", "3", "--out", str(out), "--grace", "20"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # In flight = the oracle's own command runs in all three sandboxes (a new image's first start also takes
        # the verifier's one-off toolchain inventory, which is not the phase this test interrupts).
        _wait(lambda: sum(_runs_sleep(c) for c in _owned(docker_client, proc.pid)) == 3, 180,
              "the oracle's command running in three sandboxes")
        started = time.monotonic()
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - started < 20, stderr[-3000:]  # well within the grace period
    assert proc.returncode == (143 if sig == signal.SIGTERM else 130), stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"termrl: stopped ({signal.Signals(sig).name} received); 3 episode(s) in flight recorded "
                           "as interrupted; resume with: termrl run"), last
    assert last.endswith("--resume")
    rows = _rows(out / "episodes.jsonl")
    assert [r["error"]["boundary"] for r in rows] == ["interrupted"] * 3
    assert _owned(docker_client, proc.pid) == []

    (task / "solution" / "slow").unlink()
    resumed = subprocess.run(last.split("resume with: ", 1)[1].replace("termrl", TERMRL[0], 1).split(),
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming: 0 episode(s) already in" in resumed.stderr
    rows = _rows(out / "episodes.jsonl")
    assert len(rows) == 6 and sum(r["resolved"] for r in rows) == 3  # three interrupted, then three finished once


def test_validate_stopped_by_sigterm_keeps_finished_tasks_and_removes_sandboxes(tmp_path, task_factory,
                                                                                docker_client):
    """`tasks validate` on SIGTERM: the finished task's result stands (printed and cached), the task cut short
    gets no result and no cache record, its sandboxes go, and the exit line names what is left."""
    fast = task_factory()
    (fast / "solution" / "wrong_nothing.sh").write_text("true\n")
    slow = task_factory(solve="if [ -f /solution/slow ]; then sleep 1200; fi\necho done > /app/out.txt\n")
    (slow / "solution" / "slow").write_text("")
    (slow / "solution" / "wrong_nothing.sh").write_text("true\n")
    toml = slow / "task.toml"  # the oracle's sleep must outlast the fast task's whole validation on a busy machine
    toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = 60", "[agent]\ntimeout_sec = 1800"))
    cache = CACHE_DIR / "validation"  # the subprocess inherits this process's environment, so the same folder
    proc = subprocess.Popen([*TERMRL, "tasks", "validate", str(fast), str(slow), "--json", "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = _Lines(proc, "stdout"), _Lines(proc)
    try:
        _wait(lambda: proc.poll() is not None or (out.has(f'"task": "{fast.name}"') and any(
            _runs_sleep(c) for c in _owned(docker_client, proc.pid))),
            600, "the fast task's result and the slow oracle's command running", err.lines)
        assert proc.poll() is None, "\n".join(err.lines[-20:])
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    out.thread.join(10)
    err.thread.join(10)
    stderr = "\n".join(err.lines)
    assert time.monotonic() - started < 20, stderr[-3000:]
    assert proc.returncode == 143, stderr[-3000:]
    last = err.lines[-1]
    assert last.startswith(f"termrl: stopped (SIGTERM received); 1 task(s) not validated: {slow.name}; "), last
    results = [json.loads(line) for line in out.lines if line.startswith("{")]
    assert [(r["task"], r["valid"]) for r in results] == [(fast.name, True)]
    records = list(cache.glob(f"{fast.name}-*.json"))  # valid: cached, so a rerun with --changed skips it
    assert records and not list(cache.glob(f"{slow.name}-*.json"))
    assert _owned(docker_client, proc.pid) == []
    for record in records:
        record.unlink()


def _train_args(out: Path, *extra: str) -> list[str]:
    """A tiny run (LoRA: small checkpoints, so a stop saves in seconds even on a busy machine)."""
    sets = {"out_dir": str(out), "eval_every": 0, "tasks.family": "easy-files", "tasks.train_seeds": "[0,2]",
            "grpo.group_size": 2, "grpo.tasks_per_step": 2, "agent.max_turns": 1, "agent.max_tokens_per_turn": 32,
            "max_concurrency": 4, "warm_pool": 1, "grace_s": 600, "model.lora": "true", "optim.lr": 1e-3}
    args = [*TERMRL, "train", "--config", "configs/cpu-smollm2.yaml", "-v"]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    for item in extra:
        args += ["--set", item]
    return args


class _Lines:
    """Reads a process's stderr (or stdout) in the background, so a test can wait for a line."""

    def __init__(self, proc: subprocess.Popen, stream: str = "stderr"):
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(getattr(proc, stream),), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def _start(args: list[str]) -> tuple[subprocess.Popen, _Lines]:
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    return proc, _Lines(proc)


@pytest.mark.timeout(3600)
def test_train_survives_sigterm_and_sigkill_and_resumes_at_the_same_step(tmp_path, docker_client):
    """One run, four processes: SIGTERM mid-rollout, SIGKILL between steps, SIGKILL mid-update, then it finishes."""
    out = tmp_path / "run"
    args = _train_args(out, "steps=4", "checkpoint_every=2")
    latest = out / "checkpoints" / "latest"
    store = out / "rollouts.jsonl"
    killed = []

    # 1. SIGTERM during step 1's rollout: step 0's update is not checkpointed yet (every 2), so the stop saves it.
    proc, err = _start(args)
    try:
        _wait(lambda: (out / "metrics.jsonl").exists() or proc.poll() is not None, 1500, "step 0's update", err.lines)
        assert proc.poll() is None, "\n".join(err.lines[-20:])
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
    err.thread.join(10)
    assert proc.returncode == 143, "\n".join(err.lines[-20:])
    assert err.lines[-1].startswith("termrl: stopped (SIGTERM received); ") and "resume with: termrl train" in \
        err.lines[-1], err.lines[-1]
    assert latest.read_text() == "step-000001"
    assert _owned(docker_client, proc.pid) == []

    # 2. Resumed at step 1; SIGKILL between steps, once step 2's checkpoint is written.
    proc, err = _start(args)
    try:
        _wait(lambda: latest.read_text() == "step-000002" or proc.poll() is not None, 1500, "step 2's checkpoint",
              err.lines)
        proc.kill()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed.append(proc.pid)
    assert err.has("resuming at step 1") or latest.read_text() == "step-000002"
    rows_before = [r["key"] for r in _rows(store)]

    # 3. Resumed at step 2 (its stored rollouts reused); SIGKILL during step 3's update: no checkpoint of it.
    proc, err = _start(args)
    try:
        _wait(lambda: err.has("step 3: updating") or proc.poll() is not None, 1500, "step 3's update", err.lines)
        proc.kill()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed.append(proc.pid)
    assert latest.read_text() == "step-000002", "\n".join(err.lines[-20:])
    step3 = [r["key"] for r in _rows(store) if r["step"] == 3]
    assert len(step3) == 4

    # 4. Resumed at step 2 again: the same next step, on the rollouts already stored; then it finishes.
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=900,
                             cwd=Path(__file__).resolve().parents[1])
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "resuming at step 2" in resumed.stdout
    rows = _rows(store)
    assert [r["key"] for r in rows if r["step"] == 3] == step3  # reused, not run again
    assert [r["key"] for r in rows][:len(rows_before)] == rows_before
    finished = [r["key"] for r in rows if (r.get("error") or {}).get("boundary") != "interrupted"]
    assert len(finished) == len(set(finished)) == 16  # four steps x 4 episodes, each counted once
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert metrics[-1]["step"] == 4 and metrics[-1]["train/episodes"] == 4
    assert [m["step"] for m in metrics if "train/episodes" in m] == [1, 2, 3, 4]  # one row per step, none twice
    assert latest.read_text() == "step-000004"
    for pid in killed:
        assert _owned(docker_client, pid) == []  # what the SIGKILLed runs left was reaped by the next one


def test_past_the_grace_period_the_process_exits_anyway(tmp_path):
    """A stop that hangs (here: a main thread that never returns) ends at the grace period, with status 143."""
    script = ("import os, signal, time\n"
              "from termrl.rollout.shutdown import STOP\n"
              "with STOP.installed(grace_s=1.0):\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    time.sleep(60)\n")
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 143, proc.stderr
    assert time.monotonic() - started < 30
    assert "the 1 s grace period is over; exiting now" in proc.stderr
