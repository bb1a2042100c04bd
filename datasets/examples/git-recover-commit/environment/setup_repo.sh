#!/bin/bash
# Builds /app/repo with a fixed author and fixed dates, so every build gives the same commits.
set -euo pipefail

export GIT_AUTHOR_NAME="Dana Developer" GIT_AUTHOR_EMAIL="dana@example.com"
export GIT_COMMITTER_NAME="Dana Developer" GIT_COMMITTER_EMAIL="dana@example.com"
at() { export GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; }

git init -q -b main /app/repo
cd /app/repo
git config gc.auto 0

mkdir -p src
cat > README.md <<'TXT'
# inventory-service

A small service that tracks stock levles across warehouses.

Run it with `python -m src.app`.
TXT
cat > CHANGELOG.md <<'TXT'
# Changelog

- 1.0.0: first release
TXT
cat > src/app.py <<'TXT'
from src.config import load_config


def main():
    config = load_config()
    print(f"inventory-service listening on port {config['port']}")


if __name__ == "__main__":
    main()
TXT
cat > src/config.py <<'TXT'
def load_config():
    return {"port": 8080}
TXT
git add -A && at "2024-03-04T09:15:00" && git commit -q -m "Initial commit"

cat > src/config.py <<'TXT'
import json
import os


def load_config(path=os.environ.get("INVENTORY_CONFIG", "config.json")):
    defaults = {"port": 8080, "database_url": "sqlite:///inventory.db"}
    if os.path.exists(path):
        with open(path) as fh:
            defaults.update(json.load(fh))
    return defaults
TXT
git add -A && at "2024-03-05T14:02:00" && git commit -q -m "Add config loader"

# An early draft of the guide lives on a side branch.
git checkout -q -b docs-draft
mkdir -p docs
cat > docs/MIGRATION.md <<'TXT'
# Migration guide (DRAFT)

TODO: describe the database changes.
TXT
git add -A && at "2024-03-06T10:30:00" && git commit -q -m "WIP migration guide draft"
git checkout -q main

# The final guide, committed on main ...
mkdir -p docs
cat > docs/MIGRATION.md <<'TXT'
# Migrating from 1.0 to 2.0

1. Stop the service.
2. Back up `inventory.db`.
3. Set `database_url` in `config.json`; the old `DB_PATH` variable is ignored.
4. Run `python -m src.migrate --from 1.0 --to 2.0`.
5. Start the service and check that `/health` reports `schema: 2`.
TXT
cat >> CHANGELOG.md <<'TXT'
- 2.0.0: configurable database URL (see docs/MIGRATION.md)
TXT
git add -A && at "2024-03-07T16:45:00" && git commit -q -m "Add migration guide"

# ... and then lost by an accidental hard reset, followed by new work.
at "2024-03-08T08:00:00" && git reset -q --hard HEAD~1
sed -i 's/levles/levels/' README.md
git add -A && at "2024-03-08T08:20:00" && git commit -q -m "Fix typo in README"
