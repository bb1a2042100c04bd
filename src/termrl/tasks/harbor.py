"""Loader for the Harbor task layout (Terminal-Bench 2), termrl's native format.

::

    my-task/
      instruction.md          what the agent is told
      task.toml               [metadata] [agent] [verifier] [environment]
      environment/Dockerfile  (+ build context)
      solution/solve.sh       reference solution (the oracle runs it)
      tests/test.sh           writes a float to /logs/verifier/reward.txt
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from termrl.errors import TaskError
from termrl.tasks._fields import Fields, read_text
from termrl.types import EnvironmentSpec, Task, TaskMetadata


def load_harbor_task(path: Path) -> Task:
    toml_path = path / "task.toml"
    try:
        data = tomllib.loads(read_text(toml_path, "task.toml", "create task.toml with [agent] and [verifier] tables"))
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(toml_path, f"invalid TOML ({exc})", "fix the syntax at the line named") from exc
    root = Fields(toml_path, data)

    instruction = read_text(path / "instruction.md", "instruction.md",
                            "write the task for the agent in instruction.md").strip()
    if not instruction:
        raise TaskError(path / "instruction.md", "the instruction is empty", "write the task for the agent in it")

    meta = root.sub("metadata")
    metadata = TaskMetadata(
        difficulty=meta.difficulty(),  # type: ignore[arg-type]
        category=meta.string("category", "uncategorized") or "uncategorized",
        tags=meta.string_list("tags"),
        author=meta.string("author_name", "") or "",
    )
    agent = root.sub("agent")
    verifier = root.sub("verifier")
    env = root.sub("environment")

    docker_image = env.string("docker_image")
    env_dir = path / "environment"
    dockerfile = env_dir / "Dockerfile"
    if not dockerfile.is_file():
        if not docker_image:
            raise TaskError(dockerfile, "missing Dockerfile and no [environment] docker_image",
                            "add environment/Dockerfile (FROM a base image) or set docker_image in task.toml")
        dockerfile_opt, context = None, None
    else:
        dockerfile_opt, context = dockerfile, env_dir

    tests_dir = path / "tests"
    test_script = tests_dir / "test.sh"
    if not test_script.is_file():
        raise TaskError(test_script, "missing tests/test.sh",
                        "add tests/test.sh that runs the tests and writes a float to /logs/verifier/reward.txt")

    solve = path / "solution" / "solve.sh"
    return Task(
        name=path.name,
        path=path,
        format="harbor",
        instruction=instruction,
        environment=EnvironmentSpec(
            dockerfile=dockerfile_opt,
            context_dir=context,
            docker_image=docker_image if dockerfile_opt is None else None,
            cpus=env.number("cpus", 1),
            memory_mb=env.memory_mb(2048),
            pids_limit=int(env.number("pids_limit", 512)),
            # Harbor's default: internet allowed unless the task says otherwise.
            allow_internet=env.boolean("allow_internet", True),
            build_timeout_sec=env.number("build_timeout_sec", 600),
            workdir=env.string("workdir"),
        ),
        tests_dir=tests_dir,
        test_script=test_script,
        solution_dir=solve.parent if solve.is_file() else None,
        solution_script="bash /solution/solve.sh" if solve.is_file() else None,
        metadata=metadata,
        agent_timeout_sec=agent.number("timeout_sec", 600),
        verifier_timeout_sec=verifier.number("timeout_sec", 600),
    )
