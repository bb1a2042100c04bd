"""Writes a small sample of legacy password files (users and formats only; no cleartext anywhere)."""
import crypt
import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")
out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
(out / "intranet.htpasswd").write_text(
    "# intranet users, migrated 2019\n"
    "alice:" + crypt.crypt("x9-unknown", "$6$Qz1pL0aQ$") + "\n"
    "\n"
    "bob:" + crypt.crypt("x9-unknown2", "$2b$05$abcdefghijklmnopqrstuu") + "\n"
    "svc-legacy:" + crypt.crypt("x9-unknown3", "k7") + "\n"
    "old:$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG\n"
)
