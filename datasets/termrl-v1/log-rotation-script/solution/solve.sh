#!/bin/bash
set -euo pipefail
cat > /app/rotate.sh <<'SH'
#!/bin/bash
set -euo pipefail
dir="${1:-}"; keep="${2:-}"
if [ ! -d "$dir" ]; then echo "not a directory: $dir" >&2; exit 2; fi
if ! [[ "$keep" =~ ^[0-9]+$ ]] || [ "$keep" -lt 1 ]; then echo "KEEP must be a positive integer" >&2; exit 2; fi
shopt -s nullglob
for log in "$dir"/*.log; do
  [ -f "$log" ] && [ ! -L "$log" ] || continue
  [ -s "$log" ] || continue
  # find highest existing rotation
  max=1
  for f in "$log".*; do
    n="${f#"$log".}"; n="${n%.gz}"
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt "$max" ] && max=$n
  done
  for ((k=max; k>=2; k--)); do
    if [ -e "$log.$k.gz" ]; then
      if [ $((k+1)) -gt "$keep" ]; then rm -f "$log.$k.gz"; else mv -f "$log.$k.gz" "$log.$((k+1)).gz"; fi
    fi
  done
  if [ -e "$log.1" ]; then
    if [ 2 -gt "$keep" ]; then rm -f "$log.1"; else gzip -n -c "$log.1" > "$log.2.gz"; chmod --reference="$log.1" "$log.2.gz"; rm -f "$log.1"; fi
  fi
  cp -p "$log" "$log.1"
  : > "$log"
done
SH
chmod +x /app/rotate.sh
/app/rotate.sh /var/log/shopd 4
