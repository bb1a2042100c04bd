"""Procedural task generators: determinism, distinctness, errors, and every family validated end to end.

The end-to-end test builds each generated task with real Docker and runs oracle, nop and every
wrong_*.sh in real containers: by default one instance per difficulty level (seed 0 at level 1, seed 1 at
level 2, seed 2 at level 3, so every seed and every level is seen). TERMRL_GENERATOR_SEEDS=N validates
N seeds at every level instead (N=3 is the full 3 x 3 per family).
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docker
import pytest

from termrl.tasks import load_task
from termrl.tasks.generators import FAMILIES, build, generate

SEEDS = (0, 1, 2)
DIFFICULTIES = (1, 2, 3)


def _instances() -> list[tuple[int, int]]:
    """(seed, difficulty) pairs the end-to-end test validates per family."""
    wanted = os.environ.get("TERMRL_GENERATOR_SEEDS", "").strip()
    if not wanted:
        return [(seed, d) for seed, d in zip(SEEDS, DIFFICULTIES)]
    if not wanted.isdigit() or int(wanted) < 1:
        raise pytest.UsageError(f"TERMRL_GENERATOR_SEEDS={wanted!r}: give a whole number of seeds, 1 or more")
    return [(seed, d) for seed in range(int(wanted)) for d in DIFFICULTIES]


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_same_seed_same_files(family, tmp_path):
    for difficulty in DIFFICULTIES:
        a = generate(family, 11, difficulty, tmp_path / "a")
        b = generate(family, 11, difficulty, tmp_path / "b")
        assert a.name == f"{family}-s11-d{difficulty}"
        assert _files(a) == _files(b)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_different_seeds_different_answers(family):
    for difficulty in DIFFICULTIES:
        answers = [json.dumps(build(family, seed, difficulty).answer, sort_keys=True, default=str)
                   for seed in range(8)]
        assert len(set(answers)) == len(answers), f"{family} d{difficulty}: two seeds share an answer"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_instance_layout(family, tmp_path):
    for difficulty in DIFFICULTIES:
        task_dir = generate(family, 3, difficulty, tmp_path)
        task = load_task(task_dir)
        assert task.metadata.difficulty == {1: "easy", 2: "medium", 3: "hard"}[difficulty]
        assert task.environment.allow_internet is False
        assert tomllib.loads((task_dir / "task.toml").read_text())["environment"]["allow_internet"] is False
        dockerfile = (task_dir / "environment" / "Dockerfile").read_text().splitlines()
        assert dockerfile[0] == "FROM termrl/base:bookworm"
        assert all(line.split()[0] in ("COPY", "WORKDIR") for line in dockerfile[1:] if line.strip())
        assert sorted((task_dir / "solution").glob("wrong_*.sh")), "no plausible wrong solution"
        assert (task_dir / "tests" / "test_outputs.py").read_text().count("\ndef test_") >= 4
        # Reference answers live in the hidden tests only, never in the agent's environment.
        env_text = b"".join(_files(task_dir / "environment").values())
        assert b"EXPECTED" not in env_text


def test_unknown_family_is_rejected(tmp_path):
    with pytest.raises(ValueError, match="unknown task family 'nope'.*log-report"):
        generate("nope", 1, 1, tmp_path)


@pytest.mark.parametrize("difficulty", [0, 4, -1, True, "2"])
def test_bad_difficulty_is_rejected(difficulty, tmp_path):
    with pytest.raises(ValueError, match="difficulty must be 1, 2 or 3"):
        generate("log-report", 1, difficulty, tmp_path)
    assert not any(tmp_path.iterdir())


def test_existing_folder_is_not_overwritten(tmp_path):
    generate("log-report", 1, 1, tmp_path)
    with pytest.raises(FileExistsError, match="already exists"):
        generate("log-report", 1, 1, tmp_path)


# --- end to end with real Docker -------------------------------------------------------------

@pytest.fixture(scope="module")
def provider():
    from termrl.sandbox.docker import DockerProvider

    return DockerProvider()


@pytest.mark.docker
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_instances_validate(family, provider, tmp_path):
    from termrl.rollout.episode import EpisodeConfig
    from termrl.eval.validation import validate_task

    config = EpisodeConfig(verifier_network=False)  # the generated tests need no network
    task_dirs = [generate(family, seed, d, tmp_path) for seed, d in _instances()]
    start = time.monotonic()
    try:
        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(lambda p: validate_task(load_task(p), provider, config), task_dirs))
    finally:
        for task_dir in task_dirs:
            for image in provider.client.images.list(filters={"label": f"termrl.task={task_dir.name}"}):
                try:
                    provider.client.images.remove(image.id, force=True)
                except docker.errors.APIError as exc:  # in use elsewhere (another run of the same instance)
                    print(f"left image {image.id[:19]}: {exc}")  # must not hide this test's own verdict
    print(f"{family}: {len(task_dirs)} instances validated in {time.monotonic() - start:.1f}s")
    bad = [f"{r.task}: {r.error} (oracle={r.oracle_reward}, nop={r.nop_reward}, wrong={r.wrong_rewards})"
           for r in results if not r.valid]
    assert not bad, "\n".join(bad)


def test_easy_files_level_2_is_only_solvable_by_reading_the_note(tmp_path):
    """Level 2's word (and its command) is in /app/note.txt only: never in the instruction or the tests' names."""
    from termrl.tasks.easy import generate_easy

    words = set()
    for seed in range(6):
        task = generate_easy(seed, 2, tmp_path)
        expected = (task / "tests" / "test_outputs.py").read_text().split("EXPECTED = ")[1].splitlines()[0].strip("'\"")
        words.add(expected)
        assert expected not in (task / "instruction.md").read_text()
        assert f"echo {expected} > /app/answer.txt" in (task / "environment" / "note.txt").read_text()
        assert "COPY note.txt /app/note.txt" in (task / "environment" / "Dockerfile").read_text()
    assert len(words) > 3  # the word changes with the seed
