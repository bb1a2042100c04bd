"""The embedded SmolLM2 runs real episodes in Docker with each action format: verified, judged, saved."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES
from termrl.agent.loop import AgentConfig, TermAgent
from termrl.rewards.judges import get_judge
from termrl.rollout.episode import EpisodeConfig, EpisodeLog, run_episode
from termrl.tasks import load_task
from termrl.types import episode_to_row


@pytest.fixture(scope="module")
def smollm2():
    from termrl.policies import get_policy

    return get_policy("hf")


@pytest.mark.parametrize("action_format", ["xml", "tool_call", "bash_block"])
def test_smollm2_episode(smollm2, docker_provider, tmp_path, action_format):
    task = load_task(EXAMPLES / "organize-files")
    agent = TermAgent(smollm2, AgentConfig(action_format=action_format, max_turns=2, max_tokens_per_turn=64))
    result = run_episode(task, agent, docker_provider, EpisodeConfig(judge=get_judge("rubric")))
    assert result.error is None, result.error
    # Verified: the hidden tests ran whatever the model did.
    assert result.verifier is not None and len(result.tests) == 5
    assert 0.0 <= result.reward <= 1.0
    row = episode_to_row(result)
    assert row["policy"] == "hf" and row["judge_score"] is not None and row["judge_error"] is None
    assert row["n_turns"] >= 1 and row["n_tokens"] > 0
    segments = row["trajectory"]["segments"]
    assert any(s["trainable"] for s in segments) and any(not s["trainable"] for s in segments)
    for seg in segments:
        if seg["trainable"]:
            assert len(seg["logprobs"]) == len(seg["token_ids"])
    # Saved, and readable again with `termrl show`.
    log = EpisodeLog(tmp_path / "episodes.jsonl")
    log.append(row)
    shown = subprocess.run([str(Path(sys.executable).with_name("termrl")), "show", str(log.path)],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "organize-files" in shown.stdout and "turn 1" in shown.stdout
    assert json.loads(log.path.read_text())["task"] == "organize-files"
