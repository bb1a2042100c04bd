"""termrl's own providers under the packaged conformance suite (termrl.sandbox.conformance).

Every test of the suite runs once per provider below: the plain Docker provider, the warm pool in
front of it, and the multi-host provider (two URLs of this machine's engine -- /run/docker.sock and
/var/run/docker.sock -- so placement, its sandbox wrapper and its per-host pools are all in the path;
tests/test_multihost.py covers a second, real engine and failover).
"""

from __future__ import annotations

import pytest

from termrl.sandbox.conformance import *  # noqa: F401,F403  (the suite's tests and fixtures)


def _docker():
    from termrl.sandbox.docker import DockerProvider

    return DockerProvider()


def _pooled():
    from termrl.sandbox.pool import PooledProvider

    return PooledProvider(_docker(), size=1, workers=1)


def _multihost():
    from termrl.sandbox.multihost import MultiHostProvider

    return MultiHostProvider(["unix:///run/docker.sock", "unix:///var/run/docker.sock"], capacity=8, pool_size=1)


PROVIDERS = {"docker": _docker, "pooled": _pooled, "multihost": _multihost}


@pytest.fixture(params=sorted(PROVIDERS), scope="module")
def sandbox_provider(request):
    provider = PROVIDERS[request.param]()
    yield provider
    provider.close()
