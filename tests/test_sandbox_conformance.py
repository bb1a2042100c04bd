"""termrl's own providers under the packaged conformance suite (termrl.sandbox.conformance).

Every test of the suite runs once per provider below: the plain Docker provider, and the multi-host
provider over two URLs of this machine's engine (/run/docker.sock and /var/run/docker.sock) with a
warm pool per host -- so placement, its sandbox wrapper and the warm pool are all in the path
(tests/test_multihost.py covers a second, real engine and failover; tests/test_pool.py the pool's logic).
"""

from __future__ import annotations

import pytest

from termrl.sandbox.conformance import *  # noqa: F401,F403  (the suite's tests and fixtures)


def _docker():
    from termrl.sandbox.docker import DockerProvider

    return DockerProvider()


def _multihost():
    from termrl.sandbox.multihost import MultiHostProvider

    return MultiHostProvider(["unix:///run/docker.sock", "unix:///var/run/docker.sock"], capacity=8, pool_size=1)


PROVIDERS = {"docker": _docker, "multihost": _multihost}


@pytest.fixture(params=sorted(PROVIDERS), scope="module")
def sandbox_provider(request):
    provider = PROVIDERS[request.param]()
    yield provider
    provider.close()
