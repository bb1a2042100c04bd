#!/bin/bash
set -e
D=/app/inbox
mkdir -p "$D/Sub Folder"
for n in "Holiday Photo.JPG" "holiday photo.jpg" "holiday_photo.jpeg" "Report (final) v2.PDF" "report-final-v2.pdf" \
         "  spaced   out  .txt" "Résumé 2024.docx" "notes.TXT" "NOTES.txt" "archive.tar.GZ" "--weird--name--.md" "README"; do
  printf '%s\n' "$n" > "$D/$n"
done
echo inner > "$D/Sub Folder/Keep Me.TXT"
