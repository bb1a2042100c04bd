"""From a verified episode to a reward: the test score, the judge score, and how they combine.

The choices, and why:

- **Per-test results first.** When the tests left per-test results (JUnit, CTRF, pytest's
  summary), the test score is the share of tests that passed: partial credit gives the trainer
  a gradient on tasks the policy cannot solve yet. Without per-test results it is the
  verifier's reward (``reward.txt`` / ``reward.json``).
- **A test that did not run failed.** The verifier already maps errors, skips and missing
  results to ``False``; a verifier that timed out scores 0 whatever it recorded before.
- **Tests the no-op agent passes carry no signal.** Validation records which tests pass when
  the agent does nothing (``nop_passing``); they are left out of partial credit, so doing
  nothing earns 0. When every test is no-op-passing, the reward file decides.
- **The test script has the last word on full credit.** If every counted test passed but the
  reward is below 1, something outside the per-test results failed (a check that is not a
  pytest test, a test file that never reported); it counts as one more failed test.
- **Reference agents check the task.** An episode without a trajectory (oracle, no-op, a
  scripted check) is scored by the test script's own reward, with no partial credit and no
  judge: that is the number validation holds a task to (oracle 1, no-op 0).
- **A judge failure is data, not a zero.** The episode's reward then uses the test score
  alone, the judge error is kept on :class:`RewardParts`, and ``weights_used`` shows the
  renormalised weights.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from termrl.errors import JudgeError
from termrl.types import EpisodeError, RewardParts, RewardWeights, Score, Trajectory, VerifierResult

if TYPE_CHECKING:
    from termrl.rewards.base import Judge

__all__ = ["RewardParts", "RewardWeights", "combine", "episode_reward", "resolved", "task_test_weights", "test_score"]


def test_score(verifier: VerifierResult | None, nop_passing: set[str] | None = None,
               weights: dict[str, float] | None = None) -> float:
    """The episode's test score in [0, 1].

    Args:
        verifier: what the verifier returned; None when the episode never reached the tests
            (the sandbox or the policy failed first), which scores 0.
        nop_passing: names of the tests the no-op agent passes (from task validation); they
            are left out of partial credit. None or empty: every test counts.
        weights: the task's test weights (``tests/test_weights.json``, see :func:`task_test_weights`):
            each test counts by its weight instead of equally; a test the weights do not name
            counts 0. None: every test weighs the same.

    A truncated episode (turn, token or time limit) is scored from its tests like any other:
    truncation is not failure.
    """
    if verifier is None or verifier.timed_out:
        return 0.0
    reward = _clamp01(verifier.reward)
    counted = {name: ok for name, ok in verifier.tests.items() if name not in (nop_passing or ())}
    if not counted:  # no per-test results, or every test passes without any work
        return reward
    if weights is not None:  # --- weighted tests (the seed dataset's test_weights) ---
        w = {name: _test_weight(weights, name) for name in counted}
        total = sum(w.values())
        if total <= 0:
            return reward
        passed_w = sum(w[name] for name, ok in counted.items() if ok)
        if passed_w == total and reward < 1.0:  # one more failed test, of the mean weight
            return passed_w / (total + total / len(counted))
        return passed_w / total
    passed = sum(counted.values())
    if passed == len(counted) and reward < 1.0:
        return passed / (len(counted) + 1)
    return passed / len(counted)


def _test_weight(weights: dict[str, float], name: str) -> float:
    """A test's weight: by its full name, without pytest parameters, or without the ``test_`` prefix."""
    base = re.sub(r"\[.*\]$", "", name)
    for key in (name, base, base[5:] if base.startswith("test_") else None):
        if key is not None and key in weights:
            return float(weights[key])
    return 0.0


def task_test_weights(tests_dir: Path) -> dict[str, float] | None:
    """The task's test weights from ``tests/test_weights.json`` (``{test name: weight}``), or None.

    Raises:
        ValueError: the file is not a JSON object of non-negative numbers (names the file).
    """
    path = Path(tests_dir) / "test_weights.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not readable as JSON ({exc}) -- fix: write {{\"test name\": weight}}") from exc
    if not isinstance(data, dict) or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in data.values()):
        raise ValueError(f"{path}: expected a JSON object of test name -> weight >= 0")
    return {str(k): float(v) for k, v in data.items()}


# keep pytest from collecting the function above when a test module imports it
test_score.__test__ = False  # type: ignore[attr-defined]


def resolved(verifier: VerifierResult | None) -> bool:
    """All tests passed and the reward is 1 (no-op-passing tests included: resolved means everything)."""
    if verifier is None or verifier.timed_out:
        return False
    return verifier.reward >= 1.0 and all(verifier.tests.values())


def combine(test: float, judge: Score | None, judge_error: str | None = None,
            weights: RewardWeights | None = None) -> RewardParts:
    """Mix a test score and a judge verdict into the reward.

    Args:
        test: the test score in [0, 1] (see :func:`test_score`).
        judge: the judge's verdict, or None when no judge ran or it failed.
        judge_error: why the judge failed (give it instead of ``judge``).
        weights: the mix; default :class:`RewardWeights` ().

    Without a judge verdict (none configured, or ``judge_error``), the reward is the test score
    alone: the weights are renormalised to ``test=1, judge=0`` and that is recorded in
    ``weights_used`` — never a silent zero for the judge's share.

    Raises:
        ValueError: a score outside [0, 1], or both ``judge`` and ``judge_error`` given.
    """
    weights = weights or RewardWeights()
    _check_unit("test", test)
    if judge is not None and judge_error is not None:
        raise ValueError("combine: got both a judge score and a judge error -- pass one of them")
    if judge is None or weights.judge == 0:
        used = RewardWeights(1.0, 0.0)
        return RewardParts(reward=float(test), test_score=float(test),
                           judge_score=None if judge is None else judge.value, judge_error=judge_error,
                           weights_used=used)
    _check_unit("judge", judge.value)
    used = weights.normalised
    reward = used.test * test + used.judge * judge.value
    return RewardParts(reward=_clamp01(reward), test_score=float(test), judge_score=judge.value,
                       judge_error=None, weights_used=used, judge_parts=dict(judge.parts),
                       judge_explanation=judge.explanation)


def episode_reward(verifier: VerifierResult | None, error: EpisodeError | None = None, *,
                   trajectory: Trajectory | None = None, instruction: str = "", judge: Judge | None = None,
                   weights: RewardWeights | None = None, nop_passing: set[str] | None = None,
                   test_weights: dict[str, float] | None = None) -> RewardParts:
    """The reward of any finished episode, and its parts: the one place ``reward`` and ``resolved`` are defined.

    Args:
        verifier: what the tests returned; None when the episode never reached them.
        error: the boundary the episode failed at, if any: the tests then count 0 and it is not resolved.
        trajectory: what an LLM agent did; None for an episode without one (reference agents).
        instruction: the task's instruction, for the judge.
        judge: scores the trajectory; None = tests only.
        weights: the test/judge mix (default :class:`RewardWeights`).
        nop_passing: tests the no-op agent passes (from task validation), left out of partial credit.
        test_weights: the task's test weights (:func:`task_test_weights`); None = every test the same.

    An agent's episode (it has a trajectory) earns partial credit (:func:`test_score`) mixed with
    the judge's verdict (:func:`combine`). An episode without a trajectory — the oracle, the no-op
    agent, a scripted check — is a test of the task, not a learning signal: its reward is the test
    script's own reward (``reward.txt``), which is what validation judges a task by. A
    :class:`JudgeError` is caught here, once, and recorded on the parts; the reward then comes
    from the tests alone.
    """
    if verifier is not None and verifier.tampered:
        # The agent changed the verification toolchain (termrl.rewards.integrity): 0, whatever the
        # tests or the judge say -- partial credit would still pay for the trick.
        return dataclasses.replace(combine(0.0, None, None, weights), resolved=False)
    done = error is None and verifier is not None
    is_resolved = done and resolved(verifier)
    if trajectory is None:
        script = _clamp01(verifier.reward) if done else 0.0
        return dataclasses.replace(combine(script, None, None, weights), resolved=is_resolved)
    test = test_score(verifier, nop_passing, test_weights) if done else 0.0
    verdict, judge_error = None, None
    if judge is not None:
        try:
            verdict = judge.score(instruction, trajectory)
        except JudgeError as exc:
            judge_error = f"{type(exc).__name__}: {exc}"
    return dataclasses.replace(combine(test, verdict, judge_error, weights), resolved=is_resolved)


def _check_unit(name: str, value: float) -> None:
    if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"combine: {name} score must be in [0, 1], got {value!r}")


def _clamp01(value: float) -> float:
    return min(1.0, max(0.0, float(value)))
