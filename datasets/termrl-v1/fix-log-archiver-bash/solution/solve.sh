#!/bin/bash
set -euo pipefail
cat > /app/logpack.sh <<'SH'
#!/bin/bash
# logpack.sh LOG_DIR ARCHIVE_DIR DAYS TODAY
#
# Log files in LOG_DIR (not recursive) are named <service>-<YYYY-MM-DD>.log, where <service>
# may itself contain dashes and spaces. A file is "old" when its date is at least DAYS days
# before TODAY (YYYY-MM-DD). All old files of the same date are packed into
# ARCHIVE_DIR/<date>.tar.gz (file names stored without directory). If that archive already
# exists, the script must fail for that date (exit status 1 at the end) without touching it
# or the files of that date; other dates are still processed. The originals of a date are
# deleted only after its archive was written successfully and verified (`tar -tzf` lists
# every file). For each archived date a line "<date> <number of files>" is appended to
# ARCHIVE_DIR/manifest.txt, dates in increasing order. Other files in LOG_DIR are ignored.
# Finally prints "archived <N> files in <M> archives" and exits 0 (or 1 as described above).
set -uo pipefail

log_dir=$1 archive_dir=$2 days=$3 today=$4
mkdir -p "$archive_dir" || exit 1
cutoff=$(date -d "$today - $days days" +%Y-%m-%d) || exit 1

files=0 archives=0 status=0
declare -A bydate=()

shopt -s nullglob
for path in "$log_dir"/*.log; do
  [ -f "$path" ] || continue
  f=${path##*/}
  [[ $f =~ ^(.+)-([0-9]{4}-[0-9]{2}-[0-9]{2})\.log$ ]] || continue
  d=${BASH_REMATCH[2]}
  [[ "$d" < "$cutoff" || "$d" == "$cutoff" ]] || continue
  bydate[$d]+="$f"$'\n'
done

mapfile -t dates < <(printf '%s\n' "${!bydate[@]}" | grep . | sort)
for day in "${dates[@]}"; do
  archive="$archive_dir/$day.tar.gz"
  if [ -e "$archive" ]; then
    echo "archive for $day exists" >&2
    status=1
    continue
  fi
  mapfile -t members < <(printf '%s' "${bydate[$day]}" | LC_ALL=C sort)
  if ! (cd "$log_dir" && tar -czf - -- "${members[@]}") > "$archive.tmp"; then
    rm -f "$archive.tmp"; status=1; continue
  fi
  listed=$(tar -tzf "$archive.tmp" | LC_ALL=C sort) || { rm -f "$archive.tmp"; status=1; continue; }
  if [ "$listed" != "$(printf '%s\n' "${members[@]}")" ]; then
    rm -f "$archive.tmp"; status=1; continue
  fi
  mv "$archive.tmp" "$archive"
  for m in "${members[@]}"; do rm -f -- "$log_dir/$m"; done
  echo "$day ${#members[@]}" >> "$archive_dir/manifest.txt"
  files=$((files + ${#members[@]}))
  archives=$((archives + 1))
done

echo "archived $files files in $archives archives"
exit $status
SH
chmod +x /app/logpack.sh
