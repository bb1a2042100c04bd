#!/bin/bash
set -euo pipefail
cp /solution/dnsd.py /app/dns/dnsd.py
cat > /app/dns/run.sh <<'SH'
#!/bin/bash
exec python3 /app/dns/dnsd.py
SH
chmod +x /app/dns/run.sh
