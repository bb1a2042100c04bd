#!/bin/bash
set -euo pipefail
export GIT_AUTHOR_NAME="Omar Haddad" GIT_AUTHOR_EMAIL="omar@example.io"
export GIT_COMMITTER_NAME="Omar Haddad" GIT_COMMITTER_EMAIL="omar@example.io"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }
KEY="sk_live_51HxTq9LmZ3vQ8pRr2Ys"
PW="Tr0ub4dor-prod-7731"

git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0
mkdir -p app config

cat > app/main.py <<'PY'
from app import settings


def describe():
    return f"shop running in {settings.MODE} mode"
PY
touch app/__init__.py
cat > app/settings.py <<'PY'
MODE = "development"
PY
printf '__pycache__/\n' > .gitignore
git add -A && at "2025-04-01T09:00:00" && git commit -q -m "Initial shop skeleton"

cat > config/prod.env <<TXT
STRIPE_KEY=$KEY
DB_PASSWORD=$PW
TXT
git add -A && at "2025-04-02T09:00:00" && git commit -q -m "Add production environment file"

cat > app/settings.py <<PY
MODE = "production"
STRIPE_KEY = "$KEY"
PY
git add -A && at "2025-04-03T09:00:00" && git commit -q -m "Configure payments"
git tag -a v0.9 -m "Beta release 0.9"

cat >> app/settings.py <<'PY'
CURRENCY = "EUR"
PY
sed -i "s/^DB_PASSWORD=.*/DB_PASSWORD=$PW\nDB_HOST=db.internal/" config/prod.env
git add -A && at "2025-04-04T09:00:00" && git commit -q -m "Add currency and DB host"

git checkout -q -b release
cat >> app/settings.py <<'PY'
TIMEOUT = 30
PY
git add -A && at "2025-04-05T12:00:00" && git commit -q -m "Increase payment timeout for release"
git tag -a v1.0 -m "Release 1.0"
git checkout -q main

cat >> app/main.py <<'PY'


def banner():
    return "Welcome to the shop"
PY
git add -A && at "2025-04-06T09:00:00" && git commit -q -m "Add banner"

cat > app/settings.py <<'PY'
import os

MODE = "production"
STRIPE_KEY = os.environ["STRIPE_KEY"]
CURRENCY = "EUR"
PY
git rm -q config/prod.env
git add -A && at "2025-04-07T09:00:00" && git commit -q -m "Read secrets from the environment"

printf '# shop\n\nSet STRIPE_KEY and DB_PASSWORD in the environment.\n' > README.md
git add -A && at "2025-04-08T09:00:00" && git commit -q -m "Add README"
