"""Log-probs of many sequences in few forward passes: shared prompt prefixes computed once.

The G episodes of one GRPO group start with the same tokens (system prompt and task instruction).
A micro-batch is a set of sequences of one group; it runs as

1. the shared prefix once (batch 1), keeping its key/value cache *with* its autograd graph;
2. that cache repeated G times, then every sequence's remainder in one right-padded batch on top
   of it (``attention_mask`` covers prefix + remainder, padding last, so no valid position ever
   sees padding);
3. the output layer only at the positions that predict a model token (prompt and observation
   positions, the bulk of a multi-turn sequence, never reach the vocabulary projection).

Backward through step 2 sums the G sequences' gradients into the one prefix computation, so the
result equals running each sequence on its own (tested to float tolerance on the embedded model),
with the prefix's forward, backward and activation memory paid once instead of G times.

The prefix stops before the first position that predicts a model token, so every log-prob the
loss needs comes from step 2. Models whose logits are not ``lm_head(last hidden state)`` (a final
soft-cap or logit scale) fall back to one full forward per sequence.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import torch


def first_target(mask: torch.Tensor) -> int:
    """Index of the first model token at position >= 1 (a position t predicts token t + 1)."""
    hits = mask[1:].nonzero()
    return int(hits[0]) + 1 if len(hits) else len(mask)


def shared_prefix_len(tokens: Sequence[torch.Tensor], masks: Sequence[torch.Tensor]) -> int:
    """Tokens every sequence starts with that no needed logit depends on being split off.

    It is the common prefix, cut one short of the earliest model token (that token's logit is
    computed at the position before it, which must be in the remainder) and one short of the
    shortest sequence (every remainder keeps a token).
    """
    n = min(min(len(t) for t in tokens) - 1, min(first_target(m) for m in masks) - 1)
    if n <= 0 or len(tokens) == 1:
        return max(n, 0)
    first = tokens[0][:n]
    for t in tokens[1:]:
        differs = (t[:n] != first[:n]).nonzero()
        if len(differs):
            n = int(differs[0])
    return n


def _packable(model) -> bool:
    config = getattr(model, "config", None)
    return not (getattr(config, "final_logit_softcapping", None) or getattr(config, "logit_scale", None)
                or getattr(config, "logits_scaling", None))


def _cache_kwarg(decoder) -> str:
    params = inspect.signature(decoder.forward).parameters
    return "cache" if "cache" in params else "past_key_values"


def _select(logits: torch.Tensor, targets: torch.Tensor, temperature: float,
            entropy: bool) -> tuple[torch.Tensor, torch.Tensor | None]:
    logp_all = torch.log_softmax(logits.float() / temperature, dim=-1)
    logp = logp_all.gather(-1, targets[:, None]).squeeze(-1)
    if not entropy:
        return logp, None
    with torch.no_grad():
        return logp, -(logp_all.exp() * logp_all).sum(-1)


def sequence_logps(model, tokens: torch.Tensor, mask: torch.Tensor, temperature: float,
                   entropy: bool = True) -> tuple[torch.Tensor, torch.Tensor | None]:
    """One sequence, one forward: log-prob (and entropy) of each model token (mask 1 at t >= 1)."""
    device = model.get_output_embeddings().weight.device
    positions = mask[1:].nonzero().squeeze(-1)
    logits = model(input_ids=tokens[None].to(device), logits_to_keep=positions.to(device)).logits[0]
    return _select(logits, tokens[positions + 1].to(device), temperature, entropy)


def batch_logps(model, tokens: Sequence[torch.Tensor], masks: Sequence[torch.Tensor], temperature: float,
                entropy: bool = True) -> list[tuple[torch.Tensor, torch.Tensor | None]]:
    """Per sequence: log-probs (and entropies) of its model tokens, under ``softmax(logits / temperature)``.

    Inputs may live on the CPU; the results are on the model's device.

    The sequences should share a prompt (one GRPO group); any that do not still come out right,
    with a shorter (or no) shared prefix.
    """
    if len(tokens) == 1 or not _packable(model):
        return [sequence_logps(model, t, m, temperature, entropy) for t, m in zip(tokens, masks)]
    decoder, head = model.get_decoder(), model.get_output_embeddings()
    device = head.weight.device
    p = shared_prefix_len(tokens, masks)
    kwargs = {}
    if p > 0:
        out = decoder(input_ids=tokens[0][None, :p].to(device), use_cache=True)
        cache = out[1]  # ``cache`` (newer transformers) or ``past_key_values``
        cache.batch_repeat_interleave(len(tokens))  # autograd-tracked: the G gradients sum into the prefix
        kwargs[_cache_kwarg(decoder)] = cache
    rests = [t[p:] for t in tokens]
    width = max(len(r) for r in rests)
    ids = torch.zeros(len(rests), width, dtype=tokens[0].dtype)
    attention = torch.zeros(len(rests), p + width, dtype=torch.long)
    attention[:, :p] = 1
    rows, cols, targets, counts = [], [], [], []
    for i, (t, m, r) in enumerate(zip(tokens, masks, rests)):
        ids[i, :len(r)] = r
        attention[i, p:p + len(r)] = 1
        positions = m[1:].nonzero().squeeze(-1)  # absolute positions t >= p predicting token t + 1
        rows.append(torch.full_like(positions, i))
        cols.append(positions - p)
        targets.append(t[positions + 1])
        counts.append(len(positions))
    hidden = decoder(input_ids=ids.to(device), attention_mask=attention.to(device), use_cache=p > 0, **kwargs)[0]
    logits = head(hidden[torch.cat(rows).to(device), torch.cat(cols).to(device)])
    logp, ent = _select(logits, torch.cat(targets).to(device), temperature, entropy)
    logps = logp.split(counts)
    ents = ent.split(counts) if ent is not None else [None] * len(counts)
    return list(zip(logps, ents))


def micro_batches(lengths: Sequence[int], prefix: int, max_tokens: int) -> list[list[int]]:
    """Split one group's sequences (longest first) so each forward holds at most ``max_tokens``.

    A micro-batch costs the shared ``prefix`` once plus (sequences x longest remainder); a sequence
    longer than the budget gets a micro-batch of its own.
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    batches: list[list[int]] = []
    for i in order:
        if batches and prefix + (lengths[batches[-1][0]] - prefix) * (len(batches[-1]) + 1) <= max_tokens:
            batches[-1].append(i)  # longest first: the micro-batch's first sequence sets its width
        else:
            batches.append([i])
    return batches
