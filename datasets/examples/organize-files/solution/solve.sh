#!/bin/bash
set -euo pipefail
cd /app/inbox
shopt -s dotglob nullglob
for path in *; do
    [ -f "$path" ] || continue
    base="${path#.}"            # a leading dot of a hidden file is not an extension separator
    if [[ "$base" == *.* ]]; then
        ext="${base##*.}"
        ext="${ext,,}"
    else
        ext="no_extension"
    fi
    mkdir -p "/app/sorted/$ext"
    mv -- "$path" "/app/sorted/$ext/"
done
find /app/sorted -type f | sort
