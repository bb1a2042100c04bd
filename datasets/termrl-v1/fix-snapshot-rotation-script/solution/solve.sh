#!/bin/bash
set -euo pipefail
cat > /app/snapshot.sh <<'SH'
#!/bin/bash
# usage: snapshot.sh SRC_DIR DEST_DIR KEEP
# Copies SRC_DIR (recursively, preserving modes) to DEST_DIR/snap-<n>, where n is one more
# than the highest existing snapshot number (1 for the first), then deletes the oldest
# snapshots (lowest numbers) so that at most KEEP remain. Prints the new snapshot's path.
set -eu
if [ $# -lt 3 ] || [ -z "$1" ] || [ -z "$2" ] || [ -z "$3" ]; then
  echo "usage: snapshot.sh SRC_DIR DEST_DIR KEEP" >&2
  exit 2
fi
src=$1
dest=$2
keep=$3

mkdir -p -- "$dest"
nums=()
for p in "$dest"/snap-*; do
  [ -e "$p" ] || continue
  n=${p##*/snap-}
  [[ $n =~ ^[0-9]+$ ]] || continue
  nums+=("$((10#$n))")
done
last=0
for n in "${nums[@]+"${nums[@]}"}"; do
  (( n > last )) && last=$n
done
next=$((last + 1))
target=$dest/snap-$next
cp -a -- "$src" "$target"
nums+=("$next")

mapfile -t sorted < <(printf '%s\n' "${nums[@]}" | sort -n)
count=${#sorted[@]}
for n in "${sorted[@]}"; do
  if (( count > keep )); then
    rm -rf -- "$dest/snap-$n"
    count=$((count - 1))
  fi
done
printf '%s\n' "$target"
SH
chmod +x /app/snapshot.sh
