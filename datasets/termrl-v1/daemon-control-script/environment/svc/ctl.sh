#!/bin/bash
# TODO: this control script is a stub
case "$1" in
  start) nohup python3 /app/svc/worker.py & echo $! > /run/worker.pid ;;
  stop) kill $(cat /run/worker.pid) ;;
  status) ps aux | grep worker.py ;;
esac
