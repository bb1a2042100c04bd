#!/bin/bash
# Starts the mail stack (smtpd + pop3d) and stays in the foreground; SIGTERM stops both.
python3 smtpd.py &
python3 pop3d.py &
trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM INT
wait
