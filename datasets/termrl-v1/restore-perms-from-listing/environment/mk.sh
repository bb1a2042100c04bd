#!/bin/bash
# Builds /srv/share with varied owners, modes and times, records it with ls, then "damages" it.
set -euo pipefail
R=/srv/share
mkdir -p "$R/bin" "$R/docs/old reports" "$R/drop box" "$R/web/static" "$R/keys"
printf 'backup tool\n' > "$R/bin/backup"
printf 'helper\n' > "$R/bin/setgid-helper"
printf 'plan\n' > "$R/docs/plan.txt"
printf 'q1\n' > "$R/docs/old reports/q1 2023.csv"
printf 'q2\n' > "$R/docs/old reports/ leading space.txt"
printf 'upload\n' > "$R/drop box/README"
printf '<html></html>\n' > "$R/web/index.html"
printf 'body{}\n' > "$R/web/static/site.css"
printf 'secret\n' > "$R/keys/id_ed25519"
printf 'public\n' > "$R/keys/id_ed25519.pub"
ln -s ../docs/plan.txt "$R/web/plan-link"
ln -s "old reports" "$R/docs/archive"
chown -R 1001:1001 "$R"
chown 0:0 "$R/bin" "$R/bin/backup"
chown 0:50 "$R/bin/setgid-helper"
chown -h 1002:1003 "$R/web/plan-link"
chown 33:33 "$R/web" "$R/web/index.html" "$R/web/static" "$R/web/static/site.css"
chown 1002:100 "$R/drop box" "$R/docs/old reports/ leading space.txt"
chmod 0751 "$R"
chmod 0755 "$R/bin" "$R/docs" "$R/web" "$R/web/static"
chmod 4755 "$R/bin/backup"
chmod 2711 "$R/bin/setgid-helper"
chmod 1777 "$R/drop box"
chmod 2750 "$R/docs/old reports"
chmod 0640 "$R/docs/plan.txt" "$R/docs/old reports/q1 2023.csv"
chmod 6604 "$R/docs/old reports/ leading space.txt"
chmod 0600 "$R/drop box/README" "$R/keys/id_ed25519"
chmod 0644 "$R/keys/id_ed25519.pub" "$R/web/index.html" "$R/web/static/site.css"
chmod 0700 "$R/keys"
chmod 1750 "$R/web/static"
t=1600000000
find "$R" -depth -print0 | sort -z | while IFS= read -r -d '' p; do
  t=$((t + 86411)); touch -h -d "@$t" "$p"
done
mkdir -p /root
ls -lanR --time-style=+%s "$R" > /root/share.ls
# the accident
rm "$R/keys/id_ed25519.pub"
printf 'new\n' > "$R/docs/new notes.txt"
chown -hR 0:0 "$R"
chmod -R a+rwX "$R"
find "$R" -exec touch -h {} +
