"""Runs last (file order): the suite must leave no termrl container behind.

Containers of this test process, and any whose owning process has ended (the CLI tests' subprocesses),
count; containers of other live termrl runs on the same engine are not the suite's.
"""

from __future__ import annotations

import os

from termrl.sandbox.docker import LABEL


def _owner_alive(pid: str) -> bool:
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def test_no_termrl_container_remains(docker_client):
    leftovers = []
    for c in docker_client.containers.list(all=True, filters={"label": LABEL}):
        owner = c.labels.get(f"{LABEL}.owner_pid", "")
        if owner == str(os.getpid()) or not _owner_alive(owner):
            leftovers.append(c.name)
    assert leftovers == []
