"""Task images: FROM aliases for machines without a registry, and cached builds.

A task image is built once and tagged by a hash of everything that goes into it
(the Dockerfile after alias substitution, every file of the build context, and the
ids of the base images), so an unchanged task is never rebuilt. A file lock per
hash makes two concurrent builds of the same task wait for each other instead of
colliding.
"""

from __future__ import annotations

import fcntl
import fnmatch
import hashlib
import io
import logging
import re
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import docker
import docker.errors
import yaml

from termrl.cache import CACHE_DIR
from termrl.errors import ImageError, TaskError
from termrl.images.cpython import SOURCE_SUITE
from termrl.types import Task

log = logging.getLogger(__name__)

TASK_REPO = "termrl-task"

DEBIAN_PYTHON = {"bookworm": "3.11", "trixie": "3.13"}
"""The python3 each Debian suite ships (what ``termrl/base:<suite>`` has as ``python3``)."""


def _python_chain(minor: str, suite: str) -> tuple[str, ...]:
    """Stand-ins for ``python:<minor>-...-<suite>``, best first: CPython ``minor`` at /usr/local on
    that suite, then on the other suite, then Debian's ``minor`` in /usr/bin, then 3.13 at /usr/local."""
    other = "trixie" if suite == "bookworm" else "bookworm"
    chain = [f"termrl/python:{minor}-{suite}", f"termrl/python:{minor}-{other}"] if minor in SOURCE_SUITE else []
    chain += [f"termrl/base:{s}" for s, version in DEBIAN_PYTHON.items() if version == minor]
    chain += [f"termrl/python:3.13-{suite}", f"termrl/base:{suite}"]
    return tuple(dict.fromkeys(chain))


def _python_aliases() -> dict[str, tuple[str, ...]]:
    """``python:X.Y-*`` -> ``termrl/python:X.Y-<suite>``: the suite the tag names (bookworm for
    -bookworm and older releases), trixie for the untagged default, as on Docker Hub today."""
    out: dict[str, tuple[str, ...]] = {}
    for minor in ("3.14", "3.13", "3.12", "3.11", "3.10", "3.9", "3.8"):
        for old in ("bookworm", "bullseye", "buster"):
            out[f"python:{minor}*{old}*"] = _python_chain(minor, "bookworm")
        out[f"python:{minor}*"] = _python_chain(minor, "trixie")
    # python:3, python:latest, python:slim-bookworm ...: the newest release, 3.14
    for old in ("bookworm", "bullseye", "buster"):
        out[f"python*{old}*"] = _python_chain("3.14", "bookworm")
    for name in ("python:3*", "python", "python:latest", "python:slim*", "python:trixie*", "python:alpine*"):
        out[name] = _python_chain("3.14", "trixie")
    return out


# Public image name (glob) -> local images, best first (the first one built is used). Ordered: the
# first matching glob wins.
DEFAULT_ALIASES: dict[str, tuple[str, ...]] = {
    **_python_aliases(),
    "debian:trixie*": ("termrl/base:trixie",),
    "debian:13*": ("termrl/base:trixie",),
    "debian:bookworm*": ("termrl/base:bookworm",),
    "debian:12*": ("termrl/base:bookworm",),
    "debian:stable*": ("termrl/base:trixie",),
    "debian": ("termrl/base:trixie",),
    "debian:latest": ("termrl/base:trixie",),
    "ubuntu:24.*": ("termrl/base:trixie",),
    "ubuntu:25.*": ("termrl/base:trixie",),
    "ubuntu:noble*": ("termrl/base:trixie",),
    "ubuntu:*": ("termrl/base:bookworm",),
    "ubuntu": ("termrl/base:bookworm",),
    # Terminal-Bench's base images: python-3-13 is python:3.13-slim-bookworm plus tmux and asciinema
    "*t-bench/python-3-13*": _python_chain("3.13", "bookworm"),
    "*t-bench/ubuntu-24-04*": ("termrl/base:trixie",),
}


@dataclass
class ImageConfig:
    """How task images are resolved and built."""

    aliases: dict[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_ALIASES))
    """FROM-image glob -> local images (the first one present is used) when the named image is
    not present locally. User entries are tried before the defaults."""

    @classmethod
    def load(cls, path: str | Path | None) -> "ImageConfig":
        """Read extra aliases from a YAML file: ``aliases: {"node:20*": "my/node:20"}`` (a value may
        also be a list of images, best first)."""
        config = cls()
        if path is None:
            return config
        path = Path(path)
        try:
            data = yaml.safe_load(path.read_text()) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise ImageError(f"{path}: cannot read image config ({exc}) -- fix: write `aliases: {{glob: image}}`") from exc
        extra = data.get("aliases", {}) if isinstance(data, dict) else None
        def targets(value: object) -> tuple[str, ...] | None:
            if isinstance(value, str):
                return (value,)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                return tuple(value)
            return None

        parsed = {k: targets(v) for k, v in extra.items()} if isinstance(extra, dict) else None
        if parsed is None or not all(isinstance(k, str) and v for k, v in parsed.items()):
            raise ImageError(f"{path}: aliases must map image globs to an image name or a list of them -- "
                             'fix: write e.g. aliases: {"node:20*": "termrl/base:bookworm"}')
        config.aliases = {**parsed, **{k: v for k, v in config.aliases.items() if k not in parsed}}
        return config


def _image_exists(client: docker.DockerClient, name: str) -> bool:
    try:
        client.images.get(name)
        return True
    except docker.errors.ImageNotFound:
        return False


def resolve_image(client: docker.DockerClient, name: str, config: ImageConfig, where: Path) -> str:
    """The local image to use for ``name``: itself if present, else its alias (with a warning)."""
    if _image_exists(client, name):
        return name
    for pattern, targets in config.aliases.items():
        if fnmatch.fnmatchcase(name, pattern):
            for target in targets:
                if _image_exists(client, target):
                    closest = "" if target == targets[0] else (
                        f" (the closest built; {targets[0]} would match better -- "
                        f"`termrl images build --suite {_build_name(targets[0])}`)")
                    log.warning("%s: image %s is not available here; using %s instead%s", where, name, target, closest)
                    return target
            raise ImageError(f"{where}: {name} maps to {' or '.join(targets)}, none of which is built -- "
                             "fix: run `termrl images build`")
    raise ImageError(f"{where}: image {name} is not available locally and no registry is reachable -- "
                     f"fix: build it locally, or add an alias for it (termrl --image-config FILE with "
                     f"`aliases: {{\"{name}\": \"termrl/base:bookworm\"}}`)")


def _build_name(tag: str) -> str:
    """termrl/python:3.11-trixie -> py3.11-trixie; termrl/base:bookworm -> bookworm."""
    repo, _, tag_name = tag.partition(":")
    return f"py{tag_name}" if repo == "termrl/python" else tag_name


_FROM = re.compile(r"^(\s*FROM\s+)((?:--\S+\s+)*)(\S+)(.*)$", re.I)


def rewrite_dockerfile(client: docker.DockerClient, text: str, config: ImageConfig, where: Path) -> tuple[str, list[str]]:
    """Substitute aliases in FROM lines; return the new text and the resolved base images."""
    stages: set[str] = set()
    bases: list[str] = []
    out = []
    for line in text.splitlines():
        match = _FROM.match(line)
        if match:
            image = match.group(3)
            rest = match.group(4)
            as_match = re.search(r"\bAS\s+(\S+)", rest, re.I)
            if image.lower() not in stages and image != "scratch" and "$" not in image:
                image = resolve_image(client, image, config, where)
                bases.append(image)
            if as_match:
                stages.add(as_match.group(1).lower())
            line = f"{match.group(1)}{match.group(2)}{image}{rest}"
        out.append(line)
    if not bases and not stages:
        raise TaskError(where, "no FROM line", "start the Dockerfile with FROM termrl/base:bookworm (or another image)")
    return "\n".join(out) + "\n", bases


def _ignored(rel: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*") for p in patterns)


def _context_tar(context: Path, dockerfile_text: str) -> tuple[bytes, str]:
    """The build context as a tar (deterministic order), and its content hash."""
    ignore_file = context / ".dockerignore"
    patterns = [ln.strip() for ln in ignore_file.read_text().splitlines()
                if ln.strip() and not ln.startswith("#")] if ignore_file.is_file() else []
    digest = hashlib.sha256(dockerfile_text.encode())
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for path in sorted(context.rglob("*")):
            rel = path.relative_to(context).as_posix()
            if _ignored(rel, patterns):
                continue
            info = tar.gettarinfo(str(path), arcname=rel)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            digest.update(f"{rel}\0{info.mode}\0{info.type!r}\0{info.linkname}\0".encode())
            if info.isfile():
                data = path.read_bytes()
                digest.update(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
        info = tarfile.TarInfo(".termrl.Dockerfile")
        payload = dockerfile_text.encode()
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    return buf.getvalue(), digest.hexdigest()


def task_image_tag(task: Task, digest: str) -> str:
    name = re.sub(r"[^a-z0-9_.-]+", "-", task.name.lower()).strip("-.") or "task"
    return f"{TASK_REPO}/{name}:{digest[:16]}"


class _FileLock:
    def __init__(self, key: str):
        lock_dir = CACHE_DIR / "locks"
        lock_dir.mkdir(parents=True, exist_ok=True)
        self.path = lock_dir / f"{key}.lock"

    def __enter__(self):
        self._fh = open(self.path, "w")
        fcntl.flock(self._fh, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self._fh, fcntl.LOCK_UN)
        self._fh.close()


def build_task_image(client: docker.DockerClient, task: Task, config: ImageConfig | None = None) -> str:
    """Return a local image tag for the task, building it only if not cached.

    Raises:
        TaskError: the Dockerfile is malformed (no FROM line).
        ImageError: a base image is unavailable or the build failed (the message has the log tail).
    """
    config = config or ImageConfig()
    env = task.environment
    if env.dockerfile is None:
        assert env.docker_image
        return resolve_image(client, env.docker_image, config, task.path / "task.toml")
    text, bases = rewrite_dockerfile(client, env.dockerfile.read_text(), config, env.dockerfile)
    context_tar, digest = _context_tar(env.context_dir or env.dockerfile.parent, text)
    digest = hashlib.sha256((digest + "".join(client.images.get(b).id for b in bases)).encode()).hexdigest()
    tag = task_image_tag(task, digest)
    with _FileLock(digest[:32]):
        if _image_exists(client, tag):
            return tag
        started = time.monotonic()
        log.info("building %s for %s", tag, task.name)
        lines: list[str] = []
        try:
            for chunk in client.api.build(fileobj=io.BytesIO(context_tar), custom_context=True, tag=tag,
                                          dockerfile=".termrl.Dockerfile", rm=True, forcerm=True, pull=False,
                                          decode=True, timeout=int(env.build_timeout_sec) + 60,
                                          labels={"termrl.task": task.name}):
                if "stream" in chunk:
                    lines.append(chunk["stream"])
                if "error" in chunk:
                    tail = "".join(lines[-30:])
                    raise ImageError(f"{env.dockerfile}: build failed: {chunk['error'].strip()}\n{tail}")
                if time.monotonic() - started > env.build_timeout_sec:
                    raise ImageError(f"{env.dockerfile}: build exceeded [environment] build_timeout_sec="
                                     f"{env.build_timeout_sec:g} -- fix: raise it or make the build smaller")
        except docker.errors.APIError as exc:
            raise ImageError(f"{env.dockerfile}: build failed: {exc}") from exc
        if not _image_exists(client, tag):
            raise ImageError(f"{env.dockerfile}: build produced no image\n{''.join(lines[-30:])}")
        return tag
