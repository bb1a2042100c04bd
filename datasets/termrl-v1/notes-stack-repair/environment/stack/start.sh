#!/bin/bash
# Starts the whole stack; stays in the foreground until it is stopped.
cd /tmp
python3 /app/stack/authd.py &
python3 /app/stack/notesd.py &
exec python3 /app/stack/gateway.py
