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
    tampered: list[str] = field(default_factory=list)
    """Paths of the verification toolchain the agent changed (restored before the tests); non-empty = score 0."""
    integrity_s: float = 0.0
    """Seconds the integrity step took (part of duration_s)."""


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
    tampered: list[str] = field(default_factory=list)
    """Verification-toolchain paths the agent changed (found by the integrity step); non-empty = reward 0."""

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
            "tampered": list(self.tampered),
        }
        if self.verifier is not None:
            v = self.verifier
            row["verifier"] = {
                "reward_source": v.reward_source,
                "exit_code": v.exit_code,
                "timed_out": v.timed_out,
                "duration_s": round(v.duration_s, 3),
                "problem": v.problem,
                "integrity_s": round(v.integrity_s, 3),
                "output_tail": v.output[-2000:],
            }
        row.update(self.extra)
        return row


# --- the agent's records -------------------------------------------------------------------

Role = Literal["system", "user", "assistant", "tool"]


@dataclass(frozen=True)
class Message:
    """One chat message. ``tool_calls`` carries native tool calls on assistant messages
    (OpenAI shape: ``{"id", "type": "function", "function": {"name", "arguments"}}``);
    ``tool_call_id`` links a tool result to its call."""

    role: Role
    content: str
    tool_calls: tuple[dict[str, Any], ...] = ()
    tool_call_id: str | None = None
    name: str | None = None

    def to_openai(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [dict(c) for c in self.tool_calls]
        if self.tool_call_id:
            out["tool_call_id"] = self.tool_call_id
        if self.name:
            out["name"] = self.name
        return out


@dataclass(frozen=True)
class Generation:
    """What a policy returned for one prompt."""

    text: str
    token_ids: tuple[int, ...] = ()
    """Sampled (completion) token ids, when the backend exposes them."""
    logprobs: tuple[float, ...] = ()
    """Log-probability of each sampled token under the sampling policy (same length as token_ids)."""
    prompt_token_ids: tuple[int, ...] = ()
    finish_reason: str = "stop"
    """stop | length | error"""
    n_prompt_tokens: int = 0
    n_completion_tokens: int = 0
    tool_calls: tuple[dict[str, Any], ...] = ()
    """Native tool calls returned by an OpenAI-compatible server (already parsed by the server)."""


@dataclass(frozen=True)
class Action:
    """One tool call parsed from a model reply."""

    tool: str
    args: dict[str, Any]
    call_id: str | None = None


@dataclass(frozen=True)
class Observation:
    """What running one action returned to the model."""

    tool: str
    output: str
    ok: bool
    truncated: bool = False
    duration_s: float = 0.0


@dataclass(frozen=True)
class Step:
    """One turn: the model's reply, the actions parsed from it, and their observations."""

    turn: int
    reply: str
    actions: tuple[Action, ...]
    observations: tuple[Observation, ...]
    parse_error: str | None = None
    generate_s: float = 0.0
    act_s: float = 0.0
    n_prompt_tokens: int = 0
    n_completion_tokens: int = 0


@dataclass(frozen=True)
class TokenSegment:
    """A run of tokens in the final token sequence. ``trainable`` = 1 for the model's own sampled
    tokens, 0 for prompt and observation tokens (they carry no loss)."""

    token_ids: tuple[int, ...]
    trainable: bool
    logprobs: tuple[float, ...] = ()


@dataclass(frozen=True)
class Trajectory:
    """Everything an episode of the LLM agent produced, ready to judge and to train on."""

    messages: tuple[Message, ...]
    steps: tuple[Step, ...]
    segments: tuple[TokenSegment, ...] = ()
    finish_message: str | None = None
    end_reason: str = ""
    """finished | max_turns | max_tokens | timeout | parse_errors | error"""
    todos: tuple[dict[str, Any], ...] = ()
    n_tokens: int = 0


@dataclass(frozen=True)
class Score:
    """A judge's verdict: overall value in [0, 1] plus the per-criterion parts."""

    value: float
    parts: dict[str, float] = field(default_factory=dict)
    explanation: str = ""


def trajectory_to_json(traj: Trajectory) -> dict[str, Any]:
    """Plain JSON form of a trajectory (for episodes.jsonl, the trajectory store and judge-eval cases)."""
    return dataclasses.asdict(traj)


def trajectory_from_json(data: dict[str, Any]) -> Trajectory:
    def step(d: dict[str, Any]) -> Step:
        return Step(
            turn=d["turn"], reply=d.get("reply", ""),
            actions=tuple(Action(a["tool"], dict(a.get("args", {})), a.get("call_id")) for a in d.get("actions", [])),
            observations=tuple(Observation(**o) for o in d.get("observations", [])),
            parse_error=d.get("parse_error"), generate_s=d.get("generate_s", 0.0), act_s=d.get("act_s", 0.0),
            n_prompt_tokens=d.get("n_prompt_tokens", 0), n_completion_tokens=d.get("n_completion_tokens", 0),
        )

    return Trajectory(
        messages=tuple(Message(m["role"], m.get("content", ""), tuple(m.get("tool_calls", ())),
                               m.get("tool_call_id"), m.get("name")) for m in data.get("messages", [])),
        steps=tuple(step(s) for s in data.get("steps", [])),
        segments=tuple(TokenSegment(tuple(s["token_ids"]), bool(s["trainable"]), tuple(s.get("logprobs", ())))
                       for s in data.get("segments", [])),
        finish_message=data.get("finish_message"),
        end_reason=data.get("end_reason", ""),
        todos=tuple(data.get("todos", ())),
        n_tokens=data.get("n_tokens", 0),
    )
