#!/bin/bash
# Quotes everything and fixes the comparison, but still orders snapshots lexically.
set -euo pipefail
cat > /app/snapshot.sh <<'SH'
#!/bin/bash
src=$1
dest=$2
keep=$3
if [ -z "$src" ] || [ -z "$dest" ] || [ -z "$keep" ]; then
  echo "usage: snapshot.sh SRC_DIR DEST_DIR KEEP" >&2
  exit 2
fi
mkdir -p -- "$dest"
last=$(ls -- "$dest" | grep '^snap-[0-9]*$' | sort | tail -1 | sed 's/snap-//')
next=$(( ${last:-0} + 1 ))
target=$dest/snap-$next
cp -a -- "$src" "$target"
count=$(ls -- "$dest" | grep -c '^snap-[0-9]*$')
for old in $(ls -- "$dest" | grep '^snap-[0-9]*$' | sort); do
  if [ "$count" -gt "$keep" ]; then
    rm -rf -- "$dest/$old"
    count=$((count - 1))
  fi
done
echo "$target"
SH
chmod +x /app/snapshot.sh
