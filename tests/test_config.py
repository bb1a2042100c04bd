"""The training config: documented fields, the real agent and reward sections, checks at load (no Docker)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import textwrap

import pytest
import torch

from termrl.agent.loop import AgentConfig
from termrl.train.config import SECTIONS, TrainConfig, load_config
from termrl.train.trainer import sample_from_episode
from termrl.types import EpisodeResult, RewardWeights, TokenSegment, Trajectory


@pytest.mark.parametrize("cls", [TrainConfig, *SECTIONS.values()], ids=lambda c: c.__name__)
def test_every_field_has_a_help_text(cls):
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body
    documented = {a.target.id for a, b in zip(body, body[1:]) if isinstance(a, ast.AnnAssign)
                  and isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant) and isinstance(b.value.value, str)}
    assert documented == {f.name for f in dataclasses.fields(cls)}


def test_the_agent_and_weights_sections_are_the_real_classes(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("agent:\n  max_parse_errors: 5\n  observation_budget: 900\n  bash_timeout: 12\n"
                    "weights:\n  test: 0.8\n  judge: 0.2\njudge: none\n")
    cfg = load_config(path)
    assert isinstance(cfg.agent, AgentConfig) and isinstance(cfg.weights, RewardWeights)
    assert (cfg.agent.max_parse_errors, cfg.agent.observation_budget, cfg.agent.bash_timeout) == (5, 900, 12.0)
    assert cfg.weights == RewardWeights(0.8, 0.2) and cfg.judge == "none"
    assert cfg.agent.action_format == "bash_block" and cfg.agent.max_turns == 4  # the training defaults stay


@pytest.mark.parametrize("key,value,message", [
    ("checkpoint_every", 0, "checkpoint_every must be >= 1, got 0"),
    ("keep_checkpoints", 0, "keep_checkpoints must be >= 1, got 0"),
    ("grpo.mini_batches", 0, "grpo.mini_batches must be >= 1, got 0"),
    ("grpo.clip_low", 1.5, "grpo.clip_low must be >= 0 and < 1"),
    ("optim.lr", 0, "optim.lr must be > 0"),
    ("optim.betas", [0.9], "optim.betas must be"),
    ("agent.max_turns", 0, "agent.max_turns must be >= 1"),
    ("agent.action_format", "yaml", "agent.action_format: unknown format 'yaml'"),
    ("agent.bash_timeout", 0, "agent.bash_timeout must be > 0"),
    ("weights.test", -1, "RewardWeights.test"),
    ("tasks.difficulty", 4, "tasks.difficulty must be >= 1 and <= 3"),
    ("tasks.family", "no-such-family", "tasks.family: unknown family"),
    ("tasks.train_seeds", [5, 5], "tasks.train_seeds must be"),
    ("eval_group_size", 0, "eval_group_size must be >= 1"),
    ("time_budget_min", -1, "time_budget_min must be >= 0"),
    ("judge", "llm", "judge: 'llm'"),
])
def test_out_of_range_values_fail_at_load_naming_file_and_key(tmp_path, key, value, message):
    path = tmp_path / "run.yaml"
    path.write_text("steps: 2\n")
    with pytest.raises(ValueError, match="run.yaml: ") as info:
        load_config(path, {key: value})
    assert message in str(info.value)


def test_overlapping_family_seed_ranges_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        load_config(None, {"tasks.family": "easy-files", "tasks.train_seeds": [0, 10], "tasks.eval_seeds": [5, 20]})


def test_a_key_of_an_older_config_says_where_it_moved(tmp_path):
    path = tmp_path / "old.yaml"
    path.write_text("agent:\n  judge: rubric\n  test_weight: 0.65\n")
    with pytest.raises(ValueError, match=r"old.yaml: agent: unknown key.*agent: judge is now judge \(top level\)"):
        load_config(path)


def _episode(segments) -> EpisodeResult:
    return EpisodeResult("t", "termrl", {}, True, False, None, 1.0, trajectory=Trajectory((), (), tuple(segments)))


def test_sample_from_episode_masks_and_keeps_the_log_probs():
    sample = sample_from_episode(_episode([TokenSegment((1, 2), False), TokenSegment((3, 4), True, (-0.1, -0.2))]))
    assert sample.tokens.tolist() == [1, 2, 3, 4] and sample.mask.tolist() == [0, 0, 1, 1]
    assert torch.allclose(sample.rollout_logp, torch.tensor([0.0, 0.0, -0.1, -0.2]))
    assert sample_from_episode(_episode([TokenSegment((1, 2), False)])) is None


def test_trainable_tokens_without_log_probs_are_an_error():
    with pytest.raises(ValueError, match="trainable segment 1 has 2 tokens but 1 log-probs"):
        sample_from_episode(_episode([TokenSegment((1,), False), TokenSegment((3, 4), True, (-0.1,))]))
