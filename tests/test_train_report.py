"""A tiny real `termrl train` run (the embedded SmolLM2, real episodes in Docker) with W&B logging in
offline mode and live progress; then its report in headless Chromium: the training curves and a
rollout's trajectory as the model produced it."""

from __future__ import annotations

import json
import os
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from browser import render

TERMRL = [str(Path(sys.executable).with_name("termrl"))]
pytestmark = pytest.mark.timeout(1800)  # the first test also runs the training (the module's fixture)


@pytest.fixture(scope="module")
def train_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("train") / "run"
    sets = {"out_dir": str(out), "steps": 2, "eval_every": 2, "checkpoint_every": 2, "keep_checkpoints": 1,
            "tasks.family": "easy-files", "tasks.train_seeds": "[0, 1]", "tasks.eval_seeds": "[1000, 1001]",
            "grpo.group_size": 2, "grpo.tasks_per_step": 1, "agent.max_turns": 1, "agent.max_tokens_per_turn": 24,
            "max_concurrency": 2, "warm_pool": 1, "time_budget_min": 30,
            "logging.wandb.mode": "offline", "logging.wandb.project": "termrl-test"}
    args = [a for k, v in sets.items() for a in ("--set", f"{k}={v}")]
    proc = subprocess.Popen([*TERMRL, "train", "--config", "configs/cpu-smollm2.yaml", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, cwd=Path(__file__).resolve().parents[1],
                            env={**os.environ, "COLUMNS": "200", "WANDB_SILENT": "true"})
    try:
        output, _ = proc.communicate(timeout=1500)
    except subprocess.TimeoutExpired:  # Ctrl-C: the trainer closes its sandboxes on the way out
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=120)
        pytest.fail("termrl train did not finish 2 tiny steps in 25 minutes:\n" + output[-3000:])
    assert proc.returncode == 0, output[-5000:]
    return out, output


def test_train_shows_live_progress(train_run):
    _, output = train_run
    text = " ".join(output.split())
    for line in ("step 1/2 · rollout · ETA", "step 1/2 · update · ETA", "step 2/2 · rollout · ETA", "· eval · ETA"):
        assert line in text, output[-3000:]
    assert "(time budget)" in text  # before a step has finished, the 30-minute budget bounds the ETA
    assert "step 1: reward" in text and "step 2: reward" in text


def _wandb_records(path: Path) -> list:
    """The records of a W&B offline run file (its transaction log: 32 KiB blocks of CRC-framed chunks)."""
    from wandb.proto import wandb_internal_pb2 as pb

    data = path.read_bytes()
    assert data[:4] == b":W&B", data[:7]
    records, pos, buf, block = [], 7, b"", 32768
    while pos + 7 <= len(data):
        left = block - pos % block
        if left < 7:  # block trailer
            pos += left
            continue
        _crc, length, kind = struct.unpack("<IHB", data[pos:pos + 7])
        if length == 0 and kind == 0:
            pos += left
            continue
        chunk, pos = data[pos + 7:pos + 7 + length], pos + 7 + length
        buf = chunk if kind in (1, 2) else buf + chunk  # full | first, then middle/last
        if kind in (1, 4):
            record = pb.Record()
            record.ParseFromString(buf)
            records.append(record)
    return records


def test_wandb_offline_run_holds_the_metrics(train_run):
    out, _ = train_run
    runs = list((out / "wandb").glob("offline-run-*"))
    assert len(runs) == 1, list((out / "wandb").iterdir())
    run_id = (out / "wandb-run-id").read_text().strip()
    assert runs[0].name.endswith(run_id)
    records = _wandb_records(runs[0] / f"run-{run_id}.wandb")
    kinds = [r.WhichOneof("record_type") for r in records]
    assert "run" in kinds and kinds[-1] == "exit"  # started, and finished cleanly
    history: dict[int, dict] = {}
    for r in records:
        if r.WhichOneof("record_type") == "history":
            items = {i.key or "/".join(i.nested_key): json.loads(i.value_json) for i in r.history.item}
            history[items["_step"]] = items
    assert sorted(history) == [0, 1, 2]  # the eval before step 1, then each step (its eval merged in)
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    for row in metrics:
        for key, value in row.items():
            if key not in ("step", "time") and isinstance(value, (int, float)) and not isinstance(value, bool):
                assert history[row["step"]][key] == pytest.approx(value), key
    assert "train/reward_mean" in history[2] and "eval/reward_mean" in history[2] and "tokens_per_s" in history[1]


def test_report_of_a_training_run(train_run, tmp_path):
    out, _ = train_run
    report = tmp_path / "report"
    proc = subprocess.run([*TERMRL, "report", str(out), "--out", str(report)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    url = (report / "index.html").resolve().as_uri()
    curves = render(url + "#curves", "report/train-curves.png", height=1400)
    charts = {f.attrs["data-title"]: f for f in curves.find_all("figure", cls="chart")}
    for title in ("Reward", "Resolved rate", "Tests and judge parts", "Clip fraction", "Entropy", "Tokens/s",
                  "Held-out evaluation"):
        assert title in charts, sorted(charts)
    assert len(charts["Reward"].find_all("circle")) == 2  # one point per training step
    assert "(2 pts)" in charts["Held-out evaluation"].find(cls="legend").text  # before step 1 and after step 2

    overview = render(url, "report/train-overview.png").find(cls="run-card").text
    assert "Training rollouts (4 episodes, 1 task)" in overview and "Held-out evaluations (2 episodes" in overview
    assert '"group_size": 2' in overview  # the run's config

    listing = render(url + "#episodes?from=rollouts&page=1")
    first = listing.find("table", id="episode-table").find("tr", cls="click")
    page = render(url + f"#episode/{first.attrs['data-id']}", "report/train-episode.png", height=1600)
    viewer = page.find(id="episode")
    assert "policy" in viewer.find(cls="facts").text and "hf" in viewer.find(cls="facts").text
    turn = viewer.find(cls="turn")
    assert turn.attrs["data-turn"] == "1" and turn.find("pre", cls="reply").text.strip()  # the model's own reply
    assert viewer.find("table", id="judge")  # the rubric judge's criteria


def test_export_of_training_rollouts_keeps_tokens_and_masks(train_run, tmp_path):
    from datasets import load_from_disk

    out, _ = train_run
    proc = subprocess.run([*TERMRL, "export", str(out), "--to", "hf", str(tmp_path / "ds"), "--source", "rollouts"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    ds = load_from_disk(str(tmp_path / "ds"))
    rows = [json.loads(line) for line in (out / "rollouts.jsonl").read_text().splitlines()]
    assert len(ds) == len(rows) == 4
    for record, row in zip(ds, rows):
        segments = row["trajectory"]["segments"]
        assert record["token_ids"] == [t for s in segments for t in s["token_ids"]]
        assert record["trainable_mask"] == [int(s["trainable"]) for s in segments for _ in s["token_ids"]]
        assert 0 < sum(record["trainable_mask"]) < len(record["token_ids"])
        sampled = [lp for s in segments if s["trainable"] for lp in s["logprobs"]]
        exported = [lp for lp, m in zip(record["logprobs"], record["trainable_mask"]) if m]
        assert exported == pytest.approx(sampled, abs=1e-6)
        assert (record["step"], record["key"], record["policy"]) == (row["step"], row["key"], "hf")


def test_eta_from_step_times_capped_by_the_time_budget():
    from termrl.train.progress import TrainProgress

    clock = TrainProgress(total_steps=40, start_step=0, budget_min=60, started=0.0)
    assert clock.describe(0, "rollout", now=5) == "step 1/40 · rollout · ETA 59m55s (time budget)"
    assert clock.describe(2, None, now=120) == "step 2/40 · ETA 38m00s"  # 60 s a step, 38 steps left
    assert clock.describe(10, "update", now=3000) == "step 11/40 · update · ETA 10m00s (time budget)"
    resumed = TrainProgress(total_steps=40, start_step=5, budget_min=0, started=0.0)
    assert resumed.describe(5, "rollout", now=1) == "step 6/40 · rollout · ETA –"  # no step timed yet
    assert resumed.describe(7, "update", now=100) == "step 8/40 · update · ETA 27m30s"


def test_resuming_drops_metrics_logged_after_the_checkpoint(tmp_path):
    """A run killed after logging step 3 but before checkpointing it resumes at step 2: the rows of the lost
    work (step 3, and a line cut short by the kill) go, the rows up to the checkpoint stay, TensorBoard too."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    from termrl.train.metrics import MetricsLog

    first = MetricsLog(tmp_path)
    for step in (0, 1, 2, 3):
        first.log(step, {"train/reward_mean": step / 10})
    first.close()
    with open(tmp_path / "metrics.jsonl", "a") as fh:
        fh.write('{"step": 4, "time": 1')  # the kill came mid-write
    resumed = MetricsLog(tmp_path, resume_step=2)
    resumed.log(3, {"train/reward_mean": 0.9})
    resumed.tb.flush()
    rows = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [(r["step"], r["train/reward_mean"]) for r in rows] == [(0, 0.0), (1, 0.1), (2, 0.2), (3, 0.9)]
    events = EventAccumulator(str(tmp_path / "tensorboard")).Reload().Scalars("train/reward_mean")
    assert sorted((e.step, round(e.value, 3)) for e in events) == [(0, 0.0), (1, 0.1), (2, 0.2), (3, 0.9)]
