"""Test scores and reward mixing (pure functions, no containers)."""

from __future__ import annotations

import math

import pytest

from termrl.errors import JudgeError
from termrl.rewards.scoring import RewardWeights, combine, episode_reward, resolved, test_score
from termrl.types import EpisodeError, Score, Trajectory, VerifierResult


def verifier(tests: dict[str, bool] | None = None, reward: float = 0.0, *, timed_out: bool = False,
             source: str = "reward.txt", problem: str | None = None) -> VerifierResult:
    return VerifierResult(reward=reward, tests=tests or {}, reward_source=source, exit_code=0 if reward else 1,
                          timed_out=timed_out, output="", duration_s=0.1, problem=problem)


# --- test score --------------------------------------------------------------------------------

def test_partial_credit_is_the_share_of_tests_passed():
    assert test_score(verifier({"a": True, "b": False, "c": True, "d": False})) == 0.5


def test_a_test_that_did_not_run_counts_as_failed():
    # the verifier maps error / skipped / missing results to False; they weigh like any failure
    v = verifier({"ran_ok": True, "errored": False, "skipped": False})
    assert test_score(v) == pytest.approx(1 / 3)


def test_all_tests_pass_with_reward_one_is_full_credit_and_resolved():
    v = verifier({"a": True, "b": True}, reward=1.0)
    assert test_score(v) == 1.0 and resolved(v)


def test_all_reported_tests_pass_but_the_script_says_fail():
    # something outside the per-test results failed: it counts as one more failed test, never full credit
    v = verifier({"a": True, "b": True, "c": True}, reward=0.0)
    assert test_score(v) == pytest.approx(3 / 4)
    assert not resolved(v)


def test_without_per_test_results_the_reward_file_decides():
    assert test_score(verifier({}, reward=1.0)) == 1.0
    assert test_score(verifier({}, reward=0.25, source="reward.json")) == 0.25
    assert test_score(verifier({}, reward=0.0, source="none", problem="no reward.txt")) == 0.0


def test_nop_passing_tests_are_left_out_so_doing_nothing_earns_zero():
    nop_run = verifier({"file_untouched": True, "output_exists": False, "output_right": False})
    assert test_score(nop_run) == pytest.approx(1 / 3)  # without the validation record, free credit
    assert test_score(nop_run, nop_passing={"file_untouched"}) == 0.0
    half = verifier({"file_untouched": True, "output_exists": True, "output_right": False})
    assert test_score(half, nop_passing={"file_untouched"}) == 0.5


def test_nop_passing_test_failed_by_the_agent_is_still_left_out():
    # the agent broke a test that passes untouched: not partial credit either way (the reward file still
    # denies full credit, and `resolved` looks at every test)
    v = verifier({"file_untouched": False, "output_right": True}, reward=0.0)
    assert test_score(v, nop_passing={"file_untouched"}) == 0.5
    assert not resolved(v)


def test_all_tests_nop_passing_falls_back_to_the_reward():
    v = verifier({"a": True, "b": True}, reward=1.0)
    assert test_score(v, nop_passing={"a", "b"}) == 1.0
    assert test_score(verifier({"a": True}, reward=0.0), nop_passing={"a"}) == 0.0


def test_verifier_timeout_scores_zero_whatever_it_recorded():
    v = verifier({"a": True, "b": True}, reward=1.0, timed_out=True)
    assert test_score(v) == 0.0 and not resolved(v)


def test_no_verifier_scores_zero():
    assert test_score(None) == 0.0 and not resolved(None)


def test_reward_outside_unit_range_is_clamped():
    assert test_score(verifier({}, reward=3.0)) == 1.0


def test_truncated_episode_is_scored_from_its_tests():
    parts = episode_reward(verifier({"a": True, "b": False}), trajectory=Trajectory((), ()))
    assert parts.test_score == 0.5 and parts.reward == 0.5


def test_episode_failed_at_a_boundary_scores_zero_on_tests():
    parts = episode_reward(verifier({"a": True}, reward=1.0), EpisodeError("sandbox", "container died"),
                           trajectory=Trajectory((), ()))
    assert parts.test_score == 0.0


# --- weights -------------------------------------------------------------------------------------

def test_default_weights_follow_terminal_bench_rl():
    w = RewardWeights()
    assert (w.test, w.judge) == (0.65, 0.35)


@pytest.mark.parametrize("kwargs", [dict(test=-0.1), dict(judge=-1), dict(test=0, judge=0), dict(test=math.nan),
                                    dict(judge=math.inf), dict(test="0.5"), dict(judge=True)])
def test_bad_weights_are_rejected_with_a_fix(kwargs):
    with pytest.raises(ValueError, match="fix"):
        RewardWeights(**kwargs)


def test_weights_are_normalised_so_their_scale_does_not_matter():
    a = combine(0.5, Score(1.0), None, RewardWeights(6.5, 3.5))
    b = combine(0.5, Score(1.0), None, RewardWeights(0.65, 0.35))
    assert a.reward == pytest.approx(b.reward) == pytest.approx(0.65 * 0.5 + 0.35)
    assert a.weights_used == RewardWeights(0.65, 0.35)


# --- combine -------------------------------------------------------------------------------------

def test_combine_mixes_test_and_judge():
    parts = combine(1.0, Score(0.5, {"x": 0.5}), None)
    assert parts.reward == pytest.approx(0.65 + 0.35 * 0.5)
    assert parts.test_score == 1.0 and parts.judge_score == 0.5 and parts.judge_error is None


def test_judge_failure_renormalises_to_the_tests_and_stays_visible():
    parts = combine(0.8, None, "JudgeReplyError: no JSON in reply")
    assert parts.reward == pytest.approx(0.8)  # not 0.65 * 0.8: never a silent zero for the judge's share
    assert parts.judge_error == "JudgeReplyError: no JSON in reply"
    assert parts.judge_score is None
    assert parts.weights_used == RewardWeights(1.0, 0.0)
    assert parts.to_json()["judge_error"] == "JudgeReplyError: no JSON in reply"


def test_no_judge_configured_uses_tests_alone_without_error():
    parts = combine(0.3, None, None)
    assert parts.reward == pytest.approx(0.3) and parts.judge_error is None


def test_judge_weight_zero_ignores_the_judge():
    parts = combine(0.4, Score(1.0), None, RewardWeights(1.0, 0.0))
    assert parts.reward == pytest.approx(0.4) and parts.judge_score == 1.0


def test_judge_only_weights_with_a_failed_judge_still_fall_back_to_tests():
    parts = combine(0.6, None, "timeout", RewardWeights(0.0, 1.0))
    assert parts.reward == pytest.approx(0.6) and parts.judge_error == "timeout"


@pytest.mark.parametrize("test,judge", [(1.2, Score(0.5)), (-0.1, None), (0.5, Score(1.5)), (math.nan, None)])
def test_scores_outside_unit_range_are_rejected(test, judge):
    with pytest.raises(ValueError):
        combine(test, judge, None)


def test_score_and_error_together_are_rejected():
    with pytest.raises(ValueError, match="one of them"):
        combine(0.5, Score(0.5), "boom")


# --- episode_reward -------------------------------------------------------------------------------

class _FailingJudge:
    name = "failing"

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        raise JudgeError("the judge model is down")


class _FixedJudge:
    name = "fixed"

    def score(self, instruction: str, trajectory: Trajectory) -> Score:
        return Score(0.2, {"action_success": 0.2})


def test_episode_reward_records_a_judge_error_and_uses_the_tests():
    ep = verifier({"a": True, "b": True}, reward=1.0)
    parts = episode_reward(ep, trajectory=Trajectory((), ()), instruction="x", judge=_FailingJudge())
    assert parts.reward == 1.0
    assert "the judge model is down" in parts.judge_error
    assert parts.weights_used.judge == 0.0


def test_episode_reward_mixes_a_working_judge():
    ep = verifier({"a": True, "b": False})
    parts = episode_reward(ep, trajectory=Trajectory((), ()), judge=_FixedJudge(), nop_passing=set())
    assert parts.reward == pytest.approx(0.65 * 0.5 + 0.35 * 0.2)


def test_episode_reward_without_trajectory_uses_tests_alone():
    parts = episode_reward(verifier({"a": True}, reward=1.0), judge=_FixedJudge())
    assert parts.reward == 1.0 and parts.judge_score is None and parts.judge_error is None


def test_reference_episode_is_scored_by_the_test_script_and_resolved_once():
    v = verifier({"a": True, "b": False}, reward=0.0)
    parts = episode_reward(v, judge=_FixedJudge())  # no trajectory: a reference agent, no partial credit
    assert parts.reward == 0.0 and parts.test_score == 0.0 and parts.judge_score is None and not parts.resolved
    agent = episode_reward(v, trajectory=Trajectory((), ()))  # the same tests, an agent's episode
    assert agent.reward == 0.5 and not agent.resolved
    assert episode_reward(verifier({"a": True}, reward=1.0)).resolved
    assert not episode_reward(verifier({"a": True}, reward=1.0), EpisodeError("sandbox", "died")).resolved
