#!/bin/bash
set -euo pipefail
cd /app/quotesvc
cat > quotesvc.ini <<'INI'
[server]
bind = 127.0.0.1
port = 7070
quotes_file = quotes.txt
INI
python3 - <<'PY'
p = "/app/quotesvc/server.py"
s = open(p).read()
s = s.replace('import configparser\nimport socket\n', 'import configparser\nimport os\nimport socket\n\nHERE = os.path.dirname(os.path.abspath(__file__))\n')
s = s.replace('cfg.read("quotesvc.ini")', 'cfg.read(os.path.join(HERE, "quotesvc.ini"))')
s = s.replace('open(sec.get("quotes_file"), encoding="utf-8")', 'open(os.path.join(HERE, sec.get("quotes_file")), encoding="utf-8")')
s = s.replace('    srv.bind((HOST, PORT))', '    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n    srv.bind((HOST, PORT))')
open(p, "w").write(s)
PY
cat > run.sh <<'SH'
#!/bin/bash
cd "$(dirname "$0")"
exec python3 server.py
SH
chmod +x run.sh
