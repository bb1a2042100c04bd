"""Shared-prefix micro-batches (termrl.train.forward) equal one forward per sequence: values and gradients.

A tiny randomly initialised Llama keeps these fast; the end-to-end check on the embedded SmolLM2
is in test_train.py.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from termrl.train.config import TrainConfig
from termrl.train.forward import batch_logps, micro_batches, sequence_logps, shared_prefix_len
from termrl.train.trainer import Sample, Trainer

VOCAB = 64


@pytest.fixture(scope="module")
def tiny():
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256)
    return LlamaForCausalLM(config).float().eval()


def _episode(prompt: torch.Tensor, turns: list[tuple[int, int]], gen: torch.Generator):
    """prompt, then per turn (model tokens, observation tokens): tokens and mask."""
    tokens, mask = [prompt], [torch.zeros(len(prompt))]
    for n_model, n_obs in turns:
        tokens += [torch.randint(0, VOCAB, (n_model,), generator=gen), torch.randint(0, VOCAB, (n_obs,), generator=gen)]
        mask += [torch.ones(n_model), torch.zeros(n_obs)]
    return torch.cat(tokens), torch.cat(mask)


def _group(gen, prompt_len=12, shapes=(((5, 3), (4, 0)), ((9, 0),), ((2, 6), (3, 2), (1, 0)))):
    prompt = torch.randint(0, VOCAB, (prompt_len,), generator=gen)
    return [_episode(prompt, list(turns), gen) for turns in shapes]


def _grads(model, loss):
    model.zero_grad(set_to_none=True)
    loss.backward()
    return {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}


def test_shared_prefix_stops_before_the_first_model_token_and_at_divergence():
    a = torch.tensor([1, 2, 3, 4, 5, 6, 7])
    m = torch.tensor([0, 0, 0, 0, 1, 1, 0.0])
    assert shared_prefix_len([a, a.clone()], [m, m]) == 3  # token 4 is the first model token: its logit is at 3
    b = torch.tensor([1, 2, 9, 4, 5, 6, 7])
    assert shared_prefix_len([a, b], [m, m]) == 2
    assert shared_prefix_len([a, a[:3]], [m, torch.zeros(3)]) == 2  # every remainder keeps a token
    assert shared_prefix_len([a], [torch.tensor([0, 1, 1, 1, 1, 1, 1.0])]) == 0


@pytest.mark.parametrize("shared", [True, False])
def test_batched_logps_and_gradients_equal_one_forward_per_sequence(tiny, shared):
    gen = torch.Generator().manual_seed(1)
    group = _group(gen) if shared else _group(gen)[:1] + _group(gen)[1:]  # second: prompts differ
    tokens, masks = [t for t, _ in group], [m for _, m in group]
    if shared:
        assert shared_prefix_len(tokens, masks) == 11
    weights = [torch.randn(int(m[1:].sum()), generator=gen) for m in masks]

    single = [sequence_logps(tiny, t, m, temperature=0.7) for t, m in zip(tokens, masks)]
    g_single = _grads(tiny, sum((lp * w).sum() for (lp, _), w in zip(single, weights)))
    batched = batch_logps(tiny, tokens, masks, temperature=0.7)
    g_batched = _grads(tiny, sum((lp * w).sum() for (lp, _), w in zip(batched, weights)))

    for (lp1, e1), (lp2, e2), m in zip(single, batched, masks):
        assert lp1.shape == lp2.shape == (int(m[1:].sum()),)
        torch.testing.assert_close(lp2, lp1, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(e2, e1, atol=1e-5, rtol=1e-5)
    assert g_single.keys() == g_batched.keys()
    for name in g_single:
        torch.testing.assert_close(g_batched[name], g_single[name], atol=1e-5, rtol=1e-4)


def test_micro_batches_cover_every_sequence_within_the_budget():
    lengths = [100, 40, 90, 60, 300]
    batches = micro_batches(lengths, prefix=30, max_tokens=250)
    assert sorted(i for b in batches for i in b) == list(range(5))
    assert batches[0] == [4]  # longer than the budget alone: a micro-batch of its own
    for b in batches[1:]:
        assert 30 + (max(lengths[i] for i in b) - 30) * len(b) <= 250
    assert micro_batches(lengths, prefix=30, max_tokens=0) == [[4], [0], [2], [3], [1]]
    assert micro_batches(lengths, prefix=30, max_tokens=10**6) == [[4, 0, 2, 3, 1]]


class _NoPolicy:
    @contextmanager
    def exclusive(self):
        yield


def _trainer(model, micro_batch_tokens: int, aggregation: str, old_logprobs: str = "rollout") -> Trainer:
    cfg = TrainConfig()
    cfg.grpo.micro_batch_tokens, cfg.grpo.aggregation, cfg.grpo.max_tokens_norm = micro_batch_tokens, aggregation, 16
    cfg.grpo.old_logprobs = old_logprobs
    trainer = Trainer.__new__(Trainer)
    trainer.config, trainer.model, trainer.ref_model, trainer.policy = cfg, model, None, _NoPolicy()
    trainer.optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # the update's numbers, weights kept
    return trainer


@pytest.mark.parametrize("aggregation,old_logprobs", [("token_mean", "rollout"), ("seq_mean", "rollout"),
                                                      ("constant", "rollout"), ("token_mean", "recompute")])
def test_update_is_the_same_with_and_without_micro_batching(tiny, aggregation, old_logprobs):
    gen = torch.Generator().manual_seed(2)
    samples = []
    for g in range(2):
        for k, (tokens, mask) in enumerate(_group(gen)):
            samples.append(Sample(tokens, mask, torch.zeros(len(tokens)), advantage=float(k) - 1.0, group=f"g{g}"))
    packed = _trainer(tiny, 10**6, aggregation, old_logprobs).update(samples)
    one_by_one = _trainer(tiny, 0, aggregation, old_logprobs).update(samples)
    for key in ("loss", "grad_norm", "entropy", "clip_fraction", "train_tokens", "logprob_ratio_rollout"):
        assert packed[key] == pytest.approx(one_by_one[key], rel=1e-4, abs=1e-6), key
    assert packed["grad_norm"] > 0
    if old_logprobs == "recompute":  # the ratio's denominator is the current weights': nothing clipped
        assert packed["clip_fraction"] == 0.0
