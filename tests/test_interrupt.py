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

import pytest

from termrl.sandbox.reaper import LABEL

TERMRL = [str(Path(sys.executable).with_name("termrl"))]


def _owned(docker_client, pid: int) -> list:
    return docker_client.containers.list(all=True, filters={"label": [LABEL, f"termrl.owner_pid={pid}"]})


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


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
        _wait(lambda: len([c for c in _owned(docker_client, proc.pid) if c.status == "running"]) == 3, 180,
              "three running sandboxes")
        time.sleep(1.0)  # the oracle's command runs in each
        started = time.monotonic()
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - started < 20  # well within the grace period
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


def _train_args(out: Path, *extra: str) -> list[str]:
    sets = {"out_dir": str(out), "eval_every": 0, "tasks.family": "easy-files", "tasks.train_seeds": "[0,2]",
            "grpo.group_size": 2, "grpo.tasks_per_step": 2, "agent.max_turns": 2, "agent.max_tokens_per_turn": 48,
            "max_concurrency": 4, "warm_pool": 1, "grace_s": 60}
    args = [*TERMRL, "train", "--config", "configs/cpu-smollm2.yaml", "-v"]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    for item in extra:
        args += ["--set", item]
    return args


class _Lines:
    """Reads a process's stderr in the background, so a test can wait for a line."""

    def __init__(self, proc: subprocess.Popen):
        self.lines: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self.thread.start()

    def _read(self, proc) -> None:
        for line in proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def has(self, text: str) -> bool:
        return any(text in line for line in self.lines)


def _start(args: list[str]) -> tuple[subprocess.Popen, _Lines]:
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[1])
    return proc, _Lines(proc)


def test_train_sigterm_checkpoints_the_update_and_resumes(tmp_path, docker_client):
    out = tmp_path / "run"
    # checkpoint_every=100: only the stop itself can save step 1's update.
    proc, err = _start(_train_args(out, "steps=2", "checkpoint_every=100"))
    try:
        _wait(lambda: err.has("step 1: updating") or proc.poll() is not None, 600, "step 1's rollout")
        _wait(lambda: (out / "metrics.jsonl").exists() or proc.poll() is not None, 120, "step 0's metrics")
        assert proc.poll() is None, "\n".join(err.lines[-20:])
        proc.send_signal(signal.SIGTERM)  # during step 1's rollout (or its start)
        proc.wait(90)
    finally:
        if proc.poll() is None:
            proc.kill()
    err.thread.join(10)
    assert proc.returncode == 143, "\n".join(err.lines[-20:])
    assert err.lines[-1].startswith("termrl: stopped (SIGTERM received); ") and "resume with: termrl train" in \
        err.lines[-1], err.lines[-1]
    assert (out / "checkpoints" / "latest").read_text() == "step-000001"  # the stop saved the update
    assert _owned(docker_client, proc.pid) == []

    resumed = subprocess.run(_train_args(out, "steps=2", "checkpoint_every=100"), capture_output=True, text=True,
                             timeout=900, cwd=Path(__file__).resolve().parents[1])
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "resuming at step 1" in resumed.stdout
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == [1, 2]
    assert metrics[-1]["train/episodes"] == 4
    rows = _rows(out / "rollouts.jsonl")
    finished = [r["key"] for r in rows if (r.get("error") or {}).get("boundary") != "interrupted"]
    assert len(finished) == len(set(finished)) == 8  # two steps x 4 episodes, none run twice


def test_train_sigkill_during_an_update_and_between_steps_resumes_at_the_same_step(tmp_path, docker_client):
    out = tmp_path / "run"
    args = _train_args(out, "steps=3", "checkpoint_every=1")
    proc, err = _start(args)
    try:  # killed during step 1's update: step 1's checkpoint was never written
        _wait(lambda: err.has("step 1: updating") or proc.poll() is not None, 600, "step 1's update")
        proc.kill()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed = [proc.pid]
    assert (out / "checkpoints" / "latest").read_text() == "step-000001", "\n".join(err.lines[-20:])
    step1 = [r["key"] for r in _rows(out / "rollouts.jsonl") if r["step"] == 1]
    assert len(step1) == 4

    proc, err = _start(args)  # resumes at step 1 on the stored rollout; killed between steps 2 and 3
    try:
        _wait(lambda: err.has("step 2: updating") or proc.poll() is not None, 600, "step 2's update")
        _wait(lambda: (out / "checkpoints" / "step-000002").is_dir() or proc.poll() is not None, 300,
              "step 2's checkpoint")
        time.sleep(0.5)
        proc.kill()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    killed.append(proc.pid)
    assert (out / "checkpoints" / "latest").read_text() == "step-000002"
    assert [r["key"] for r in _rows(out / "rollouts.jsonl") if r["step"] == 1] == step1  # reused, not rerun

    resumed = subprocess.run(args, capture_output=True, text=True, timeout=900,
                             cwd=Path(__file__).resolve().parents[1])  # the SIGKILLed runs' containers: reaped
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "resuming at step 2" in resumed.stdout
    steps = [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert steps[-1] == 3 and steps.count(3) == 1
    finished = [r["key"] for r in _rows(out / "rollouts.jsonl")]
    assert len(finished) == len(set(finished)) == 12  # three steps x 4 episodes, each run once
    for pid in killed:
        assert _owned(docker_client, pid) == []  # what the SIGKILLed runs left was reaped by the next one
