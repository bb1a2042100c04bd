#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Mia Novak" GIT_AUTHOR_EMAIL="mia@example.si"
export GIT_COMMITTER_NAME="Mia Novak" GIT_COMMITTER_EMAIL="mia@example.si"
git init -q -b main /app/project
cd /app/project
git config gc.auto 0
i=0
c() { i=$((i + 1)); export GIT_AUTHOR_DATE="2025-08-0${i}T12:00:00 +0000" GIT_COMMITTER_DATE="2025-08-0${i}T12:00:00 +0000"; git add -A; git commit -q -m "$1"; }
mkdir -p src docs
printf 'def add(a, b):\n    return a + b\n' > src/calc.py; c "Add calculator"
printf '# calc\n' > docs/README.md; c "Add docs"
printf 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n' > src/calc.py; c "Add subtraction"
printf 'Usage: import calc\n' > docs/usage.txt; c "Add usage notes"
mkdir -p tests; printf 'from src.calc import add\n\nassert add(2, 2) == 4\n' > tests/test_calc.py; c "Add a test"
printf 'def mul(a, b):\n    return a * b\n' > src/mul.py; c "Add multiplication"
printf '# calc\n\nAdd, subtract and multiply.\n' > docs/README.md; c "Describe features"
printf 'def div(a, b):\n    if b == 0:\n        raise ZeroDivisionError("b is zero")\n    return a / b\n' > src/div.py; c "Add division"

# a backup clone that is two commits behind
git clone -q --no-hardlinks /app/project /app/backup
cd /app/backup
git reset -q --hard HEAD~2
git reflog expire --expire=now --all
git gc -q --prune=now
cd /app/project

obj() { echo ".git/objects/${1:0:2}/${1:2}"; }
# 1) a blob from an old commit (also in the backup) gets corrupted
b1=$(git rev-parse 'HEAD~5:src/calc.py')
chmod u+w "$(obj $b1)"; printf 'garbage after a disk error' > "$(obj $b1)"
# 2) a tree object (also in the backup) disappears
t1=$(git rev-parse 'HEAD~3^{tree}')
rm -f "$(obj $t1)"
# 3) the newest blob disappears; it exists only in the working tree now
b2=$(git rev-parse 'HEAD:src/div.py')
rm -f "$(obj $b2)"
