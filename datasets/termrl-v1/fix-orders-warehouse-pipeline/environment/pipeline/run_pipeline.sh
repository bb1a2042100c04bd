#!/bin/bash
# run_pipeline.sh INBOX DB OUTDIR FX_CSV  (see PIPELINE.md)
if [ $# -ne 4 ]; then echo "usage: run_pipeline.sh INBOX DB OUTDIR FX_CSV" >&2; exit 2; fi
INBOX=$1 DB=$2 OUT=$3 FX=$4
ETL=$(dirname "$(readlink -f "$0")")/etl
python3 "$ETL/load.py" init "$DB"
for f in $(cd "$INBOX" && ls | LC_ALL=C sort); do
  if python3 "$ETL/load.py" seen "$DB" "$f"; then continue; fi
  python3 "$ETL/load.py" mark "$DB" "$f"
  python3 "$ETL/extract.py" "$INBOX/$f" | python3 "$ETL/load.py" load "$DB"
done
python3 "$ETL/report.py" "$DB" "$FX" "$OUT"
