"""Which Docker engine a process's episodes run on (the ``sandbox.hosts`` setting).

A static choice per process: process ``slot`` uses ``hosts[slot % len(hosts)]``. Under a
data-parallel trainer (TRL) every process runs its own slice of the episodes, so listing the nodes'
engines spreads the rollouts over them. (Placing each episode on the least-loaded of several
engines, with failover, is the multi-host provider's job -- issue 11 §2.)
"""

from __future__ import annotations

import os
from typing import Any

import docker

from termrl.errors import SandboxError
from termrl.sandbox.docker import DockerProvider, docker_client


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
        # from_env with DOCKER_HOST set: TLS (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) and ssh:// as the docker CLI does.
        client = docker.from_env(timeout=300, environment={**os.environ, "DOCKER_HOST": url},
                                 use_ssh_client=url.startswith("ssh://"))
        client.ping()
    except docker.errors.DockerException as exc:
        raise SandboxError(f"sandbox.hosts[{hosts.index(url)}] = {url}: no Docker engine answers ({exc}) -- check "
                           "that dockerd runs there and is reachable from this node") from exc
    return DockerProvider(client, **settings)
