#!/bin/bash
set -euo pipefail
mkdir -p /app/kvserver
cp /solution/server.py /app/kvserver/server.py
cat > /app/kvserver/run.sh <<'SH'
#!/bin/bash
exec python3 /app/kvserver/server.py
SH
chmod +x /app/kvserver/run.sh
