#!/bin/bash
# A small repository whose two branches edit different settings of the same JSON file on adjacent lines.
set -euo pipefail
export GIT_AUTHOR_NAME=ops GIT_AUTHOR_EMAIL=ops@example.test GIT_COMMITTER_NAME=ops GIT_COMMITTER_EMAIL=ops@example.test
export GIT_AUTHOR_DATE="2026-03-01T10:00:00Z" GIT_COMMITTER_DATE="2026-03-01T10:00:00Z"
git init -q -b main "$1" && cd "$1"
cat > services.json <<'JSON'
{
  "name": "edge",
  "replicas": 2,
  "limits": {
    "cpu": "500m",
    "memory": "256Mi"
  },
  "routes": [
    {"id": "api", "path": "/api", "timeout": 30},
    {"id": "web", "path": "/", "timeout": 10}
  ]
}
JSON
git add services.json && git commit -qm "edge service"
git checkout -qb feature
python3 - <<'PY'
import json
d = json.load(open("services.json"))
d["replicas"] = 3
d["routes"][0]["timeout"] = 45
d["routes"].append({"id": "admin", "path": "/admin", "timeout": 5})
open("services.json", "w").write(json.dumps(d, indent=2) + "\n")
PY
git commit -qam "feature: scale edge, admin route"
git checkout -q main
python3 - <<'PY'
import json
d = json.load(open("services.json"))
d["name"] = "edge-eu"
d["limits"]["memory"] = "512Mi"
d["routes"][0]["path"] = "/api/v2"
open("services.json", "w").write(json.dumps(d, indent=2) + "\n")
PY
git commit -qam "main: rename, more memory, api v2"
