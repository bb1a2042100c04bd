"""How the ``hf`` policy samples, and the log-prob it records for every sampled token.

Every sampled token's log-prob is recorded under the exact distribution it was drawn from:
``log_softmax(filter(logits / temperature))``, where ``filter`` is the optional top-k and then
top-p (nucleus) truncation (both off by default, so by default it is plain temperature
sampling and the trainer can recompute the same numbers from the logits). It is computed in
float32 inside generation, one step at a time, so no per-step score tensors are kept. With
``temperature == 0`` decoding is greedy and the log-probs are ``log_softmax(logits)``
(temperature 1). The model's own generation defaults (top-k 50, repetition penalty, ...) are
not applied: the sampling distribution is fully set by this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import termrl.policies.offline  # noqa: F401  (before transformers)
from termrl.errors import PolicyError

import torch  # noqa: E402
from transformers import LogitsProcessor  # noqa: E402


@dataclass(frozen=True)
class SamplingKey:
    """The settings that define a sampling distribution; requests with equal keys share a ``generate``."""

    temperature: float
    top_k: int
    top_p: float

    @classmethod
    def of(cls, temperature: float, top_k: int, top_p: float) -> SamplingKey:
        """The key of a request: greedy decoding (temperature 0) ignores top-k and top-p, so every
        greedy request has the same key."""
        return cls(float(temperature), top_k if temperature > 0 else 0, top_p if temperature > 0 else 1.0)

    def generate_options(self) -> dict[str, Any]:
        """``GenerationConfig`` settings that leave the distribution to :class:`LogprobRecorder`
        (``generate``'s own temperature, top-k and top-p switched off)."""
        options: dict[str, Any] = {"do_sample": self.temperature > 0}
        if self.temperature > 0:
            options.update(temperature=1.0, top_k=0, top_p=1.0)
        return options


class LogprobRecorder(LogitsProcessor):
    """Last logits processor of a batch: applies temperature/top-k/top-p itself and records,
    step by step, the log-prob of the token sampled at the previous step (so generate samples
    from exactly the distribution whose log-probs are kept, and no score history is stored)."""

    def __init__(self, sampling: SamplingKey):
        self.sampling = sampling
        self.previous: torch.Tensor | None = None
        self.picked: list[torch.Tensor] = []

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self.previous is not None:
            self.picked.append(self.previous.gather(1, input_ids[:, -1:]).squeeze(1))
        scores = scores.float()
        s = self.sampling
        if s.temperature > 0:
            scores = scores / s.temperature
            if s.top_k > 0:
                kth = torch.topk(scores, min(s.top_k, scores.shape[-1]), dim=-1).values[:, -1:]
                scores = scores.masked_fill(scores < kth, float("-inf"))
            if s.top_p < 1.0:
                ordered, order = torch.sort(scores, dim=-1, descending=True)
                mass_before = torch.softmax(ordered, dim=-1).cumsum(-1) - torch.softmax(ordered, dim=-1)
                drop = mass_before >= s.top_p  # keep the smallest prefix reaching top_p (never empty)
                scores = scores.masked_fill(drop.scatter(1, order, drop), float("-inf"))
        self.previous = torch.log_softmax(scores, dim=-1)
        return scores

    def finish(self, new_tokens: torch.Tensor) -> torch.Tensor:
        """Log-probs of ``new_tokens`` (batch, steps) once generation is over."""
        if self.previous is None:
            return torch.zeros(new_tokens.shape, dtype=torch.float32)
        picked = self.picked + [self.previous.gather(1, new_tokens[:, -1:]).squeeze(1)]
        if len(picked) != new_tokens.shape[1]:
            raise PolicyError(f"hf: recorded {len(picked)} log-probs for {new_tokens.shape[1]} generated tokens "
                              "(a logits processor ran a different number of times than tokens were sampled)")
        return torch.stack(picked, dim=1)
