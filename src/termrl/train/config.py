"""Training configuration: one documented dataclass per component, loaded from YAML.

Every field has a default and a docstring; a YAML file only names what it changes. The agent
and the reward weights are the very classes the episodes use (``AgentConfig``,
``RewardWeights``), embedded as sections. Every value is type- and range-checked at load: an
unknown key, a wrong type or a value out of range is an error naming the file and the key (a
typo must not silently fall back to a default, and a 0 must not crash the run an hour in).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import yaml

from termrl.agent.loop import AgentConfig
from termrl.checks import check_range
from termrl.train.curriculum import AnnealConfig, CurriculumConfig
from termrl.train.sampling import DynamicSamplingConfig
from termrl.types import RewardWeights


@dataclass
class ModelConfig:
    """The policy model that samples the rollouts and is trained."""

    path: str | None = None
    """A local HF folder or .gguf file; None = the embedded SmolLM2-135M-Instruct."""
    lora: bool = False
    """Train LoRA adapters (peft) instead of every weight."""
    lora_rank: int = 16
    """LoRA rank r (>= 1)."""
    lora_alpha: int = 32
    """LoRA scaling alpha (>= 1); the adapters' update is scaled by alpha / rank."""
    lora_targets: list[str] = field(default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj"])
    """Module names that get adapters (at least one when ``lora`` is on)."""

    def __post_init__(self) -> None:
        check_range("model", "lora_rank", self.lora_rank, low=1)
        check_range("model", "lora_alpha", self.lora_alpha, low=1)
        if self.lora and not self.lora_targets:
            raise ValueError("model.lora_targets is empty while lora is on -- fix: name the modules, e.g. [q_proj, v_proj]")


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
    """Difficulty of the family's instances: 1 easy, 2 medium, 3 hard."""
    train_seeds: list[int] = field(default_factory=lambda: [0, 64])
    """[first, last) seeds of training instances."""
    eval_seeds: list[int] = field(default_factory=lambda: [1000, 1016])
    """[first, last) seeds of held-out instances (disjoint from training)."""
    families: list[str] = field(default_factory=list)
    """More generator families besides ``family``, at the same difficulties and seeds (a mixed set)."""
    difficulties: list[int] = field(default_factory=list)
    """Several difficulties (1..3) of the families at once; empty = just ``difficulty``."""
    pass_rate: list[float] | None = None
    """[low, high]: train only on tasks whose measured pass rate (termrl tasks difficulty) lies within; null = all."""
    pass_rate_policy: str | None = None
    """Whose pass rates to filter and stage on (a key `termrl tasks difficulty` printed); null = this run's
    model."""
    pass_rate_missing: Literal["keep", "drop"] = "keep"
    """Tasks with no stored estimate for that policy: kept or dropped by the filter."""

    def __post_init__(self) -> None:
        check_range("tasks", "difficulty", self.difficulty, low=1, high=3)
        if self.pass_rate is not None and (len(self.pass_rate) != 2 or not
                                           0.0 <= self.pass_rate[0] <= self.pass_rate[1] <= 1.0):
            raise ValueError(f"tasks.pass_rate must be [low, high] with 0 <= low <= high <= 1, got {self.pass_rate}")
        if any(d not in (1, 2, 3) for d in self.difficulties):
            raise ValueError(f"tasks.difficulties must hold values 1, 2 or 3, got {self.difficulties}")
        for name in ("train_seeds", "eval_seeds"):
            seeds = getattr(self, name)
            if len(seeds) != 2 or seeds[0] >= seeds[1]:
                raise ValueError(f"tasks.{name} must be [first, last) with first < last, got {seeds!r} "
                                 "-- fix: e.g. [0, 64]")
        if self.family is not None:
            from termrl.tasks.generators import family_names

            if self.family not in family_names():
                raise ValueError(f"tasks.family: unknown family {self.family!r} -- fix: use one of "
                                 f"{', '.join(family_names())}")
            (a, b), (c, d) = self.train_seeds, self.eval_seeds
            if a < d and c < b:
                raise ValueError(f"tasks.train_seeds {self.train_seeds} and eval_seeds {self.eval_seeds} overlap: "
                                 "held-out instances would be trained on -- fix: make the ranges disjoint")


def _training_agent() -> AgentConfig:
    # Small budgets: the CPU preset's 135M model answers in one short command.
    return AgentConfig(action_format="bash_block", max_turns=4, max_total_tokens=1536, max_tokens_per_turn=96,
                       temperature=1.0)


@dataclass
class GRPOConfig:
    """The GRPO objective and how one step's episodes are batched (see termrl.train.grpo)."""

    group_size: int = 4
    """Episodes per task per step (G >= 2: advantages are relative to the group)."""
    tasks_per_step: int = 4
    """Tasks drawn per step (a seeded draw; a resumed run draws the same)."""
    scale_by_std: bool = True
    """GRPO divides advantages by the group std; Dr. GRPO does not."""
    leave_one_out: bool = False
    """Baseline = mean of the group's other episodes (RLOO) instead of the whole group's mean."""
    clip_low: float = 0.2
    """Lower clip of the ratio: 1 - clip_low (0 <= clip_low < 1)."""
    clip_high: float = 0.28
    """Upper clip of the ratio: 1 + clip_high (DAPO's clip-higher; >= 0)."""
    aggregation: Literal["token_mean", "seq_mean", "constant"] = "token_mean"
    """How token losses become the batch loss: mean over all tokens, mean of per-sequence means, or sum / max_tokens_norm."""
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

    def __post_init__(self) -> None:
        check_range("grpo", "group_size", self.group_size, low=2,
                    fix="advantages are group-relative: use 2 or more episodes per task")
        for name in ("tasks_per_step", "max_tokens_norm", "mini_batches", "micro_batch_tokens"):
            check_range("grpo", name, getattr(self, name), low=1)
        check_range("grpo", "clip_low", self.clip_low, low=0, high=1, high_open=True)
        check_range("grpo", "clip_high", self.clip_high, low=0)
        check_range("grpo", "kl_coef", self.kl_coef, low=0)


@dataclass
class OptimConfig:
    """AdamW and gradient clipping."""

    lr: float = 2e-5
    """Learning rate (> 0)."""
    weight_decay: float = 0.0
    """AdamW weight decay (>= 0)."""
    betas: list[float] = field(default_factory=lambda: [0.9, 0.99])
    """AdamW [beta1, beta2], each in [0, 1)."""
    max_grad_norm: float = 1.0
    """Gradients are clipped to this global norm (> 0)."""

    def __post_init__(self) -> None:
        check_range("optim", "lr", self.lr, low=0, low_open=True)
        check_range("optim", "weight_decay", self.weight_decay, low=0)
        check_range("optim", "max_grad_norm", self.max_grad_norm, low=0, low_open=True)
        if len(self.betas) != 2:
            raise ValueError(f"optim.betas must be [beta1, beta2], got {self.betas!r} -- fix: e.g. [0.9, 0.99]")
        for i, beta in enumerate(self.betas):
            check_range("optim", f"betas[{i}]", beta, low=0, high=1, high_open=True)


@dataclass
class WandbConfig:
    """Weights & Biases logging beside TensorBoard (needs ``pip install 'termrl[wandb]'``)."""

    project: str = "termrl"
    """The W&B project the run is logged to."""
    mode: Literal["offline", "online"] = "offline"
    """offline: the run is written under OUT/wandb/ (upload later with ``wandb sync``); online: streamed."""
    entity: str | None = None
    """The W&B team or user; None = the logged-in default."""
    name: str | None = None
    """The W&B run name; None = the out_dir's folder name."""


@dataclass
class LoggingConfig:
    """Where training metrics go besides metrics.jsonl and TensorBoard."""

    wandb: WandbConfig | None = None
    """W&B logging; absent = TensorBoard and metrics.jsonl only."""


@dataclass
class SandboxConfig:
    """Where the sandboxes run."""

    hosts: list[str] = field(default_factory=list)
    """Docker engines the episodes run on, as Docker URLs (``unix:///var/run/docker.sock``,
    ``tcp://node1:2376`` with TLS from the DOCKER_* variables, ``ssh://user@node1``); empty = the local
    engine (DOCKER_HOST or the default socket). With two or more, termrl's own trainer starts each
    sandbox on the least-loaded live engine and re-runs episodes whose engine died on another
    (``termrl.sandbox.multihost``), and so does the TRL engine in each process (process r prefers
    ``hosts[r % len(hosts)]`` when loads are equal: a node's own engine)."""
    capacity: int = 16
    """Most sandboxes open at once on each engine of ``hosts`` (when it lists two or more)."""


@dataclass
class TRLSettings:
    """The TRL engine (``termrl train --engine trl``, ``accelerate launch -m termrl.integrations.trl_main``).

    The task, agent, reward, GRPO and optimizer sections mean what they mean for termrl's own trainer
    (``termrl.integrations.trl`` maps them onto TRL's GRPOConfig); these settings are TRL's own.
    Sharding (DeepSpeed ZeRO-3, FSDP) and the number of processes come from the accelerate config file."""

    per_device_batch_size: int = 0
    """Sequences per forward/backward on each process; 0 = all of the process's episodes of an optimizer
    step at once. Smaller values accumulate gradients (same update, less memory)."""
    gradient_checkpointing: bool = False
    """Recompute activations in the backward pass (much less memory for long episodes, ~30% more compute)."""
    bf16: bool = False
    """Train in bfloat16 mixed precision (GPUs)."""
    use_vllm: bool = False
    """Generate through TRL's vLLM server (``trl vllm-serve`` / ``vllm serve``); false = the trainer's own model."""
    vllm_server_base_url: str | None = None
    """The vLLM server's root, e.g. ``http://10.0.0.1:8000`` (its OpenAI API is at ``/v1``)."""
    report_to: str = "tensorboard"
    """none | tensorboard | wandb | ... (transformers' reporting integrations)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Any further TRL GRPOConfig field, passed as is (e.g. ``vllm_importance_sampling_mode``)."""

    def __post_init__(self) -> None:
        check_range("trl", "per_device_batch_size", self.per_device_batch_size, low=0)


@dataclass
class TrainConfig:
    """A training run: top-level settings, then one section per component."""

    out_dir: str = "runs/train"
    """Where rollouts.jsonl, metrics.jsonl, tensorboard/ and checkpoints/ go; rerun with the same out_dir to resume."""
    steps: int = 20
    """Training steps (each: one rollout of tasks_per_step x group_size episodes, then the update)."""
    seed: int = 0
    """Seeds the task draw, torch and Python's RNG."""
    eval_every: int = 5
    """Held-out evaluation every N steps (and before the first step); 0 = never."""
    eval_group_size: int = 1
    """Episodes per held-out task per evaluation."""
    checkpoint_every: int = 1
    """Save a checkpoint every N steps (and after the last)."""
    keep_checkpoints: int = 2
    """Checkpoints kept on disk (the newest N)."""
    max_concurrency: int = 4
    """Episodes at once (their generation is batched)."""
    warm_pool: int = 2
    """Containers kept started ahead per task (0 = start each on demand)."""
    time_budget_min: float = 0.0
    """Stop after this many minutes of training (0 = no limit); the run can be resumed later."""
    grace_s: float = 30.0
    """On SIGTERM/SIGINT (or a fatal fault): seconds to record in-flight episodes as interrupted, checkpoint
    and remove the sandboxes; past it the process exits anyway (the next run reaps what is left)."""
    engine_retry_s: float = 120.0
    """How long to pause and retry when the Docker engine stops answering, before stopping the run."""
    judge: str = "rubric"
    """The judge of the rollouts: rubric | none | package.module:Class (the llm judge needs a server: use a plugin)."""
    model: ModelConfig = field(default_factory=ModelConfig)
    """The policy model (path, LoRA)."""
    tasks: TasksConfig = field(default_factory=TasksConfig)
    """Training and held-out tasks."""
    agent: AgentConfig = field(default_factory=_training_agent)
    """The agent's settings (termrl.agent.loop.AgentConfig); its defaults here are the small training budgets."""
    weights: RewardWeights = field(default_factory=RewardWeights)
    """How the test score and the judge score mix into the reward (termrl.types.RewardWeights)."""
    grpo: GRPOConfig = field(default_factory=GRPOConfig)
    """The objective and the batching of the update."""
    optim: OptimConfig = field(default_factory=OptimConfig)
    """The optimizer."""
    sampling: DynamicSamplingConfig = field(default_factory=DynamicSamplingConfig)
    """Dynamic sampling (DAPO): drop all-equal-reward groups and draw more (off by default)."""
    curriculum: CurriculumConfig = field(default_factory=CurriculumConfig)
    """Stages from easy to hard with promotion and replay (off by default)."""
    anneal: AnnealConfig = field(default_factory=AnnealConfig)
    """Judge-weight annealing towards tests only (off by default)."""
    logging: LoggingConfig = field(default_factory=LoggingConfig)
    """Extra metric sinks (W&B) beside metrics.jsonl and TensorBoard."""
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    """Which Docker engine(s) the episodes run on."""
    trl: TRLSettings = field(default_factory=TRLSettings)
    """Settings of the TRL engine only (``--engine trl``)."""

    def __post_init__(self) -> None:
        if not self.out_dir:
            raise ValueError("out_dir is empty -- fix: name a folder, e.g. runs/train")
        check_range("", "steps", self.steps, low=1)
        for name in ("eval_every", "warm_pool", "seed"):
            check_range("", name, getattr(self, name), low=0)
        for name in ("eval_group_size", "checkpoint_every", "keep_checkpoints", "max_concurrency"):
            check_range("", name, getattr(self, name), low=1)
        for name in ("time_budget_min", "grace_s", "engine_retry_s"):
            check_range("", name, getattr(self, name), low=0)
        if self.judge not in ("rubric", "none") and ":" not in self.judge:
            raise ValueError(f"judge: {self.judge!r} -- fix: use rubric, none or package.module:Class")
        if self.anneal.judge_weight_to is not None and self.anneal.over == "stages" and not self.curriculum.enabled:
            raise ValueError("anneal.over: stages needs curriculum.enabled: true -- or anneal over steps")


def _check(value: Any, hint: Any, key: str) -> Any:
    """``value`` as the field's type, or a ValueError naming the key, the type wanted and the value given."""
    origin, args = get_origin(hint), get_args(hint)
    if dataclasses.is_dataclass(hint):  # a nested settings block, e.g. logging.wandb
        if not isinstance(value, dict):
            raise ValueError(f"{key}: expected a mapping of settings, got {value!r}")
        return _build(hint, value, key, key.partition(":")[0])
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


def _build(cls: type, data: dict[str, Any], where: str, file: str, base: Any = None) -> Any:
    """``cls`` from ``data`` (over the field values of ``base`` when given), every value type-checked;
    a range error from the class's own checks comes back prefixed with the file."""
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        moved = [f"{where.rpartition(': ')[2]}: {k}" for k in unknown]
        hints = "; ".join(f"{m} is now {MOVED[m]}" for m in moved if m in MOVED)
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} -- "
                         + (f"fix: {hints}" if hints else f"known: {', '.join(sorted(names))}"))
    hints = get_type_hints(cls)
    data = {k: v if dataclasses.is_dataclass(v) else _check(v, hints[k], f"{where}: {k}") for k, v in data.items()}
    try:
        return dataclasses.replace(base, **data) if base is not None else cls(**data)
    except TypeError as exc:
        raise ValueError(f"{where}: {exc}") from exc
    except ValueError as exc:
        raise ValueError(f"{file}: {exc}") from exc


SECTIONS = {"model": ModelConfig, "tasks": TasksConfig, "agent": AgentConfig, "weights": RewardWeights,
            "grpo": GRPOConfig, "optim": OptimConfig, "logging": LoggingConfig,
            "sampling": DynamicSamplingConfig, "curriculum": CurriculumConfig, "anneal": AnnealConfig,
            "sandbox": SandboxConfig, "trl": TRLSettings}

MOVED = {"agent: judge": "judge (top level)", "agent: test_weight": "weights: test",
         "agent: judge_weight": "weights: judge"}
"""Keys of older configs and where they live now."""


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
    defaults = {f.name: f.default_factory for f in dataclasses.fields(TrainConfig) if f.name in SECTIONS}
    sections = {}
    for name, cls in SECTIONS.items():
        value = data.get(name) or {}
        if not isinstance(value, dict):
            raise ValueError(f"{where}: {name} must be a mapping")
        sections[name] = _build(cls, value, f"{where}: {name}", where, base=defaults[name]())
    top = {k: v for k, v in data.items() if k not in SECTIONS}
    return _build(TrainConfig, {**top, **sections}, where, where)
