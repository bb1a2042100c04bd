"""The typed records that cross module boundaries.

Read this module first: every other part of termrl produces or consumes these.
All records are frozen dataclasses; nothing crosses a boundary as a bare dict.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

TaskFormat = Literal["harbor", "tb1"]
Difficulty = Literal["easy", "medium", "hard", "extremely_hard", "unknown"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
"""Task difficulties, easiest first (``unknown`` last)."""


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
    tampered: tuple[str, ...] = ()
    """Paths of the verification toolchain the agent changed (restored before the tests); non-empty = score 0."""
    integrity_s: float = 0.0
    """Seconds the integrity step took (part of duration_s)."""


@dataclass(frozen=True)
class AgentOutcome:
    """How the agent phase ended (Gymnasium-style: terminated vs truncated), and what it produced."""

    terminated: bool
    """The agent stopped by itself (finished)."""
    truncated: bool
    """The agent was cut off by a turn, token or time limit."""
    trajectory: Trajectory | None = None
    """What an LLM agent did (messages, steps, token segments); None for reference agents."""
    error: EpisodeError | None = None
    """The agent broke mid-way (policy or sandbox): the episode gets no verdict."""
    end_reason: str = ""
    """finished | max_turns | max_tokens | timeout | parse_errors | error"""
    token_mismatches: int = 0
    """Turns whose prompt re-tokenised the earlier turns differently (the token segments restart there)."""
    exit_code: int | None = None
    """Reference agents: the exit code of the script they ran (the oracle's solution)."""
    output_tail: str = ""
    """Reference agents: the end of that script's output."""


@dataclass(frozen=True)
class RewardWeights:
    """How the test score and the judge score mix into the reward.

    The reward is the weighted mean ``(test * t + judge * j) / (test + judge)``, so it stays in
    [0, 1] whatever the scale of the weights. The default 0.65 / 0.35 follows Terminal-Bench-RL:
    the tests decide most of the reward, the judge rewards how the agent worked.
    """

    test: float = 0.65
    """Weight of the test score (share of the tests passed). Non-negative."""
    judge: float = 0.35
    """Weight of the judge score (how the agent worked). Non-negative; 0 turns the judge off."""

    def __post_init__(self) -> None:
        for name in ("test", "judge"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"RewardWeights.{name}: expected a finite number >= 0, got {value!r} "
                                 f"-- fix: use e.g. test=0.65, judge=0.35")
        if self.test == 0 and self.judge == 0:
            raise ValueError("RewardWeights: test and judge are both 0, so nothing decides the reward "
                             "-- fix: give at least one a positive weight (default test=0.65, judge=0.35)")

    @property
    def normalised(self) -> RewardWeights:
        total = self.test + self.judge
        return RewardWeights(self.test / total, self.judge / total)


@dataclass(frozen=True)
class RewardParts:
    """One episode's reward and what it was made of (``termrl.rewards.scoring.episode_reward``)."""

    reward: float
    """The reward in [0, 1]."""
    test_score: float
    """The tests' share of the reward: partial credit for an agent's episode, the test script's own
    reward for an episode without a trajectory (reference agents)."""
    judge_score: float | None
    """None when no judge ran, or it failed (see ``judge_error``)."""
    judge_error: str | None
    """Why the judge failed; the reward then comes from the tests alone."""
    weights_used: RewardWeights
    """The normalised weights actually applied (``judge=0`` when the judge did not count)."""
    resolved: bool = False
    """Every test passed and the test script's reward is 1 (nop-passing tests included), with no
    error at a boundary. ``combine`` alone leaves it False: only ``episode_reward`` sees the tests."""
    judge_parts: dict[str, float] = field(default_factory=dict)
    """The judge's per-criterion scores (empty without a verdict)."""
    judge_explanation: str = ""
    """The judge's reasons, as it gave them."""

    def to_json(self) -> dict[str, Any]:
        return {"reward": self.reward, "test_score": self.test_score, "judge_score": self.judge_score,
                "judge_error": self.judge_error, "weights_used": dataclasses.asdict(self.weights_used)}


NO_REWARD = RewardParts(0.0, 0.0, None, None, RewardWeights(1.0, 0.0))


@dataclass(frozen=True)
class EpisodeResult:
    """One finished episode. ``episode_to_row`` / ``episode_from_row`` convert it to and from its
    ``episodes.jsonl`` / ``rollouts.jsonl`` row."""

    task: str
    agent: str
    tests: dict[str, bool]
    """Per-test outcome (empty when the tests left none or never ran)."""
    terminated: bool
    truncated: bool
    error: EpisodeError | None
    """The boundary the episode failed at, if any (the episode then scores 0)."""
    duration_s: float
    parts: RewardParts = NO_REWARD
    """The reward and its parts; ``reward`` and ``resolved`` read from here."""
    verifier: VerifierResult | None = None
    trajectory: Trajectory | None = None
    """What an LLM agent did; None for reference agents."""
    policy: str | None = None
    """The policy backend that drove the agent (hf | openai | scripted | a plugin's own)."""
    end_reason: str = ""
    """How the agent phase ended: finished | max_turns | max_tokens | timeout | parse_errors | error."""
    n_turns: int = 0
    n_tokens: int = 0
    """Prompt + reply tokens of the last turn (the context the episode reached)."""
    token_mismatches: int = 0
    """Turns whose prompt re-tokenised the earlier turns differently."""
    agent_exit_code: int | None = None
    """Reference agents: the exit code of the script they ran (the oracle's solution)."""
    agent_output_tail: str = ""
    """Reference agents: the end of that script's output."""
    tampered: tuple[str, ...] = ()
    """What the agent changed in the verification toolchain (paths); non-empty scores 0."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Row keys this record does not know (a plugin's, or the store's ``key``/``step``/``index``);
    written back as top-level keys."""

    @property
    def reward(self) -> float:
        return self.parts.reward

    @property
    def resolved(self) -> bool:
        return self.parts.resolved

    @property
    def test_score(self) -> float:
        return self.parts.test_score

    @property
    def judge_score(self) -> float | None:
        return self.parts.judge_score

    @property
    def judge_error(self) -> str | None:
        return self.parts.judge_error


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
    """What the model saw (cut to the agent's observation budget)."""
    ok: bool
    truncated: bool = False
    duration_s: float = 0.0
    full_output: str | None = None
    """The tool's output before the agent cut it to ``output`` (the sandbox's own output cap still applies);
    None when nothing was cut. For people reading the episode; never sent to the model."""


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


# --- the episode row -------------------------------------------------------------------------

OUTPUT_TAIL_CHARS = 2000
"""Characters of the verifier's (and a reference agent's) output kept in an episode row."""


def episode_to_row(result: EpisodeResult) -> dict[str, Any]:
    """The ``episodes.jsonl`` / ``rollouts.jsonl`` row of an episode (plain JSON types).

    The verifier's output is cut to its last ``OUTPUT_TAIL_CHARS`` characters; everything else
    survives :func:`episode_from_row` unchanged.
    """
    p = result.parts
    row: dict[str, Any] = {
        "task": result.task,
        "agent": result.agent,
        "policy": result.policy,
        "reward": p.reward,
        "resolved": p.resolved,
        "test_score": p.test_score,
        "judge_score": p.judge_score,
        "judge_error": p.judge_error,
        "judge_parts": dict(p.judge_parts),
        "judge_explanation": p.judge_explanation,
        "weights_used": dataclasses.asdict(p.weights_used),
        "tests": dict(result.tests),
        "terminated": result.terminated,
        "truncated": result.truncated,
        "end_reason": result.end_reason,
        "error": dataclasses.asdict(result.error) if result.error else None,
        "tampered": list(result.tampered),
        "duration_s": round(result.duration_s, 3),
        "n_turns": result.n_turns,
        "n_tokens": result.n_tokens,
        "token_mismatches": result.token_mismatches,
        "agent_exit_code": result.agent_exit_code,
        "agent_output_tail": result.agent_output_tail,
        "verifier": None,
        "trajectory": trajectory_to_json(result.trajectory) if result.trajectory is not None else None,
    }
    if result.verifier is not None:
        v = result.verifier
        row["verifier"] = {
            "reward": v.reward,
            "reward_source": v.reward_source,
            "exit_code": v.exit_code,
            "timed_out": v.timed_out,
            "duration_s": round(v.duration_s, 3),
            "problem": v.problem,
            "integrity_s": round(v.integrity_s, 3),
            "output_tail": v.output[-OUTPUT_TAIL_CHARS:],
        }
    for key, value in result.extra.items():
        row.setdefault(key, value)
    return row


_ROW_KEYS = frozenset(episode_to_row(EpisodeResult("", "", {}, False, False, None, 0.0)))


def episode_from_row(row: dict[str, Any]) -> EpisodeResult:
    """Parse a row written by :func:`episode_to_row` back into an :class:`EpisodeResult`.

    Rows of older termrl versions (no ``test_score``, ``weights_used`` ... keys) parse too: the
    missing parts default to the row's reward. Keys this record does not know go to ``extra``.

    Raises:
        ValueError: a required key (task, agent, reward) is missing or has the wrong type.
    """
    try:
        task, agent, reward = str(row["task"]), str(row["agent"]), float(row["reward"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an episode row (task, agent and reward are required): {exc!r}") from exc
    v = row.get("verifier")
    verifier = None if v is None else VerifierResult(
        reward=float(v.get("reward", reward)), tests=dict(row.get("tests") or {}),
        reward_source=v.get("reward_source", "none"), exit_code=v.get("exit_code"),
        timed_out=bool(v.get("timed_out", False)), output=v.get("output_tail", ""),
        duration_s=float(v.get("duration_s", 0.0)), problem=v.get("problem"),
        tampered=tuple(row.get("tampered") or ()), integrity_s=float(v.get("integrity_s", 0.0)))
    weights = row.get("weights_used") or {"test": 1.0, "judge": 0.0}
    parts = RewardParts(
        reward=reward, test_score=float(row.get("test_score", reward)), judge_score=row.get("judge_score"),
        judge_error=row.get("judge_error"), weights_used=RewardWeights(weights["test"], weights["judge"]),
        resolved=bool(row.get("resolved", False)), judge_parts=dict(row.get("judge_parts") or {}),
        judge_explanation=row.get("judge_explanation") or "")
    error = row.get("error")
    traj = row.get("trajectory")
    return EpisodeResult(
        task=task, agent=agent, tests=dict(row.get("tests") or {}),
        terminated=bool(row.get("terminated", False)), truncated=bool(row.get("truncated", False)),
        error=EpisodeError(error["boundary"], error["message"]) if error else None,
        duration_s=float(row.get("duration_s", 0.0)), parts=parts, verifier=verifier,
        trajectory=trajectory_from_json(traj) if traj else None, policy=row.get("policy"),
        end_reason=row.get("end_reason") or "", n_turns=int(row.get("n_turns", 0)),
        n_tokens=int(row.get("n_tokens", 0)), token_mismatches=int(row.get("token_mismatches", 0)),
        agent_exit_code=row.get("agent_exit_code"), agent_output_tail=row.get("agent_output_tail") or "",
        tampered=tuple(row.get("tampered") or ()),
        extra={k: val for k, val in row.items() if k not in _ROW_KEYS},
    )
