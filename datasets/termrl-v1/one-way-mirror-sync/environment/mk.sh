#!/bin/bash
set -e
S=/srv/projects; D=/backup/projects
mkdir -p $S/site/css $S/site/img $S/tools $S/cache/x $D/site/old $D/tools
echo "<h1>home</h1>" > $S/site/index.html
echo "body{}" > $S/site/css/main.css
head -c 5000 /dev/zero | tr '\0' 'x' > $S/site/img/logo.bin
printf '#!/bin/sh\necho build\n' > $S/tools/build.sh; chmod 750 $S/tools/build.sh
echo "temp" > $S/site/draft.tmp
echo "cached" > $S/cache/x/blob
ln -s site/index.html $S/home-link
touch -d '2024-01-01 10:00:00' $S/site/index.html $S/site/css/main.css $S/site/img/logo.bin $S/tools/build.sh
# stale mirror
echo "<h1>home</h1>" > $D/site/index.html; touch -d '2024-01-01 10:00:00' $D/site/index.html
echo "body{color:red}" > $D/site/css.old
echo "gone" > $D/site/old/page.html
echo "keep tmp" > $D/site/local.tmp
printf '#!/bin/sh\necho old\n' > $D/tools/build.sh
