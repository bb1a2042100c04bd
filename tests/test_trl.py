"""TRL's GRPOTrainer running termrl episodes (termrl.integrations.trl): real SmolLM2, real Docker.

The end-to-end tests are kept tiny (2 easy-files tasks x 2 episodes, 2 turns of at most 24 tokens):
they prove the plumbing -- real episodes in, TRL optimizer steps out, the same tokens, masks and
rewards termrl's own trainer would use -- not that the model learns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("trl", reason="the TRL engine's tests need TRL: pip install -e '.[trl]'")

import torch  # noqa: E402

from termrl.train.config import load_config  # noqa: E402
from termrl.types import episode_from_row  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SMALL = {"steps": 2, "eval_every": 0, "checkpoint_every": 1, "keep_checkpoints": 1, "max_concurrency": 4,
         "warm_pool": 1, "tasks.family": "easy-files", "tasks.train_seeds": [0, 2], "tasks.eval_seeds": [1000, 1001],
         "grpo.group_size": 2, "grpo.tasks_per_step": 2, "agent.action_format": "bash_block",
         "agent.max_turns": 2, "agent.max_tokens_per_turn": 24, "agent.max_total_tokens": 768,
         "agent.temperature": 0.7, "trl.report_to": "none"}


def _config(out: Path, **extra):
    return load_config(None, {"out_dir": str(out), **SMALL, **extra})


# -- settings (no Docker, no model) -------------------------------------------------------------


def test_grpo_settings_map_onto_trl():
    from termrl.integrations.trl import batch_plan, grpo_config

    cfg = _config(Path("/tmp/unused"), **{"grpo.tasks_per_step": 4, "grpo.group_size": 4, "grpo.mini_batches": 2,
                                          "trl.per_device_batch_size": 2, "grpo.aggregation": "constant",
                                          "grpo.max_tokens_norm": 999, "grpo.scale_by_std": False})
    assert batch_plan(cfg, 2) == {"episodes": 16, "per_process": 8, "per_device_batch_size": 2,
                                  "gradient_accumulation_steps": 2, "steps_per_generation": 4}
    args = grpo_config(cfg, 2)
    assert (args.num_generations, args.loss_type, args.max_completion_length, args.scale_rewards) == (
        4, "dr_grpo", 999, "none")
    assert args.max_steps == 4  # 2 rollout steps x 2 optimizer steps each
    assert (args.epsilon, args.epsilon_high, args.beta, args.temperature) == (0.2, 0.28, 0.0, 0.7)
    with pytest.raises(ValueError, match="do not split over 3 processes"):
        batch_plan(cfg, 3)
    with pytest.raises(ValueError, match="leave_one_out"):
        grpo_config(_config(Path("/tmp/unused"), **{"grpo.leave_one_out": True}))
    with pytest.raises(ValueError, match="trl.extra: not_a_field"):
        grpo_config(_config(Path("/tmp/unused"), **{"trl.extra": {"not_a_field": 1}}))
    with pytest.raises(ValueError, match="vllm_server_base_url"):
        grpo_config(_config(Path("/tmp/unused"), **{"trl.use_vllm": True}))


def test_recipes_load_and_split_over_their_processes():
    """Every TRL recipe in configs/ loads, and its step's episodes split over its accelerate file's processes."""
    import yaml

    from termrl.integrations.trl import batch_plan

    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import memory_estimate
    finally:
        sys.path.pop(0)
    for config_path, accelerate_path, size, vllm in memory_estimate.RECIPES:
        cfg = load_config(ROOT / config_path)
        processes = yaml.safe_load((ROOT / accelerate_path).read_text())["num_processes"]
        plan = batch_plan(cfg, processes)
        assert plan["per_device_batch_size"] == cfg.trl.per_device_batch_size
        assert cfg.trl.gradient_checkpointing and cfg.trl.bf16
        parts = memory_estimate.load_estimate(config_path, accelerate_path, size, vllm).parts()
        assert 0 < sum(parts.values()) < 80e9  # fits an 80 GB GPU, as the recipes assume
    cpu = load_config(ROOT / "configs" / "trl-cpu-smollm2.yaml")
    assert batch_plan(cpu, 2)["per_process"] == 8
    assert len(load_config(ROOT / "configs" / "trl-32gpu-qwen3-32b.yaml").sandbox.hosts) == 4


def test_cli_engine_trl_names_a_bad_setting(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "termrl.cli", "train", "--engine", "trl", "--config",
                           str(ROOT / "configs" / "trl-cpu-smollm2.yaml"), "--set", "grpo.leave_one_out=true",
                           "--set", f"out_dir={tmp_path}"], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 2 and "leave_one_out" in proc.stderr, proc.stdout + proc.stderr
    bad = subprocess.run([sys.executable, "-m", "termrl.cli", "train", "--engine", "nope"], capture_output=True,
                         text=True, timeout=600, env=env)
    assert bad.returncode == 2 and "use termrl or trl" in bad.stderr


def test_dropped_episodes_carry_no_loss_and_no_reward():
    from termrl.integrations.trl import rows_to_trl

    class Tok:
        eos_token_id = 2

    def row(key, segments, steps, error=None):
        return episode_from_row({
            "key": key, "task": "t", "agent": "termrl", "reward": 0.7, "test_score": 1.0, "judge_score": 0.14,
            "error": error, "trajectory": {
                "segments": [{"token_ids": i, "trainable": t, "logprobs": [-1.0] * len(i) if t else []}
                             for i, t in segments], "steps": [{"turn": k, "n_prompt_tokens": n}
                                                              for k, n in enumerate(steps)]}})

    good = row("0:t:0", [([5, 6], False), ([7, 8], True), ([9], False), ([3], True)], [2, 5])
    misaligned = row("0:t:1", [([5, 6], False), ([7, 8], True), ([4, 9], False), ([3], True)], [2, 5])
    failed = row("0:t:2", [([5, 6], False), ([7], True)], [2], error={"boundary": "sandbox", "message": "x"})
    out = rows_to_trl([good, misaligned, failed], ["0:t:0", "0:t:1", "0:t:2"], Tok(), totals := {"episodes": 0, "dropped_error": 0,
                                                                    "dropped_misaligned": 0, "dropped_no_tokens": 0,
                                                                    "dropped_stopped": 0})
    assert out["prompt_ids"][0] == [5, 6] and out["completion_ids"][0] == [7, 8, 9, 3]
    assert out["env_mask"][0] == [1, 1, 0, 1] and out["logprobs"][0] == [-1.0, -1.0, 0.0, -1.0]
    assert out["termrl_reward"] == [0.7, None, None] and out["termrl_drop"] == [None, "misaligned", "error"]
    assert out["env_mask"][1] == [0] and out["env_mask"][2] == [0]
    assert totals == {"episodes": 3, "dropped_error": 1, "dropped_misaligned": 1, "dropped_no_tokens": 0,
                      "dropped_stopped": 0}


# -- end to end ---------------------------------------------------------------------------------


def _force_rewards(monkeypatch):
    """Label each group's episodes 1, 0 (by index parity) in the rows *and* the store, so both trainers
    see the same rewards and the update has signal whatever the tiny model did."""
    from termrl.rollout.engine import RolloutEngine

    original = RolloutEngine.run_samples

    def forced(self, samples, step=0):
        results = original(self, samples, step)
        stored = self.store.rows()
        for r in stored:
            if r["step"] == step:
                r["reward"] = float(r["index"] % 2 == 0)
        self.store.path.write_text("".join(json.dumps(r) + "\n" for r in stored))
        by_key = {r["key"]: r for r in stored}
        return [episode_from_row(by_key[self.store.key(step, task.name, index)]) for task, index in samples]

    monkeypatch.setattr(RolloutEngine, "run_samples", forced)


def _trl_view(out: dict, i: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Sample i's whole sequence and loss mask as TRL trains it (padding removed)."""
    p_keep, c_keep = out["prompt_mask"][i].bool(), out["completion_mask"][i].bool()
    tokens = torch.cat([out["prompt_ids"][i][p_keep], out["completion_ids"][i][c_keep]])
    loss = (out["completion_mask"][i] * out["tool_mask"][i])[c_keep]
    return tokens, torch.cat([torch.zeros(int(p_keep.sum())), loss.float()])


@pytest.mark.docker
@pytest.mark.timeout(1500)
def test_trl_grpo_trains_on_real_episodes_with_termrl_trainers_masks_and_rewards(tmp_path, monkeypatch):
    from termrl.integrations.trl import build_trainer
    from termrl.policies.hf import HFPolicy
    from termrl.rollout.engine import Rollout, TrajectoryStore
    from termrl.rollout.sequences import episode_to_turn_rows
    from termrl.train.trainer import Trainer, sample_from_episode

    config = _config(tmp_path / "run")
    _force_rewards(monkeypatch)
    trainer, rollout = build_trainer(config)
    seen, rewards_seen = [], []
    generate = trainer._generate_and_score_completions

    def record(inputs):
        out = generate(inputs)
        seen.append((list(rollout.last_keys), {k: v.detach().cpu().clone() for k, v in out.items()
                                               if isinstance(v, torch.Tensor)}))
        return out

    trainer._generate_and_score_completions = record
    reward = trainer.reward_funcs[0]

    def record_reward(**kwargs):
        values = reward(**kwargs)
        rewards_seen.append(list(values))
        return values

    trainer.reward_funcs[0] = record_reward
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    try:
        trainer.train()
    finally:
        rollout.close()
    assert trainer.state.global_step == 2  # two optimizer steps
    assert any(not torch.equal(before[n], p.detach()) for n, p in trainer.model.named_parameters())

    rows = {r["key"]: episode_from_row(r) for r in TrajectoryStore(rollout.store_path(0)).rows()}
    assert len(rows) == 8 and len(seen) == 2  # 2 steps x 2 tasks x 2 episodes, no key reused
    termrl = Trainer.__new__(Trainer)  # build_samples reads only the config
    termrl.config = config
    policy = HFPolicy.from_model(trainer.model, trainer.processing_class)  # to re-encode prompts as the policy does
    checked = dropped = multi_turn = 0
    try:
        for (keys, out), rewards in zip(seen, rewards_seen):
            assert len(keys) == 4 and len({rows[k].extra["step"] for k in keys}) == 1
            groups: dict[str, list[str]] = {}
            for k in keys:
                groups.setdefault(rows[k].task, []).append(k)
            assert sorted(len(g) for g in groups.values()) == [2, 2]  # each task once per generation, no collision
            for task, members in groups.items():
                samples, _ = termrl.build_samples(Rollout({task: [rows[k] for k in members]}))
                kept = iter(samples)
                for k in members:
                    i = keys.index(k)
                    tokens, mask = _trl_view(out, i)
                    sample = sample_from_episode(rows[k])
                    if sample is None:  # dropped by termrl (error, misaligned): no loss, no reward in TRL either
                        dropped += 1
                        assert mask.sum() == 0 and rewards[i] is None and float(out["advantages"][i]) == 0.0
                        continue
                    assert torch.equal(tokens, sample.tokens)  # token by token
                    assert torch.equal(mask, sample.mask)
                    assert rewards[i] == rows[k].reward
                    if samples:  # an informative group: same direction of update
                        assert torch.sign(out["advantages"][i]) == torch.sign(torch.tensor(next(kept).advantage))
                    else:
                        assert float(out["advantages"][i]) == 0.0
                    # each turn's prompt is what the hf policy's chat template gives for that turn's messages
                    messages = rows[k].trajectory.messages
                    at = [j for j, m in enumerate(messages) if m.role == "assistant"]
                    turns = episode_to_turn_rows(rows[k])
                    multi_turn += len(turns) > 1
                    for turn, j in zip(turns, at):
                        assert list(turn.prompt_ids) == policy.prompt_token_ids(list(messages[:j]))
                    checked += 1
    finally:
        policy.close()
    assert checked >= 4 and checked + dropped == 8
    assert multi_turn >= 1  # observation tokens sat between model turns (env_mask 0) in at least one episode


@pytest.mark.docker
@pytest.mark.timeout(1500)
def test_two_processes_split_the_episodes(tmp_path):
    """`accelerate launch`, 2 CPU processes (gloo): each runs its own slice; one optimizer step."""
    out = tmp_path / "run"
    cfg = {"out_dir": str(out), **{k: v for k, v in SMALL.items() if "." not in k}, "steps": 1}
    sections: dict[str, dict] = {}
    for key, value in SMALL.items():
        if "." in key:
            section, name = key.split(".", 1)
            sections.setdefault(section, {})[name] = value
    path = tmp_path / "config.yaml"
    import yaml

    path.write_text(yaml.safe_dump({**cfg, **sections}))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
           "OMP_NUM_THREADS": "1"}
    # --multi_gpu selects accelerate's torchrun launcher; on a machine without GPUs each process runs on
    # the CPU and they talk over gloo.
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
           "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no", "--main_process_port", "29533",
           "-m", "termrl.integrations.trl_main", "--config", str(path)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1400)
    assert done.returncode == 0, done.stderr[-4000:]
    ranks = [[json.loads(line) for line in (out / f"rollouts-rank{r}.jsonl").read_text().splitlines()]
             for r in (0, 1)]
    assert [len(r) for r in ranks] == [2, 2]  # each process its own slice
    keys = [row["key"] for rows in ranks for row in rows]
    assert len(set(keys)) == 4  # none duplicated, none lost
    tasks = sorted(row["task"] for rows in ranks for row in rows)
    assert tasks == ["easy-files-s0-d1"] * 2 + ["easy-files-s1-d1"] * 2
    assert {row["step"] for rows in ranks for row in rows} == {0}
    state = json.loads((out / "checkpoint-1" / "trainer_state.json").read_text())
    assert state["global_step"] == 1  # one optimizer step
