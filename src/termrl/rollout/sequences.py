"""An episode's tokens in the shapes trainers consume: one masked sequence, or one row per turn.

Every training engine reads the same episode record (``EpisodeResult``, a ``TrajectoryStore`` row): termrl's own trainer
and the TRL adapter take :func:`episode_sequence` (the whole multi-turn episode as one sequence,
model tokens trainable, prompt and observation tokens masked); step-wise trainers (SkyRL, verl)
take :func:`episode_to_turn_rows` (one row per model turn: what the policy was shown, what it
sampled, with which log-probs).

Alignment
---------
The agent records the tokens as segments: the first prompt, then per turn the model's sampled
tokens and the new context the next prompt added (observation, chat-template markers). That
concatenation is what the policy saw only while each new prompt *extends* the previous one. A
chat template that re-tokenises an earlier turn differently (the agent counts these as token
mismatches) breaks it: the later turns were sampled after a context the concatenation does not
hold. The agent counts these (``EpisodeResult.token_mismatches``), and the record shows them by
itself too: the tokens before turn k's completion must number exactly ``steps[k].n_prompt_tokens``,
the prompt length the policy reported for that turn (so stored rows of any age can be checked; a
record without recorded turns can only be taken at the agent's count).

* Per-turn rows are re-aligned exactly: the agent kept the common prefix of the two tokenisations
  and appended the rest, so turn k's true prompt is ``previous[:n_prompt - len(new context)]`` +
  the new context.
* The single sequence cannot hold two tokenisations of one turn, so :func:`episode_sequence`
  returns None for a misaligned episode, and callers drop it from the loss and count it (never
  train on a sequence the policy did not see).
"""

from __future__ import annotations

from dataclasses import dataclass

from termrl.types import EpisodeResult, Trajectory


@dataclass(frozen=True)
class TurnRow:
    """One model turn, as a step-wise trainer consumes it."""

    turn: int
    prompt_ids: tuple[int, ...]
    """Exactly the tokens the policy was given for this turn (chat template and generation prompt included)."""
    completion_ids: tuple[int, ...]
    """The tokens it sampled (the stop token included when it stopped)."""
    logprobs: tuple[float, ...]
    """The sampler's log-prob of each completion token (empty when the backend reported none)."""
    mask: tuple[int, ...]
    """Per completion token: 1 = trained. All 1 for a model turn; a trainer may zero a turn it rejects."""


@dataclass(frozen=True)
class EpisodeSequence:
    """A whole episode as one sequence: every turn's prompt additions and completions, in order."""

    tokens: tuple[int, ...]
    mask: tuple[int, ...]
    """1 for the model's own sampled tokens, 0 for prompt, observation and template tokens."""
    logprobs: tuple[float, ...]
    """The sampler's log-prob at model tokens, 0.0 elsewhere (and where the backend reported none)."""
    prompt_len: int
    """Tokens before the first model token (the episode's first prompt)."""


@dataclass(frozen=True)
class Alignment:
    rows: list[TurnRow]
    mismatches: int
    """Turns whose prompt did not extend the previous turn's sequence (re-tokenised history)."""
    problem: str | None = None
    """Why the turns could not be checked at all (then ``rows`` is empty)."""


def align_turns(trajectory: Trajectory | None) -> Alignment:
    """The per-turn rows of a trajectory, re-aligned where a turn's prompt re-tokenised the history."""
    segments = trajectory.segments if trajectory is not None else ()
    steps = trajectory.steps if trajectory is not None else ()
    n_model = sum(seg.trainable for seg in segments)
    if not n_model:
        return Alignment([], 0)
    checked = bool(steps)  # a record without turns (hand-made) is taken as the agent counted it
    if checked and (len(steps) != n_model or any(not s.n_prompt_tokens for s in steps)):
        return Alignment([], 0, f"{n_model} model turns with tokens but {len(steps)} recorded turns "
                                "with prompt lengths: the turns' prompts cannot be checked")
    rows: list[TurnRow] = []
    seen: list[int] = []  # the previous turn's prompt + completion (what the policy had last seen)
    new_context: list[int] = []
    mismatches = 0
    for seg in segments:
        ids = list(seg.token_ids)
        if not seg.trainable:
            new_context += ids
            continue
        n_prompt = steps[len(rows)].n_prompt_tokens if checked else len(seen) + len(new_context)
        common = n_prompt - len(new_context)
        if common != len(seen):
            if not 0 <= common < len(seen):  # not explainable as a kept common prefix: nothing to re-align from
                return Alignment([], mismatches + 1, f"turn {len(rows)}: prompt of {n_prompt} tokens does not fit "
                                                     f"the recorded segments ({len(seen)} + {len(new_context)})")
            mismatches += 1
        prompt = seen[:common] + new_context
        lp = tuple(float(x) for x in seg.logprobs)
        rows.append(TurnRow(len(rows), tuple(prompt), tuple(ids), lp if len(lp) == len(ids) else (), (1,) * len(ids)))
        seen, new_context = prompt + ids, []
    return Alignment(rows, mismatches)


def token_mismatches(result: EpisodeResult) -> int:
    """How many turns re-tokenised the history: the agent's own count, or what the tokens show if more."""
    return max(result.token_mismatches, align_turns(result.trajectory).mismatches)


def episode_to_turn_rows(result: EpisodeResult) -> list[TurnRow]:
    """One row per model turn (prompt ids, completion ids, log-probs, mask), exactly as the policy saw them.

    Rows of an episode that failed with an infrastructure error are still returned (the caller
    decides); an episode without model tokens (a reference agent, a backend without token ids)
    gives none.

    Raises:
        ValueError: the turns cannot be matched to the token segments (a corrupt or hand-made record).
    """
    aligned = align_turns(result.trajectory)
    if aligned.problem:
        raise ValueError(f"episode of {result.task!r}: {aligned.problem}")
    return aligned.rows


def episode_sequence(result: EpisodeResult) -> EpisodeSequence | None:
    """The episode as one masked sequence, or None when it has no model tokens or is misaligned
    (see the module doc: such an episode must be dropped from the loss, and counted)."""
    traj = result.trajectory
    if traj is None or not any(seg.trainable for seg in traj.segments):
        return None
    aligned = align_turns(traj)
    if aligned.problem or aligned.mismatches or result.token_mismatches:
        return None
    tokens: list[int] = []
    mask: list[int] = []
    logp: list[float] = []
    prompt_len = None
    for seg in traj.segments:
        ids = list(seg.token_ids)
        if seg.trainable and prompt_len is None:
            prompt_len = len(tokens)
        tokens += ids
        mask += [1 if seg.trainable else 0] * len(ids)
        lp = seg.logprobs
        logp += [float(x) for x in lp] if seg.trainable and len(lp) == len(ids) else [0.0] * len(ids)
    return EpisodeSequence(tuple(tokens), tuple(mask), tuple(logp), int(prompt_len or 0))
