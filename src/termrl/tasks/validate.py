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


def _problem(episode: EpisodeResult) -> str | None:
    if episode.error:
        return f"{episode.agent}: [{episode.error.boundary}] {episode.error.message}"
    if episode.verifier and episode.verifier.problem:
        return f"{episode.agent}: {episode.verifier.problem}"
    return None


def validate_task(task: Task, provider: SandboxProvider, config: EpisodeConfig | None = None) -> ValidationResult:
    """Run oracle and nop on the task; valid = oracle reward 1.0 and nop reward 0.0."""
    oracle = run_episode(task, OracleAgent(), provider, config)
    if oracle.error and oracle.error.boundary in ("image", "task"):
        return ValidationResult(task.name, False, None, None, _problem(oracle), path=str(task.path))
    nop = run_episode(task, NopAgent(), provider, config)
    # Validation judges the task by its test script's own reward (reward.txt), not partial credit.
    oracle_reward = oracle.verifier.reward if oracle.verifier and not oracle.error else 0.0
    nop_reward = nop.verifier.reward if nop.verifier and not nop.error else 0.0
    problems = []
    if oracle_reward < 1.0:
        problems.append(_problem(oracle) or f"oracle reward {oracle_reward:g} < 1 (failing: "
                        f"{', '.join(k for k, v in oracle.tests.items() if not v) or 'see test output'})")
    if nop_reward > 0.0:
        problems.append(f"nop reward {nop_reward:g} > 0: the tests pass without any work")
    elif nop.error:
        problems.append(_problem(nop))
    passed = sorted(k for k, v in nop.tests.items() if v)
    result = ValidationResult(task.name, not problems, oracle_reward, nop_reward,
                              "; ".join(p for p in problems if p) or None, passed, str(task.path))
    if result.valid:
        record = _record_path(task)
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(result.to_json(), indent=1))
    return result


def invalid_load(error: TaskError) -> ValidationResult:
    task_dir = error.task_dir or error.path
    return ValidationResult(task_dir.name, False, None, None, str(error), path=str(task_dir))
