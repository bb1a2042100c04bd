"""termrl's own providers under the packaged conformance suite (termrl.sandbox.conformance).

Every test of the suite runs once per provider below: the plain Docker provider and the warm pool in
front of it. (A multi-host setup is a Docker provider per host, see sandbox/hosts.py: the same class.)
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


PROVIDERS = {"docker": _docker, "pooled": _pooled}


@pytest.fixture(params=sorted(PROVIDERS), scope="module")
def sandbox_provider(request):
    provider = PROVIDERS[request.param]()
    yield provider
    provider.close()
