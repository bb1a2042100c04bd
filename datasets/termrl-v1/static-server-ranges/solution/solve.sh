#!/bin/bash
set -euo pipefail
mkdir -p /app/static
cp /solution/server.py /app/static/server.py
cat > /app/static/run.sh <<'SH'
#!/bin/bash
exec python3 /app/static/server.py
SH
chmod +x /app/static/run.sh
