#!/bin/bash
# /srv/data (a home-directory style tree with per-directory .backup-filter files) and /app/backup.rules.
set -euo pipefail
D=/srv/data
mk() { mkdir -p "$(dirname "$D/$1")"; echo "$1" > "$D/$1"; }
for f in alice/notes.txt alice/photos/a.jpg alice/photos/.thumbs/a.jpg alice/.cache/pip/x.whl alice/src/app/main.c \
         alice/src/app/main.o alice/src/app/build/out.bin alice/src/lib/util.c alice/src/lib/util.o alice/tmp/scratch \
         bob/mail/inbox bob/mail/spam/1 bob/mail/spam/2 bob/vm/disk.img bob/vm/config.xml bob/todo.md \
         shared/readme.md shared/build/log shared/docs/build/index.html shared/docs/guide.md \
         core "weird name [x].txt" lost+found/0001; do
  mk "$f"
done
printf -- '- *.o\n- build/\n' > $D/alice/src/.backup-filter
printf -- '- tmp\n+ /src/***\n- .*\n' > $D/alice/.backup-filter
printf -- '!\n- spam/\n' > $D/bob/mail/.backup-filter
printf -- '- *.img\n' > $D/bob/.backup-filter
ln -s ../shared $D/bob/shared-link
ln -s /etc $D/alice/etc-link
cat > /app/backup.rules <<'R'
# global backup selection
- /lost+found/
- core
: .backup-filter
+ */.cache/pip/***
- .cache/
- *.tmp
R
