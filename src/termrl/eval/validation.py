"""Task validation: a valid task is solved by its reference solution and not by doing nothing.

Also records which individual tests the no-op agent already passes: those tests carry no
signal, and the reward code leaves them out of partial credit. The record
(``termrl.tasks.records``) is kept in the cache, keyed by a digest of the task folder, so an
edited task is validated afresh. A reference agent's episode reward is its test script's own
reward (``termrl.rewards.scoring.episode_reward``): that is the number a task is held to.
"""

from __future__ import annotations

from termrl.agent.reference import NopAgent, OracleAgent
from termrl.errors import TaskError
from termrl.rollout.episode import EpisodeConfig, run_episode
from termrl.rollout.shutdown import STOP
from termrl.sandbox.base import SandboxProvider
from termrl.tasks.records import ValidationResult, save_record, task_digest
from termrl.types import EpisodeResult, Task

__all__ = ["ValidationInterrupted", "ValidationResult", "invalid_load", "validate_task"]


class ValidationInterrupted(Exception):
    """A stop (SIGTERM/SIGINT, or a fatal fault) came while the task was being validated: what ran proves
    nothing either way, so no result is recorded for it."""


def _problem(episode: EpisodeResult) -> str | None:
    if episode.error:
        return f"{episode.agent}: [{episode.error.boundary}] {episode.error.message}"
    if episode.verifier and episode.verifier.problem:
        return f"{episode.agent}: {episode.verifier.problem}"
    return None


def _episode(task: Task, agent, provider: SandboxProvider, config: EpisodeConfig | None) -> EpisodeResult:
    """One episode of a validation; raises :class:`ValidationInterrupted` once a stop is requested."""
    if STOP.requested:
        raise ValidationInterrupted(task.name)
    result = run_episode(task, agent, provider, config)
    if STOP.requested or (result.error and result.error.boundary == "interrupted"):
        raise ValidationInterrupted(task.name)
    return result


def validate_task(task: Task, provider: SandboxProvider, config: EpisodeConfig | None = None,
                  repeats: int = 1) -> ValidationResult:
    """Run oracle, nop and every wrong solution ``repeats`` times.

    Valid = oracle reward 1.0 and nop reward 0.0 every time, each ``solution/wrong_*.sh``
    below 1.0 every time, and the same rewards in every repeat.
    """
    if not task.has_solution:
        return _validate_without_solution(task, provider, config, repeats)
    wrong_names = sorted(p.name for p in task.solution_dir.glob("wrong_*.sh")) if task.solution_dir else []
    runs: dict[str, list[EpisodeResult]] = {}
    for _ in range(repeats):
        oracle = _episode(task, OracleAgent(), provider, config)
        if oracle.error and oracle.error.boundary in ("image", "task"):
            return ValidationResult(task.name, False, None, None, _problem(oracle), path=str(task.path))
        runs.setdefault("oracle", []).append(oracle)
        runs.setdefault("nop", []).append(_episode(task, NopAgent(), provider, config))
        for name in wrong_names:
            runs.setdefault(name, []).append(_episode(task, OracleAgent(script=name), provider, config))
    rewards = {name: [e.reward for e in episodes] for name, episodes in runs.items()}
    oracle, nop = runs["oracle"][-1], runs["nop"][-1]
    oracle_reward, nop_reward = min(rewards["oracle"]), max(rewards["nop"])
    problems = []
    if oracle_reward < 1.0:
        bad = next(e for e in runs["oracle"] if e.reward < 1.0)
        problems.append(_problem(bad) or f"oracle reward {oracle_reward:g} < 1 (failing: "
                        f"{', '.join(k for k, v in bad.tests.items() if not v) or 'see test output'})")
    if nop_reward > 0.0:
        problems.append(f"nop reward {nop_reward:g} > 0: the tests pass without any work")
    elif nop.error:
        problems.append(_problem(nop))
    for name in wrong_names:
        if max(rewards[name]) >= 1.0:
            problems.append(f"{name} scores 1: the tests accept this wrong solution")
        errors = [e for e in runs[name] if e.error]
        if errors:
            problems.append(_problem(errors[0]))
    stable = all(len(set(values)) == 1 for values in rewards.values())
    if not stable:
        problems.append("unstable: rewards differ between repeats " + ", ".join(
            f"{k}={v}" for k, v in rewards.items() if len(set(v)) > 1))
    passed = sorted(k for k, v in nop.tests.items() if v)
    result = ValidationResult(task.name, not problems, oracle_reward, nop_reward,
                              "; ".join(p for p in problems if p) or None, passed, str(task.path),
                              {n: max(rewards[n]) for n in wrong_names}, repeats, stable, len(oracle.tests),
                              digest=task_digest(task.path))
    if result.valid:
        save_record(task, result)
    return result


def _validate_without_solution(task: Task, provider: SandboxProvider, config: EpisodeConfig | None,
                               repeats: int) -> ValidationResult:
    """No reference solution (e.g. rows of the seed's CSV): check what can be checked -- the image
    builds, the tests run, and the no-op agent scores 0 every time. Not recorded as validated."""
    nops = [_episode(task, NopAgent(), provider, config) for _ in range(repeats)]
    problems = [p for p in (_problem(e) for e in nops) if p]
    rewards = [e.reward for e in nops]
    if not problems and max(rewards) > 0.0:
        problems.append(f"nop reward {max(rewards):g} > 0: the tests pass without any work")
    if not problems and not nops[-1].tests:
        problems.append("the tests left no per-test results")
    stable = len(set(rewards)) == 1
    if not stable:
        problems.append(f"unstable: nop rewards differ between repeats {rewards}")
    nop = nops[-1]
    return ValidationResult(task.name, not problems, None, max(rewards), "; ".join(problems) or None,
                            sorted(k for k, v in nop.tests.items() if v), str(task.path), {}, repeats, stable,
                            len(nop.tests), has_solution=False, digest=task_digest(task.path))


def invalid_load(error: TaskError) -> ValidationResult:
    task_dir = error.task_dir or error.path
    return ValidationResult(task_dir.name, False, None, None, str(error), path=str(task_dir))
