"""Episode rows -> one masked sequence / per-turn rows, including re-tokenised (misaligned) histories."""

from __future__ import annotations

import pytest

from termrl.rollout.sequences import align_turns, episode_sequence, episode_to_turn_rows, token_mismatches
from termrl.types import episode_from_row


def _row(segments, prompt_lengths):
    return episode_from_row({"key": "0:t:0", "task": "t", "agent": "termrl", "reward": 0.0, "error": None,
                             "trajectory": {
        "segments": [{"token_ids": ids, "trainable": tr, "logprobs": [-0.5] * len(ids) if tr else []}
                     for ids, tr in segments],
        "steps": [{"turn": i, "n_prompt_tokens": n} for i, n in enumerate(prompt_lengths)]}})


def test_aligned_episode_gives_turn_rows_and_one_sequence():
    # prompt [1,2,3], turn 0 samples [10,11], observation [4,5], turn 1 samples [12]
    row = _row([([1, 2, 3], False), ([10, 11], True), ([4, 5], False), ([12], True)], [3, 7])
    turns = episode_to_turn_rows(row)
    assert [(t.prompt_ids, t.completion_ids, t.mask) for t in turns] == [
        ((1, 2, 3), (10, 11), (1, 1)), ((1, 2, 3, 10, 11, 4, 5), (12,), (1,))]
    assert turns[0].logprobs == (-0.5, -0.5)
    seq = episode_sequence(row)
    assert seq.tokens == (1, 2, 3, 10, 11, 4, 5, 12)
    assert seq.mask == (0, 0, 0, 1, 1, 0, 0, 1)
    assert seq.logprobs == (0.0, 0.0, 0.0, -0.5, -0.5, 0.0, 0.0, -0.5)
    assert seq.prompt_len == 3
    assert token_mismatches(row) == 0


def test_retokenised_history_is_realigned_per_turn_and_dropped_as_a_sequence():
    # Turn 1's prompt re-tokenised turn 0's last token: the policy saw [1,2,3,10] + [99,4,5] (7 tokens),
    # which the agent records as the common prefix [1,2,3,10] and the new context [99,4,5].
    row = _row([([1, 2, 3], False), ([10, 11], True), ([99, 4, 5], False), ([12], True)], [3, 7])
    assert token_mismatches(row) == 1
    turns = episode_to_turn_rows(row)
    assert turns[1].prompt_ids == (1, 2, 3, 10, 99, 4, 5)  # exactly what the policy was given
    assert turns[1].completion_ids == (12,)
    assert episode_sequence(row) is None  # one sequence cannot hold both tokenisations: never trained mis-masked


def test_rows_that_cannot_be_checked_are_not_trusted():
    row = _row([([1, 2], False), ([10], True), ([3], False), ([11], True)], [2])  # 2 model turns, 1 recorded
    assert align_turns(row.trajectory).problem
    assert episode_sequence(row) is None
    with pytest.raises(ValueError, match="cannot be checked"):
        episode_to_turn_rows(row)
    # a prompt length that no kept prefix explains
    bad = _row([([1, 2, 3], False), ([10], True), ([4], False), ([11], True)], [3, 9])
    assert episode_sequence(bad) is None and align_turns(bad.trajectory).problem


def test_episode_without_model_tokens():
    row = episode_from_row({"task": "t", "agent": "oracle", "reward": 1.0})  # a reference agent: no trajectory
    assert episode_to_turn_rows(row) == []
    assert episode_sequence(row) is None


def test_run_samples_refuses_repeated_keys(tmp_path):
    from types import SimpleNamespace

    from termrl.rollout.engine import RolloutEngine, TrajectoryStore

    engine = RolloutEngine(None, lambda: None, store=TrajectoryStore(tmp_path / "r.jsonl"))
    task = SimpleNamespace(name="t")
    with pytest.raises(ValueError, match="repeat an episode key"):
        engine.run_samples([(task, 0), (task, 0)], step=3)
