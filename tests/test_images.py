"""Task images: FROM aliases, the build cache, concurrent builds of the same task."""

from __future__ import annotations

import logging
import threading

import pytest

from conftest import EXAMPLES
from termrl.errors import ImageError
from termrl.images.build import ImageConfig, build_task_image, resolve_image, rewrite_dockerfile
from termrl.tasks import load_task


def test_python313_bookworm_maps_to_its_stand_in_with_a_warning(docker_client, caplog):
    with caplog.at_level(logging.WARNING):
        image = resolve_image(docker_client, "python:3.13-slim-bookworm", ImageConfig(), EXAMPLES)
    assert image == "termrl/python:3.13-bookworm"
    assert "python:3.13-slim-bookworm" in caplog.text and "termrl/python:3.13-bookworm" in caplog.text


@pytest.mark.parametrize("name,expected", [
    ("python:3.13-slim", "termrl/python:3.13-trixie"), ("python:3.13-bookworm", "termrl/python:3.13-bookworm"),
    ("python:3.13.5-slim-trixie", "termrl/python:3.13-trixie"),
    ("python:3.12-slim-bookworm", "termrl/python:3.13-bookworm"),  # no 3.12 source in Debian: nearest
    ("python:3.11-slim-bookworm", "termrl/base:bookworm"),  # Debian's 3.11, unless py3.11-bookworm is built
    ("ghcr.io/laude-institute/t-bench/python-3-13:20250620", "termrl/python:3.13-bookworm"),
    ("debian:bookworm-slim", "termrl/base:bookworm"),
    ("ubuntu:24.04", "termrl/base:trixie"), ("ubuntu:22.04", "termrl/base:bookworm"),
    ("debian:trixie", "termrl/base:trixie"), ("termrl/base:bookworm", "termrl/base:bookworm"),
])
def test_alias_table(docker_client, name, expected):
    assert resolve_image(docker_client, name, ImageConfig(), EXAMPLES) == expected


def test_aliases_are_overridable(docker_client, tmp_path):
    cfg = tmp_path / "images.yaml"
    cfg.write_text('aliases:\n  "python:3.13*": "termrl/base:bookworm"\n  "node:20*": "termrl/base:trixie"\n')
    config = ImageConfig.load(cfg)
    assert resolve_image(docker_client, "python:3.13-slim", config, EXAMPLES) == "termrl/base:bookworm"
    assert resolve_image(docker_client, "node:20-bookworm", config, EXAMPLES) == "termrl/base:trixie"
    cfg.write_text('aliases:\n  "node:*": ["my/node:latest", "termrl/base:bookworm"]\n')
    assert resolve_image(docker_client, "node:22", ImageConfig.load(cfg), EXAMPLES) == "termrl/base:bookworm"
    for bad in ("aliases: [1, 2]\n", 'aliases:\n  "node:*": []\n', 'aliases:\n  "node:*": [1]\n'):
        cfg.write_text(bad)
        with pytest.raises(ImageError, match="images.yaml.*fix"):
            ImageConfig.load(cfg)


def test_unbuilt_alias_names_every_candidate(docker_client, tmp_path):
    config = ImageConfig()
    config.aliases = {"node:*": ("termrl/none:a", "termrl/none:b")}
    with pytest.raises(ImageError, match="termrl/none:a or termrl/none:b.*termrl images build"):
        resolve_image(docker_client, "node:22", config, tmp_path)


def test_multistage_from_lines(docker_client, tmp_path):
    text = "FROM python:3.13-slim AS build\nRUN true\nFROM build\nFROM --platform=linux/amd64 debian:12\n"
    out, bases = rewrite_dockerfile(docker_client, text, ImageConfig(), tmp_path)
    assert out.splitlines() == ["FROM termrl/python:3.13-trixie AS build", "RUN true", "FROM build",
                                "FROM --platform=linux/amd64 termrl/base:bookworm"]
    assert bases == ["termrl/python:3.13-trixie", "termrl/base:bookworm"]


def test_build_is_cached_by_content(docker_client, task_factory):
    task_dir = task_factory(dockerfile="FROM termrl/base:bookworm\nWORKDIR /app\nCOPY data.txt /app/\n")
    (task_dir / "environment" / "data.txt").write_text("one")
    task = load_task(task_dir)
    first = build_task_image(docker_client, task)
    image_id = docker_client.images.get(first).id
    assert build_task_image(docker_client, task) == first
    assert docker_client.images.get(first).id == image_id
    (task_dir / "environment" / "data.txt").write_text("two")
    second = build_task_image(docker_client, load_task(task_dir))
    assert second != first


def test_concurrent_builds_of_one_task_do_not_collide(docker_client, task_factory):
    task_dir = task_factory(dockerfile="FROM termrl/base:bookworm\nRUN sleep 2 && echo built > /built\n")
    task = load_task(task_dir)
    tags, errors = [], []

    def build():
        try:
            tags.append(build_task_image(docker_client, task))
        except Exception as exc:  # noqa: BLE001 - collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(set(tags)) == 1
    assert len(docker_client.images.list(filters={"label": f"termrl.task={task.name}"})) == 1
