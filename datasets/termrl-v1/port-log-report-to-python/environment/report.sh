#!/bin/bash
# Summarise a web server access log.
# usage: report.sh [-n N] LOGFILE      (N = how many top paths to list, default 3)
set -eu
export LC_ALL=C
top=3
while getopts "n:" o; do
  case $o in
    n) top=$OPTARG ;;
    *) echo "usage: report.sh [-n N] LOGFILE" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: report.sh [-n N] LOGFILE" >&2; exit 2; }
log=$1
[ -r "$log" ] || { echo "cannot read $log" >&2; exit 1; }

# line format: IP - - [date zone] "METHOD PATH PROTO" STATUS BYTES
lines=$(grep -c . "$log" || true)
echo "requests: $lines"
echo "unique_ips: $(awk 'NF{print $1}' "$log" | sort -u | wc -l)"
awk 'NF{b=$10; if (b == "-") b = 0; s += b} END{printf "bytes: %d\n", s}' "$log"
echo "top_paths:"
awk 'NF{print $7}' "$log" | sort | uniq -c | sort -k1,1nr -k2,2 | head -n "$top" | awk '{printf "  %s %d\n", $2, $1}'
echo "status:"
awk 'NF{print substr($9, 1, 1) "xx"}' "$log" | sort | uniq -c | awk '{printf "  %s %d\n", $2, $1}'
