"""The GRPO trainer: rollouts in Docker -> group-relative advantages -> clipped policy-gradient update.

One training step:

1. pick ``tasks_per_step`` training tasks (a seeded draw per step, so a resumed run draws the same;
   with a curriculum, from the current stage plus replay: ``termrl.train.curriculum``);
2. roll out ``group_size`` episodes of each (the rollout engine; rows land in ``rollouts.jsonl``
   at once, and a resumed step reuses the rows already there);
3. per group: drop it if every valid reward is equal, else compute advantages; episodes with an
   infrastructure error are masked out; with dynamic sampling, draw more until the step has its
   informative groups or hits the bound (``termrl.train.sampling``); no informative group, no update;
4. for each mini-batch: forward its sequences in micro-batches of one group each, the group's
   shared prompt computed once (``termrl.train.forward``; model tokens trainable, prompt and
   observation tokens masked), the clipped surrogate (``termrl.train.grpo``), backward per
   micro-batch, clip, AdamW step;
5. log metrics (JSONL + TensorBoard), checkpoint (model, optimizer, RNG, step, curriculum state; also
   when the time budget stops the run), evaluate held-out tasks every ``eval_every`` steps.

The model trained is the very model the trainer's hf policy samples from (a private copy, updated in
place while the policy is held off); the loss uses the same temperature-scaled distribution the rollouts sampled from.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from torch.nn.utils.rnn import pad_sequence

from termrl.agent.loop import TermAgent
from termrl.rewards.judges import get_judge
from termrl.errors import StorageError
from termrl.rollout.engine import Rollout, RolloutEngine, TrajectoryStore
from termrl.rollout.episode import EpisodeConfig
from termrl.rollout.shutdown import STOP
from termrl.rollout.sequences import episode_sequence, token_mismatches
from termrl.sandbox.hosts import sandbox_provider
from termrl.tasks import load_tasks
from termrl.train import curriculum as cur
from termrl.train.config import TrainConfig
from termrl.train.forward import batch_logps, micro_batches, shared_prefix_len
from termrl.train.grpo import group_advantages, informative_groups, policy_loss
from termrl.train.sampling import fill_step
from termrl.types import EpisodeResult, RewardWeights, Task, episode_from_row

log = logging.getLogger(__name__)


@dataclass
class Sample:
    tokens: torch.Tensor
    mask: torch.Tensor
    rollout_logp: torch.Tensor
    advantage: float
    group: str = ""
    """The rollout group (task): sequences of one group share their prompt and train together."""


def sample_from_episode(result: EpisodeResult) -> Sample | None:
    """The token sequence of one episode, or None if it has no model tokens or re-tokenised its history
    (``termrl.rollout.sequences``: a misaligned episode is masked from the loss, never trained mis-masked).

    Raises:
        ValueError: a trainable segment without one sampled log-prob per token (the policy-gradient
            ratio needs them; a silent 0.0 would make it wrong).
    """
    segments = result.trajectory.segments if result.trajectory is not None else ()
    for n, seg in enumerate(segments):
        if seg.trainable and len(seg.logprobs) != len(seg.token_ids):
            raise ValueError(f"episode of {result.task!r}: trainable segment {n} has {len(seg.token_ids)} tokens but "
                             f"{len(seg.logprobs)} log-probs -- fix: sample with a policy that returns log-probs "
                             "(hf, or openai with logprobs on)")
    seq = episode_sequence(result)
    if seq is None:
        return None
    return Sample(torch.tensor(seq.tokens), torch.tensor(seq.mask, dtype=torch.float32),
                  torch.tensor(seq.logprobs, dtype=torch.float32), 0.0)


def sample_from_row(row: dict[str, Any]) -> Sample | None:
    """:func:`sample_from_episode` of a ``rollouts.jsonl`` row."""
    return sample_from_episode(episode_from_row(row))


class MetricsLog:
    """metrics.jsonl plus TensorBoard scalars (when tensorboard is installed)."""

    def __init__(self, out: Path, wandb=None, run_config: dict[str, Any] | None = None):
        self.path = out / "metrics.jsonl"
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(str(out / "tensorboard"))
        except ImportError:  # pragma: no cover - tensorboard is a dependency
            self.tb = None
        self.wandb = None
        if wandb is not None:  # logging.wandb: W&B beside TensorBoard
            from termrl.train.wandb_log import WandbLog

            self.wandb = WandbLog(wandb, out, run_config or {})

    def log(self, step: int, metrics: dict[str, Any]) -> None:
        with open(self.path, "a") as fh:
            fh.write(json.dumps({"step": step, "time": time.time(), **metrics}) + "\n")
        if self.tb:
            for key, value in metrics.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    self.tb.add_scalar(key, value, step)
            self.tb.flush()
        if self.wandb:
            self.wandb.log(step, metrics)

    def close(self) -> None:
        if self.wandb:
            self.wandb.close()
            self.wandb = None


def _rollout_summary(rollout: Rollout, prefix: str) -> dict[str, float]:
    results = [r for group in rollout.groups.values() for r in group]
    if not results:
        return {}
    rewards = torch.tensor([r.reward for r in results])
    out = {
        f"{prefix}reward_mean": float(rewards.mean()),
        f"{prefix}reward_std": float(rewards.std(unbiased=False)),
        f"{prefix}resolved_rate": sum(r.resolved for r in results) / len(results),
        f"{prefix}episodes": len(results),
        f"{prefix}errors": sum(r.error is not None for r in results),
    }
    # reference agents have no trajectory: their test score is the script's reward, not partial credit
    tests = [r.test_score for r in results if r.trajectory is not None]
    judges = [r.judge_score for r in results if r.judge_score is not None]
    if tests:
        out[f"{prefix}test_score"] = sum(tests) / len(tests)
    if judges:
        out[f"{prefix}judge_score"] = sum(judges) / len(judges)
    return out


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
        self.metrics = MetricsLog(self.out, config.logging.wandb, asdict(config))
        self.on_phase = None
        """Called with (phase, step) as a step moves through rollout -> update, and for eval (live progress)."""
        self.step = 0
        self.saved_step = 0
        """The step of the last checkpoint (a stop saves one if the model changed since)."""
        self.resume()

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

    def _micro_batches(self, indices: list[int], samples: list[Sample]) -> list[list[int]]:
        """The indices of a mini-batch, in micro-batches of one group each, within the token budget."""
        by_group: dict[str, list[int]] = {}
        for i in indices:
            by_group.setdefault(samples[i].group, []).append(i)
        out = []
        for members in by_group.values():
            prefix = shared_prefix_len([samples[i].tokens for i in members], [samples[i].mask for i in members])
            lengths = [len(samples[i].tokens) for i in members]
            out += [[members[k] for k in mb]
                    for mb in micro_batches(lengths, prefix, self.config.grpo.micro_batch_tokens)]
        return out

    def build_samples(self, rollout: Rollout) -> tuple[list[Sample], dict[str, float]]:
        g = self.config.grpo
        samples, skipped, masked, misaligned = [], 0, 0, 0
        for name, results in rollout.groups.items():
            built = [sample_from_episode(r) if r.error is None else None for r in results]
            misaligned += sum(r.error is None and token_mismatches(r) > 0 for r in results)
            valid = torch.tensor([b is not None for b in built])
            masked += int((~valid).sum())
            rewards = torch.tensor([r.reward for r in results])
            if not informative_groups([rewards], [valid])[0]:
                skipped += 1
                continue
            adv = group_advantages(rewards, scale_by_std=g.scale_by_std, leave_one_out=g.leave_one_out, valid=valid)
            for sample, a in zip(built, adv.tolist()):
                if sample is not None:
                    sample.advantage, sample.group = a, name
                    samples.append(sample)
        return samples, {"groups_skipped_zero_variance": skipped, "episodes_masked": masked,
                         "episodes_misaligned": misaligned}

    def update(self, samples: list[Sample]) -> dict[str, float]:
        cfg, g = self.config, self.config.grpo
        stats = {"loss": 0.0, "clip_fraction": 0.0, "kl": 0.0, "entropy": 0.0, "logprob_ratio_rollout": 1.0,
                 "grad_norm": 0.0, "train_tokens": 0, "tokens_per_s": 0.0}
        if not samples:
            return stats
        started = time.monotonic()
        rollout_old = [s.rollout_logp[1:][s.mask[1:].bool()] for s in samples]
        order = list(range(len(samples)))
        batches = [b for b in (order[i::g.mini_batches] for i in range(g.mini_batches)) if b]
        plan = [self._micro_batches(b, samples) for b in batches]
        recomputed: dict[int, torch.Tensor] = {}
        if g.old_logprobs == "recompute":
            self.model.eval()
            with torch.no_grad():  # the current weights' numbers, before any update
                for mb in (mb for micro in plan for mb in micro):
                    recomputed.update(zip(mb, (lp for lp, _ in self._logps(self.model, [samples[i] for i in mb],
                                                                           entropy=False))))
        total_tokens = model_tokens = 0
        clip_weighted = kl_weighted = entropy_sum = loss_sum = 0.0
        first_logp: dict[int, torch.Tensor] = {}
        self.model.train()
        for n_batch, (batch, micro) in enumerate(zip(batches, plan)):
            n_model = float(sum(samples[i].mask[1:].sum() for i in batch))
            self.optimizer.zero_grad(set_to_none=True)
            for mb in micro:
                group = [samples[i] for i in mb]
                results = self._logps(self.model, group)
                logp = pad_sequence([lp for lp, _ in results], batch_first=True)
                mask = pad_sequence([torch.ones_like(lp) for lp, _ in results], batch_first=True)
                if n_batch == 0:  # weights not yet updated: the sampler's numbers can be checked against these
                    first_logp.update((i, recomputed.get(i, lp.detach())) for i, (lp, _) in zip(mb, results))
                dev = logp.device
                old = pad_sequence([recomputed.get(i, rollout_old[i]).to(dev) for i in mb], batch_first=True)
                ref = None
                if g.kl_coef > 0:
                    with torch.no_grad():
                        if self.ref_model is not None:
                            ref_results = self._logps(self.ref_model, group, entropy=False)
                        else:  # LoRA: the reference is the base model, adapters off
                            with self.model.disable_adapter():
                                ref_results = self._logps(self.model, group, entropy=False)
                    ref = pad_sequence([lp for lp, _ in ref_results], batch_first=True)
                loss, st = policy_loss(logp, old, torch.tensor([s.advantage for s in group], device=dev), mask,
                                       clip_low=g.clip_low, clip_high=g.clip_high, aggregation=g.aggregation,
                                       max_tokens=g.max_tokens_norm, ref_logp=ref, kl_coef=g.kl_coef)
                n_tokens = float(mask.sum())
                scale = n_tokens / n_model if g.aggregation == "token_mean" else len(mb) / len(batch)
                (loss * scale).backward()
                loss_sum += float(loss.detach()) * scale
                clip_weighted += st.clip_fraction * n_tokens
                kl_weighted += st.kl * n_tokens
                entropy_sum += float(sum(ent.sum() for _, ent in results))
                model_tokens += int(n_tokens)
                total_tokens += sum(int(s.tokens.numel()) for s in group)
            grad_norm = torch.nn.utils.clip_grad_norm_([p for p in self.model.parameters() if p.requires_grad],
                                                       cfg.optim.max_grad_norm)
            with self.policy.exclusive():  # no generation while the weights change
                self.optimizer.step()
            stats["grad_norm"] = float(grad_norm)
        self.model.eval()
        stats["logprob_ratio_rollout"] = float(torch.cat(
            [torch.exp(lp.cpu() - rollout_old[i]) for i, lp in sorted(first_logp.items())]).mean())
        elapsed = time.monotonic() - started
        stats.update(loss=loss_sum / len(batches), clip_fraction=clip_weighted / model_tokens,
                     kl=kl_weighted / model_tokens, entropy=entropy_sum / model_tokens, train_tokens=total_tokens,
                     tokens_per_s=total_tokens / elapsed if elapsed > 0 else 0.0)
        return stats

    # -- the loop -------------------------------------------------------------------------

    def _phase(self, phase: str) -> None:
        if self.on_phase:
            self.on_phase(phase, self.step)

    def evaluate(self) -> dict[str, float]:
        if not self.eval_tasks or STOP.requested:
            return {}
        self._phase("eval")
        rollout = self.eval_engine.run(self.eval_tasks, self.config.eval_group_size, step=self.step)
        summary = _rollout_summary(rollout, "eval/")
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
        metrics = {**_rollout_summary(Rollout(drawn), "train/"), **filter_stats,
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

    def _trainable_state(self) -> dict[str, torch.Tensor]:
        return {k: v for k, v in self.model.state_dict().items()} if not self.config.model.lora else {
            n: p.detach() for n, p in self.model.named_parameters() if p.requires_grad}

    def save(self) -> Path:
        ckpt = self.out / "checkpoints" / f"step-{self.step:06d}"
        tmp = ckpt.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        torch.save(self._trainable_state(), tmp / "model.pt")
        torch.save(self.optimizer.state_dict(), tmp / "optimizer.pt")
        torch.save({"python": random.getstate(), "torch": torch.get_rng_state()}, tmp / "rng.pt")
        (tmp / "state.json").write_text(json.dumps({"step": self.step, "store_rows": len(self.engine.store.rows()),
                                                    "curriculum": self.curriculum.to_json()}))
        shutil.rmtree(ckpt, ignore_errors=True)
        tmp.rename(ckpt)  # a crash mid-save leaves the previous checkpoint intact
        (self.out / "checkpoints" / "latest").write_text(ckpt.name)
        kept = sorted(p for p in (self.out / "checkpoints").glob("step-*") if p.is_dir())
        for old in kept[: -self.config.keep_checkpoints]:
            shutil.rmtree(old, ignore_errors=True)
        self.saved_step = self.step
        return ckpt

    def resume(self) -> bool:
        latest = self.out / "checkpoints" / "latest"
        if not latest.is_file():
            return False
        ckpt = self.out / "checkpoints" / latest.read_text().strip()
        state = torch.load(ckpt / "model.pt", weights_only=True)
        if self.config.model.lora:
            params = dict(self.model.named_parameters())
            with torch.no_grad():
                for name, value in state.items():
                    params[name].copy_(value)
        else:
            self.model.load_state_dict(state)
        self.optimizer.load_state_dict(torch.load(ckpt / "optimizer.pt", weights_only=True))
        rng = torch.load(ckpt / "rng.pt", weights_only=False)
        random.setstate(rng["python"])
        torch.set_rng_state(rng["torch"])
        state = json.loads((ckpt / "state.json").read_text())
        self.step = self.saved_step = state["step"]
        self.curriculum = cur.CurriculumState.from_json(state.get("curriculum"))
        log.info("resumed from %s at step %d", ckpt, self.step)
        return True


def _seed_all(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
