import datetime, os, random
rng = random.Random(11)
import sys
d = sys.argv[1] if len(sys.argv) > 1 else "/backups/db"
os.makedirs(d, exist_ok=True)
t = datetime.datetime(2024, 6, 1, 1, 0, 0)
end = datetime.datetime(2025, 3, 15, 23, 0, 0)
while t < end:
    if rng.random() < 0.8:
        for _ in range(rng.choice([1, 1, 2, 3])):
            ts = t + datetime.timedelta(hours=rng.randint(0, 22), minutes=rng.randint(0, 59), seconds=rng.randint(0, 59))
            open(os.path.join(d, ts.strftime("db-%Y%m%d-%H%M%S.sql.gz")), "wb").write(b"x")
    t += datetime.timedelta(days=1)
open(os.path.join(d, "db-20250315-235959.sql.gz.partial"), "wb").write(b"in progress")
open(os.path.join(d, "README.txt"), "w").write("nightly dumps\n")
open(os.path.join(d, "db-latest.sql.gz"), "w").write("not a snapshot name\n")
