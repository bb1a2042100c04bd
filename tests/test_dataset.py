"""termrl-v1 in CI: every task loads with the required parts; a rotating sample plus every task
changed since its recorded validation (datasets/termrl-v1/validation.json) is validated for real.
The sample is deterministic: it rotates with the commit under test (`git rev-parse HEAD`), not with the date,
so a rerun of one commit validates the same tasks. Outside a git checkout it is the first tasks by name.
The full validation (3 repeats, every task) is `make validate-dataset`."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from termrl.tasks import load_tasks
from termrl.eval.stats import changed_tasks, count_tests, dataset_stats, load_record, wrong_solutions

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "termrl-v1"
SAMPLE = 3


def _task_dirs():
    return sorted(d for d in DATASET.iterdir() if (d / "task.toml").is_file()) if DATASET.is_dir() else []


def _tasks():
    if not _task_dirs():
        pytest.skip("datasets/termrl-v1 holds no task yet")
    report = load_tasks(_task_dirs())
    assert report.errors == [], [str(e) for e in report.errors]
    return report.tasks


def test_every_task_loads_with_solution_wrong_solution_and_tests():
    tasks = _tasks()
    record = load_record(DATASET)
    for task in tasks:
        assert task.format == "harbor" and task.has_solution, task.name
        assert task.environment.allow_internet is False, task.name
        assert wrong_solutions(task) >= 1, f"{task.name}: no solution/wrong_*.sh"
        assert count_tests(task, record) >= 4, f"{task.name}: only {count_tests(task, record)} tests"
    stats = dataset_stats(tasks, DATASET)
    assert stats.tests_per_task >= 4
    assert len(stats.by_category) >= 12


def test_every_task_says_why_its_difficulty():
    for task_dir in _task_dirs():
        meta = tomllib.loads((task_dir / "task.toml").read_text())["metadata"]
        why = meta.get("difficulty_why", "")
        assert isinstance(why, str) and len(why) >= 20 and "\n" not in why, \
            f"{task_dir.name}: task.toml [metadata] needs a one-line difficulty_why (see AUTHORING.md)"


def test_relabelling_keeps_the_digest_and_other_edits_change_it(tmp_path):
    from termrl.tasks.records import task_digest

    task = tmp_path / "t"
    shutil.copytree(_task_dirs()[0], task)
    before = task_digest(task)
    toml = task / "task.toml"
    text = toml.read_text()
    relabelled = text.replace("[metadata]\n", '[metadata]\ndifficulty_why = "changed"\n', 1)
    assert relabelled != text
    toml.write_text(relabelled)
    assert task_digest(task) == before
    toml.write_text(relabelled.replace("[verifier]\n", "[verifier]\n# edited\n", 1))
    assert task_digest(task) != before
    toml.write_text(relabelled)
    (task / "tests" / "test_outputs.py").write_text("# edited\n")
    assert task_digest(task) != before


def _rotation() -> int:
    """The commit under test as a number (0 when this is not a git checkout or git is missing)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=DATASET, capture_output=True, text=True,
                              timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return 0
    try:
        return int(head, 16)
    except ValueError:
        return 0


def test_the_sample_is_fixed_by_the_commit():
    tasks = sorted(_tasks(), key=lambda t: t.name)
    assert [t.name for t in _to_validate()] == [t.name for t in _to_validate()]
    assert _start(0, len(tasks)) == 0
    starts = {_start(rotation, len(tasks)) for rotation in range(len(tasks))}
    assert len(starts) > 1, "the sample must move from one commit to the next"


def _start(rotation: int, count: int) -> int:
    return (rotation * SAMPLE) % max(count, 1)


def _to_validate():
    tasks = sorted(_tasks(), key=lambda t: t.name)
    changed = {t.name for t in changed_tasks(tasks, DATASET)}
    start = _start(_rotation(), len(tasks))
    rotating = {t.name for t in (tasks + tasks)[start:start + SAMPLE]}
    return [t for t in tasks if t.name in changed | rotating]


@pytest.mark.timeout(1800)  # a few tasks compile or retrain in their tests
@pytest.mark.parametrize("task", _to_validate() if _task_dirs() else [], ids=lambda t: t.name)
def test_sample_and_changed_tasks_validate(docker_provider, task):
    from termrl.eval.validation import validate_task

    result = validate_task(task, docker_provider)
    assert result.valid, result.error
