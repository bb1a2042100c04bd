"""The termrl agent: a policy drives tools in the sandbox until it finishes or hits a limit.

``run()`` repeats ``step()``; control leaves the loop through exceptions that say how the
episode ended (``Submitted``, ``LimitReached``, ``TooManyParseErrors``). A limit makes the
episode *truncated* (it is still verified); finishing makes it *terminated*.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from termrl.agent.formats import FORMATS, ActionFormat, FormatError, get_format
from termrl.agent.tools import TOOLS, Submitted, ToolState, run_tool
from termrl.checks import check_range
from termrl.errors import TermrlError
from termrl.policies.base import Policy
from termrl.sandbox.base import Sandbox
from termrl.types import AgentOutcome, EpisodeError, Generation, Message, Observation, Step, Task, TokenSegment, Trajectory


@dataclass
class AgentConfig:
    """Settings of the termrl agent."""

    action_format: str = "xml"
    """xml | tool_call | bash_block (see termrl.agent.formats)."""
    max_turns: int = 30
    """Model replies before the episode is truncated."""
    max_total_tokens: int = 16_000
    """Context budget: prompt + reply tokens of the latest turn; beyond it the episode is truncated."""
    max_tokens_per_turn: int = 512
    """Tokens the model may sample in one reply."""
    temperature: float = 0.7
    """Sampling temperature (0 = greedy). In training, the loss uses the same temperature-scaled distribution."""
    max_parse_errors: int = 3
    """Consecutive unparseable replies that end the episode."""
    observation_budget: int = 4000
    """Characters of each tool result shown to the model (head and tail kept)."""
    bash_timeout: float = 60.0
    """Default per-command timeout; the agent's wall clock (task agent timeout) also bounds it."""

    def __post_init__(self) -> None:
        if self.action_format not in FORMATS:
            raise ValueError(f"agent.action_format: unknown format {self.action_format!r} "
                             f"-- fix: use one of {', '.join(FORMATS)}")
        for name in ("max_turns", "max_total_tokens", "max_tokens_per_turn", "max_parse_errors", "observation_budget"):
            check_range("agent", name, getattr(self, name), low=1)
        check_range("agent", "temperature", self.temperature, low=0)
        check_range("agent", "bash_timeout", self.bash_timeout, low=0, low_open=True)


class LimitReached(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TooManyParseErrors(Exception):
    pass


@dataclass
class _Tokens:
    """Builds the masked token segments across turns (model tokens trainable, the rest not)."""

    segments: list[TokenSegment] = field(default_factory=list)
    seen: tuple[int, ...] = ()
    mismatches: int = 0

    def add(self, gen: Generation) -> None:
        if not gen.token_ids:
            return
        prompt = gen.prompt_token_ids
        if prompt[: len(self.seen)] != self.seen:
            # The chat template re-tokenised earlier turns differently: keep going from the common prefix.
            self.mismatches += 1
            common = 0
            while common < min(len(prompt), len(self.seen)) and prompt[common] == self.seen[common]:
                common += 1
            self.seen = self.seen[:common]
        new_context = prompt[len(self.seen):]
        if new_context:
            self.segments.append(TokenSegment(tuple(new_context), False))
        self.segments.append(TokenSegment(tuple(gen.token_ids), True, tuple(gen.logprobs)))
        self.seen = tuple(prompt) + tuple(gen.token_ids)


class TermAgent:
    """Implements the Agent protocol with an LLM policy."""

    name = "termrl"

    def __init__(self, policy: Policy, config: AgentConfig | None = None):
        self.policy = policy
        self.config = config or AgentConfig()
        self.format: ActionFormat = get_format(self.config.action_format)

    def run(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        cfg = self.config
        self.state = ToolState(sandbox, time.monotonic() + task.agent_timeout_sec, cfg.observation_budget,
                               cfg.bash_timeout)
        self.messages = [Message("system", self.format.system_prompt()), Message("user", task.instruction)]
        self.steps: list[Step] = []
        self.tokens = _Tokens()
        self.n_tokens = 0
        self.parse_errors = 0
        finish_message, end_reason, error = None, "finished", None
        try:
            while True:
                self.step()
        except Submitted as done:
            finish_message = done.message
        except LimitReached as limit:
            end_reason = limit.reason
        except TooManyParseErrors:
            end_reason = "parse_errors"
        except TermrlError as exc:  # policy or sandbox broke: keep what the episode produced so far
            end_reason, error = "error", EpisodeError(exc.boundary, str(exc))
        trajectory = Trajectory(tuple(self.messages), tuple(self.steps), tuple(self.tokens.segments),
                                finish_message, end_reason, tuple(dict(t) for t in self.state.todos), self.n_tokens)
        return AgentOutcome(terminated=end_reason in ("finished", "parse_errors"),
                            truncated=end_reason in ("max_turns", "max_tokens", "timeout"),
                            trajectory=trajectory, error=error, end_reason=end_reason,
                            token_mismatches=self.tokens.mismatches)

    def step(self) -> None:
        cfg = self.config
        if len(self.steps) >= cfg.max_turns:
            raise LimitReached("max_turns")
        if time.monotonic() >= self.state.deadline:
            raise LimitReached("timeout")
        t0 = time.monotonic()
        tools = [t.schema() for t in TOOLS.values()] if self.format.uses_native_tools else None
        gen = self.policy.generate(self.messages, tools=tools, max_tokens=cfg.max_tokens_per_turn,
                                   temperature=cfg.temperature, stop_at=self.format.action_end)
        t1 = time.monotonic()
        self.tokens.add(gen)
        self.n_tokens = (gen.n_prompt_tokens + gen.n_completion_tokens) or (
            self.n_tokens + (len(gen.text) + sum(len(m.content) for m in self.messages[-2:])) // 4)
        self.messages.append(self.format.assistant_message(gen))
        turn = len(self.steps)
        try:
            actions = self.format.parse(gen)
        except FormatError as exc:
            self.parse_errors += 1
            self.steps.append(Step(turn, gen.text, (), (), str(exc), t1 - t0, 0.0, gen.n_prompt_tokens,
                                   gen.n_completion_tokens))
            self.messages.append(Message("user", f"Your reply could not be used: {exc}"))
            if self.parse_errors >= cfg.max_parse_errors:
                raise TooManyParseErrors() from exc
            self._check_tokens()
            return
        self.parse_errors = 0
        observations: list[Observation] = []
        try:
            for action in actions:
                observations.append(run_tool(self.state, action.tool, action.args))
        except Submitted:
            observations.append(Observation("finish", "finished", True))
            raise
        finally:
            done = actions[: len(observations)]
            self.steps.append(Step(turn, gen.text, tuple(done), tuple(observations), None, t1 - t0,
                                   time.monotonic() - t1, gen.n_prompt_tokens, gen.n_completion_tokens))
            if observations and observations[-1].tool != "finish":
                self.messages.extend(self.format.observation_messages(list(done), observations))
        self._check_tokens()

    def _check_tokens(self) -> None:
        if self.n_tokens >= self.config.max_total_tokens:
            raise LimitReached("max_tokens")
