"""The GRPO trainer: rollouts in Docker -> group-relative advantages -> clipped policy-gradient update.

One training step:

1. pick ``tasks_per_step`` training tasks (a seeded draw per step, so a resumed run draws the same;
   with a curriculum, from the current stage plus replay: ``termrl.train.curriculum``);
2. roll out ``group_size`` episodes of each (the rollout engine; rows land in ``rollouts.jsonl``
   at once, and a resumed step reuses the rows already there);
3. per group: drop it if every valid reward is equal, else compute advantages; episodes with an
   infrastructure error are masked out; with dynamic sampling, draw more until the step has its
   informative groups or hits the bound (``termrl.train.sampling``); no informative group, no update
   (samples and their batching: ``termrl.train.samples``);
4. for each mini-batch: forward its sequences in micro-batches of one group each, the group's
   shared prompt computed once (``termrl.train.forward``; model tokens trainable, prompt and
   observation tokens masked), the clipped surrogate (``termrl.train.grpo``), backward per
   micro-batch, clip, AdamW step;
5. log metrics (JSONL + TensorBoard), checkpoint (model, optimizer, RNG, step, curriculum state; also
   when the time budget stops the run; ``termrl.train.checkpoints``), evaluate held-out tasks every ``eval_every`` steps.

The model trained is the very model the trainer's hf policy samples from (a private copy, updated in
place while the policy is held off); the loss uses the same temperature-scaled distribution the rollouts sampled from.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
from torch.nn.utils.rnn import pad_sequence

from termrl.agent.loop import TermAgent
from termrl.rewards.judges import get_judge
from termrl.errors import StorageError
from termrl.rollout.engine import Rollout, RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.shutdown import STOP
from termrl.sandbox.hosts import sandbox_provider
from termrl.tasks import load_tasks
from termrl.train import curriculum as cur
from termrl.train.checkpoints import latest_checkpoint, load_checkpoint, save_checkpoint
from termrl.train.config import TrainConfig
from termrl.train.forward import batch_logps
from termrl.train.grpo import LossStats, policy_loss
from termrl.train.metrics import MetricsLog, rollout_summary
from termrl.train.samples import MiniBatch, Sample, build_samples, plan_update
from termrl.train.samples import sample_from_episode, sample_from_row  # noqa: F401  (imported from here too)
from termrl.train.sampling import fill_step
from termrl.types import EpisodeResult, RewardWeights, Task

log = logging.getLogger(__name__)


class Trainer:
    def __init__(self, config: TrainConfig):
        from termrl.policies.hf import HFPolicy

        self.config = config
        self.out = Path(config.out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "config.json").write_text(json.dumps(asdict(config), indent=1))
        _seed_all(config.seed)
        self.train_tasks, self.eval_tasks = self._load_tasks()  # before the model: a bad task list fails fast
        self.stages = self._stages()  # [] without a curriculum
        self.curriculum = cur.CurriculumState()
        self.policy = HFPolicy(model=config.model.path, private=True)  # its own weights: trained in place
        self.model = self.policy.model
        if config.model.lora:
            from peft import LoraConfig, get_peft_model

            self.model = get_peft_model(self.model, LoraConfig(
                r=config.model.lora_rank, lora_alpha=config.model.lora_alpha,
                target_modules=list(config.model.lora_targets), lora_dropout=0.0))
        self.ref_model = None
        if config.grpo.kl_coef > 0 and not config.model.lora:
            import copy

            self.ref_model = copy.deepcopy(self.model).eval().requires_grad_(False)
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=config.optim.lr, weight_decay=config.optim.weight_decay,
                                           betas=tuple(config.optim.betas), fused=True)
        # One engine behind a warm pool; two or more: least-loaded live engine per sandbox, with failover.
        self.provider = sandbox_provider(config.sandbox.hosts, capacity=config.sandbox.capacity,
                                         pool_size=config.warm_pool, engine_retry_s=config.engine_retry_s)
        judge = get_judge(config.judge) if config.judge != "none" else None
        self.episode_config = EpisodeConfig(judge=judge, weights=config.weights)
        agent_config = config.agent
        make_agent = lambda: TermAgent(self.policy, agent_config)  # noqa: E731
        # Training rewards may be annealed step by step; held-out evaluation keeps the configured weights.
        self.engine = RolloutEngine(self.provider, make_agent, store=TrajectoryStore(self.out / "rollouts.jsonl"),
                                    episode_config=dataclasses.replace(self.episode_config),
                                    max_concurrency=config.max_concurrency)
        self.eval_engine = RolloutEngine(self.provider, make_agent, store=TrajectoryStore(self.out / "eval.jsonl"),
                                         episode_config=self.episode_config, max_concurrency=config.max_concurrency)
        self.on_phase = None
        """Called with (phase, step) as a step moves through rollout -> update, and for eval (live progress)."""
        self.step = 0
        self.saved_step = 0
        """The step of the last checkpoint (a stop saves one if the model changed since)."""
        resumed = self.resume()
        # Rows logged after the checkpoint resumed from belong to lost work: dropped, then logged again.
        self.metrics = MetricsLog(self.out, config.logging.wandb, asdict(config),
                                  resume_step=self.step if resumed or (self.out / "metrics.jsonl").exists() else None)

    # -- tasks ----------------------------------------------------------------------------

    def _load_tasks(self) -> tuple[list[Task], list[Task]]:
        t = self.config.tasks
        train = load_tasks(t.train).tasks if t.train else []
        evals = load_tasks(t.eval).tasks if t.eval else []
        families = [f for f in (t.family, *t.families) if f]
        if families:
            from termrl.tasks.generators import generate, instance_name

            for seeds, target, sub in ((t.train_seeds, train, "train"), (t.eval_seeds, evals, "eval")):
                folder = self.out / "tasks" / sub
                paths = []
                for family in families:
                    for difficulty in t.difficulties or [t.difficulty]:
                        for seed in range(seeds[0], seeds[1]):
                            existing = folder / instance_name(family, seed, difficulty)
                            # A resumed run finds its instances already written (generation is deterministic).
                            paths.append(existing if existing.is_dir()
                                         else generate(family, seed, difficulty, folder))
                target.extend(load_tasks(paths).tasks)
        if not train:
            raise ValueError("no training tasks: set tasks.train (folders) or tasks.family in the config")
        if t.pass_rate is not None:
            from termrl.tasks.passrate import filter_by_pass_rate

            train, counts = filter_by_pass_rate(train, self._pass_rates(train), t.pass_rate, t.pass_rate_missing)
            log.info("tasks.pass_rate %s (%s): %s", t.pass_rate, self._pass_rate_policy(), counts)
            if not train:
                raise ValueError(f"tasks.pass_rate {t.pass_rate} left no training task ({counts}; estimates of "
                                 f"{self._pass_rate_policy()!r}) -- widen the range, set tasks.pass_rate_missing: keep, "
                                 "or measure with `termrl tasks difficulty`")
        return train, evals

    def _pass_rate_policy(self) -> str:
        from termrl.tasks.passrate import policy_key

        return self.config.tasks.pass_rate_policy or policy_key("hf", self.config.model.path)

    def _pass_rates(self, tasks: list[Task]) -> dict[str, float | None]:
        from termrl.tasks.passrate import pass_rates_for

        return pass_rates_for(tasks, self._pass_rate_policy())

    def _stages(self) -> list[list[Task]]:
        c = self.config.curriculum
        if not c.enabled:
            return []
        rates = self._pass_rates(self.train_tasks) if c.stage_by == "pass_rate" else None
        stages = cur.assign_stages(self.train_tasks, c, rates)
        log.info("curriculum: %s tasks per stage", [len(s) for s in stages])
        return stages

    def select_tasks(self, step: int, round_: int = 0, n: int | None = None,
                     exclude: frozenset[str] | set[str] = frozenset()) -> list[Task]:
        """A seeded draw (so a resumed step draws the same): ``n`` tasks not in ``exclude``, from the
        curriculum's current stage plus replay when there is a curriculum."""
        seed = self.config.seed * 100_003 + step
        rng = random.Random(seed if round_ == 0 else f"{seed}/{round_}")
        n = self.config.grpo.tasks_per_step if n is None else n
        if self.stages:
            current, replay = cur.draw(self.stages, self.curriculum.stage, n, rng, self.config.curriculum.replay,
                                       set(exclude))
            return current + replay
        pool = [t for t in self.train_tasks if t.name not in exclude]
        return rng.sample(pool, min(n, len(pool)))

    # -- the update -----------------------------------------------------------------------

    def _logps(self, model, samples: list[Sample], entropy: bool = True) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """Log-prob (and entropy) of each model token of each sample, under the sampling temperature."""
        temperature = max(self.config.agent.temperature, 1e-4)
        return batch_logps(model, [s.tokens for s in samples], [s.mask for s in samples], temperature, entropy)

    def build_samples(self, rollout: Rollout) -> tuple[list[Sample], dict[str, float]]:
        """The step's samples with their advantages, and the filter's metrics
        (:func:`termrl.train.samples.build_samples`)."""
        return build_samples(rollout, self.config.grpo)

    def update(self, samples: list[Sample]) -> dict[str, float]:
        """One policy update on a step's samples; its metrics (all zero, and no optimizer step, without samples).

        The samples are cut into ``grpo.mini_batches`` mini-batches, one optimizer step each, and those
        into micro-batches of one group each (:func:`~termrl.train.samples.plan_update`). The ratio's
        denominator is the sampler's log-probs, or with ``grpo.old_logprobs: recompute`` the current
        weights' numbers computed once before the first step. The loss itself is
        :func:`~termrl.train.grpo.policy_loss`.
        """
        stats = {"loss": 0.0, "clip_fraction": 0.0, "kl": 0.0, "entropy": 0.0, "logprob_ratio_rollout": 1.0,
                 "grad_norm": 0.0, "train_tokens": 0, "tokens_per_s": 0.0}
        if not samples:
            return stats
        g = self.config.grpo
        started = time.monotonic()
        plan = plan_update(samples, g.mini_batches, g.micro_batch_tokens)
        sampled = [s.sampled_logps() for s in samples]
        recomputed = self._recompute_old_logps(samples, plan) if g.old_logprobs == "recompute" else {}
        old = [recomputed.get(i, sampled[i]) for i in range(len(samples))]
        totals = _UpdateTotals()
        before_step: dict[int, torch.Tensor] = {}
        self.model.train()
        for n, batch in enumerate(plan):
            logps = self._train_mini_batch(samples, batch, old, totals)
            if n == 0:  # weights not yet updated: the sampler's numbers can be checked against these
                before_step = {i: recomputed.get(i, lp) for i, lp in logps.items()}
            stats["grad_norm"] = self._optimizer_step()
        self.model.eval()
        stats["logprob_ratio_rollout"] = float(torch.cat(
            [torch.exp(lp.cpu() - sampled[i]) for i, lp in sorted(before_step.items())]).mean())
        elapsed = time.monotonic() - started
        stats.update(totals.metrics(len(plan)), tokens_per_s=totals.tokens / elapsed if elapsed > 0 else 0.0)
        return stats

    def _recompute_old_logps(self, samples: list[Sample], plan: list[MiniBatch]) -> dict[int, torch.Tensor]:
        """Every sample's model-token log-probs under the current weights, before any update (eval mode,
        no gradients), micro-batch by micro-batch as the update will run them."""
        recomputed: dict[int, torch.Tensor] = {}
        self.model.eval()
        with torch.no_grad():
            for mb in (mb for batch in plan for mb in batch.micro):
                recomputed.update(zip(mb, (lp for lp, _ in self._logps(self.model, [samples[i] for i in mb],
                                                                       entropy=False))))
        return recomputed

    def _train_mini_batch(self, samples: list[Sample], batch: MiniBatch, old: list[torch.Tensor],
                          totals: _UpdateTotals) -> dict[int, torch.Tensor]:
        """Zero the gradients, then forward, loss and backward of each micro-batch, scaled so the
        gradients add up to the mini-batch's loss: per model token (``token_mean``) or per sequence.
        Returns each sample's model-token log-probs under the weights before this mini-batch's step."""
        g = self.config.grpo
        n_model = float(sum(samples[i].mask[1:].sum() for i in batch.indices))
        self.optimizer.zero_grad(set_to_none=True)
        logps: dict[int, torch.Tensor] = {}
        for mb in batch.micro:
            group = [samples[i] for i in mb]
            results = self._logps(self.model, group)
            logp = pad_sequence([lp for lp, _ in results], batch_first=True)
            mask = pad_sequence([torch.ones_like(lp) for lp, _ in results], batch_first=True)
            logps.update((i, lp.detach()) for i, (lp, _) in zip(mb, results))
            dev = logp.device
            old_logp = pad_sequence([old[i].to(dev) for i in mb], batch_first=True)
            ref = self._reference_logps(group)
            loss, st = policy_loss(logp, old_logp, torch.tensor([s.advantage for s in group], device=dev), mask,
                                   clip_low=g.clip_low, clip_high=g.clip_high, aggregation=g.aggregation,
                                   max_tokens=g.max_tokens_norm, ref_logp=ref, kl_coef=g.kl_coef)
            n_tokens = float(mask.sum())
            scale = n_tokens / n_model if g.aggregation == "token_mean" else len(mb) / len(batch.indices)
            (loss * scale).backward()
            totals.add(float(loss.detach()) * scale, st, n_tokens,
                       entropy=float(sum(ent.sum() for _, ent in results)),
                       tokens=sum(int(s.tokens.numel()) for s in group))
        return logps

    def _reference_logps(self, group: list[Sample]) -> torch.Tensor | None:
        """The KL term's reference: the group's model-token log-probs under the frozen initial model
        (with LoRA, the base model with the adapters off), padded; None when ``grpo.kl_coef`` is 0."""
        if self.config.grpo.kl_coef <= 0:
            return None
        with torch.no_grad():
            if self.ref_model is not None:
                results = self._logps(self.ref_model, group, entropy=False)
            else:  # LoRA: the reference is the base model, adapters off
                with self.model.disable_adapter():
                    results = self._logps(self.model, group, entropy=False)
        return pad_sequence([lp for lp, _ in results], batch_first=True)

    def _optimizer_step(self) -> float:
        """Clip the gradients and step, with generation held off while the weights change; the gradient norm."""
        grad_norm = torch.nn.utils.clip_grad_norm_([p for p in self.model.parameters() if p.requires_grad],
                                                   self.config.optim.max_grad_norm)
        with self.policy.exclusive():  # no generation while the weights change
            self.optimizer.step()
        return float(grad_norm)

    # -- the loop -------------------------------------------------------------------------

    def _phase(self, phase: str) -> None:
        if self.on_phase:
            self.on_phase(phase, self.step)

    def evaluate(self) -> dict[str, float]:
        if not self.eval_tasks or STOP.requested:
            return {}
        self._phase("eval")
        rollout = self.eval_engine.run(self.eval_tasks, self.config.eval_group_size, step=self.step)
        summary = rollout_summary(rollout, "eval/")
        self.metrics.log(self.step, summary)
        return summary

    def train_step(self) -> dict[str, float] | None:
        """One step; None when the run was stopped before its update (its rollouts stay stored for a resume)."""
        cfg, g = self.config, self.config.grpo
        t0 = time.monotonic()
        weights = self._anneal()
        self._phase("rollout")
        drawn: dict[str, list[EpisodeResult]] = {}
        stopped = False

        def draw(round_: int, n: int) -> dict[str, list[EpisodeResult]]:
            nonlocal stopped
            tasks = self.select_tasks(self.step, round_, n, exclude=set(drawn))
            if not tasks:
                return {}
            rollout = self.engine.run(tasks, g.group_size, step=self.step)
            if STOP.requested or not rollout.complete:
                stopped = True
                return {}  # ends the drawing
            drawn.update(rollout.groups)
            return rollout.groups

        kept, report = fill_step(draw, g.tasks_per_step, cfg.sampling.per_round(g.tasks_per_step),
                                 cfg.sampling.rounds())
        t1 = time.monotonic()
        if stopped:
            return None
        self._phase("update")
        samples, filter_stats = self.build_samples(Rollout({name: drawn[name] for name in kept}))
        log.info("step %d: updating on %d samples", self.step, len(samples))
        stats = self.update(samples)  # no samples (no informative group within the bound): no update
        self.step += 1
        metrics = {**rollout_summary(Rollout(drawn), "train/"), **filter_stats,
                   "groups_skipped_zero_variance": report.dropped, **report.to_metrics(),
                   "update_skipped": int(not samples), **stats, **self._observe(drawn),
                   "reward/test_weight": weights[0], "reward/judge_weight": weights[1],
                   "rollout_s": t1 - t0, "update_s": time.monotonic() - t1}
        self.metrics.log(self.step, metrics)
        return metrics

    def _anneal(self) -> tuple[float, float]:
        w = self.config.weights
        weights = cur.annealed_weights(w.test, w.judge, self.config.anneal, step=self.step,
                                       stage=self.curriculum.stage, n_stages=len(self.stages) or 1)
        self.engine.config.weights = RewardWeights(*weights)  # (test 0 and judge 0 cannot happen: the sum is kept)
        return weights

    def _observe(self, groups: dict[str, list[EpisodeResult]]) -> dict[str, float]:
        """Feed the step's current-stage resolved rate to the curriculum; its metrics."""
        if not self.stages:
            return {}
        stage = self.curriculum.stage
        members = {t.name for t in self.stages[stage]}
        episodes = [e for name, group in groups.items() if name in members for e in group]
        rate = sum(e.resolved for e in episodes) / len(episodes) if episodes else None
        self.curriculum = cur.observe(self.curriculum, rate, step=self.step, config=self.config.curriculum,
                                      n_stages=len(self.stages))
        if self.curriculum.stage != stage:
            log.warning("curriculum: promoted to stage %d at step %d (rolling pass rate %.2f)",
                        self.curriculum.stage, self.step, self.curriculum.promotions[-1]["pass_rate"])
        window = self.curriculum.window
        return {"curriculum/stage": stage, "curriculum/stage_pass_rate": rate if rate is not None else float("nan"),
                "curriculum/replayed_groups": sum(name not in members for name in groups),
                "curriculum/promoted": int(self.curriculum.stage != stage),
                "curriculum/rolling_pass_rate": sum(window) / len(window) if window else 0.0,
                "curriculum/next_stage": self.curriculum.stage}

    def train(self, progress=None) -> None:
        cfg = self.config
        started = time.monotonic()
        try:
            if cfg.eval_every and self.step == 0 and not (self.out / "eval.jsonl").exists():
                self.evaluate()
            while self.step < cfg.steps and not STOP.requested:
                if cfg.time_budget_min and time.monotonic() - started > cfg.time_budget_min * 60:
                    log.warning("time budget of %s min reached at step %d", cfg.time_budget_min, self.step)
                    if self.step != self.saved_step:  # resume (and evaluate) from here, not the last periodic save
                        self.save()
                    break
                metrics = self.train_step()
                if metrics is None:
                    break
                if progress:
                    progress(self.step, metrics)
                if self.step % cfg.checkpoint_every == 0 or self.step == cfg.steps:
                    self.save()
                if cfg.eval_every and self.step % cfg.eval_every == 0:
                    self.evaluate()
            if STOP.requested and self.step > self.saved_step:
                try:
                    self.save()  # the update done since the last checkpoint is not lost
                except (OSError, StorageError) as exc:
                    log.error("could not save a checkpoint while stopping: %s (resuming starts from step %d)",
                              exc, self.saved_step)
        finally:
            self.provider.close()

    def close(self) -> None:
        """Stop the sandboxes and the private model's generation worker; finish the W&B run."""
        self.provider.close()
        self.policy.close()
        self.metrics.close()

    # -- checkpoints ----------------------------------------------------------------------

    def save(self) -> Path:
        """Checkpoint the current step (layout: ``termrl.train.checkpoints``)."""
        state = {"step": self.step, "store_rows": len(self.engine.store.rows()),
                 "curriculum": self.curriculum.to_json()}
        ckpt = save_checkpoint(self.out, self.step, self.model, self.optimizer, lora=self.config.model.lora,
                               state=state, keep=self.config.keep_checkpoints)
        self.saved_step = self.step
        return ckpt

    def resume(self) -> bool:
        """Load the run's latest checkpoint, if it has one: weights, optimizer, random state, step, curriculum."""
        ckpt = latest_checkpoint(self.out)
        if ckpt is None:
            return False
        state = load_checkpoint(ckpt, self.model, self.optimizer, lora=self.config.model.lora)
        self.step = self.saved_step = state["step"]
        self.curriculum = cur.CurriculumState.from_json(state.get("curriculum"))
        log.info("resumed from %s at step %d", ckpt, self.step)
        return True


@dataclass
class _UpdateTotals:
    """Running sums over an update's micro-batches; per-token metrics are weighted by model tokens."""

    loss: float = 0.0
    """Sum of the scaled micro-batch losses (each mini-batch's adds up to its loss)."""
    clip: float = 0.0
    kl: float = 0.0
    entropy: float = 0.0
    model_tokens: int = 0
    tokens: int = 0
    """All tokens forwarded (prompt and observations too)."""

    def add(self, loss: float, st: LossStats, n_tokens: float, *, entropy: float, tokens: int) -> None:
        self.loss += loss
        self.clip += st.clip_fraction * n_tokens
        self.kl += st.kl * n_tokens
        self.entropy += entropy
        self.model_tokens += int(n_tokens)
        self.tokens += tokens

    def metrics(self, n_batches: int) -> dict[str, float]:
        return {"loss": self.loss / n_batches, "clip_fraction": self.clip / self.model_tokens,
                "kl": self.kl / self.model_tokens, "entropy": self.entropy / self.model_tokens,
                "train_tokens": self.tokens}


def _seed_all(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
