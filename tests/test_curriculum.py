"""Curriculum, pass-rate filtering, dynamic sampling and judge-weight annealing: the pure logic.

The end-to-end run with real Docker and the real model is in tests/test_curriculum_e2e.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from termrl.tasks import load_task
from termrl.tasks.passrate import bucket, filter_by_pass_rate, load_pass_rates, save_pass_rate, wilson_interval
from termrl.train import curriculum as cur
from termrl.train.config import load_config
from termrl.train.sampling import fill_step, group_informative
from termrl.types import EpisodeError, EpisodeResult, RewardParts, RewardWeights, TokenSegment, Trajectory

from conftest import write_task


def _task(name: str, difficulty: str = "easy"):
    return SimpleNamespace(name=name, metadata=SimpleNamespace(difficulty=difficulty))


def _episode(reward: float, error: str | None = None, trainable: bool = True) -> EpisodeResult:
    trajectory = Trajectory(messages=(), steps=(), segments=(TokenSegment((1, 2), trainable, (-0.1, -0.2)),))
    return EpisodeResult(
        task="t", agent="termrl", tests={}, terminated=True, truncated=False,
        error=EpisodeError(error, "boom") if error else None, duration_s=0.0, trajectory=trajectory,
        parts=RewardParts(reward, reward, None, None, RewardWeights(), resolved=reward >= 1.0))


# -- pass-rate filter ---------------------------------------------------------------------------

def test_filter_keeps_the_band_and_handles_missing_estimates():
    tasks = [_task(n) for n in "abcde"]
    rates = {"a": 0.0, "b": 0.25, "c": 0.5, "d": 1.0}  # e: never measured
    kept, counts = filter_by_pass_rate(tasks, rates, [0.1, 0.9], "keep")
    assert [t.name for t in kept] == ["b", "c", "e"]
    assert counts == {"kept": 3, "too_easy": 1, "too_hard": 1, "no_estimate": 1}
    kept, counts = filter_by_pass_rate(tasks, rates, [0.25, 0.5], "drop")  # bounds are inclusive
    assert [t.name for t in kept] == ["b", "c"] and counts["no_estimate"] == 1


def test_wilson_interval_matches_hand_values():
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)  # not the zero-width normal interval
    low, high = wilson_interval(5, 10)
    assert (low, high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="within 0..3"):
        wilson_interval(4, 3)
    assert [bucket(r) for r in (0.0, 0.1, 0.5, 0.9, 1.0)] == ["0", "(0, 0.25]", "(0.25, 0.5]", "(0.75, 1)", "1"]


def test_pass_rates_are_stored_per_policy_and_task_digest(tmp_path, monkeypatch):
    import termrl.tasks.passrate as passrate

    monkeypatch.setattr(passrate, "CACHE_DIR", tmp_path / "cache")
    task = load_task(write_task(tmp_path, "t1"))
    save_pass_rate(task, "hf:SmolLM2-135M-Instruct", 1, 4)
    save_pass_rate(task, "oracle", 4, 4)
    stored = load_pass_rates(task)
    assert set(stored) == {"hf:SmolLM2-135M-Instruct", "oracle"}
    assert stored["hf:SmolLM2-135M-Instruct"].rate == 0.25 and stored["oracle"].low > 0.5
    assert passrate.record_path(task).name.endswith(".passrate.json")
    (task.path / "instruction.md").write_text("Edited: a new task.\n")
    assert load_pass_rates(load_task(task.path)) == {}  # an edited task is measured afresh


def test_config_range_checks_name_the_key():
    with pytest.raises(ValueError, match=r"tasks.pass_rate must be \[low, high\]"):
        load_config(None, {"tasks.pass_rate": [0.8, 0.2]})
    with pytest.raises(ValueError, match="curriculum.promote_at must be in"):
        load_config(None, {"curriculum.promote_at": 1.5})
    with pytest.raises(ValueError, match="curriculum.replay must be in"):
        load_config(None, {"curriculum.replay": 1.0})
    with pytest.raises(ValueError, match="pass_rate_bounds must descend"):
        load_config(None, {"curriculum.pass_rate_bounds": [0.2, 0.5]})
    with pytest.raises(ValueError, match="sampling.oversample must be >= 1"):
        load_config(None, {"sampling.oversample": 0.5})
    with pytest.raises(ValueError, match="anneal.over: stages needs curriculum.enabled"):
        load_config(None, {"anneal.judge_weight_to": 0.0, "anneal.over": "stages"})
    with pytest.raises(ValueError, match="curriculum: unknown key.*stage_bye"):
        load_config(None, {"curriculum.stage_bye": "difficulty"})
    for preset in Path(__file__).resolve().parents[1].glob("configs/*.yaml"):
        load_config(preset)  # every preset still loads


# -- dynamic sampling ---------------------------------------------------------------------------

class _Draws:
    """A task pool whose groups are informative or not, as listed; records what was drawn."""

    def __init__(self, informative: list[bool], group_size: int = 4):
        self.pool = [(f"t{i}", ok) for i, ok in enumerate(informative)]
        self.group_size = group_size
        self.calls: list[tuple[int, int]] = []

    def __call__(self, round_: int, n: int) -> dict[str, list[EpisodeResult]]:
        self.calls.append((round_, n))
        picked, self.pool = self.pool[:n], self.pool[n:]
        return {name: [_episode(float(ok and i == 0)) for i in range(self.group_size)] for name, ok in picked}


def test_group_informative_uses_valid_episodes_only():
    assert group_informative([_episode(1.0), _episode(0.0)])
    assert not group_informative([_episode(1.0), _episode(1.0)])
    assert not group_informative([_episode(1.0), _episode(0.0, error="sandbox")])  # one valid left
    assert not group_informative([_episode(1.0), _episode(0.0, trainable=False)])  # no model token


def test_dynamic_sampling_refills_until_the_step_is_full():
    draws = _Draws([False, True, False, True, False, True, True, True])
    kept, report = fill_step(draws, need=3, per_round=3, max_rounds=5)
    assert kept == ["t1", "t3", "t5"]
    assert draws.calls == [(0, 3), (1, 3)]  # stopped as soon as 3 informative groups were kept
    assert (report.rounds, report.drawn, report.dropped, report.kept, report.excess) == (2, 6, 3, 3, 0)
    assert report.episodes == 6 * 4


def test_dynamic_sampling_stops_at_the_bound_with_an_empty_batch():
    draws = _Draws([False] * 20)
    kept, report = fill_step(draws, need=2, per_round=3, max_rounds=4)
    assert kept == [] and report.rounds == 4 and report.drawn == 12 and report.dropped == 12
    assert len(draws.calls) == 4  # the bound, not the pool, ended it
    draws = _Draws([False, True])  # a pool that runs dry ends the drawing too
    kept, report = fill_step(draws, need=2, per_round=3, max_rounds=4)
    assert kept == ["t1"] and report.rounds == 1


def test_excess_informative_groups_are_not_trained_on():
    kept, report = fill_step(_Draws([True] * 6), need=2, per_round=3, max_rounds=3)
    assert kept == ["t0", "t1"] and report.excess == 1 and report.rounds == 1


def test_an_empty_batch_never_updates_the_weights():
    from termrl.train.trainer import Trainer

    class NoStep:
        def step(self):
            raise AssertionError("optimizer stepped on an empty batch")

        zero_grad = step

    stub = SimpleNamespace(config=load_config(None), optimizer=NoStep(), model=None)
    stats = Trainer.update(stub, [])
    assert stats["loss"] == 0.0 and stats["train_tokens"] == 0


# -- curriculum -----------------------------------------------------------------------------------

def _curriculum(**kw) -> cur.CurriculumConfig:
    return cur.CurriculumConfig(**{"enabled": True, "stages": ["easy", "medium,hard"], "promote_at": 0.5,
                                   "window": 2, "replay": 0.25, **kw})


def test_stages_by_label_and_by_pass_rate():
    tasks = [_task("a", "easy"), _task("b", "medium"), _task("c", "hard"), _task("d", "easy")]
    stages = cur.assign_stages(tasks, _curriculum())
    assert [[t.name for t in s] for s in stages] == [["a", "d"], ["b", "c"]]
    with pytest.raises(ValueError, match="difficulty 'unknown', which no stage names"):
        cur.assign_stages([_task("x", "unknown")], _curriculum())
    with pytest.raises(ValueError, match=r"stage 1 \(medium,hard\) has no training task"):
        cur.assign_stages([_task("a")], _curriculum())
    by_rate = _curriculum(stage_by="pass_rate", pass_rate_bounds=[0.6, 0.2])
    stages = cur.assign_stages(tasks, by_rate, {"a": 0.9, "b": 0.3, "c": 0.0, "d": None})
    assert [[t.name for t in s] for s in stages] == [["a"], ["b"], ["c", "d"]]  # no estimate: the last stage


def test_promotion_needs_a_full_window_at_the_threshold():
    config = _curriculum()
    state = cur.observe(cur.CurriculumState(), 1.0, step=1, config=config, n_stages=2)
    assert state.stage == 0  # one step is not a full window of two
    state = cur.CurriculumState()
    for step, rate in enumerate([0.0, 0.9], 1):
        state = cur.observe(state, rate, step=step, config=config, n_stages=2)
    assert state.stage == 0 and state.window == [0.0, 0.9]  # mean 0.45 < 0.5
    state = cur.observe(state, 0.2, step=3, config=config, n_stages=2)
    assert state.stage == 1 and state.window == [] and state.steps_in_stage == 0  # mean of [0.9, 0.2] = 0.55
    assert state.promotions == [{"step": 3, "to": 1, "pass_rate": 0.55}]
    for step in range(5, 9):  # the last stage is never left
        state = cur.observe(state, 1.0, step=step, config=config, n_stages=2)
    assert state.stage == 1 and len(state.promotions) == 1
    skipped = cur.observe(cur.CurriculumState(), None, step=1, config=config, n_stages=2)
    assert skipped.window == [] and skipped.steps_in_stage == 1  # no current-stage episode: no evidence


def test_replay_draws_a_share_from_earlier_stages():
    stages = [[_task(f"e{i}") for i in range(10)], [_task(f"m{i}") for i in range(10)]]
    rng = random.Random(0)
    current, replay = cur.draw(stages, 0, 4, rng, 0.25)
    assert len(current) == 4 and replay == []  # stage 0 has nothing to replay
    current, replay = cur.draw(stages, 1, 4, rng, 0.25)
    assert len(current) == 3 and len(replay) == 1
    assert all(t.name.startswith("m") for t in current) and replay[0].name.startswith("e")
    current, replay = cur.draw(stages, 1, 4, rng, 0.5, exclude={f"m{i}" for i in range(9)})
    assert [t.name for t in current] == ["m9"] and len(replay) == 3  # a short stage: replay makes up
    current, replay = cur.draw(stages, 1, 4, rng, 0.0)
    assert len(current) == 4 and replay == []


def test_resume_mid_stage_continues_the_same_window():
    config = _curriculum(window=3, promote_at=0.6)
    rates = [0.2, 0.9, 0.4, 0.3, 0.9, 0.7]
    straight = cur.CurriculumState()
    for step, rate in enumerate(rates, 1):
        straight = cur.observe(straight, rate, step=step, config=config, n_stages=2)
    state = cur.CurriculumState()
    for step, rate in enumerate(rates[:3], 1):
        state = cur.observe(state, rate, step=step, config=config, n_stages=2)
    saved = json.loads(json.dumps(state.to_json()))  # as the checkpoint's state.json holds it
    resumed = cur.CurriculumState.from_json(saved)
    for step, rate in enumerate(rates[3:], 4):
        resumed = cur.observe(resumed, rate, step=step, config=config, n_stages=2)
    assert resumed == straight and straight.promotions == [{"step": 6, "to": 1, "pass_rate": 0.6333}]


def test_judge_weight_annealing_schedule():
    off = cur.AnnealConfig()
    assert cur.annealed_weights(0.65, 0.35, off, step=50) == (0.65, 0.35)
    steps = cur.AnnealConfig(judge_weight_to=0.0, over="steps", steps=10)
    for step, judge in ((0, 0.35), (5, 0.175), (10, 0.0), (30, 0.0)):
        t, j = cur.annealed_weights(0.65, 0.35, steps, step=step)
        assert j == pytest.approx(judge) and t + j == pytest.approx(1.0)
    stages = cur.AnnealConfig(judge_weight_to=0.05, over="stages")
    got = [cur.annealed_weights(0.65, 0.35, stages, step=0, stage=s, n_stages=3)[1] for s in range(3)]
    assert got == [pytest.approx(0.35), pytest.approx(0.2), pytest.approx(0.05)]
    assert cur.annealed_weights(0.65, 0.35, stages, step=0, stage=0, n_stages=1)[1] == pytest.approx(0.05)


def test_easy_files_labels_its_levels(tmp_path):
    from termrl.tasks.easy import generate_easy

    labels = [load_task(generate_easy(0, d, tmp_path)).metadata.difficulty for d in (1, 2, 3)]
    assert labels == ["easy", "medium", "hard"]  # a curriculum can stage the family by label
