#!/bin/bash
set -euo pipefail
cp /solution/server.py /app/ratelimit/server.py
cat > /app/ratelimit/run.sh <<'SH'
#!/bin/bash
exec python3 /app/ratelimit/server.py
SH
chmod +x /app/ratelimit/run.sh
