#!/bin/bash
set -euo pipefail
cat > /app/dupfind.sh <<'SH'
#!/bin/bash
set -euo pipefail
export LC_ALL=C
link=0
if [ "${1-}" = "--link" ]; then link=1; shift; fi
if [ $# -ne 1 ] || [ ! -d "$1" ] || [[ "$1" == -* && ! -d "$1" ]]; then
  echo "usage: dupfind.sh [--link] DIR" >&2
  exit 2
fi
dir=$1
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# hash<TAB>relpath for non-empty regular files
( cd -- "$dir" && find . -type f -size +0 -print0 | while IFS= read -r -d '' f; do
    rel=${f#./}
    h=$(sha256sum < "$rel" | cut -d' ' -f1)
    printf '%s\t%s\n' "$h" "$rel"
  done ) | sort -t $'\t' -k1,1 -k2 > "$tmp"
# group: keep hashes that appear >= 2 times
groups=$(cut -f1 "$tmp" | uniq -d)
[ -z "$groups" ] && exit 0
declare -a firsts=()
declare -A members=()
while IFS= read -r h; do
  paths=$(awk -F'\t' -v h="$h" '$1 == h { sub(/^[^\t]*\t/, ""); print }' "$tmp" | sort)
  first=$(printf '%s\n' "$paths" | head -n 1)
  firsts+=("$first")
  members["$first"]=$paths
done <<< "$groups"
mapfile -t ordered < <(printf '%s\n' "${firsts[@]}" | sort)
if [ $link -eq 1 ]; then
  for first in "${ordered[@]}"; do
    while IFS= read -r p; do
      [ "$p" = "$first" ] && continue
      ln -f -- "$dir/$first" "$dir/$p"
    done <<< "${members[$first]}"
  done
  exit 0
fi
sep=""
for first in "${ordered[@]}"; do
  printf '%s' "$sep"
  printf '%s\n' "${members[$first]}"
  sep=$'\n'
done
SH
