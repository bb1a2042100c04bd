"""GRPO math: group-relative advantages and the clipped policy-gradient loss. Pure functions.

Every choice, stated:

* **Advantages are group-relative.** The G episodes of one task form a group; an episode's
  advantage is its reward minus the group baseline. The baseline is the group mean, or with
  ``leave_one_out`` the mean of the *other* G-1 rewards (an unbiased baseline; RLOO).
* **Std normalisation is optional.** GRPO divides by the group's standard deviation
  (population std, plus ``eps``); Dr. GRPO argues this over-weights near-uniform groups and
  turns it off (``scale_by_std=False``).
* **Zero-variance groups are skipped.** If every reward in a group is equal, every advantage
  is 0 and the group only costs compute: ``informative_groups`` drops it before the update.
* **Episodes with infrastructure errors are masked out** (sandbox, image, policy, verifier
  failures are not the policy's doing): they get weight 0 and do not enter the baseline.
* **Only the model's tokens carry loss.** Prompt and observation tokens have mask 0; in a
  multi-turn trajectory every turn's sampled tokens have mask 1.
* **Clipped surrogate with separate low/high clip** (DAPO's clip-higher): the ratio
  r = exp(logp - logp_old) is clipped to [1 - clip_low, 1 + clip_high]; per token the loss is
  -min(r·A, clip(r)·A).
* **Aggregation**: ``token_mean`` (sum over all model tokens / their count: long answers weigh
  per token), ``seq_mean`` (mean over sequences of each sequence's token mean: GRPO's
  original), or ``constant`` (sum / (n_sequences × max_tokens): Dr. GRPO, no length bias).
* **KL to a reference model is optional** (``kl_coef > 0``): the k3 estimator
  exp(ref - logp) - (ref - logp) - 1 ≥ 0, added per token inside the loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import torch

Aggregation = Literal["token_mean", "seq_mean", "constant"]


def group_advantages(rewards: torch.Tensor, *, scale_by_std: bool = True, leave_one_out: bool = False,
                     valid: torch.Tensor | None = None, eps: float = 1e-6) -> torch.Tensor:
    """Advantages for one group of rewards (shape [G]); invalid episodes get 0 and are not in the baseline."""
    rewards = rewards.to(torch.float64)
    valid = torch.ones_like(rewards, dtype=torch.bool) if valid is None else valid.to(torch.bool)
    n = int(valid.sum())
    adv = torch.zeros_like(rewards)
    if n == 0:
        return adv.to(torch.float32)
    r = rewards[valid]
    if leave_one_out:
        if n < 2:
            return adv.to(torch.float32)
        baseline = (r.sum() - r) / (n - 1)
    else:
        baseline = r.mean()
    a = r - baseline
    if scale_by_std:
        a = a / (r.std(unbiased=False) + eps)
    adv[valid] = a
    return adv.to(torch.float32)


def informative_groups(groups: list[torch.Tensor], valid: list[torch.Tensor] | None = None,
                       tol: float = 1e-9) -> list[bool]:
    """True for groups whose valid rewards differ (a zero-variance group carries no signal)."""
    keep = []
    for i, rewards in enumerate(groups):
        mask = torch.ones_like(rewards, dtype=torch.bool) if valid is None else valid[i].to(torch.bool)
        r = rewards[mask]
        keep.append(bool(r.numel() >= 2 and (r.max() - r.min()).abs() > tol))
    return keep


@dataclass(frozen=True)
class LossStats:
    loss: float
    clip_fraction: float
    """Share of model tokens whose ratio was clipped (in the direction that matters)."""
    ratio_mean: float
    kl: float
    """Mean k3 KL to the reference over model tokens (0 without a reference)."""
    n_tokens: int


def k3_kl(logp: torch.Tensor, ref_logp: torch.Tensor) -> torch.Tensor:
    """Per-token k3 estimator of KL(pi || ref): exp(ref - logp) - (ref - logp) - 1."""
    d = ref_logp - logp
    return torch.exp(d) - d - 1


def policy_loss(logp: torch.Tensor, old_logp: torch.Tensor, advantages: torch.Tensor, mask: torch.Tensor, *,
                clip_low: float = 0.2, clip_high: float = 0.28, aggregation: Aggregation = "token_mean",
                max_tokens: int | None = None, ref_logp: torch.Tensor | None = None,
                kl_coef: float = 0.0) -> tuple[torch.Tensor, LossStats]:
    """Clipped surrogate loss over a batch of sequences.

    Args:
        logp, old_logp: [B, T] log-probs of the sampled tokens under the current / sampling policy.
        advantages: [B] one advantage per sequence (broadcast over its tokens).
        mask: [B, T] 1 for the model's own tokens, 0 for prompt, observation and padding.
        max_tokens: the constant T of ``constant`` aggregation (default: T of the batch).
    """
    mask = mask.to(logp.dtype)
    ratio = torch.exp(logp - old_logp)
    adv = advantages.to(logp.dtype).unsqueeze(-1)
    unclipped = ratio * adv
    clipped = torch.clamp(ratio, 1 - clip_low, 1 + clip_high) * adv
    per_token = -torch.minimum(unclipped, clipped)
    kl = torch.zeros_like(per_token)
    if ref_logp is not None and kl_coef > 0:
        kl = k3_kl(logp, ref_logp)
        per_token = per_token + kl_coef * kl
    n_tokens = mask.sum()
    if aggregation == "token_mean":
        loss = (per_token * mask).sum() / n_tokens.clamp(min=1)
    elif aggregation == "seq_mean":
        per_seq = (per_token * mask).sum(-1) / mask.sum(-1).clamp(min=1)
        has_tokens = (mask.sum(-1) > 0).to(logp.dtype)
        loss = (per_seq * has_tokens).sum() / has_tokens.sum().clamp(min=1)
    elif aggregation == "constant":
        loss = (per_token * mask).sum() / (logp.shape[0] * (max_tokens or logp.shape[-1]))
    else:
        raise ValueError(f"unknown aggregation {aggregation!r}: token_mean | seq_mean | constant")
    with torch.no_grad():
        was_clipped = (unclipped > clipped).to(logp.dtype)  # min() picked the clipped term
        denom = n_tokens.clamp(min=1)
        stats = LossStats(
            loss=float(loss.detach()),
            clip_fraction=float((was_clipped * mask).sum() / denom),
            ratio_mean=float((ratio * mask).sum() / denom),
            kl=float((kl * mask).sum() / denom),
            n_tokens=int(n_tokens),
        )
    return loss, stats
