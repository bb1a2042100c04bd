#!/bin/bash
# Mistake: TOML strings written as "..." with only double quotes escaped; backslashes are not escaped,
# so a value like b\s or C:\new reads back differently (or not at all).
set -euo pipefail
python3 - <<'PY'
src = open("/solution/migrate_conf.py").read()
a = src.index("def tstr(s):")
b = src.index("def tval(v):")
src = src[:a] + '''def tstr(s):
    return '"' + s.replace('"', '\\\\"') + '"'


''' + src[b:]
open("/app/migrate-conf", "w").write(src)
PY
chmod +x /app/migrate-conf
/app/migrate-conf /etc/mailrelay/relay.ini /etc/mailrelay/relay.toml
