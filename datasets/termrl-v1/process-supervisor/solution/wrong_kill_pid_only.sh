#!/bin/bash
# Mistake: signals only the child PID on shutdown, not its process group (grandchildren survive).
set -euo pipefail
sed 's/os.killpg(p.proc.pid, signal.SIGTERM)/os.kill(p.proc.pid, signal.SIGTERM)/; s/os.killpg(p.proc.pid, signal.SIGKILL)/os.kill(p.proc.pid, signal.SIGKILL)/' /solution/supervise.py > /app/supervise.py
