"""Which of a container's processes serve something (pure parsing; the sandbox gathers the text).

A process *serves* when it holds a listening socket: a TCP socket in state LISTEN (``0A`` in
``/proc/net/tcp{,6}``) or a Unix stream socket accepting connections (flag ``00010000`` in
``/proc/net/unix``). Servers are kept running through the tests (the agent's deliverable may be
a running service); so are their descendants (workers) and ancestors (a supervisor loop),
up to but excluding the processes Docker started from outside (parent pid 0: the agent and
control shells) and PID 1.
"""

from __future__ import annotations

import re

_FD_DIR = re.compile(r"^/proc/(\d+)/fd/?:$")
_SOCKET = re.compile(r"-> socket:\[(\d+)\]$")


def parse_ps(text: str) -> dict[int, int]:
    """``pid ppid`` lines -> {pid: ppid}."""
    parents: dict[int, int] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            parents[int(parts[0])] = int(parts[1])
    return parents


def listening_inodes(net: str) -> set[int]:
    """Socket inodes in listening state, from ``== /proc/net/X`` sections followed by the table."""
    inodes: set[int] = set()
    table = ""
    for line in net.splitlines():
        if line.startswith("== "):
            table = line[3:].strip().rsplit("/", 1)[-1]
            continue
        cols = line.split()
        if table in ("tcp", "tcp6") and len(cols) >= 10 and cols[0].endswith(":"):
            if cols[3] == "0A" and cols[9].isdigit():
                inodes.add(int(cols[9]))
        elif table == "unix" and len(cols) >= 7 and cols[0].endswith(":"):
            try:
                flags = int(cols[3], 16)
            except ValueError:
                continue
            if flags & 0x10000 and cols[6].isdigit():
                inodes.add(int(cols[6]))
    return inodes


def socket_owners(ls_output: str) -> dict[int, set[int]]:
    """``ls -l /proc/[0-9]*/fd/`` output -> {pid: socket inodes it holds}."""
    owners: dict[int, set[int]] = {}
    pid = None
    for line in ls_output.splitlines():
        head = _FD_DIR.match(line.strip())
        if head:
            pid = int(head.group(1))
            continue
        sock = _SOCKET.search(line.strip())
        if sock and pid is not None:
            owners.setdefault(pid, set()).add(int(sock.group(1)))
    return owners


def servers(ps: str, net: str, fds: str) -> set[int]:
    """The pids to keep: listeners, their descendants and their ancestors below pid 0/1."""
    parents = parse_ps(ps)
    listen = listening_inodes(net)
    listeners = {pid for pid, inodes in socket_owners(fds).items() if inodes & listen and pid in parents}
    keep = set(listeners)
    grew = True
    while grew:  # descendants (workers)
        grew = False
        for pid, parent in parents.items():
            if parent in keep and pid not in keep:
                keep.add(pid)
                grew = True
    for pid in listeners:  # ancestors, stopping at processes Docker started (ppid 0) and at PID 1
        parent = parents.get(pid, 0)
        while parent > 1 and parent in parents and parents[parent] != 0 and parent not in keep:
            keep.add(parent)
            parent = parents[parent]
    keep.discard(1)
    return {pid for pid in keep if parents.get(pid, 0) != 0}
