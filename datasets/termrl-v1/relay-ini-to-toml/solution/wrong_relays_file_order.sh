#!/bin/bash
# Mistake: relays kept in the order their sections first appear instead of by priority, then name.
set -euo pipefail
sed 's/        out\["relays"\] = sorted(relays, key=lambda r: (r\["priority"\], r\["name"\]))/        out["relays"] = relays/' /solution/migrate_conf.py > /app/migrate-conf
chmod +x /app/migrate-conf
/app/migrate-conf /etc/mailrelay/relay.ini /etc/mailrelay/relay.toml
