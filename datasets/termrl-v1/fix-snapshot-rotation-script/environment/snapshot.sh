#!/bin/bash
# usage: snapshot.sh SRC_DIR DEST_DIR KEEP
# Copies SRC_DIR (recursively, preserving modes) to DEST_DIR/snap-<n>, where n is one more
# than the highest existing snapshot number (1 for the first), then deletes the oldest
# snapshots (lowest numbers) so that at most KEEP remain. Prints the new snapshot's path.
src=$1
dest=$2
keep=$3

if [ -z $src ] || [ -z $dest ] || [ -z $keep ]; then
  echo "usage: snapshot.sh SRC_DIR DEST_DIR KEEP" >&2
  exit 2
fi

mkdir -p $dest
last=$(ls $dest | grep '^snap-' | sort | tail -1 | sed 's/snap-//')
next=$(( ${last:-0} + 1 ))
target=$dest/snap-$next
cp -a $src $target

count=$(ls $dest | grep -c '^snap-')
for old in $(ls $dest | grep '^snap-' | sort); do
  if [ $count > $keep ]; then
    rm -rf $dest/$old
    count=$((count - 1))
  fi
done
echo $target
