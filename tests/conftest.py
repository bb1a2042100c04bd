"""Shared fixtures. Tests use the real Docker engine and the local base images (make test sets both up).

Two kinds of test live here. Unit tests need neither Docker nor the model and run in seconds
(`make unit`, i.e. `pytest -m "not integration"`). Integration tests use the real Docker engine or load the
real model; `pytest_collection_modifyitems` below marks them `integration` by the fixtures they use, by the
`docker` marker, or by module (modules that drive Docker or the model through the CLI or a subprocess, where no
fixture shows it). `make test` runs both kinds.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "datasets" / "examples"

# Fixtures that start containers, build images or load the model: a test that uses one is an integration test.
INTEGRATION_FIXTURES = {"docker_provider", "docker_client", "sandbox", "task_factory", "provider", "sandbox_provider",
                        "real_runs", "hf_policy"}
# Modules whose tests reach Docker or the model without one of those fixtures (CLI runs, subprocesses, engines).
INTEGRATION_MODULES = {
    "test_cli", "test_csv_import", "test_curriculum_e2e", "test_episodes", "test_faults",
    "test_hosts", "test_images", "test_interrupt", "test_openai_server", "test_report", "test_smollm2_episodes",
    "test_train", "test_train_report", "test_trl", "test_zz_no_leftovers", "test_sandbox_conformance",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if getattr(item, "module", None) else ""
        if (module in INTEGRATION_MODULES or item.get_closest_marker("docker")
                or INTEGRATION_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def docker_provider():
    from termrl.sandbox.docker import DockerProvider

    return DockerProvider()


@pytest.fixture(scope="session")
def docker_client(docker_provider):
    return docker_provider.client


@pytest.fixture
def sandbox(docker_provider):
    from termrl.sandbox.base import SandboxSpec

    box = docker_provider.start(SandboxSpec(image="termrl/base:bookworm", output_cap=4000, pids_limit=256,
                                            memory_mb=512))
    yield box
    box.close()


def write_task(root: Path, name: str, *, solve: str = "echo done > /app/out.txt\n",
               test_body: str | None = None, toml_extra: str = "", dockerfile: str | None = None,
               test_sh: str | None = None) -> Path:
    """A small Harbor task for tests; every part can be replaced."""
    task = root / name
    (task / "environment").mkdir(parents=True)
    (task / "solution").mkdir()
    (task / "tests").mkdir()
    (task / "instruction.md").write_text("Write 'done' to /app/out.txt.\n")
    (task / "task.toml").write_text(
        '[metadata]\ndifficulty = "easy"\ncategory = "test"\n[agent]\ntimeout_sec = 60\n'
        "[verifier]\ntimeout_sec = 60\n[environment]\nallow_internet = false\nmemory_mb = 512\n" + toml_extra)
    (task / "environment" / "Dockerfile").write_text(dockerfile or "FROM termrl/base:bookworm\nWORKDIR /app\n")
    (task / "solution" / "solve.sh").write_text(solve)
    (task / "tests" / "test_outputs.py").write_text(test_body or (
        "from pathlib import Path\n\n"
        "def test_out():\n    assert Path('/app/out.txt').read_text().strip() == 'done'\n\n"
        "def test_always():\n    assert True\n"))
    (task / "tests" / "test.sh").write_text(test_sh or (
        "#!/bin/bash\nmkdir -p /logs/verifier\n"
        "python3 -m pytest --junitxml=/logs/verifier/junit.xml -rA /tests/test_outputs.py\n"
        "if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n"))
    return task


@pytest.fixture
def task_factory(tmp_path, docker_client):
    """Makes throwaway tasks and removes the images built for them afterwards."""
    made: list[Path] = []

    def make(name: str | None = None, **kwargs) -> Path:
        task = write_task(tmp_path, name or f"t-{uuid.uuid4().hex[:8]}", **kwargs)
        made.append(task)
        return task

    yield make
    for task in made:
        for image in docker_client.images.list(filters={"label": f"termrl.task={task.name}"}):
            docker_client.images.remove(image.id, force=True)
        shutil.rmtree(task, ignore_errors=True)
