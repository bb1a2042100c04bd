"""GRPO math against hand-computed values."""

from __future__ import annotations

import math

import pytest
import torch

from termrl.train.grpo import group_advantages, informative_groups, k3_kl, policy_loss

T = torch.tensor


def test_group_advantages_grpo_drgrpo_rloo():
    r = T([1.0, 0.0, 0.0, 1.0])
    assert torch.allclose(group_advantages(r), T([1.0, -1.0, -1.0, 1.0]), atol=1e-5)  # mean .5, std .5
    assert torch.allclose(group_advantages(r, scale_by_std=False), T([0.5, -0.5, -0.5, 0.5]))
    loo = group_advantages(r, scale_by_std=False, leave_one_out=True)
    assert torch.allclose(loo, T([2 / 3, -2 / 3, -2 / 3, 2 / 3]))
    r3 = T([0.2, 0.5, 0.8])  # mean .5, population std sqrt(.06)
    assert torch.allclose(group_advantages(r3), T([-0.3, 0.0, 0.3]) / math.sqrt(0.06), atol=1e-4)


def test_invalid_episodes_are_masked_out_of_baseline_and_loss():
    r = T([1.0, 0.0, 0.0, 0.0])
    valid = T([True, True, False, False])
    adv = group_advantages(r, scale_by_std=False, valid=valid)
    assert torch.allclose(adv, T([0.5, -0.5, 0.0, 0.0]))
    assert torch.equal(group_advantages(r, valid=T([False] * 4)), torch.zeros(4))


def test_zero_variance_groups_are_skipped():
    groups = [T([1.0, 1.0, 1.0]), T([0.0, 1.0, 0.0]), T([0.5]), T([0.3, 0.3, 0.9])]
    valid = [T([True] * 3), T([True] * 3), T([True]), T([True, True, False])]
    assert informative_groups(groups) == [False, True, False, True]
    assert informative_groups(groups, valid) == [False, True, False, False]
    assert torch.equal(group_advantages(T([0.7, 0.7])), torch.zeros(2))


def _batch():
    logp = torch.zeros(2, 3)
    mask = T([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
    return logp, mask, T([1.0, -1.0])


@pytest.mark.parametrize("aggregation,expected", [("token_mean", -1 / 3), ("seq_mean", 0.0), ("constant", -1 / 8)])
def test_loss_aggregation_on_policy(aggregation, expected):
    logp, mask, adv = _batch()
    loss, stats = policy_loss(logp, logp.clone(), adv, mask, aggregation=aggregation, max_tokens=4)
    assert loss.item() == pytest.approx(expected)
    assert stats.clip_fraction == 0 and stats.ratio_mean == pytest.approx(1.0) and stats.n_tokens == 3


def test_clip_higher_bounds_by_sign_of_advantage():
    old = torch.zeros(4, 1)
    logp = T([[0.5], [0.5], [-0.5], [-0.5]])  # ratios e^.5 = 1.6487, e^-.5 = 0.6065
    adv = T([1.0, -1.0, 1.0, -1.0])
    loss, stats = policy_loss(logp, old, adv, torch.ones(4, 1), clip_low=0.2, clip_high=0.28,
                              aggregation="seq_mean")
    per_seq = [-1.28, math.exp(0.5), -math.exp(-0.5), 0.8]  # clipped, unclipped, unclipped, clipped
    assert loss.item() == pytest.approx(sum(per_seq) / 4, rel=1e-5)
    assert stats.clip_fraction == pytest.approx(0.5)


def test_gradient_flows_only_through_model_tokens():
    logp = torch.zeros(1, 3, requires_grad=True)
    loss, _ = policy_loss(logp, torch.zeros(1, 3), T([2.0]), T([[0.0, 1.0, 0.0]]))
    loss.backward()
    assert torch.allclose(logp.grad, T([[0.0, -2.0, 0.0]]))


def test_k3_kl_in_the_loss():
    logp = torch.full((1, 2), math.log(0.5))
    ref = torch.full((1, 2), math.log(0.25))
    assert torch.allclose(k3_kl(logp, ref), torch.full((1, 2), 0.5 + math.log(2) - 1), atol=1e-6)
    loss, stats = policy_loss(logp, logp.clone(), T([0.0]), torch.ones(1, 2), ref_logp=ref, kl_coef=0.1)
    assert loss.item() == pytest.approx(0.1 * (0.5 + math.log(2) - 1), rel=1e-5)
    assert stats.kl == pytest.approx(0.5 + math.log(2) - 1, rel=1e-5)
    with pytest.raises(ValueError, match="aggregation"):
        policy_loss(logp, logp, T([0.0]), torch.ones(1, 2), aggregation="sum")  # type: ignore[arg-type]
