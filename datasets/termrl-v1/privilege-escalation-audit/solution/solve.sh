#!/bin/bash
set -euo pipefail
changed=$(mktemp)
# 1. setuid / setgid
find / -xdev \( -perm -4000 -o -perm -2000 \) -type f 2>/dev/null | sort > /tmp/suid_now.txt
comm -23 /tmp/suid_now.txt <(sort /app/suid_allowlist.txt) | while read -r f; do
  chmod ug-s "$f"; echo "$f" >> "$changed"
done
# 2. root cron targets and their directories
fix_path() {
  local p="$1"
  while [ "$p" != "/" ]; do
    if [ "$(stat -c %U "$p")" != root ] || [ $(( 0$(stat -c %a "$p") & 022 )) -ne 0 ]; then
      chown root "$p"; chmod go-w "$p"; echo "$p" >> "$changed"
    fi
    p=$(dirname "$p")
  done
}
for f in /etc/crontab /etc/cron.d/*; do
  [ -f "$f" ] || continue
  awk '!/^[[:space:]]*#/ && NF >= 7 && $1 !~ /=/ && $6 == "root" {print $7}' "$f"
done | sort -u | while read -r prog; do if [ -e "$prog" ]; then fix_path "$prog"; fi; done
# 3. cron files
for f in /etc/cron.d/*; do
  if [ "$(stat -c %U "$f")" != root ] || [ $(( 0$(stat -c %a "$f") & 022 )) -ne 0 ]; then
    chown root "$f"; chmod go-w "$f"; echo "$f" >> "$changed"
  fi
done
# 4. sudoers
for f in /etc/sudoers.d/*; do
  if grep -Eq '^[^#].*=.*(:[[:space:]]*|\)[[:space:]]*)ALL[[:space:]]*$' "$f"; then
    grep -Ev '^[^#].*=.*(:[[:space:]]*|\)[[:space:]]*)ALL[[:space:]]*$' "$f" > "$f.new" || true
    cat "$f.new" > "$f"; rm -f "$f.new"; echo "$f" >> "$changed"
  fi
done
# 5. authorized_keys
for f in /home/*/.ssh/authorized_keys; do
  if grep -vxFf /app/approved_keys.txt "$f" | grep -q .; then
    grep -xFf /app/approved_keys.txt "$f" > "$f.new" || true
    cat "$f.new" > "$f"; rm -f "$f.new"; echo "$f" >> "$changed"
  fi
done
sort -u "$changed" > /app/audit_report.txt
cat /app/audit_report.txt
