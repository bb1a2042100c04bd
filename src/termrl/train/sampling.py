"""Dynamic sampling (DAPO): fill a training step with groups that carry signal.

A group whose valid rewards are all equal has zero advantage everywhere: it costs its episodes
and teaches nothing. With dynamic sampling on, a step draws more tasks than it needs
(``oversample`` x ``tasks_per_step`` a round), drops the all-equal groups, and draws again
until it holds ``tasks_per_step`` informative groups or has drawn ``max_rounds`` rounds (the
bound on episodes a step may cost). Informative groups beyond the step's need are not trained
on (``excess``). A step that ends with no informative group does not update the weights.

With it off, a step draws ``tasks_per_step`` tasks once and trains on the informative ones
(the same code path with one round and no oversampling).

Pure functions: the trainer passes a ``draw(round, n)`` callable that runs the episodes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from termrl.types import EpisodeResult


@dataclass
class DynamicSamplingConfig:
    enabled: bool = False
    """Drop all-equal-reward groups and draw more tasks until the step has ``tasks_per_step`` informative ones."""
    oversample: float = 1.5
    """Tasks drawn per round = ceil(tasks_per_step x oversample) (>= 1)."""
    max_rounds: int = 3
    """Rounds of drawing per step at most: the bound (a step costs at most
    max_rounds x ceil(tasks_per_step x oversample) x group_size episodes)."""

    def __post_init__(self) -> None:
        if self.oversample < 1.0:
            raise ValueError(f"sampling.oversample must be >= 1 (draw at least what a step needs), "
                             f"got {self.oversample}")
        if self.max_rounds < 1:
            raise ValueError(f"sampling.max_rounds must be >= 1, got {self.max_rounds}")

    def per_round(self, tasks_per_step: int) -> int:
        return math.ceil(tasks_per_step * self.oversample) if self.enabled else tasks_per_step

    def rounds(self) -> int:
        return self.max_rounds if self.enabled else 1


@dataclass(frozen=True)
class DrawReport:
    rounds: int
    drawn: int
    """Groups drawn (tasks x 1)."""
    dropped: int
    """Groups dropped because every valid reward was equal (or fewer than two episodes were valid)."""
    kept: int
    excess: int
    """Informative groups beyond the step's need (drawn in the last round, not trained on)."""
    episodes: int
    """The cost: episodes run (or reused from the store) for this step."""

    def to_metrics(self) -> dict[str, int]:
        return {"sampling/rounds": self.rounds, "sampling/drawn": self.drawn, "sampling/dropped": self.dropped,
                "sampling/kept": self.kept, "sampling/excess": self.excess, "sampling/episodes": self.episodes}


def episode_valid(episode: EpisodeResult) -> bool:
    """An episode that can train: no infrastructure error and at least one model token."""
    if episode.error is not None or episode.trajectory is None:
        return False
    return any(seg.trainable and seg.token_ids for seg in episode.trajectory.segments)


def group_informative(episodes: list[EpisodeResult], tol: float = 1e-9) -> bool:
    """True when the group's valid episodes (at least two) do not all have the same reward."""
    rewards = [e.reward for e in episodes if episode_valid(e)]
    return len(rewards) >= 2 and max(rewards) - min(rewards) > tol


def fill_step(draw: Callable[[int, int], dict[str, list[EpisodeResult]]], need: int, per_round: int,
              max_rounds: int) -> tuple[list[str], DrawReport]:
    """Draw rounds of groups until ``need`` informative ones are kept or ``max_rounds`` rounds are drawn.

    Args:
        draw: ``draw(round, n)`` runs up to ``n`` new groups and returns {group name: its episodes};
            fewer (or none) when the task pool is exhausted, which also ends the drawing.
        need: informative groups a step trains on.
        per_round: groups drawn per round.
        max_rounds: the bound.

    Returns:
        The kept groups' names (in draw order) and the report. Possibly empty: the caller then skips the update.
    """
    if need < 1 or per_round < 1 or max_rounds < 1:
        raise ValueError(f"fill_step: need, per_round and max_rounds must be >= 1 "
                         f"(got {need}, {per_round}, {max_rounds})")
    kept: list[str] = []
    rounds = drawn = dropped = excess = episodes = 0
    while len(kept) < need and rounds < max_rounds:
        groups = draw(rounds, per_round)
        rounds += 1
        for name, group in groups.items():
            drawn += 1
            episodes += len(group)
            if not group_informative(group):
                dropped += 1
            elif len(kept) < need:
                kept.append(name)
            else:
                excess += 1
        if len(groups) < per_round:  # the pool ran dry: drawing again would find nothing new
            break
    return kept, DrawReport(rounds, drawn, dropped, len(kept), excess, episodes)
