"""Which Docker engine(s) a process's episodes run on (the ``sandbox.hosts`` setting).

``sandbox_provider`` is the one place a run turns the setting into a provider: the local engine, or
one listed engine, behind a warm pool; or, with two or more engines, the multi-host provider, which
places each sandbox on the least-loaded live engine and fails over when one dies
(``termrl.sandbox.multihost``). ``host_for`` / ``docker_provider_for`` are the static choice per
process: process ``slot`` uses ``hosts[slot % len(hosts)]``.
"""

from __future__ import annotations

import os
from typing import Any

import docker

from termrl.errors import SandboxError
from termrl.sandbox.docker import DockerProvider, docker_client


def client_for(url: str, timeout: int = 300) -> docker.DockerClient:
    """A Docker client for ``url`` as the docker CLI would make it with DOCKER_HOST=url (TLS from
    DOCKER_TLS_VERIFY / DOCKER_CERT_PATH, ``ssh://`` through the ssh client)."""
    return docker.from_env(timeout=timeout, environment={**os.environ, "DOCKER_HOST": url},
                           use_ssh_client=url.startswith("ssh://"))


def host_for(hosts: list[str], slot: int) -> str | None:
    """The engine URL of process ``slot``; None = the local engine (DOCKER_HOST or the default socket)."""
    return hosts[slot % len(hosts)] if hosts else None


def docker_provider_for(hosts: list[str], slot: int = 0, **settings: Any) -> DockerProvider:
    """A DockerProvider on the engine of process ``slot`` (``settings``: DockerProvider's keywords).

    Raises:
        SandboxError: that engine does not answer (the message names it).
    """
    url = host_for(hosts, slot)
    if url is None:
        return DockerProvider(docker_client(), **settings)
    try:
        client = client_for(url)
        client.ping()
    except docker.errors.DockerException as exc:
        raise SandboxError(f"sandbox.hosts[{hosts.index(url)}] = {url}: no Docker engine answers ({exc}) -- check "
                           "that dockerd runs there and is reachable from this node") from exc
    return DockerProvider(client, **settings)


def sandbox_provider(hosts: list[str], *, slot: int = 0, capacity: int = 16, pool_size: int = 2,
                     engine_retry_s: float = 120.0):
    """The provider a run's episodes start their sandboxes from, for the ``sandbox.hosts`` setting.

    * no host, or one: that engine (``hosts[slot % len(hosts)]``), behind a warm pool of ``pool_size``
      (0 = none);
    * two or more: :class:`~termrl.sandbox.multihost.MultiHostProvider` -- each sandbox on the
      least-loaded live engine (``capacity`` each), failover when one dies. The list is rotated so
      process ``slot`` prefers ``hosts[slot % len(hosts)]`` when loads are equal (a node's own engine).

    Raises:
        SandboxError: no engine answers (the message names it).
    """
    if len(hosts) > 1:
        from termrl.sandbox.multihost import MultiHostProvider

        start = slot % len(hosts)
        return MultiHostProvider(hosts[start:] + hosts[:start], capacity=capacity, pool_size=pool_size)
    provider = docker_provider_for(hosts, slot, engine_retry_s=engine_retry_s)
    if pool_size <= 0:
        return provider
    from termrl.sandbox.pool import PooledProvider

    return PooledProvider(provider, size=pool_size)
