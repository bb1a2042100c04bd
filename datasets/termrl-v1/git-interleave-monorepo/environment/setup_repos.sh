#!/bin/bash
set -euo pipefail
mk() {  # repo name, author name, email, date, message, then commands via stdin
  local repo=$1 name=$2 email=$3 date=$4 msg=$5
  cd /app/$repo
  bash -e
  git add -A
  GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email" GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email" \
    GIT_AUTHOR_DATE="$date +0000" GIT_COMMITTER_DATE="$date +0000" git commit -q -m "$msg"
}
for r in frontend backend; do git init -q -b main /app/$r; git -C /app/$r config gc.auto 0; done

mk frontend "Yuki Tanaka" yuki@example.jp 2025-01-03T10:00:00 "Scaffold frontend" <<'S'
mkdir -p src; echo '<div id="app"></div>' > index.html; echo 'console.log("hello")' > src/main.js
S
mk backend "Lars Berg" lars@example.no 2025-01-02T09:00:00 "Scaffold API server" <<'S'
mkdir -p api; printf 'from flask import Flask\napp = Flask(__name__)\n' > api/server.py; echo 'flask' > requirements.txt
S
mk backend "Lars Berg" lars@example.no 2025-01-04T12:30:00 "Add health endpoint" <<'S'
printf '\n@app.get("/health")\ndef health():\n    return {"ok": True}\n' >> api/server.py
S
mk frontend "Yuki Tanaka" yuki@example.jp 2025-01-05T08:15:00 "Add API client" <<'S'
printf 'export async function health() {\n  return (await fetch("/health")).json();\n}\n' > src/api.js
S
mk frontend "Ines Moreau" ines@example.fr 2025-01-06T16:45:00 "Style the landing page" <<'S'
mkdir -p styles; echo 'body { font-family: sans-serif; }' > styles/site.css
S
mk backend "Ines Moreau" ines@example.fr 2025-01-07T11:00:00 "Add README" <<'S'
printf '# backend\n\nRun with flask --app api.server run\n' > README.md
S
mk frontend "Yuki Tanaka" yuki@example.jp 2025-01-08T09:20:00 "Add README" <<'S'
printf '# frontend\n\nOpen index.html\n' > README.md
S
mk backend "Lars Berg" lars@example.no 2025-01-09T14:00:00 "Pin flask version" <<'S'
echo 'flask==3.0.0' > requirements.txt
S
mk backend "Lars Berg" lars@example.no 2025-01-10T10:10:00 "Remove unused requirements file" <<'S'
git rm -q requirements.txt; printf '[project]\nname = "backend"\ndependencies = ["flask==3.0.0"]\n' > pyproject.toml
S
mk frontend "Ines Moreau" ines@example.fr 2025-01-11T13:05:00 "Show health status" <<'S'
printf 'import { health } from "./api.js";\nhealth().then(h => console.log(h.ok));\n' > src/main.js
S
mk frontend "Yuki Tanaka" yuki@example.jp 2025-01-12T17:30:00 "Make start script executable" <<'S'
printf '#!/bin/sh\npython3 -m http.server 8000\n' > serve.sh; chmod +x serve.sh
S
