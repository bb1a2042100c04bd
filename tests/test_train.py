"""The rollout engine and the GRPO trainer end to end: the embedded SmolLM2, real episodes in Docker."""

from __future__ import annotations

import json

import pytest
import torch

from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.tasks import load_task
from termrl.tasks.easy import generate_easy
from termrl.train.config import load_config
from termrl.train.forward import sequence_logps
from termrl.train.trainer import Trainer, sample_from_row


def _config(out, **extra):
    overrides = {"out_dir": str(out), "steps": 1, "eval_every": 0, "checkpoint_every": 1, "keep_checkpoints": 3,
                 "tasks.family": "easy-files", "tasks.train_seeds": [0, 2], "grpo.group_size": 2,
                 "grpo.tasks_per_step": 2, "agent.max_turns": 1, "agent.max_tokens_per_turn": 40,
                 "max_concurrency": 4, "warm_pool": 1, **extra}
    return load_config(None, overrides)


def _force_rewards(store: TrajectoryStore, step: int) -> None:
    """Label each group's episodes 1, 0, ... so the update has signal whatever the tiny model did."""
    rows = store.rows()
    for row in rows:
        if row["step"] == step:
            row["reward"] = float(row["index"] % 2 == 0)
    store.path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _params(model):
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def test_rollout_store_resumes_without_rerunning(tmp_path, docker_provider):
    from termrl.agent.reference import OracleAgent

    tasks = [load_task(generate_easy(s, 1, tmp_path / "tasks")) for s in (0, 1)]
    store = TrajectoryStore(tmp_path / "rollouts.jsonl")
    engine = RolloutEngine(docker_provider, OracleAgent, store=store, max_concurrency=3)
    first = engine.run(tasks, group_size=2, step=0)
    assert [len(g) for g in first.groups.values()] == [2, 2]
    assert all(r.resolved for g in first.groups.values() for r in g)
    rows = store.rows()
    with open(store.path, "a") as fh:
        fh.write('{"key": "0:cut-short')  # a crash mid-write
    again = RolloutEngine(docker_provider, OracleAgent, store=store).run(tasks, group_size=3, step=0)
    assert [len(g) for g in again.groups.values()] == [3, 3]
    assert len(store.rows()) == len(rows) + 2  # only the two missing episodes ran


@pytest.mark.parametrize("lora", [False, True], ids=["full", "lora"])
def test_train_steps_update_weights_and_resume_exactly(tmp_path, lora):
    out = tmp_path / "run"
    extra = {"model.lora": True, "optim.lr": 1e-3} if lora else {}
    trainer = Trainer(_config(out, **extra))
    try:
        trainer.train()  # step 0 -> 1: real rollouts, an update (or a skip), metrics, a checkpoint
        assert trainer.step == 1
        metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
        assert metrics[-1]["train/episodes"] == 4 and "tokens_per_s" in metrics[-1]
        rows = trainer.engine.store.rows()
        sample = sample_from_row(rows[0])
        assert sample is not None and 0 < sample.mask.sum() < len(sample.tokens)  # masked prompt/observations
        assert (sample.rollout_logp[sample.mask.bool()] <= 0).all()
        assert (out / "checkpoints" / "latest").read_text() == "step-000001"
        # A rollout of step 1 lands in the store, then the run "crashes" before its update is checkpointed.
        trainer.engine.run(trainer.select_tasks(1), 2, step=1)
        _force_rewards(trainer.engine.store, 1)
        before = _params(trainer.model)
        first = trainer.train_step()
        after = _params(trainer.model)
        changed = [n for n in before if not torch.equal(before[n], after[n])]
        assert changed, "the update changed no parameter"
        if lora:  # only the adapters train; the base weights stay as loaded
            assert all("lora_" in n for n in changed) and any("lora_B" in n for n in changed)
        assert first["loss"] != 0.0 and first["groups_skipped_zero_variance"] == 0
        # The update's shared-prompt micro-batches give what one forward per episode gives, on real episodes.
        rows = [r for r in trainer.engine.store.rows() if r["step"] == 1]
        group = [s for s in (sample_from_row(r) for r in rows if r["task"] == rows[0]["task"]) if s is not None]
        assert len(group) == 2
        with torch.no_grad():
            packed = trainer._logps(trainer.model, group)
            single = [sequence_logps(trainer.model, s.tokens, s.mask, trainer.config.agent.temperature) for s in group]
        for (lp1, _), (lp2, _) in zip(single, packed):
            torch.testing.assert_close(lp2, lp1, atol=2e-4, rtol=1e-4)
        from termrl.policies.hf import HFConfig, load_engine

        assert trainer.model is not load_engine(HFConfig()).model  # trained in place: a private copy
    finally:
        trainer.close()
    trainer.policy._engine._worker.join(timeout=10)
    assert not trainer.policy._engine._worker.is_alive()  # close() stopped the private model's worker
    resumed = Trainer(_config(out, **extra))  # the same command again: resumes from step 1's checkpoint
    try:
        assert resumed.step == 1
        second = resumed.train_step()  # reuses the stored rollout of step 1
        assert second["loss"] == pytest.approx(first["loss"], abs=1e-6)
        assert second["grad_norm"] == pytest.approx(first["grad_norm"], rel=1e-5)
        again = _params(resumed.model)
        assert all(torch.allclose(after[n], again[n], atol=1e-7) for n in changed[:20])
    finally:
        resumed.close()


def test_config_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("grpo:\n  group_sise: 4\n")
    with pytest.raises(ValueError, match="bad.yaml: grpo: unknown key.*group_sise"):
        load_config(bad)
    with pytest.raises(ValueError, match="group_size must be >= 2"):
        load_config(None, {"grpo.group_size": 1})
    bad.write_text("optim:\n  lr: fast\n")
    with pytest.raises(ValueError, match="bad.yaml: optim: lr: expected a number, got 'fast'"):
        load_config(bad)
    with pytest.raises(ValueError, match="aggregation: 'sum' is not one of"):
        load_config(None, {"grpo.aggregation": "sum"})
    with pytest.raises(ValueError, match="lora: expected true or false"):
        load_config(None, {"model.lora": "yes"})
    bad.write_text("optim:\n  lr: 3e-5\n")  # YAML reads this as a string: still the number meant
    assert load_config(bad, {"grpo.group_size": "8"}).optim.lr == 3e-5


def test_warm_pool_hands_out_started_sandboxes_and_bounds_idle_ones(docker_provider):
    import time

    from termrl.sandbox.base import SandboxSpec
    from termrl.sandbox.pool import PooledProvider

    with PooledProvider(docker_provider, size=1, max_idle=1) as pool:
        a, b = SandboxSpec(image="termrl/base:bookworm"), SandboxSpec(image="termrl/base:trixie")
        pool.warm(a)
        for _ in range(100):  # bounded wait for the background start
            if pool._idle[a]:
                break
            time.sleep(0.1)
        box = pool.start(a)
        assert pool.hits == 1 and box.exec("echo hi").output == "hi\n"
        box.close()
        pool.warm(b)
        for _ in range(100):
            if pool._idle[b]:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        assert sum(len(v) for v in pool._idle.values()) <= 1  # a's refill was evicted for b
