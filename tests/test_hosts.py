"""sandbox.hosts: which Docker engine a process's episodes run on."""

from __future__ import annotations

import pytest

from termrl.errors import SandboxError
from termrl.sandbox.hosts import docker_provider_for, host_for


def test_processes_spread_over_the_listed_engines():
    hosts = ["unix:///a.sock", "tcp://n1:2376", "ssh://root@n2"]
    assert [host_for(hosts, r) for r in range(4)] == [*hosts, hosts[0]]
    assert host_for([], 5) is None  # the local engine


@pytest.mark.docker
def test_provider_on_a_listed_engine_and_a_dead_one(tmp_path):
    assert docker_provider_for(["unix:///var/run/docker.sock"], 0).client.ping()
    with pytest.raises(SandboxError, match=r"sandbox.hosts\[0\] = unix://.*no Docker engine answers"):
        docker_provider_for([f"unix://{tmp_path}/none.sock"], 0)
