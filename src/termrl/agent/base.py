"""The Agent contract: act in a sandbox until done or out of budget."""

from __future__ import annotations

from typing import Protocol

from termrl.sandbox.base import Sandbox
from termrl.types import AgentOutcome, Task


class Agent(Protocol):
    name: str

    def run(self, task: Task, sandbox: Sandbox) -> AgentOutcome:
        """Work on ``task`` inside ``sandbox`` within ``task.agent_timeout_sec``.

        Returns how the phase ended (terminated by itself, or truncated by a limit).

        Raises:
            SandboxError, PolicyError, TaskError: recorded on the episode by the runner.
        """
        ...
