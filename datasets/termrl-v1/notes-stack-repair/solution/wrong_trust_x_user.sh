#!/bin/bash
# Mistake: gets the stack running (ports, key, SQLite, socket dir, revocation) but leaves the gateway
# trusting an X-User header sent by the client.
set -euo pipefail
bash /solution/solve.sh
cd /app/stack
python3 - <<'PY'
p = "gateway.py"
s = open(p).read()
s = s.replace('''            tok = self.token()
            r = auth({"op": "check", "token": tok}) if tok else {}
            if not r.get("ok"):
                self.body()
                return self.reply(401, b'{"error": "unauthorized"}')
            return self.forward(method, self.path, r["user"])''', '''            user = self.headers.get("X-User")
            if not user:
                tok = self.token()
                r = auth({"op": "check", "token": tok}) if tok else {}
                if not r.get("ok"):
                    self.body()
                    return self.reply(401, b'{"error": "unauthorized"}')
                user = r["user"]
            return self.forward(method, self.path, user)''')
open(p, "w").write(s)
PY
