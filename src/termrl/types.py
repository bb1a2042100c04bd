"""The typed records that cross module boundaries.

Read this module first: every other part of termrl produces or consumes these.
All records are frozen dataclasses; nothing crosses a boundary as a bare dict.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

TaskFormat = Literal["harbor", "tb1"]
Difficulty = Literal["easy", "medium", "hard", "extremely_hard", "unknown"]


@dataclass(frozen=True)
class TaskMetadata:
    difficulty: Difficulty = "unknown"
    category: str = "uncategorized"
    tags: tuple[str, ...] = ()
    author: str = ""


@dataclass(frozen=True)
class EnvironmentSpec:
    """How to build and limit the task's container."""

    dockerfile: Path | None
    """The task's Dockerfile, or None when ``docker_image`` names a ready image."""
    context_dir: Path | None
    """Build context for the Dockerfile."""
    docker_image: str | None = None
    """A prebuilt image to use instead of building the Dockerfile."""
    cpus: float = 1.0
    memory_mb: int = 2048
    pids_limit: int = 512
    allow_internet: bool = True
    build_timeout_sec: float = 600.0
    workdir: str | None = None
    """Where the agent's shell starts; None = the image's WORKDIR."""


@dataclass(frozen=True)
class Task:
    """A loaded, validated task. Immutable: loaders build it once."""

    name: str
    path: Path
    format: TaskFormat
    instruction: str
    environment: EnvironmentSpec
    tests_dir: Path
    """Copied into the container at /tests only after the agent stops."""
    test_script: Path
    """The script that runs the tests (``tests/test.sh`` or TB1 ``run-tests.sh``)."""
    solution_dir: Path | None
    """Folder copied to /solution for the oracle (Harbor ``solution/``)."""
    solution_script: str | None
    """Shell text the oracle runs (``bash /solution/solve.sh`` or TB1 commands)."""
    metadata: TaskMetadata = TaskMetadata()
    agent_timeout_sec: float = 600.0
    verifier_timeout_sec: float = 600.0

    @property
    def has_solution(self) -> bool:
        return self.solution_script is not None


@dataclass(frozen=True)
class ExecResult:
    """What one command run in a sandbox returned."""

    exit_code: int
    output: str
    """stdout and stderr interleaved, capped (head and tail kept, with a marker)."""
    timed_out: bool = False
    output_truncated: bool = False
    shell_restarted: bool = False
    """The persistent shell died during this command and was restarted (state lost)."""
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


@dataclass(frozen=True)
class EpisodeError:
    """A failure at a boundary, recorded on the episode instead of raised."""

    boundary: str
    message: str


@dataclass(frozen=True)
class VerifierResult:
    reward: float
    """Raw reward from the tests (0..1)."""
    tests: dict[str, bool]
    """Per-test outcome, when the tests left per-test results."""
    reward_source: str
    """Where the reward came from: reward.txt, reward.json, ctrf, junit, pytest-summary, none."""
    exit_code: int | None
    timed_out: bool
    output: str
    duration_s: float
    problem: str | None = None
    """Why the tests could not produce a reward (the episode then scores 0)."""


@dataclass(frozen=True)
class AgentOutcome:
    """How the agent phase ended (Gymnasium-style: terminated vs truncated)."""

    terminated: bool
    """The agent stopped by itself (finished)."""
    truncated: bool
    """The agent was cut off by a turn, token or time limit."""
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EpisodeResult:
    task: str
    agent: str
    reward: float
    resolved: bool
    tests: dict[str, bool]
    terminated: bool
    truncated: bool
    error: EpisodeError | None
    duration_s: float
    verifier: VerifierResult | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``episodes.jsonl`` row."""
        row: dict[str, Any] = {
            "task": self.task,
            "agent": self.agent,
            "reward": self.reward,
            "resolved": self.resolved,
            "tests": dict(self.tests),
            "terminated": self.terminated,
            "truncated": self.truncated,
            "error": dataclasses.asdict(self.error) if self.error else None,
            "duration_s": round(self.duration_s, 3),
        }
        if self.verifier is not None:
            v = self.verifier
            row["verifier"] = {
                "reward_source": v.reward_source,
                "exit_code": v.exit_code,
                "timed_out": v.timed_out,
                "duration_s": round(v.duration_s, 3),
                "problem": v.problem,
                "output_tail": v.output[-2000:],
            }
        row.update(self.extra)
        return row
