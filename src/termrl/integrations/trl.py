"""termrl's tasks, agent and rewards inside TRL's ``GRPOTrainer`` (TRL 1.16, ``rollout_func``).

TRL owns the distributed update (accelerate: DDP, DeepSpeed ZeRO-3, FSDP; gradient checkpointing;
its vLLM server); termrl owns what an episode is. Every process calls ``rollout_func(prompts,
trainer)`` with its slice of a step's prompts, each task already repeated once per generation. A
prompt is a task name (the dataset has one row per training task); :class:`TermrlRollout` runs one
real termrl episode per prompt -- the agent in a Docker sandbox, the verifier, the judge -- through
termrl's :class:`~termrl.rollout.engine.RolloutEngine`, and returns per sample:

* ``prompt_ids``: the episode's first prompt (system prompt, task instruction, generation prompt),
  as the policy tokenised it;
* ``completion_ids``: everything after it -- each model turn and, between turns, the observation and
  chat-template tokens the next prompt added: exactly the sequence the policy saw
  (``termrl.rollout.sequences.episode_sequence``);
* ``env_mask``: 1 on the model's own tokens, 0 on the rest (TRL puts loss only where it is 1);
* ``logprobs``: the sampler's log-prob of each completion token (0 on environment tokens); TRL uses
  them for its vLLM importance-sampling correction;
* ``termrl_reward``, ``termrl_test_score``, ``termrl_judge_score``, ``termrl_key``, ``termrl_drop``:
  passed on to the reward functions (:data:`REWARD_FUNCS` reads them).

**Dropped episodes.** An episode with an infrastructure error, one whose chat template re-tokenised
its history (token mismatch > 0: its single sequence is not what the policy saw), or one without
model tokens gets ``env_mask`` all 0 and every reward ``None``: TRL leaves it out of its group's
baseline and gives it advantage 0 -- exactly how termrl's own trainer masks it. Each is counted
(``termrl/dropped_error``, ``termrl/dropped_misaligned`` in TRL's logs; ``termrl_drop`` says why).

**Episode keys** are ``(step, task, index)`` with ``index = process_index x len(prompts) +
position``: unique within a step across processes, so a task repeated ``num_generations`` times
never collides. Each process appends to its own ``OUT/rollouts-rank{r}.jsonl``; a resumed step
reuses the rows already stored.

**Generation.**
* ``trl.use_vllm: false`` (CPU, or GPUs without vLLM): the trainer's own live model, unwrapped with
  TRL's ``unwrap_model_for_generation`` (DeepSpeed ZeRO-3 parameters gathered, gradient
  checkpointing off) and put in eval mode for the episodes, behind termrl's hf policy
  (:meth:`~termrl.policies.hf.HFPolicy.from_model`), which batches the concurrent episodes' turns.
* ``trl.use_vllm: true``: TRL's vLLM server (``vllm_mode="server"``). TRL pushes the new weights to
  it before each rollout; termrl's openai policy talks to its OpenAI API at
  ``{vllm_server_base_url}/v1``, asking for token ids (vLLM's ``return_token_ids``) and log-probs,
  which ``trl vllm-serve`` reports under the sampling distribution (``--logprobs-mode
  processed_logprobs``). Not tested here (no GPU, no vLLM on this machine).

**termrl's GRPO settings in TRL's terms** (:func:`grpo_config`): ``group_size`` ->
``num_generations``; ``tasks_per_step x group_size`` episodes per rollout step = TRL's generation
batch (split evenly over the processes); ``mini_batches`` optimizer steps per rollout step
(``steps`` rollout steps = ``steps x mini_batches`` TRL steps); ``clip_low/high`` ->
``epsilon/epsilon_high``; ``aggregation`` token_mean / seq_mean / constant -> ``loss_type`` dapo /
grpo / dr_grpo (``max_tokens_norm`` -> ``max_completion_length``); ``scale_by_std`` ->
``scale_rewards`` group / none; ``kl_coef`` -> ``beta``; the agent's sampling ``temperature`` ->
``temperature`` (the loss's distribution); AdamW lr, betas, weight decay, grad-norm clip, a constant
schedule. Differences that remain, by TRL's design: its group std is Bessel-corrected (plus 1e-4), a
zero-variance group stays in the batch with advantage 0 (termrl skips it; with ``dapo`` its tokens
still count in the normaliser), the ratio's denominator is the current weights' log-probs (termrl's
``old_logprobs: recompute``), and ``leave_one_out`` has no TRL counterpart (an error).
"""

from __future__ import annotations

import logging
import os
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Iterator

from termrl.agent.loop import TermAgent
from termrl.rewards.judges import get_judge
from termrl.rollout.engine import RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.sequences import align_turns, episode_sequence, token_mismatches
from termrl.train.config import TrainConfig
from termrl.types import EpisodeResult, Task

log = logging.getLogger(__name__)

LOSS_TYPES = {"token_mean": "dapo", "seq_mean": "grpo", "constant": "dr_grpo"}
"""termrl's ``grpo.aggregation`` -> TRL's ``loss_type``."""


# -- settings -----------------------------------------------------------------------------------


def batch_plan(config: TrainConfig, num_processes: int) -> dict[str, int]:
    """How a rollout step's episodes split over processes, optimizer steps and accumulation.

    Raises:
        ValueError: the episodes do not divide evenly (the message names the settings to change).
    """
    g = config.grpo
    episodes = g.tasks_per_step * g.group_size
    if episodes % num_processes:
        raise ValueError(f"grpo.tasks_per_step x grpo.group_size = {episodes} episodes per step do not split over "
                         f"{num_processes} processes -- make it a multiple of the process count")
    per_process = episodes // num_processes
    if per_process % g.mini_batches:
        raise ValueError(f"{per_process} episodes per process do not split into grpo.mini_batches = {g.mini_batches}")
    per_optimizer_step = per_process // g.mini_batches
    micro = config.trl.per_device_batch_size or per_optimizer_step
    if per_optimizer_step % micro:
        raise ValueError(f"trl.per_device_batch_size = {micro} does not divide the {per_optimizer_step} sequences each "
                         "process trains per optimizer step -- pick a divisor (or 0 for all at once)")
    accumulation = per_optimizer_step // micro
    return {"episodes": episodes, "per_process": per_process, "per_device_batch_size": micro,
            "gradient_accumulation_steps": accumulation, "steps_per_generation": accumulation * g.mini_batches}


def grpo_config(config: TrainConfig, num_processes: int = 1):
    """TRL's ``GRPOConfig`` for a termrl config (see the module doc for the mapping).

    Raises:
        ValueError: a setting with no TRL counterpart, an uneven split, or an unknown ``trl.extra`` key.
    """
    import torch
    from trl import GRPOConfig

    g, o, a, t = config.grpo, config.optim, config.agent, config.trl
    if g.leave_one_out:
        raise ValueError("grpo.leave_one_out has no counterpart in TRL's GRPOTrainer -- set it to false for "
                         "--engine trl")
    if t.use_vllm and not t.vllm_server_base_url:
        raise ValueError("trl.use_vllm needs trl.vllm_server_base_url (e.g. http://10.0.0.1:8000, where "
                         "`trl vllm-serve` runs)")
    plan = batch_plan(config, num_processes)
    kwargs: dict[str, Any] = dict(
        output_dir=config.out_dir, max_steps=config.steps * g.mini_batches, seed=config.seed,
        per_device_train_batch_size=plan["per_device_batch_size"],
        gradient_accumulation_steps=plan["gradient_accumulation_steps"],
        steps_per_generation=plan["steps_per_generation"], num_generations=g.group_size, num_iterations=1,
        temperature=max(a.temperature, 1e-4), beta=g.kl_coef, epsilon=g.clip_low, epsilon_high=g.clip_high,
        loss_type=LOSS_TYPES[g.aggregation], scale_rewards="group" if g.scale_by_std else "none",
        max_completion_length=g.max_tokens_norm if g.aggregation == "constant" else a.max_total_tokens,
        learning_rate=o.lr, weight_decay=o.weight_decay, adam_beta1=o.betas[0], adam_beta2=o.betas[1],
        max_grad_norm=o.max_grad_norm, lr_scheduler_type="constant", warmup_steps=0,
        gradient_checkpointing=t.gradient_checkpointing, bf16=t.bf16, fp16=False,
        use_cpu=not torch.cuda.is_available(), use_vllm=t.use_vllm, reward_weights=[1.0, 0.0, 0.0],
        save_strategy="steps", save_steps=max(1, config.checkpoint_every * g.mini_batches),
        save_total_limit=config.keep_checkpoints, logging_steps=1, report_to=t.report_to,
        mask_truncated_completions=False, shuffle_dataset=True,
    )
    if t.use_vllm:
        kwargs.update(vllm_mode="server", vllm_server_base_url=t.vllm_server_base_url)
    fields = set(GRPOConfig.__dataclass_fields__)
    unknown = sorted(set(t.extra) - fields)
    if unknown:
        raise ValueError(f"trl.extra: {', '.join(unknown)} are not TRL GRPOConfig fields")
    kwargs.update(t.extra)
    return GRPOConfig(**kwargs)


def load_model(config: TrainConfig):
    """``(model, tokenizer)`` for GRPOTrainer: a model object for a GGUF file (the embedded SmolLM2),
    else the folder's path (TRL loads it itself, so DeepSpeed ZeRO-3 can shard it while loading)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from termrl.policies.model import resolve_model

    loc = resolve_model(config.model.path)
    kwargs: dict[str, Any] = {"local_files_only": True}
    if loc.gguf_file:
        kwargs["gguf_file"] = loc.gguf_file
    tokenizer = AutoTokenizer.from_pretrained(str(loc.directory), **kwargs)
    if not loc.gguf_file:
        return str(loc.directory), tokenizer
    model = AutoModelForCausalLM.from_pretrained(str(loc.directory), dtype=torch.float32, **kwargs)
    # A GGUF is dequantized to float32 on load, but keeps its "quantizer" marks, and transformers'
    # Trainer refuses to fine-tune a model marked quantized; it trains as a plain float32 model.
    model.is_quantized, model.hf_quantizer = False, None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    return model, tokenizer


# -- the rollout function -----------------------------------------------------------------------


class TermrlRollout:
    """``rollout_func`` for GRPOTrainer: one real termrl episode per prompt (a task name).

    Args:
        config: the run's termrl config (agent, reward, sandbox and ``max_concurrency`` settings).
        tasks: the tasks a prompt may name.
        out_dir: where each process's trajectory store goes (default ``config.out_dir``).
    """

    def __init__(self, config: TrainConfig, tasks: list[Task], out_dir: str | Path | None = None):
        self.config = config
        self.tasks = {t.name: t for t in tasks}
        if len(self.tasks) != len(tasks):
            raise ValueError("two training tasks share a name; prompts name tasks, so names must be unique")
        self.out = Path(out_dir or config.out_dir)
        judge = get_judge(config.judge) if config.judge != "none" else None
        self.episode_config = EpisodeConfig(judge=judge, weights=config.weights)
        self.agent_config = config.agent
        self.provider = None
        self._openai = None
        self.last_keys: list[str] = []
        """The episode keys of the latest call, in sample order (for checks and logs)."""
        self.totals = {"episodes": 0, "dropped_error": 0, "dropped_misaligned": 0, "dropped_no_tokens": 0,
                       "dropped_stopped": 0}

    def store_path(self, rank: int) -> Path:
        return self.out / f"rollouts-rank{rank}.jsonl"

    def _provider(self, rank: int):
        if self.provider is None:
            from termrl.sandbox.hosts import sandbox_provider

            # Two or more hosts: each sandbox on the least-loaded live engine, this rank's own first on a tie.
            self.provider = sandbox_provider(self.config.sandbox.hosts, slot=rank, capacity=self.config.sandbox.capacity,
                                             pool_size=self.config.warm_pool, engine_retry_s=self.config.engine_retry_s)
        return self.provider

    @contextmanager
    def _policy(self, trainer) -> Iterator[Any]:
        if trainer.args.use_vllm:
            if self._openai is None:
                from termrl.policies.openai import OpenAIPolicy

                base = trainer.args.vllm_server_base_url or (
                    f"http://{trainer.args.vllm_server_host}:{trainer.args.vllm_server_port}")
                self._openai = OpenAIPolicy(base_url=base.rstrip("/") + "/v1", api_key="",
                                            extra_body={"return_token_ids": True})
            yield self._openai
            return
        from trl.models.utils import unwrap_model_for_generation

        from termrl.policies.hf import HFPolicy

        dist = getattr(trainer, "_dist", None)  # FSDP: the full parameters while generating
        with unwrap_model_for_generation(trainer.model_wrapped, trainer.accelerator,
                                         gather_deepspeed3_params=trainer.args.ds3_gather_for_generation,
                                         gradient_checkpointing_kwargs=trainer.args.gradient_checkpointing_kwargs
                                         ) as model, (dist.summon_full_params(trainer.model_wrapped, recurse=False)
                                                      if dist is not None else nullcontext()):
            was_training = model.training
            model.eval()
            policy = HFPolicy.from_model(model, trainer.processing_class, name="trl-policy",
                                         max_batch_size=max(1, self.config.max_concurrency))
            try:
                yield policy
            finally:
                policy.close()
                model.train(was_training)

    def __call__(self, prompts: list[Any], trainer) -> dict[str, list]:
        rank = trainer.accelerator.process_index
        step = trainer.state.global_step
        mode = "train" if trainer.model.training else "eval"
        names = [p if isinstance(p, str) else _prompt_text(p) for p in prompts]
        missing = sorted({n for n in names if n not in self.tasks})
        if missing:
            raise ValueError(f"rollout_func: prompts {missing[:3]} name no loaded task -- the dataset's prompt column "
                             "must hold task names (termrl.integrations.trl.task_dataset)")
        samples = [(self.tasks[n], rank * len(names) + i) for i, n in enumerate(names)]
        store = TrajectoryStore(self.store_path(rank) if mode == "train"
                                else self.out / f"eval-rank{rank}.jsonl")
        with self._policy(trainer) as policy:
            agent_config = self.agent_config
            engine = RolloutEngine(self._provider(rank), lambda: TermAgent(policy, agent_config), store=store,
                                   episode_config=self.episode_config, max_concurrency=self.config.max_concurrency)
            results = engine.run_samples(samples, step)
        self.last_keys = [store.key(step, task.name, index) for task, index in samples]
        return rows_to_trl(results, self.last_keys, trainer.processing_class, self.totals)

    def close(self) -> None:
        """Stop the warm sandboxes and the openai client."""
        if self.provider is not None:
            self.provider.close()
        if self._openai is not None:
            self._openai.close()


def _prompt_text(prompt: Any) -> str:
    """A conversational prompt's last user message (datasets that wrap the task name as a chat)."""
    if isinstance(prompt, list) and prompt and isinstance(prompt[-1], dict):
        return str(prompt[-1].get("content", ""))
    return str(prompt)


def drop_reason(result: EpisodeResult | None) -> str | None:
    """Why an episode carries no loss: ``stopped`` (never ran: the run is stopping), ``error``,
    ``misaligned``, ``no_tokens``; None = trained."""
    if result is None:
        return "stopped"
    if result.error is not None:
        return "error"
    if result.trajectory is None or not any(seg.trainable for seg in result.trajectory.segments):
        return "no_tokens"
    if align_turns(result.trajectory).problem or token_mismatches(result):
        return "misaligned"
    return None


def rows_to_trl(results: list[EpisodeResult | None], keys: list[str], tokenizer,
                totals: dict[str, int] | None = None) -> dict[str, list]:
    """GRPOTrainer's rollout output for episodes (and their store keys), in order (see the module doc)."""
    filler = tokenizer.eos_token_id if tokenizer.eos_token_id is not None else 0
    out: dict[str, list] = {k: [] for k in ("prompt_ids", "completion_ids", "logprobs", "env_mask", "termrl_reward",
                                            "termrl_test_score", "termrl_judge_score", "termrl_key", "termrl_drop")}
    for result, key in zip(results, keys, strict=True):
        reason = drop_reason(result)
        seq = episode_sequence(result) if reason is None else None
        if seq is not None and seq.prompt_len == 0:
            seq, reason = None, "no_tokens"
        if seq is None:
            segments = result.trajectory.segments if result is not None and result.trajectory is not None else ()
            first = list(segments[0].token_ids) if segments and not segments[0].trainable else []
            out["prompt_ids"].append(first or [filler])
            out["completion_ids"].append([filler])  # one masked token: TRL needs a non-empty completion
            out["logprobs"].append([0.0])
            out["env_mask"].append([0])
        else:
            p = seq.prompt_len
            out["prompt_ids"].append(list(seq.tokens[:p]))
            out["completion_ids"].append(list(seq.tokens[p:]))
            out["logprobs"].append(list(seq.logprobs[p:]))
            out["env_mask"].append(list(seq.mask[p:]))
        valid = reason is None
        out["termrl_reward"].append(float(result.reward) if valid else None)
        out["termrl_test_score"].append(result.test_score if valid else None)
        out["termrl_judge_score"].append(result.judge_score if valid else None)
        out["termrl_key"].append(key)
        out["termrl_drop"].append(reason)
        if totals is not None:
            totals["episodes"] += 1
            if reason is not None:
                totals[f"dropped_{reason}"] += 1
    return out


# -- reward functions ---------------------------------------------------------------------------


def termrl_reward(prompts, completions, termrl_reward, termrl_drop=None, log_metric=None, **_) -> list:
    """termrl's episode reward (tests x test_weight + judge x judge_weight, as termrl computes it);
    None for a dropped episode. Logs the share of episodes dropped, by reason."""
    if log_metric is not None and termrl_drop is not None:
        n = max(len(termrl_drop), 1)
        for reason in ("error", "misaligned", "no_tokens", "stopped"):
            log_metric(f"termrl/dropped_{reason}", sum(r == reason for r in termrl_drop) / n)
    return list(termrl_reward)


def termrl_test_score(prompts, completions, termrl_test_score, **_) -> list:
    """The tests' part of the reward (logged; weight 0 in the sum, which ``termrl_reward`` already is)."""
    return list(termrl_test_score)


def termrl_judge_score(prompts, completions, termrl_judge_score, **_) -> list:
    """The judge's part of the reward (logged; weight 0 in the sum)."""
    return list(termrl_judge_score)


REWARD_FUNCS = [termrl_reward, termrl_test_score, termrl_judge_score]
"""GRPOTrainer's ``reward_funcs``, with ``reward_weights = [1, 0, 0]`` (the parts are only logged)."""


def task_dataset(tasks: list[Task]):
    """TRL's train dataset: one row per task, its name as the prompt."""
    from datasets import Dataset

    return Dataset.from_dict({"prompt": [t.name for t in tasks]})


# -- the trainer --------------------------------------------------------------------------------


def build_trainer(config: TrainConfig, num_processes: int | None = None):
    """``(GRPOTrainer, TermrlRollout)`` for a termrl config, on this process.

    Raises:
        ValueError: bad settings (see :func:`grpo_config`), or fewer tasks than ``grpo.tasks_per_step``.
    """
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from accelerate import PartialState
    from trl import GRPOTrainer

    from termrl.train.trainer import Trainer

    import torch

    # Before TRL builds its own: on CPU the state must know it, or the processes of a multi-process
    # launch (torchrun, gloo) each think they are alone.
    state = PartialState(cpu=not torch.cuda.is_available())
    args = grpo_config(config, num_processes or state.num_processes)
    out = Path(config.out_dir)
    with state.main_process_first():  # generated task instances are written once, then read by the others
        loader = Trainer.__new__(Trainer)  # the trainer's own task loading (folders, families, pass-rate filter)
        loader.config, loader.out = config, out
        train_tasks, _ = loader._load_tasks()
    if len(train_tasks) < config.grpo.tasks_per_step:
        raise ValueError(f"{len(train_tasks)} training tasks, fewer than grpo.tasks_per_step = "
                         f"{config.grpo.tasks_per_step} -- add tasks or lower tasks_per_step")
    model, tokenizer = load_model(config)
    peft_config = None
    if config.model.lora:
        from peft import LoraConfig

        m = config.model
        peft_config = LoraConfig(r=m.lora_rank, lora_alpha=m.lora_alpha, target_modules=list(m.lora_targets),
                                 lora_dropout=0.0, task_type="CAUSAL_LM")
    rollout = TermrlRollout(config, train_tasks)
    trainer = GRPOTrainer(model=model, reward_funcs=REWARD_FUNCS, args=args, train_dataset=task_dataset(train_tasks),
                          processing_class=tokenizer, rollout_func=rollout, peft_config=peft_config)
    return trainer, rollout

