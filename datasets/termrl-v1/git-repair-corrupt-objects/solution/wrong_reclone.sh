#!/bin/bash
# Mistake: replaces the damaged repository by a fresh clone of the backup, losing the newest commits.
set -euo pipefail
rm -rf /app/project.old
mv /app/project /app/project.old
git clone -q /app/backup /app/project
cp -r /app/project.old/src /app/project/ 2>/dev/null || true
rm -rf /app/project.old
cd /app/project
git add -A
git commit -q -m "Restore latest files"
