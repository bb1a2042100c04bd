"""The Sandbox contract every provider implements (and the conformance suite checks).

Per-command calls (``exec``, ``run``, file access) are kept apart from lifecycle
(``SandboxProvider.start`` / ``Sandbox.close``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from termrl.types import ExecResult, Task

if TYPE_CHECKING:
    from termrl.images.build import ImageConfig

DEFAULT_OUTPUT_CAP = 32_000
"""Bytes of command output kept by default (first and last half, a marker between)."""


@dataclass(frozen=True)
class SandboxSpec:
    """What a sandbox is started from: an image plus limits."""

    image: str
    cpus: float = 1.0
    memory_mb: int = 2048
    pids_limit: int = 512
    network: bool = False
    """Network access during the agent phase."""
    workdir: str | None = None
    labels: tuple[tuple[str, str], ...] = ()
    output_cap: int = DEFAULT_OUTPUT_CAP


@runtime_checkable
class Sandbox(Protocol):
    """One isolated machine for one episode."""

    def exec(self, command: str, timeout: float | None = None) -> ExecResult:
        """Run shell text in the sandbox's ONE persistent shell (``cd`` and ``export`` persist).

        On timeout the command's whole process tree is killed and the shell survives;
        if the shell itself dies it is restarted and ``shell_restarted`` is set.

        Raises:
            SandboxError: the sandbox itself is gone or broken.
        """
        ...

    def run(self, argv: list[str], *, timeout: float | None = None, env: dict[str, str] | None = None,
            workdir: str | None = None) -> ExecResult:
        """Run a program as a fresh process, outside the persistent shell (used by the verifier).

        Raises:
            SandboxError: the sandbox itself is gone or broken.
        """
        ...

    def read_file(self, path: str) -> bytes:
        """Raises: FileNotFoundError if absent; SandboxError if the sandbox is broken."""
        ...

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        """Create or replace a file, making parent folders. Raises: SandboxError."""
        ...

    def upload_dir(self, local: Path, remote: str) -> None:
        """Copy a local folder to ``remote`` (replacing what was there). Raises: SandboxError."""
        ...

    def download_dir(self, remote: str, max_file_bytes: int = 10 << 20) -> dict[str, bytes]:
        """Every regular file under ``remote`` (relative path -> bytes); {} if absent.

        Files larger than ``max_file_bytes`` are left out. Raises: SandboxError.
        """
        ...

    def set_network(self, enabled: bool) -> None:
        """Give or take away network access. Raises: SandboxError."""
        ...

    def kill_all(self) -> int:
        """Kill every process but PID 1 (the keeper); returns how many were killed."""
        ...

    def close(self) -> None:
        """Remove the sandbox; safe to call twice."""
        ...


class SandboxProvider(Protocol):
    name: str

    def image_for(self, task: Task, config: ImageConfig) -> str:
        """The image a task's sandboxes start from, built (and cached) if needed.

        Raises:
            TaskError, ImageError: the task's environment cannot be built.
        """
        ...

    def start(self, spec: SandboxSpec) -> Sandbox:
        """Start a sandbox. Raises: SandboxError."""
        ...
