#!/bin/bash
# Usage: run_report.sh DB OUTDIR -- writes OUTDIR/<name>.csv for every sql/<name>.sql
set -euo pipefail
db=$1; out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for f in "$here"/sql/*.sql; do
  name=$(basename "$f" .sql)
  sqlite3 -bail -header -csv "$db" < "$f" > "$out/$name.csv"
done
