#!/bin/bash
set -e
R=/srv/site
mkdir -p $R/public/css $R/public/img/icons $R/bin $R/config $R/uploads/2024 "$R/public/odd name"
for f in public/index.html public/about.html public/css/main.css public/img/logo.svg public/img/icons/a.svg \
         "public/odd name/page one.html" uploads/2024/report.pdf uploads/readme.txt config/app.ini bin/helpers.lib; do
  echo "content of $f" > "$R/$f"
done
printf '#!/bin/sh\necho deploy\n' > $R/bin/deploy.sh
printf '#!/bin/sh\necho purge\n' > $R/bin/purge-cache.sh
echo "DB_PASSWORD=hunter2" > $R/config/secrets.env
ln -s ../public/index.html $R/bin/index-link
chown -R nobody:nogroup $R
chmod -R 777 $R/uploads
chmod 4755 $R/bin/purge-cache.sh
chmod 600 $R/public/about.html
chmod 666 $R/config/secrets.env
chmod 700 $R/public/img
chmod 755 $R/bin/helpers.lib
