#!/bin/bash
# Mistake: reads whole directories in priority order (usr/lib, run, etc) instead of merging by file name, and ignores masks.
set -euo pipefail
cat > /app/sysctl-merge <<'SH'
#!/bin/bash
R="$1"
{
  for d in usr/lib/sysctl.d run/sysctl.d etc/sysctl.d; do
    for f in $(ls "$R/$d" 2>/dev/null | grep '\.conf$' | sort); do cat "$R/$d/$f" 2>/dev/null; echo; done
  done
  cat "$R/etc/sysctl.conf" 2>/dev/null
} | grep -v '^[[:space:]]*[#;]' | grep '=' | sed -E 's/^[[:space:]]*-?//; s/[[:space:]]*=[[:space:]]*/=/; s/[[:space:]]+$//' \
  | awk -F= '{k=$1; gsub("/", ".", k); v[k]=$2} END {for (k in v) print k " = " v[k]}' | LC_ALL=C sort
SH
chmod +x /app/sysctl-merge
/app/sysctl-merge /app/sysroot > /app/effective.conf
