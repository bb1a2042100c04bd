"""Curriculum, dynamic sampling, annealing, the time-budget checkpoint, eval and export from a checkpoint,
and pass-rate estimation: end to end with the embedded SmolLM2 and real episodes in Docker.

The run is tiny (two steps of two groups of two one-turn episodes); the promotion threshold is 0 so
that the stage switch happens whatever the untrained model does -- the threshold logic itself is
unit-tested in test_curriculum.py. What this test shows with the real parts: stage 0 draws only
easy tasks, the promotion is logged and checkpointed, stage 1 draws medium tasks plus replay, the
judge weight anneals to 0 over the stages, a resumed run is in stage 1, a run stopped by its time
budget checkpoints its last step, and that checkpoint evaluates and exports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from termrl.train.config import load_config
from termrl.train.trainer import Trainer

TERMRL = str(Path(sys.executable).with_name("termrl"))
pytestmark = pytest.mark.timeout(1500)  # a loaded 2-core machine; alone it takes a few minutes


def _config(out: Path, **extra):
    return load_config(None, {
        "out_dir": str(out), "steps": 2, "eval_every": 0, "checkpoint_every": 1, "keep_checkpoints": 2,
        "tasks.family": "easy-files", "tasks.difficulties": [1, 2], "tasks.train_seeds": [0, 2],
        "tasks.eval_seeds": [1000, 1001],
        "grpo.group_size": 2, "grpo.tasks_per_step": 2, "agent.max_turns": 1, "agent.max_tokens_per_turn": 40,
        "max_concurrency": 4, "warm_pool": 1,
        "curriculum.enabled": True, "curriculum.stages": ["easy", "medium"], "curriculum.promote_at": 0.0,
        "curriculum.window": 1, "curriculum.replay": 0.5,
        "sampling.enabled": True, "sampling.oversample": 1.0, "sampling.max_rounds": 2,
        "anneal.judge_weight_to": 0.0, "anneal.over": "stages", **extra})


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("curriculum") / "run"
    trainer = Trainer(_config(out))
    try:
        assert [len(s) for s in trainer.stages] == [2, 2]
        trainer.train()
    finally:
        trainer.close()
    return out


def _rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "rollouts.jsonl").read_text().splitlines()]


def test_two_stage_curriculum_promotes_with_replay_and_annealing(run_dir):
    metrics = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    first, second = metrics
    assert first["curriculum/stage"] == 0 and first["curriculum/promoted"] == 1 and first["curriculum/next_stage"] == 1
    assert second["curriculum/stage"] == 1 and second["curriculum/promoted"] == 0
    rows = _rows(run_dir)
    step0 = {r["task"] for r in rows if r["step"] == 0}
    step1 = {r["task"] for r in rows if r["step"] == 1}
    assert step0 and all(t.endswith("-d1") for t in step0)  # stage 0: easy only
    assert any(t.endswith("-d2") for t in step1) and any(t.endswith("-d1") for t in step1)  # medium + replay
    assert second["curriculum/replayed_groups"] >= 1
    # Judge weight annealed over the stages: 0.35 in stage 0, tests only in stage 1.
    assert first["reward/judge_weight"] == pytest.approx(0.35) and second["reward/judge_weight"] == 0.0
    for r in rows:
        if r["step"] == 1 and r["error"] is None:
            assert r["reward"] == pytest.approx(r["test_score"])
    for m in metrics:  # dynamic sampling accounting adds up, on real groups
        assert m["sampling/kept"] + m["sampling/dropped"] + m["sampling/excess"] == m["sampling/drawn"]
        assert m["sampling/episodes"] == 2 * m["sampling/drawn"] == m["train/episodes"]
        assert 1 <= m["sampling/rounds"] <= 2
        assert m["update_skipped"] == int(m["sampling/kept"] == 0)
    state = json.loads((run_dir / "checkpoints" / "step-000002" / "state.json").read_text())
    assert state["curriculum"]["stage"] == 1 and state["curriculum"]["promotions"][0]["step"] == 1


def test_resumed_run_stays_in_its_stage_and_budget_stop_checkpoints(run_dir):
    # Same run, more steps, checkpoints only every 5: the time budget ends it after one more step.
    trainer = Trainer(_config(run_dir, steps=10, checkpoint_every=5, time_budget_min=0.001))
    try:
        assert trainer.step == 2 and trainer.curriculum.stage == 1
        assert [p["step"] for p in trainer.curriculum.promotions] == [1]
        trainer.train()
        assert trainer.step == 3
    finally:
        trainer.close()
    assert (run_dir / "checkpoints" / "latest").read_text() == "step-000003"  # saved on the budget stop
    state = json.loads((run_dir / "checkpoints" / "step-000003" / "state.json").read_text())
    assert state["step"] == 3 and state["curriculum"]["stage"] == 1


def test_checkpoint_evaluates_and_exports_as_a_hf_folder(run_dir, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    env = {**os.environ, "COLUMNS": "200", "TERMRL_CACHE": str(tmp_path / "cache")}
    task = next((run_dir / "tasks" / "eval").iterdir())
    proc = subprocess.run([TERMRL, "eval", "--tasks", str(task), "--model", str(run_dir / "checkpoints" / "latest"),
                           "--format", "bash_block", "--max-turns", "1", "--max-tokens", "40", "--json",
                           "--out", str(tmp_path / "eval")], capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["episodes"] == 1 and summary["errors"] == 0
    rows = [json.loads(line) for line in (tmp_path / "eval" / "episodes.jsonl").read_text().splitlines()]
    assert rows[0]["error"] is None and rows[0]["n_turns"] >= 1  # the checkpoint's model really acted

    out = tmp_path / "export"
    proc = subprocess.run([TERMRL, "export-model", str(run_dir), "--out", str(out)], capture_output=True, text=True,
                          timeout=900, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"):
        assert (out / name).is_file(), name
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    latest = (run_dir / "checkpoints" / "latest").read_text().strip()
    trained = torch.load(run_dir / "checkpoints" / latest / "model.pt", weights_only=True)
    params = dict(model.named_parameters())
    for name in ("model.layers.0.self_attn.q_proj.weight", "model.norm.weight", "model.embed_tokens.weight"):
        torch.testing.assert_close(params[name], trained[name], rtol=0, atol=0)  # the trained weights, exactly
    tokenizer = AutoTokenizer.from_pretrained(out, local_files_only=True)
    prompt = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False,
                                           add_generation_prompt=True)
    assert "hi" in prompt and prompt.rstrip().endswith("assistant")
    config = json.loads((out / "config.json").read_text())
    assert config["architectures"] == ["LlamaForCausalLM"]  # what llama.cpp's converter dispatches on
    proc = subprocess.run([TERMRL, "export-model", str(run_dir), "--out", str(out)], capture_output=True, text=True,
                          env=env)
    assert proc.returncode == 2 and "not empty" in proc.stderr


def test_difficulty_measures_stores_and_filters_pass_rates(tmp_path, monkeypatch):
    import termrl.tasks.passrate as passrate
    from termrl.tasks import load_tasks
    from termrl.tasks.easy import generate_easy

    dataset = tmp_path / "set"
    for seed in (0, 1):
        generate_easy(seed, 1, dataset)
    env = {**os.environ, "COLUMNS": "200", "TERMRL_CACHE": str(tmp_path / "cache")}

    def termrl(*args: str) -> subprocess.CompletedProcess:
        proc = subprocess.run([TERMRL, *args], capture_output=True, text=True, timeout=900, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    proc = termrl("tasks", "difficulty", str(dataset), "--agent", "oracle", "--k", "2", "--json",
                  "--out", str(tmp_path / "runs"))
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 2
    for line in lines:
        assert line["policy"] == "oracle" and (line["resolved"], line["episodes"]) == (2, 2)
        assert line["rate"] == 1.0 and 0.3 < line["low"] < 0.4 and line["high"] == 1.0  # Wilson, 2/2
    termrl("tasks", "difficulty", str(dataset / "easy-files-s0-d1"), "--agent", "nop", "--k", "1",
           "--out", str(tmp_path / "runs"))
    stats = json.loads(termrl("tasks", "stats", str(dataset), "--json").stdout)
    assert stats["pass_rates"]["oracle"]["1"] == 2
    assert stats["pass_rates"]["nop"]["0"] == 1 and stats["pass_rates"]["nop"]["unmeasured"] == 1
    assert "pass rate of nop" in termrl("tasks", "stats", str(dataset)).stdout

    monkeypatch.setattr(passrate, "CACHE_DIR", tmp_path / "cache")  # read what the command stored
    tasks = load_tasks([dataset]).tasks
    rates = passrate.pass_rates_for(tasks, "nop")
    assert rates == {"easy-files-s0-d1": 0.0, "easy-files-s1-d1": None}
    kept, counts = passrate.filter_by_pass_rate(tasks, rates, [0.1, 1.0], "keep")
    assert [t.name for t in kept] == ["easy-files-s1-d1"] and counts["too_hard"] == 1


@pytest.mark.skipif(not os.environ.get("TERMRL_LLAMA_CPP"), reason="set TERMRL_LLAMA_CPP to a llama.cpp source folder "
                    "(convert_hf_to_gguf.py, gguf-py/, conversion/; its requirements installed) to run this check")
def test_exported_model_converts_with_llama_cpp(run_dir, tmp_path):
    from gguf import GGUFReader

    from termrl.train.export import export_model

    llama = Path(os.environ["TERMRL_LLAMA_CPP"])
    folder = export_model(run_dir, tmp_path / "hf")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(llama / "gguf-py"), str(llama), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, str(llama / "convert_hf_to_gguf.py"), str(folder), "--outfile",
                           str(tmp_path / "model.gguf"), "--outtype", "f32"], capture_output=True, text=True,
                          timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    fields = GGUFReader(tmp_path / "model.gguf").fields

    def text(key: str) -> str:
        return bytes(fields[key].parts[-1]).decode()

    assert text("general.architecture") == "llama"
    assert text("tokenizer.ggml.pre") == "smollm"  # the converter recognised the exported tokenizer
    assert "<|im_start|>" in text("tokenizer.chat_template")
