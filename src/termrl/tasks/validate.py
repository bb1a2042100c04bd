"""Task validation: a valid task is solved by its reference solution and not by doing nothing.

Also records which individual tests the no-op agent already passes: those tests carry no
signal, and the reward code leaves them out of partial credit. The record is kept in the
cache, keyed by a digest of the task folder, so an edited task is validated afresh.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from termrl.agent.reference import NopAgent, OracleAgent
from termrl.errors import TaskError
from termrl.images.build import CACHE_DIR
from termrl.rollout.episode import EpisodeConfig, run_episode
from termrl.sandbox.base import SandboxProvider
from termrl.types import EpisodeResult, Task


@dataclass(frozen=True)
class ValidationResult:
    task: str
    valid: bool
    oracle_reward: float | None
    nop_reward: float | None
    error: str | None
    nop_passed_tests: list[str] = field(default_factory=list)
    path: str = ""
    wrong_rewards: dict[str, float] = field(default_factory=dict)
    """Reward of each plausible wrong solution (solution/wrong_*.sh): each must be < 1."""
    repeats: int = 1
    stable: bool = True
    """The same rewards in every repeat."""
    n_tests: int = 0
    has_solution: bool = True
    """False: the task has no reference solution, so only the build and the no-op agent were checked."""

    def to_json(self) -> dict:
        return asdict(self)


def task_digest(path: Path) -> str:
    h = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        h.update(file.relative_to(path).as_posix().encode() + b"\0" + file.read_bytes())
    return h.hexdigest()[:24]


def _record_path(task: Task) -> Path:
    return CACHE_DIR / "validation" / f"{task.name}-{task_digest(task.path)}.json"


def nop_passing_tests(task: Task) -> set[str] | None:
    """Tests the no-op agent passes, from the last validation of this exact task (None if never validated)."""
    path = _record_path(task)
    if not path.is_file():
        return None
    return set(json.loads(path.read_text()).get("nop_passed_tests", []))


def cached_result(task: Task, min_repeats: int = 1) -> ValidationResult | None:
    """The last valid validation of exactly this task folder (same digest), if one was recorded."""
    path = _record_path(task)
    if not path.is_file():
        return None
    data = json.loads(path.read_text())
    known = {f for f in ValidationResult.__dataclass_fields__}
    result = ValidationResult(**{k: v for k, v in data.items() if k in known})
    return result if result.valid and result.repeats >= min_repeats else None


def _problem(episode: EpisodeResult) -> str | None:
    if episode.error:
        return f"{episode.agent}: [{episode.error.boundary}] {episode.error.message}"
    if episode.verifier and episode.verifier.problem:
        return f"{episode.agent}: {episode.verifier.problem}"
    return None


def _reward(episode: EpisodeResult) -> float:
    # Validation judges the task by its test script's own reward (reward.txt), not partial credit.
    return episode.verifier.reward if episode.verifier and not episode.error else 0.0


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
        oracle = run_episode(task, OracleAgent(), provider, config)
        if oracle.error and oracle.error.boundary in ("image", "task"):
            return ValidationResult(task.name, False, None, None, _problem(oracle), path=str(task.path))
        runs.setdefault("oracle", []).append(oracle)
        runs.setdefault("nop", []).append(run_episode(task, NopAgent(), provider, config))
        for name in wrong_names:
            runs.setdefault(name, []).append(run_episode(task, OracleAgent(script=name), provider, config))
    rewards = {name: [_reward(e) for e in episodes] for name, episodes in runs.items()}
    oracle, nop = runs["oracle"][-1], runs["nop"][-1]
    oracle_reward, nop_reward = min(rewards["oracle"]), max(rewards["nop"])
    problems = []
    if oracle_reward < 1.0:
        bad = next(e for e in runs["oracle"] if _reward(e) < 1.0)
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
                              {n: max(rewards[n]) for n in wrong_names}, repeats, stable, len(oracle.tests))
    if result.valid:
        record = _record_path(task)
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(result.to_json(), indent=1))
    return result


def _validate_without_solution(task: Task, provider: SandboxProvider, config: EpisodeConfig | None,
                               repeats: int) -> ValidationResult:
    """No reference solution (e.g. rows of the seed's CSV): check what can be checked -- the image
    builds, the tests run, and the no-op agent scores 0 every time. Not recorded as validated."""
    nops = [run_episode(task, NopAgent(), provider, config) for _ in range(repeats)]
    problems = [p for p in (_problem(e) for e in nops) if p]
    rewards = [_reward(e) for e in nops]
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
                            len(nop.tests), has_solution=False)


def invalid_load(error: TaskError) -> ValidationResult:
    task_dir = error.task_dir or error.path
    return ValidationResult(task_dir.name, False, None, None, str(error), path=str(task_dir))
