#!/bin/bash
set -euo pipefail
cd /app/logs
{ zcat app.log.2.gz; cat app.log.1 app.log; } \
  | grep -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z ERROR \[[^]]+\] ' \
  | sed -E 's/^[^ ]+ ERROR \[([^]]+)\].*/\1/' \
  | sort | uniq -c \
  | awk '{print $2, $1}' \
  | sort -k2,2nr -k1,1 > /app/error_report.txt
