"""Training samples: what the update trains on, built from a step's episodes, and how it is batched.

An episode becomes a :class:`Sample`: its token sequence (``termrl.rollout.sequences``), a mask of
the model's own tokens (the only trainable ones), the log-prob the sampler recorded for each token,
and the group-relative advantage of its reward. :func:`build_samples` does this for a step's groups,
dropping groups with nothing to learn from (``termrl.train.grpo.informative_groups``).

:func:`plan_update` cuts a step's samples into mini-batches (one optimizer step each) and those into
micro-batches (one forward/backward each): the sequences of one group, within the token budget, so
their shared prompt is computed once (``termrl.train.forward``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from termrl.rollout.engine import Rollout
from termrl.rollout.sequences import episode_sequence, token_mismatches
from termrl.train.config import GRPOConfig
from termrl.train.forward import micro_batches, shared_prefix_len
from termrl.train.grpo import group_advantages, informative_groups
from termrl.types import EpisodeResult, episode_from_row


@dataclass
class Sample:
    tokens: torch.Tensor
    mask: torch.Tensor
    rollout_logp: torch.Tensor
    advantage: float
    group: str = ""
    """The rollout group (task): sequences of one group share their prompt and train together."""

    def sampled_logps(self) -> torch.Tensor:
        """The sampler's log-prob of each model token, in the order the loss sees them (a position
        t >= 1 of the mask; ``termrl.train.forward`` returns the model's numbers in the same order)."""
        return self.rollout_logp[1:][self.mask[1:].bool()]


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


def build_samples(rollout: Rollout, g: GRPOConfig) -> tuple[list[Sample], dict[str, float]]:
    """The samples of a step's groups, each with its group-relative advantage, and the filter's metrics.

    An episode with an infrastructure error or without a usable sequence is masked out of its group
    (it gets no advantage and no sample); a group whose valid rewards are all equal is skipped.
    """
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


@dataclass(frozen=True)
class MiniBatch:
    """The samples of one optimizer step, as indices into the step's sample list."""

    indices: list[int]
    micro: list[list[int]]
    """The same indices in micro-batches: one group's sequences each, within the token budget."""


def plan_update(samples: list[Sample], mini_batches: int, micro_batch_tokens: int) -> list[MiniBatch]:
    """The update's mini-batches: sample i goes to mini-batch ``i % mini_batches`` (empty ones are
    dropped), each cut into micro-batches by :func:`group_micro_batches`."""
    order = list(range(len(samples)))
    batches = [b for b in (order[i::mini_batches] for i in range(mini_batches)) if b]
    return [MiniBatch(b, group_micro_batches(b, samples, micro_batch_tokens)) for b in batches]


def group_micro_batches(indices: list[int], samples: list[Sample], max_tokens: int) -> list[list[int]]:
    """The indices of a mini-batch, in micro-batches of one group each, within the token budget."""
    by_group: dict[str, list[int]] = {}
    for i in indices:
        by_group.setdefault(samples[i].group, []).append(i)
    out = []
    for members in by_group.values():
        prefix = shared_prefix_len([samples[i].tokens for i in members], [samples[i].mask for i in members])
        lengths = [len(samples[i].tokens) for i in members]
        out += [[members[k] for k in mb] for mb in micro_batches(lengths, prefix, max_tokens)]
    return out
