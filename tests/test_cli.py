"""The command line, run as a user runs it (a real process, real Docker)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import docker
from conftest import EXAMPLES

TERMRL = [str(Path(sys.executable).with_name("termrl"))]


def termrl(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([*TERMRL, *args], capture_output=True, text=True, timeout=900,
                          env={**os.environ, "COLUMNS": "200"})
    if check:
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_run_writes_episodes_jsonl(tmp_path):
    out = tmp_path / "run"
    proc = termrl("run", "--agent", "nop", str(EXAMPLES / "csv-region-summary"), str(EXAMPLES / "tb1-reverse-lines"),
                  "--out", str(out))
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        for key in ("task", "agent", "reward", "resolved", "tests", "terminated", "truncated", "error", "duration_s"):
            assert key in row
        assert row["agent"] == "nop" and row["reward"] == 0.0 and row["error"] is None
    assert "resolved 0/2" in proc.stdout


def test_run_appends_and_goes_on_past_a_bad_task(tmp_path):
    bad = tmp_path / "bad-task"
    bad.mkdir()
    (bad / "task.toml").write_text("[agent]\ntimeout_sec = 1\n")
    out = tmp_path / "run"
    proc = termrl("run", "--agent", "oracle", str(bad), str(EXAMPLES / "organize-files"), "--out", str(out),
                  check=False)
    assert proc.returncode == 1
    assert "instruction.md" in proc.stderr and "fix:" in proc.stderr
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert [(r["task"], r["resolved"]) for r in rows] == [("organize-files", True)]


def test_unknown_agent_is_a_clear_error(tmp_path):
    proc = termrl("run", "--agent", "wizard", str(EXAMPLES / "organize-files"), "--out", str(tmp_path), check=False)
    assert proc.returncode == 2 and "unknown agent 'wizard'" in proc.stderr and "oracle" in proc.stderr


def test_validate_json(tmp_path):
    bad = tmp_path / "broken"
    bad.mkdir()
    proc = termrl("tasks", "validate", "--json", str(EXAMPLES / "fix-interval-merge"), str(bad), check=False)
    assert proc.returncode == 1  # one invalid task
    rows = {r["task"]: r for r in map(json.loads, proc.stdout.splitlines())}
    good = rows["fix-interval-merge"]
    assert good["valid"] and good["oracle_reward"] == 1.0 and good["nop_reward"] == 0.0 and good["error"] is None
    assert set(good) >= {"task", "valid", "oracle_reward", "nop_reward", "error", "nop_passed_tests"}
    assert len(good["nop_passed_tests"]) >= 1  # the buggy code already handles some cases
    assert not rows["broken"]["valid"] and "task.toml" in rows["broken"]["error"]


def test_tasks_list_and_show():
    listing = termrl("tasks", "list", str(EXAMPLES)).stdout
    for name in ("csv-region-summary", "tb1-reverse-lines", "py313-word-freq"):
        assert name in listing
    shown = termrl("tasks", "show", str(EXAMPLES / "py313-word-freq")).stdout
    assert "harbor" in shown and "instruction" in shown and "test.sh" in shown


def test_clean_removes_containers_of_dead_owners_and_leaves_live_ones(docker_client):
    from termrl.sandbox.reaper import LABEL, owner_labels

    owner = subprocess.Popen(["sleep", "60"])
    dead_labels = owner_labels(owner.pid)  # the full label set the reaper checks: boot id, pid namespace, start
    owner.kill()
    owner.wait()
    made = []
    try:
        dead = docker_client.containers.create("termrl/base:bookworm", ["sleep", "infinity"],
                                               labels={LABEL: "1", **dead_labels})
        made.append(dead)
        legacy = docker_client.containers.create("termrl/base:bookworm", ["sleep", "infinity"],  # pid-only labels
                                                 labels={LABEL: "1", f"{LABEL}.owner_pid": str(owner.pid)})
        made.append(legacy)
        live = docker_client.containers.create("termrl/base:bookworm", ["sleep", "infinity"],
                                               labels={LABEL: "1", **owner_labels()})  # owned by this test
        made.append(live)
        proc = termrl("clean")
        # A proven orphan (full labels) is reaped by any termrl process that starts a provider on this engine,
        # this clean or another run's, so only its absence is certain; pid-only labels are clean's alone.
        assert legacy.name in proc.stdout
        assert live.name not in proc.stdout + proc.stderr
        assert not docker_client.containers.list(all=True, filters={"id": dead.id})
        assert not docker_client.containers.list(all=True, filters={"id": legacy.id})
        assert docker_client.containers.list(all=True, filters={"id": live.id})
    finally:
        for container in made:
            try:
                container.remove(force=True)
            except docker.errors.NotFound:
                pass


def test_a_trainer_error_exits_2_with_a_message(tmp_path):
    config = tmp_path / "empty.yaml"
    config.write_text(f"out_dir: {tmp_path / 'run'}\ntasks:\n  train: []\n")
    proc = termrl("train", "--config", str(config), check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no training tasks" in proc.stderr and "tasks.train" in proc.stderr


def test_run_spreads_sandboxes_over_the_hosts_given(tmp_path):
    # Two URLs of this machine's engine stand for two hosts (tests/test_multihost.py runs a second,
    # real engine and kills it mid-run); each row names the engine its sandbox ran on.
    out = tmp_path / "run"
    hosts = ["unix:///run/docker.sock", "unix:///var/run/docker.sock"]
    termrl("run", "--agent", "oracle", str(EXAMPLES / "organize-files"), "-n", "4", "-j", "4",
           "--host", hosts[0], "--host", hosts[1], "--capacity", "2", "--out", str(out))
    rows = [json.loads(line) for line in (out / "episodes.jsonl").read_text().splitlines()]
    assert len(rows) == 4 and all(r["resolved"] for r in rows)
    assert sorted(r["host"] for r in rows) == sorted(hosts * 2)  # capacity 2 each: both engines used


def test_an_unreachable_host_is_a_clear_error(tmp_path):
    proc = termrl("run", "--agent", "oracle", str(EXAMPLES / "organize-files"), "--host", "unix:///nonexistent.sock",
                  "--out", str(tmp_path), check=False)
    assert proc.returncode == 2 and "unix:///nonexistent.sock" in proc.stderr and "dockerd" in proc.stderr


def test_validate_report_on_one_task_updates_its_dataset_record(tmp_path):
    """`tasks validate DATASET/TASK --report` records the task in DATASET's validation.json and
    VALIDATION.md (beside the other tasks' records), never inside the task folder."""
    from termrl.tasks.easy import generate_easy

    dataset = tmp_path / "ds"
    one, other = generate_easy(3, 1, dataset), generate_easy(4, 1, dataset)
    (dataset / "validation.json").write_text(json.dumps({other.name: {"valid": True, "digest": "x"}}) + "\n")
    termrl("tasks", "validate", str(one), "--report")
    record = json.loads((dataset / "validation.json").read_text())
    assert record[one.name]["valid"] and record[one.name]["oracle"] == 1.0
    assert other.name in record  # the other task's record is kept
    assert one.name in (dataset / "VALIDATION.md").read_text()
    assert not (one / "validation.json").exists() and not (one / "VALIDATION.md").exists()
    proc = termrl("tasks", "validate", str(one), "--changed", check=False)
    assert proc.returncode != 0 and str(dataset) in proc.stderr
