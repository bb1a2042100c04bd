"""termrl: train and evaluate long-horizon terminal agents with reinforcement learning."""

from termrl.errors import (AgentError, ImageError, JudgeError, PolicyError, SandboxError, TaskError, TermrlError,
                           VerifierError)
from termrl.images.build import ImageConfig, build_task_image
from termrl.rollout.episode import EpisodeConfig, run_episode
from termrl.sandbox.base import Sandbox, SandboxProvider, SandboxSpec
from termrl.tasks import load_task, load_tasks
from termrl.types import (AgentOutcome, EnvironmentSpec, EpisodeError, EpisodeResult, ExecResult, Task, TaskMetadata,
                          VerifierResult)

__all__ = [
    "AgentError", "AgentOutcome", "EnvironmentSpec", "EpisodeConfig", "EpisodeError", "EpisodeResult", "ExecResult",
    "ImageConfig", "ImageError", "JudgeError", "PolicyError", "Sandbox", "SandboxError", "SandboxProvider",
    "SandboxSpec", "Task", "TaskError", "TaskMetadata", "TermrlError", "VerifierError", "VerifierResult",
    "build_task_image", "load_task", "load_tasks", "run_episode",
]
