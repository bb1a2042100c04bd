"""Task loading: detect the format of a task folder and load it into a Task record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from termrl.errors import TaskError
from termrl.tasks.harbor import load_harbor_task
from termrl.tasks.tb1 import load_tb1_task
from termrl.types import Task

__all__ = ["load_task", "find_task_dirs", "load_tasks", "LoadReport"]


def _is_task_dir(path: Path) -> bool:
    return (path / "task.toml").is_file() or (path / "task.yaml").is_file()


def load_task(path: str | Path) -> Task:
    """Load one task folder (Harbor ``task.toml`` or Terminal-Bench 1 ``task.yaml``).

    Raises:
        TaskError: the folder is missing or malformed; the message names the file, field and fix.
    """
    path = Path(path).resolve()
    try:
        if not path.is_dir():
            raise TaskError(path, "not a directory", "pass the path of a task folder (or of a folder of tasks)")
        if (path / "task.toml").is_file():
            return load_harbor_task(path)
        if (path / "task.yaml").is_file():
            return load_tb1_task(path)
        raise TaskError(path, "neither task.toml (Harbor) nor task.yaml (Terminal-Bench 1) found",
                        "add task.toml next to instruction.md, environment/, tests/ and solution/")
    except TaskError as exc:
        exc.task_dir = path
        raise


def find_task_dirs(paths: list[str | Path] | str | Path) -> list[Path]:
    """Expand each path: a task folder stays itself; a folder of tasks yields its task subfolders."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    found: list[Path] = []
    for raw in paths:
        path = Path(raw).resolve()
        if path.is_dir() and not _is_task_dir(path):
            children = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
            task_children = [p for p in children if _is_task_dir(p)]
            # A folder with no task inside is reported as a bad task, not silently skipped.
            found.extend(task_children or [path])
        else:
            found.append(path)
    return found


@dataclass(frozen=True)
class LoadReport:
    tasks: list[Task]
    errors: list[TaskError]


def load_tasks(paths: list[str | Path] | str | Path) -> LoadReport:
    """Load every task under ``paths``; a malformed task is reported and the others go on."""
    tasks: list[Task] = []
    errors: list[TaskError] = []
    for path in find_task_dirs(paths):
        try:
            tasks.append(load_task(path))
        except TaskError as exc:
            errors.append(exc)
    return LoadReport(tasks, errors)
