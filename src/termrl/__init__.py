"""termrl: train and evaluate long-horizon terminal agents with reinforcement learning."""

from termrl.agent.loop import AgentConfig, TermAgent
from termrl.errors import (AgentError, ImageError, JudgeError, PolicyError, SandboxError, TaskError, TermrlError,
                           VerifierError)
from termrl.images.build import ImageConfig, build_task_image
from termrl.policies import get_policy
from termrl.policies.base import Policy
from termrl.rewards.base import Judge
from termrl.rewards.judges import get_judge
from termrl.rollout.episode import EpisodeConfig, run_episode
from termrl.sandbox.base import Sandbox, SandboxProvider, SandboxSpec
from termrl.tasks import load_task, load_tasks
from termrl.train.config import TrainConfig, load_config
from termrl.types import (Action, AgentOutcome, EnvironmentSpec, EpisodeError, EpisodeResult, ExecResult, Generation,
                          Message, Observation, RewardParts, RewardWeights, Score, Step, Task, TaskMetadata,
                          Trajectory, VerifierResult, episode_from_row, episode_to_row)

__all__ = [
    "Action", "AgentConfig", "Generation", "Judge", "Message", "Observation", "Policy", "RewardWeights", "Score",
    "Step", "TermAgent", "TrainConfig", "Trajectory", "get_judge", "get_policy", "load_config",
    "AgentError", "AgentOutcome", "EnvironmentSpec", "EpisodeConfig", "EpisodeError", "EpisodeResult", "ExecResult",
    "ImageConfig", "ImageError", "JudgeError", "PolicyError", "Sandbox", "SandboxError", "SandboxProvider",
    "SandboxSpec", "Task", "TaskError", "TaskMetadata", "TermrlError", "VerifierError", "VerifierResult",
    "RewardParts", "build_task_image", "episode_from_row", "episode_to_row", "load_task", "load_tasks", "run_episode",
]
