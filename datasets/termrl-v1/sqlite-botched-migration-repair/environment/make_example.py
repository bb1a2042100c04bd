import shutil
import sqlite3
import subprocess
import sys
sys.path.insert(0, "/tmp")
from shopgen import make_v1, app_activity

make_v1("/app/shop/backup_v1.db", open("/app/shop/schema_v1.sql").read(), 2024)
shutil.copy("/app/shop/backup_v1.db", "/app/shop/current.db")
subprocess.run([sys.executable, "/app/shop/migrate_v2.py", "/app/shop/current.db"], check=True)
con = sqlite3.connect("/app/shop/current.db")
con.execute("PRAGMA foreign_keys = ON")
con.execute("UPDATE _migrations SET applied_at = '2024-06-03 01:00:00'")
con.commit()
app_activity(con, 2025, "2024-06-03 01:00:00")
