"""The episode record and its JSON row: one writer, one reader, nothing lost between them."""

from __future__ import annotations

import json

import pytest

from termrl.types import (Action, EpisodeError, EpisodeResult, Message, Observation, RewardParts, RewardWeights, Step,
                          TokenSegment, Trajectory, VerifierResult, episode_from_row, episode_to_row)


def _trajectory() -> Trajectory:
    step = Step(0, "<bash>ls</bash>", (Action("bash", {"command": "ls"}, "c1"),),
                (Observation("bash", "a.txt\n", True, False, 0.01),), None, 0.5, 0.01, 40, 6)
    return Trajectory(
        messages=(Message("system", "sys"), Message("user", "do it"),
                  Message("assistant", "", ({"id": "c1", "type": "function",
                                             "function": {"name": "bash", "arguments": "{}"}},)),
                  Message("tool", "a.txt", tool_call_id="c1", name="bash")),
        steps=(step,),
        segments=(TokenSegment((1, 2, 3), False), TokenSegment((4, 5), True, (-0.5, -0.25))),
        finish_message="done", end_reason="finished", todos=({"text": "look", "done": True},), n_tokens=46)


def _episode(**changes) -> EpisodeResult:
    verifier = VerifierResult(reward=1.0, tests={"t1": True, "t2": False}, reward_source="reward.txt", exit_code=0,
                              timed_out=False, output="2 passed", duration_s=1.25, problem=None,
                              tampered=("/usr/bin/pytest",))
    fields = dict(
        task="task-a", agent="termrl", tests={"t1": True, "t2": False}, terminated=True, truncated=False,
        error=None, duration_s=12.5,
        parts=RewardParts(0.6, 0.5, 0.8, None, RewardWeights(0.65, 0.35), resolved=False),
        verifier=verifier, trajectory=_trajectory(), policy="hf", end_reason="finished", n_turns=1, n_tokens=46,
        token_mismatches=2, agent_exit_code=None, agent_output_tail="", tampered=("/usr/bin/pytest",),
        extra={"key": "3:task-a:1", "step": 3, "index": 1})
    fields.update(changes)
    return EpisodeResult(**fields)


def _through_json(result: EpisodeResult) -> EpisodeResult:
    return episode_from_row(json.loads(json.dumps(episode_to_row(result))))


def test_an_agent_episode_survives_the_row():
    result = _episode()
    assert _through_json(result) == result


def test_a_failed_reference_episode_survives_the_row():
    result = _episode(agent="oracle", trajectory=None, policy=None, n_turns=0, n_tokens=0, token_mismatches=0,
                      verifier=None, tests={}, error=EpisodeError("sandbox", "container died"),
                      parts=RewardParts(0.0, 0.0, None, "JudgeReplyError: no JSON", RewardWeights(1.0, 0.0)),
                      agent_exit_code=137, agent_output_tail="Killed", tampered=(), extra={})
    back = _through_json(result)
    assert back == result
    assert back.error == EpisodeError("sandbox", "container died") and back.agent_exit_code == 137


def test_the_row_keeps_the_documented_keys():
    row = episode_to_row(_episode())
    for key in ("task", "agent", "reward", "resolved", "tests", "terminated", "truncated", "error", "duration_s",
                "verifier", "policy", "test_score", "judge_score", "judge_error", "n_turns", "n_tokens", "end_reason",
                "trajectory", "token_mismatches", "agent_exit_code", "agent_output_tail", "tampered", "weights_used"):
        assert key in row, key
    assert row["reward"] == 0.6 and row["judge_score"] == 0.8 and row["tampered"] == ["/usr/bin/pytest"]
    assert row["key"] == "3:task-a:1" and row["step"] == 3  # the store's keys come back as written
    assert row["verifier"]["reward"] == 1.0 and row["verifier"]["output_tail"] == "2 passed"


def test_only_the_tail_of_a_long_verifier_output_is_kept():
    long = VerifierResult(1.0, {}, "reward.txt", 0, False, "x" * 5000 + "END", 1.0)
    back = _through_json(_episode(verifier=long))
    assert back.verifier.output.endswith("END") and len(back.verifier.output) == 2000


def test_a_row_from_an_older_version_parses():
    old = {"task": "t", "agent": "oracle", "reward": 1.0, "resolved": True, "tests": {"a": True}, "terminated": True,
           "truncated": False, "error": None, "duration_s": 3.0,
           "verifier": {"reward_source": "reward.txt", "exit_code": 0, "timed_out": False, "duration_s": 1.0,
                        "problem": None, "output_tail": "ok"}}
    result = episode_from_row(old)
    assert result.reward == 1.0 and result.resolved and result.test_score == 1.0 and result.trajectory is None
    assert result.verifier.reward == 1.0 and result.tampered == () and result.extra == {}


@pytest.mark.parametrize("row", [{}, {"task": "t", "agent": "a"}, {"task": "t", "agent": "a", "reward": "high"}])
def test_a_row_that_is_not_an_episode_is_refused(row):
    with pytest.raises(ValueError, match="not an episode row"):
        episode_from_row(row)


def test_the_validation_record_is_kept_per_task_folder_digest(tmp_path, monkeypatch, task_factory):
    from termrl.tasks import load_task
    from termrl.tasks import records

    monkeypatch.setattr(records, "CACHE_DIR", tmp_path / "cache")
    task = load_task(task_factory())
    assert records.nop_passing_tests(task) is None and records.cached_result(task) is None
    result = records.ValidationResult(task.name, True, 1.0, 0.0, None, ["test_always"], str(task.path), repeats=2,
                                      n_tests=2, digest=records.task_digest(task.path))
    records.save_record(task, result)
    assert records.load_record(task) == result
    assert records.nop_passing_tests(task) == {"test_always"}
    assert records.cached_result(task, min_repeats=2) == result and records.cached_result(task, 3) is None
    (task.path / "instruction.md").write_text("changed")  # an edited task is a new task
    assert records.load_record(load_task(task.path)) is None
