#!/bin/bash
PIDFILE=/run/worker.pid
READY=/run/worker.ready
LOG=/var/log/worker.log
WORKER=/app/svc/worker.py

valid_pid() {
  local pid
  [ -f "$PIDFILE" ] || return 1
  pid=$(cat "$PIDFILE" 2>/dev/null)
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "$WORKER" || return 1
  grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null && return 1
  echo "$pid"
}

alive() { kill -0 "$1" 2>/dev/null && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

do_start() {
  local pid
  if pid=$(valid_pid); then echo "already running (pid $pid)"; return 0; fi
  rm -f "$PIDFILE" "$READY"
  setsid python3 "$WORKER" </dev/null >>"$LOG" 2>&1 &
  pid=$!
  echo "$pid" > "$PIDFILE.tmp" && mv "$PIDFILE.tmp" "$PIDFILE"
  for _ in $(seq 1 100); do
    if [ -f "$READY" ] && alive "$pid"; then return 0; fi
    if ! alive "$pid"; then break; fi
    sleep 0.1
  done
  alive "$pid" && kill -KILL "$pid" 2>/dev/null
  rm -f "$PIDFILE"
  echo "failed to start" >&2
  return 1
}

do_stop() {
  local pid t
  if ! pid=$(valid_pid); then rm -f "$PIDFILE"; echo "not running"; return 0; fi
  kill -TERM "$pid" 2>/dev/null
  t=$(( ${STOP_TIMEOUT:-10} * 10 ))
  while [ $t -gt 0 ] && alive "$pid"; do sleep 0.1; t=$((t-1)); done
  if alive "$pid"; then kill -KILL "$pid" 2>/dev/null; while alive "$pid"; do sleep 0.05; done; fi
  rm -f "$PIDFILE"
  return 0
}

do_status() {
  local pid
  if pid=$(valid_pid); then echo "running (pid $pid)"; return 0; fi
  if [ -f "$PIDFILE" ]; then echo "dead but pid file exists"; return 1; fi
  echo "not running"; return 3
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
  restart) do_stop; do_start ;;
  *) echo "usage: $0 start|stop|status|restart" >&2; exit 2 ;;
esac
