"""Who owns a termrl container, and removing the ones whose owner is gone.

Every container termrl starts carries its owner's identity in labels: the host's boot id,
the PID namespace, the pid and the process start time (``/proc/<pid>/stat`` field 22, in
clock ticks since boot). A pid alone is not enough: pids are recycled, so a container of a
crashed run could look owned by an unrelated process that happens to get the same pid.
The triple (boot id, PID namespace, pid + start time) names one process for its lifetime.

:func:`reap_orphans` removes a container only when it can *prove* the owner is gone: the
owner ran on this host (same boot id) in this PID namespace, and no process with that pid and
start time exists now. Containers of other hosts (a multi-host run reaching this engine from
elsewhere), of other PID namespaces, or without these labels are never touched: their owner
may be alive, and only ``termrl clean`` (a person's decision) removes the unlabelled ones.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

LABEL = "termrl"
OWNER_PID = f"{LABEL}.owner_pid"
OWNER_START = f"{LABEL}.owner_start"
"""Start time of the owning process, clock ticks since boot (``/proc/<pid>/stat`` field 22)."""
OWNER_BOOT = f"{LABEL}.owner_boot"
"""The owning host's boot id (``/proc/sys/kernel/random/boot_id``): changes with every boot."""
OWNER_PIDNS = f"{LABEL}.owner_pidns"
"""The owner's PID namespace (``/proc/self/ns/pid``): pids mean something only inside it."""
OWNER_HOST = f"{LABEL}.owner_host"
"""The owner's host name (for people reading ``docker ps``; not used to decide)."""


@functools.lru_cache(maxsize=1)
def boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot), or None if there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    fields = stat[stat.rfind(")") + 2:].split()
    return fields[19] if len(fields) > 19 else None  # field 22 overall = index 19 after the name


def owner_labels(pid: int | None = None) -> dict[str, str]:
    """The labels naming this process (or ``pid``) as a container's owner."""
    pid = os.getpid() if pid is None else pid
    return {OWNER_PID: str(pid), OWNER_START: process_start(pid) or "", OWNER_BOOT: boot_id(),
            OWNER_PIDNS: pid_namespace(), OWNER_HOST: os.uname().nodename}


def owner_state(labels: dict[str, str]) -> str:
    """``alive``, ``gone`` or ``unknown`` (the owner cannot be checked from here)."""
    pid, start = labels.get(OWNER_PID, ""), labels.get(OWNER_START, "")
    boot, pidns = labels.get(OWNER_BOOT, ""), labels.get(OWNER_PIDNS, "")
    if not (pid.isdigit() and start and boot and pidns):
        return "unknown"  # an older or foreign label set
    if boot != boot_id() or pidns != pid_namespace():
        return "unknown"  # another host, another boot, or a process in another container
    now = process_start(int(pid))
    return "alive" if now == start else "gone"


def reap_orphans(client, *, dry_run: bool = False) -> list[str]:
    """Remove the termrl containers on ``client``'s engine whose owning process provably ended.

    Works on any engine a run uses (pass each host's client). Never touches a container whose
    owner is alive or cannot be checked from this host. Returns the names removed (or that
    would be, with ``dry_run``). A container that vanishes meanwhile (its owner closed it) is skipped.
    """
    import docker.errors

    removed = []
    for container in client.containers.list(all=True, ignore_removed=True, filters={"label": LABEL}):
        if owner_state(container.labels) != "gone":
            continue
        if not dry_run:
            try:
                container.remove(force=True, v=True)
            except docker.errors.NotFound:
                continue
            except docker.errors.APIError as exc:  # e.g. removal already in progress
                log.warning("could not remove orphaned container %s: %s", container.name, exc)
                continue
        removed.append(container.name)
    if removed:
        log.warning("removed %d container(s) left by ended termrl runs: %s", len(removed), ", ".join(removed))
    return removed


def remove_own(client, pid: int | None = None) -> list[str]:
    """Remove the containers this process (or ``pid``, same start time) owns: the last resort at exit."""
    import docker.errors

    me = owner_labels(pid)
    removed = []
    filters = {"label": [LABEL, f"{OWNER_PID}={me[OWNER_PID]}", f"{OWNER_START}={me[OWNER_START]}"]}
    for container in client.containers.list(all=True, ignore_removed=True, filters=filters):
        if container.labels.get(OWNER_BOOT) != me[OWNER_BOOT]:
            continue
        try:
            container.remove(force=True, v=True)
            removed.append(container.name)
        except docker.errors.APIError:
            continue
    return removed
