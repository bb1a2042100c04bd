#!/bin/bash
set -e
mkdir -p /opt/legacy/bin /etc/report /usr/local/sbin
cat > /opt/legacy/bin/python3 <<'S'
#!/bin/sh
echo "Python 2.7.18 (legacy shim)" >&2
exit 1
S
cat > /opt/legacy/bin/legacy-tool <<'S'
#!/bin/sh
echo "legacy-tool ok"
S
chmod 755 /opt/legacy/bin/*
cat > /usr/local/sbin/report <<'S'
#!/bin/sh
echo "report v1 is retired, use v2" >&2
exit 3
S
chmod 755 /usr/local/sbin/report
cat > /usr/local/bin/report <<'S'
#!/usr/bin/env python3
import configparser, os, sys
conf = os.environ.get("REPORT_CONF", "/etc/report/missing.ini")
c = configparser.ConfigParser()
if not c.read(conf):
    sys.exit(f"report: cannot read {conf}")
s = c["report"]
print(f"report v2 for {s['site']} using {sys.executable}")
print(f"retention={s['retention_days']}d")
S
chmod 755 /usr/local/bin/report
printf '[report]\nsite = plant-7\nretention_days = 45\n' > /etc/report/report.ini
echo 'export PATH="/opt/legacy/bin:$PATH"' > /etc/profile.d/10-legacy.sh
echo 'export REPORT_CONF=/etc/report/conf.ini' > /etc/profile.d/20-report.sh
