"""Training configuration: one documented dataclass per component, loaded from YAML.

Every field has a default and a docstring; a YAML file only names what it changes. Unknown
keys are errors that name the file and the key (a typo must not silently fall back to a default).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import yaml


@dataclass
class ModelConfig:
    path: str | None = None
    """A local HF folder or .gguf file; None = the embedded SmolLM2-135M-Instruct."""
    lora: bool = False
    """Train LoRA adapters (peft) instead of every weight."""
    lora_rank: int = 16
    lora_alpha: int = 32
    lora_targets: list[str] = field(default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj"])


@dataclass
class TasksConfig:
    """Where training and held-out tasks come from: folders, and/or a generator family."""

    train: list[str] = field(default_factory=list)
    """Task folders (or folders of tasks) to train on."""
    eval: list[str] = field(default_factory=list)
    """Held-out task folders for periodic evaluation."""
    family: str | None = None
    """A procedural family (termrl tasks generate) to draw instances from, instead of or besides folders."""
    difficulty: int = 1
    train_seeds: list[int] = field(default_factory=lambda: [0, 64])
    """[first, last) seeds of training instances."""
    eval_seeds: list[int] = field(default_factory=lambda: [1000, 1016])
    """[first, last) seeds of held-out instances (disjoint from training)."""


@dataclass
class AgentSettings:
    action_format: str = "bash_block"
    """xml | tool_call | bash_block; very small models do best with bash_block."""
    max_turns: int = 4
    max_total_tokens: int = 1536
    max_tokens_per_turn: int = 96
    temperature: float = 1.0
    """Sampling temperature of rollouts (the loss uses the same temperature-scaled distribution)."""
    judge: str = "rubric"
    """rubric | none"""
    test_weight: float = 0.65
    judge_weight: float = 0.35


@dataclass
class GRPOConfig:
    group_size: int = 4
    """Episodes per task per step (G)."""
    tasks_per_step: int = 4
    scale_by_std: bool = True
    """GRPO divides advantages by the group std; Dr. GRPO does not."""
    leave_one_out: bool = False
    clip_low: float = 0.2
    clip_high: float = 0.28
    aggregation: Literal["token_mean", "seq_mean", "constant"] = "token_mean"
    max_tokens_norm: int = 512
    """The constant of ``constant`` aggregation."""
    kl_coef: float = 0.0
    """KL(pi || initial model) in the loss (k3); 0 = no reference model kept."""
    old_logprobs: Literal["rollout", "recompute"] = "rollout"
    """Ratio denominator: the sampler's log-probs, or recomputed with the current weights before the update.
    Both are computed and their ratio is logged as ``logprob_ratio_rollout``."""
    mini_batches: int = 1
    """Optimizer steps per rollout step (the groups split evenly)."""
    micro_batch_tokens: int = 8192
    """Tokens per forward/backward pass: a group's sequences run together on one copy of their shared
    prompt, split when prefix + sequences x longest remainder would exceed this (more: faster, more memory)."""


@dataclass
class OptimConfig:
    lr: float = 2e-5
    weight_decay: float = 0.0
    betas: list[float] = field(default_factory=lambda: [0.9, 0.99])
    max_grad_norm: float = 1.0


@dataclass
class WandbConfig:
    """Weights & Biases logging beside TensorBoard (needs ``pip install 'termrl[wandb]'``)."""

    project: str = "termrl"
    mode: Literal["offline", "online"] = "offline"
    """offline: the run is written under OUT/wandb/ (upload later with ``wandb sync``); online: streamed."""
    entity: str | None = None
    name: str | None = None
    """The W&B run name; None = the out_dir's folder name."""


@dataclass
class LoggingConfig:
    wandb: WandbConfig | None = None
    """W&B logging; absent = TensorBoard and metrics.jsonl only."""


@dataclass
class TrainConfig:
    out_dir: str = "runs/train"
    steps: int = 20
    seed: int = 0
    eval_every: int = 5
    """Held-out evaluation every N steps (and before the first step); 0 = never."""
    eval_group_size: int = 1
    checkpoint_every: int = 1
    keep_checkpoints: int = 2
    max_concurrency: int = 4
    """Episodes at once (their generation is batched)."""
    warm_pool: int = 2
    time_budget_min: float = 0.0
    """Stop after this many minutes of training (0 = no limit); the run can be resumed later."""
    model: ModelConfig = field(default_factory=ModelConfig)
    tasks: TasksConfig = field(default_factory=TasksConfig)
    agent: AgentSettings = field(default_factory=AgentSettings)
    grpo: GRPOConfig = field(default_factory=GRPOConfig)
    optim: OptimConfig = field(default_factory=OptimConfig)
    logging: LoggingConfig = field(default_factory=LoggingConfig)

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ValueError(f"steps must be >= 1, got {self.steps}")
        if self.grpo.group_size < 2:
            raise ValueError(f"grpo.group_size must be >= 2 (advantages are group-relative), got {self.grpo.group_size}")


def _check(value: Any, hint: Any, key: str) -> Any:
    """``value`` as the field's type, or a ValueError naming the key, the type wanted and the value given."""
    origin, args = get_origin(hint), get_args(hint)
    if dataclasses.is_dataclass(hint):  # a nested settings block, e.g. logging.wandb
        if not isinstance(value, dict):
            raise ValueError(f"{key}: expected a mapping of settings, got {value!r}")
        return _build(hint, value, key)
    if origin in (Union, UnionType):
        if value is None and type(None) in args:
            return None
        return _check(value, next(a for a in args if a is not type(None)), key)
    if origin is Literal:
        if value in args:
            return value
        raise ValueError(f"{key}: {value!r} is not one of {', '.join(map(repr, args))}")
    if origin is list:
        if not isinstance(value, list):
            raise ValueError(f"{key}: expected a list, got {value!r}")
        return [_check(v, args[0], f"{key}[{i}]") for i, v in enumerate(value)] if args else value
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise ValueError(f"{key}: expected true or false, got {value!r}")
    if hint in (int, float):
        # YAML reads 3e-5 (no dot) as a string: accept any number written as one.
        if isinstance(value, str):
            try:
                value = float(value) if hint is float else int(value)
            except ValueError:
                pass
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if hint is int and value != int(value):
                raise ValueError(f"{key}: expected a whole number, got {value!r}")
            return hint(value)
        raise ValueError(f"{key}: expected {'a number' if hint is float else 'a whole number'}, got {value!r}")
    if hint is str and not isinstance(value, str):
        raise ValueError(f"{key}: expected a string, got {value!r}")
    return value


def _build(cls: type, data: dict[str, Any], where: str) -> Any:
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} -- known: {', '.join(sorted(names))}")
    hints = get_type_hints(cls)
    data = {k: v if dataclasses.is_dataclass(v) else _check(v, hints[k], f"{where}: {k}") for k, v in data.items()}
    try:
        return cls(**data)
    except TypeError as exc:
        raise ValueError(f"{where}: {exc}") from exc


SECTIONS = {"model": ModelConfig, "tasks": TasksConfig, "agent": AgentSettings, "grpo": GRPOConfig,
            "optim": OptimConfig, "logging": LoggingConfig}


def load_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """Read a YAML config (None = all defaults); ``overrides`` maps dotted keys (``grpo.group_size``) to values.

    Raises:
        ValueError: unreadable file, unknown key or bad value (the message names the file and key).
    """
    data: dict[str, Any] = {}
    where = str(path) if path else "config"
    if path is not None:
        try:
            data = yaml.safe_load(Path(path).read_text()) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise ValueError(f"{path}: cannot read config ({exc})") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of settings")
    for dotted, value in (overrides or {}).items():
        node = data
        *parents, leaf = dotted.split(".")
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    sections = {}
    for name, cls in SECTIONS.items():
        value = data.get(name) or {}
        if not isinstance(value, dict):
            raise ValueError(f"{where}: {name} must be a mapping")
        sections[name] = _build(cls, value, f"{where}: {name}")
    top = {k: v for k, v in data.items() if k not in SECTIONS}
    return _build(TrainConfig, {**top, **sections}, where)
