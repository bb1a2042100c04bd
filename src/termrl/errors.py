"""One exception family per boundary.

A failure at a boundary (the task files, the sandbox, the policy, the judge,
the verifier) raises the matching exception. The episode runner catches these
exactly once and records them on the episode as ``{boundary, message}`` —
a bad rollout is data, not a crash. Nothing else catches broadly.
"""

from __future__ import annotations

from pathlib import Path


class TermrlError(Exception):
    """Base of every error termrl raises on purpose."""

    boundary = "termrl"
    fatal = False
    """True when the whole run cannot go on (not just this episode): the run stops, resumably."""


class TaskError(TermrlError):
    """A task folder is malformed.

    The message always names the file, the field (when there is one) and how
    to fix it, e.g. ``task.toml: [verifier] timeout_sec: expected a positive
    number, got 'soon' -- write a number of seconds such as 600``.
    """

    boundary = "task"

    def __init__(self, path: Path | str, problem: str, fix: str, field: str | None = None):
        self.path = Path(path)
        self.field = field
        self.problem = problem
        self.fix = fix
        self.task_dir: Path | None = None
        """The task folder being loaded (set by the loader)."""
        where = f"{self.path}" + (f": {field}" if field else "")
        super().__init__(f"{where}: {problem} -- fix: {fix}")


class ImageError(TermrlError):
    """A base or task image could not be built or found."""

    boundary = "image"


class SandboxError(TermrlError):
    """The container or the shell inside it failed (not the command run in it)."""

    boundary = "sandbox"


class PolicyError(TermrlError):
    """The model backend failed to produce a reply."""

    boundary = "policy"


class JudgeError(TermrlError):
    """The judge failed to score an episode."""

    boundary = "judge"


class VerifierError(TermrlError):
    """The verifier could not be run at all (not: the tests failed)."""

    boundary = "verifier"


class AgentError(TermrlError):
    """The agent itself broke (a bug or bad configuration, not a model reply)."""

    boundary = "agent"


class EngineUnavailable(SandboxError):
    """The Docker engine stopped answering and did not come back within the retry bound."""

    fatal = True


class StorageError(TermrlError):
    """A run's record (episode rows, checkpoints) could not be written: the disk is full or read-only."""

    boundary = "storage"
    fatal = True


class Interrupted(TermrlError):
    """The run was stopped (a signal, or a fatal fault elsewhere) while this episode was in flight.

    An infrastructure boundary: the trainer masks the episode and a resumed run runs it again.
    """

    boundary = "interrupted"


INFRASTRUCTURE_BOUNDARIES = frozenset({"sandbox", "image", "interrupted", "storage"})
"""Boundaries that say nothing about the policy: the episode is masked, never scored as a failure."""
