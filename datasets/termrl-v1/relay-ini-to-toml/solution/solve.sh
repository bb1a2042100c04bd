#!/bin/bash
set -euo pipefail
cp /solution/migrate_conf.py /app/migrate-conf
chmod +x /app/migrate-conf
/app/migrate-conf /etc/mailrelay/relay.ini /etc/mailrelay/relay.toml
cat /etc/mailrelay/relay.toml
