"""Sandboxes over several Docker engines (``sandbox.hosts`` with two or more entries).

``MultiHostProvider`` holds one :class:`DockerProvider` per engine URL (``unix://``, ``tcp://`` with
TLS from DOCKER_TLS_VERIFY / DOCKER_CERT_PATH, ``ssh://``), each behind its own warm pool when
``pool_size`` > 0.

* **Placement.** Each ``start`` goes to the live host with the fewest open sandboxes (relative to
  its capacity); when every live host is at capacity it waits for a slot.
* **Images.** ``image_for`` builds (or finds cached) the task image on every live host; the tag a
  host built is used for the sandboxes started there (tags hash the base image ids, which may
  differ between hosts). A host whose build fails while another's works is skipped for that image.
* **A host that dies.** Starting on it fails fast (``host_retry_s``), it is marked down and the
  start goes to another host. An episode in flight there fails with a sandbox (infrastructure)
  error; :meth:`lost_host` tells the rollout engine, which re-runs the episode on another host
  (a bounded number of times) and logs the host's name. A down host is probed again every
  ``recheck_s`` and used again once it answers. Only when every host is down does ``start``
  raise :class:`EngineUnavailable`, which stops the run resumably.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import docker
import docker.errors
import requests.exceptions

from termrl.errors import EngineUnavailable, SandboxError, TermrlError
from termrl.images.build import ImageConfig
from termrl.sandbox.base import Sandbox, SandboxSpec
from termrl.sandbox.docker import DockerProvider
from termrl.sandbox.hosts import client_for
from termrl.sandbox.pool import PooledProvider
from termrl.types import Task

log = logging.getLogger(__name__)

DEFAULT_HOST_RETRY_S = 10.0
"""How long a start waits for a host that stopped answering before the host is marked down."""


@dataclass
class Host:
    url: str
    provider: DockerProvider | PooledProvider
    probe: docker.DockerClient
    capacity: int
    load: int = 0
    """Sandboxes started here and not yet closed."""
    starts: int = 0
    up: bool = True
    down_since: float = 0.0
    lacks: set[str] = field(default_factory=set)
    """Images (by the tag image_for returned) this host could not build."""
    tags: dict[str, str] = field(default_factory=dict)
    """image_for's tag -> this host's tag of the same image."""

    def answers(self) -> bool:
        try:
            return bool(self.probe.ping())
        except (docker.errors.DockerException, requests.exceptions.RequestException, OSError):
            return False


class HostSandbox:
    """A sandbox on one host; counts the host's load until closed."""

    def __init__(self, owner: "MultiHostProvider", host: Host, inner: Sandbox):
        self._owner = owner
        self.host = host
        self.inner = inner
        self._closed = False

    def __getattr__(self, name):  # exec, run, read_file, write_file, ... go to the Docker sandbox
        return getattr(self.inner, name)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.inner.close()
        finally:
            self._owner._release(self.host)


class MultiHostProvider:
    name = "multihost"

    def __init__(self, urls: list[str], *, capacity: int = 16, pool_size: int = 0,
                 host_retry_s: float = DEFAULT_HOST_RETRY_S, recheck_s: float = 60.0):
        """Connect to every engine in ``urls``; one that does not answer now starts marked down.

        Raises:
            SandboxError: no engine in ``urls`` answers (the message names each).
        """
        if len(set(urls)) != len(urls):
            raise SandboxError(f"sandbox.hosts lists an engine twice: {urls} -- list each Docker engine once")
        self.recheck_s = recheck_s
        self.hosts: list[Host] = []
        self._cond = threading.Condition()
        self._local = threading.local()
        failures = []
        for url in urls:
            try:
                client = client_for(url)
                client.ping()
                probe = client_for(url, timeout=5)
            except (docker.errors.DockerException, requests.exceptions.RequestException, OSError) as exc:
                failures.append(f"{url}: {exc}")
                log.warning("Docker host %s does not answer (%s); it is skipped until it does", url, exc)
                self.hosts.append(Host(url, _Unreachable(url), _Unreachable(url), capacity, up=False,
                                       down_since=time.monotonic()))
                continue
            inner: DockerProvider | PooledProvider = DockerProvider(client, engine_retry_s=host_retry_s)
            if pool_size > 0:
                inner = PooledProvider(inner, size=pool_size)
            self.hosts.append(Host(url, inner, probe, capacity))
        if not any(h.up for h in self.hosts):
            raise SandboxError("no Docker engine in sandbox.hosts answers: " + "; ".join(failures) +
                               " -- check that dockerd runs on each host and is reachable from this node")
        self._executor = ThreadPoolExecutor(max(1, len(urls)), thread_name_prefix="termrl-hosts")

    # -- host state ---------------------------------------------------------------------------

    def _live(self) -> list[Host]:
        now = time.monotonic()
        for host in self.hosts:
            if not host.up and now - host.down_since >= self.recheck_s and not isinstance(host.probe, _Unreachable):
                host.down_since = now
                if host.answers():
                    log.warning("Docker host %s answers again; sandboxes go there again", host.url)
                    host.up = True
        return [h for h in self.hosts if h.up]

    def mark_down(self, host: Host, why: str) -> None:
        with self._cond:
            if not host.up:
                return
            host.up = False
            host.down_since = time.monotonic()
            self._cond.notify_all()
        left = [h.url for h in self.hosts if h.up]
        log.error("Docker host %s is down (%s): its episodes in flight are re-run on other hosts; skipping it "
                  "(hosts still up: %s)", host.url, why, ", ".join(left) or "none")

    def _release(self, host: Host) -> None:
        with self._cond:
            host.load -= 1
            self._cond.notify_all()

    # -- images -------------------------------------------------------------------------------

    def image_for(self, task: Task, config: ImageConfig) -> str:
        """The task image, built (or found) on every live host; the first live host's tag is returned.

        Raises:
            TaskError, ImageError: the image cannot be built on any host.
            EngineUnavailable: no host answers.
        """
        live = self._live()
        if not live:
            raise EngineUnavailable(self._all_down())
        outcomes = list(self._executor.map(lambda h: _attempt(h.provider.image_for, task, config), live))
        built = [(h, tag) for h, (tag, exc) in zip(live, outcomes) if exc is None]
        for host, (_, exc) in zip(live, outcomes):
            if isinstance(exc, EngineUnavailable):
                self.mark_down(host, f"building the image of {task.name}: {exc}")
        if not built:
            raise next(exc for _, exc in outcomes)
        tag = built[0][1]
        for host, (host_tag, exc) in zip(live, outcomes):
            if exc is None:
                host.tags[tag] = host_tag
                host.lacks.discard(tag)
            elif not isinstance(exc, EngineUnavailable):
                host.lacks.add(tag)
                log.warning("Docker host %s could not build the image of %s (%s); its sandboxes go to other hosts",
                            host.url, task.name, exc)
        return tag

    # -- sandboxes ----------------------------------------------------------------------------

    def _pick(self, image: str) -> Host:
        """The least-loaded live host with a free slot that has ``image``; waits while all are full."""
        with self._cond:
            while True:
                live = [h for h in self._live() if image not in h.lacks]
                if not live:
                    raise EngineUnavailable(self._all_down())
                free = [h for h in live if h.load < h.capacity]
                if free:
                    host = min(free, key=lambda h: (h.load / h.capacity, h.starts))
                    host.load += 1
                    host.starts += 1
                    return host
                self._cond.wait(1.0)

    def start(self, spec: SandboxSpec) -> Sandbox:
        last: Exception | None = None
        for _ in range(len(self.hosts)):
            host = self._pick(spec.image)
            try:
                box = host.provider.start(replace(spec, image=host.tags.get(spec.image, spec.image)))
            except SandboxError as exc:
                self._release(host)
                if isinstance(exc, EngineUnavailable) or not host.answers():
                    self.mark_down(host, f"starting a sandbox: {exc}")
                    last = exc
                    continue
                raise
            self._local.host = host
            return HostSandbox(self, host, box)
        raise EngineUnavailable(f"{self._all_down()} (last error: {last})")

    def lost_host(self) -> str | None:
        """The URL of the host this thread's last sandbox ran on, if that host is down now (else None).

        The rollout engine asks after an episode failed: an episode whose host died is re-run elsewhere.
        """
        host: Host | None = getattr(self._local, "host", None)
        self._local.host = None
        if host is None:
            return None
        if host.up and not host.answers():
            self.mark_down(host, "it stopped answering during an episode")
        return None if host.up else host.url

    def expect(self, spec: SandboxSpec, count: int) -> None:
        """``count`` episodes of ``spec`` are coming: each live pooling host expects its share of them."""
        hosts = [h for h in self._live() if isinstance(h.provider, PooledProvider) and spec.image not in h.lacks]
        for i, host in enumerate(hosts):
            share = count // len(hosts) + (1 if i < count % len(hosts) else 0)
            if share:
                host.provider.expect(replace(spec, image=host.tags.get(spec.image, spec.image)), share)

    def usage(self) -> dict[str, int]:
        """Sandboxes started per host so far (URL -> count)."""
        return {h.url: h.starts for h in self.hosts}

    def _all_down(self) -> str:
        return ("every Docker engine in sandbox.hosts is down (" + ", ".join(h.url for h in self.hosts) +
                ") -- fix: start or repair dockerd on them, then resume the run")

    def close(self) -> None:
        """Close each host's pool and remove containers lost while a host was away (where it answers now)."""
        self._executor.shutdown(wait=True)
        for host in self.hosts:
            if hasattr(host.provider, "close"):
                try:
                    host.provider.close()
                except (docker.errors.DockerException, requests.exceptions.RequestException, OSError) as exc:
                    log.warning("Docker host %s: could not clean up (%s); the next termrl command there reaps "
                                "what is left", host.url, exc)

    def __enter__(self) -> "MultiHostProvider":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _attempt(fn, *args):
    try:
        return fn(*args), None
    except TermrlError as exc:
        return None, exc


class _Unreachable:
    """Stands for a host that did not answer at start-up (it stays down for this run)."""

    def __init__(self, url: str):
        self.url = url

    def ping(self) -> bool:
        return False

    def image_for(self, task, config):
        raise EngineUnavailable(f"the Docker engine at {self.url} did not answer at start-up")

    def start(self, spec):
        raise EngineUnavailable(f"the Docker engine at {self.url} did not answer at start-up")
