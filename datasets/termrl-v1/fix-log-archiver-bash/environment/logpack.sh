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
set -euo pipefail

log_dir=$1 archive_dir=$2 days=$3 today=$4
mkdir -p "$archive_dir"
cutoff=$(date -d "$today - $days days" +%Y-%m-%d)

files=0 archives=0 status=0

for f in $(ls "$log_dir" | grep -E '\.log$'); do
  d=${f: -14:10}
  [[ "$d" < "$cutoff" ]] || continue
  echo "$d"
done | sort -u | while read -r day; do
  archive="$archive_dir/$day.tar.gz"
  if [ -e "$archive" ]; then
    echo "archive for $day exists" >&2
    status=1
    continue
  fi
  members=$(cd "$log_dir" && ls | grep -- "-$day.log$")
  (cd "$log_dir" && tar -cf - $members) | gzip > "$archive"
  n=$(echo "$members" | wc -l)
  rm -f "$log_dir"/*-"$day".log
  echo "$day $n" >> "$archive_dir/manifest.txt"
  ((files += n))
  ((archives++))
done

echo "archived $files files in $archives archives"
exit $status
