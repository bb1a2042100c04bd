"""Runs last (file order): the suite must leave no termrl container behind."""

from __future__ import annotations

from termrl.sandbox.docker import LABEL


def test_no_termrl_container_remains(docker_client):
    leftovers = [c.name for c in docker_client.containers.list(all=True, filters={"label": LABEL})]
    assert leftovers == []
