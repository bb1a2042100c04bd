"""Loader for the Terminal-Bench 1 layout, mapped into the same Task record.

::

    my-task/
      task.yaml               instruction, difficulty, category, tags, max_*_timeout_sec
      Dockerfile              (+ build context = the task folder)
      run-tests.sh            runs the tests (pytest -rA); copied to /tests with tests/
      tests/                  test files
      solution.sh | solution.yaml   reference solution (yaml: a list of {command: ...})

Per-test results come from pytest's ``-rA`` short summary in the test output.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from termrl.errors import TaskError
from termrl.tasks._fields import Fields, read_text
from termrl.types import EnvironmentSpec, Task, TaskMetadata


def _instruction(fields: Fields, file: Path) -> str:
    text = fields.string("instruction")
    if text is None:
        # The oldest TB1 tasks keep it under descriptions: [{key: base, description: ...}].
        for item in fields.data.get("descriptions") or []:
            if isinstance(item, dict) and item.get("key") == "base":
                text = item.get("description")
    if not isinstance(text, str) or not text.strip():
        raise TaskError(file, "missing or empty instruction", "add `instruction: |` with the task text",
                        field="instruction")
    return text.strip()


def _solution(path: Path) -> str | None:
    script = path / "solution.sh"
    if script.is_file():
        return read_text(script, "solution.sh", "save it as UTF-8 text")
    spec = path / "solution.yaml"
    if not spec.is_file():
        return None
    try:
        steps = yaml.safe_load(read_text(spec, "solution.yaml", "save it as UTF-8 text"))
    except yaml.YAMLError as exc:
        raise TaskError(spec, f"invalid YAML ({exc})", "fix the syntax at the line named") from exc
    if not isinstance(steps, list) or not steps:
        raise TaskError(spec, "expected a non-empty list of steps", "write `- command: <shell command>` items")
    commands = []
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("command"), str):
            raise TaskError(spec, f"step {i} has no command string", "write `- command: <shell command>`",
                            field=f"[{i}].command")
        commands.append(step["command"])
    return "\n".join(commands) + "\n"


def load_tb1_task(path: Path) -> Task:
    yaml_path = path / "task.yaml"
    try:
        data = yaml.safe_load(read_text(yaml_path, "task.yaml", "create task.yaml with an instruction"))
    except yaml.YAMLError as exc:
        raise TaskError(yaml_path, f"invalid YAML ({exc})", "fix the syntax at the line named") from exc
    if not isinstance(data, dict):
        raise TaskError(yaml_path, "expected a mapping at the top level", "write `instruction: ...` and other keys")
    fields = Fields(yaml_path, data)

    dockerfile = path / "Dockerfile"
    if not dockerfile.is_file():
        raise TaskError(dockerfile, "missing Dockerfile", "add a Dockerfile next to task.yaml")
    run_tests = path / "run-tests.sh"
    if not run_tests.is_file():
        raise TaskError(run_tests, "missing run-tests.sh", "add run-tests.sh that runs pytest -rA on $TEST_DIR")

    solution = _solution(path)
    return Task(
        name=path.name,
        path=path,
        format="tb1",
        instruction=_instruction(fields, yaml_path),
        environment=EnvironmentSpec(dockerfile=dockerfile, context_dir=path, cpus=1.0, memory_mb=2048,
                                    allow_internet=True),
        tests_dir=path / "tests",
        test_script=run_tests,
        solution_dir=None,
        solution_script=solution,
        metadata=TaskMetadata(
            difficulty=fields.difficulty(),  # type: ignore[arg-type]
            category=fields.string("category", "uncategorized") or "uncategorized",
            tags=fields.string_list("tags"),
            author=fields.string("author_email", "") or "",
        ),
        agent_timeout_sec=fields.number("max_agent_timeout_sec", 360),
        verifier_timeout_sec=fields.number("max_test_timeout_sec", 60),
    )
