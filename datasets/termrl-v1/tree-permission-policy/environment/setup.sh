#!/bin/bash
# /srv/site (a deploy tree with drifted permissions), its policy /app/site.policy, and the accounts used.
set -euo pipefail
groupadd -g 1500 webdev
useradd -u 1501 -g webdev -M -d /srv/site -s /usr/sbin/nologin deploy
S=/srv/site
mkdir -p $S/public/css $S/public/uploads/2026 $S/app/lib $S/app/bin $S/config $S/logs/old $S/.git/objects
for f in public/index.html public/css/site.css public/uploads/2026/cat.jpg app/lib/core.py app/lib/util.py \
         app/bin/run.sh app/bin/migrate config/app.ini config/secrets.env logs/access.log logs/old/access.log.1 \
         .git/config .git/objects/ab12 README.md; do
  echo "content of $f" > "$S/$f"
done
ln -s ../config/app.ini $S/app/app.ini
ln -s /etc/passwd $S/public/passwd-link
chown -R root:root $S
chmod -R 0777 $S
chmod 0644 $S/README.md $S/public/index.html
chmod 4755 $S/app/bin/migrate
chmod 0600 $S/config/secrets.env
chmod 2777 $S/public/uploads
cat > /app/site.policy <<'P'
# deploy tree policy: later rules refine earlier ones
**            deploy:webdev  u=rwX,g=rX,o=rX
*/            -              g+s
public/uploads/        www-data      1770
public/uploads/**      www-data:webdev  ug=rwX,o=
app/bin/*     -              a+x
app/bin/migrate  root        u+s,o-rx
config/*.env  root:www-data  0640
logs/         -              o-rx
logs/**/*.log*  -            a-x
.git/**       deploy         go-rwx
*.md          -              a=r
P
