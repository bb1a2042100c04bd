#!/bin/bash
# Mistake: only /proc/net/tcp is read; connections made from IPv6 sockets (IPv4-mapped) live in /proc/net/tcp6.
set -euo pipefail
bash /solution/solve.sh
python3 - <<'PY'
p = "/app/identd/identd.py"
s = open(p).read()
old = """    for path, conv in (("/proc/net/tcp", addr4), ("/proc/net/tcp6", addr6)):"""
assert old in s
open(p, "w").write(s.replace(old, """    for path, conv in (("/proc/net/tcp", addr4),):"""))
PY
