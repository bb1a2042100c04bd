"""The backup directory /srv/backups of this machine (a few months of backups of three hosts)."""
import os

D = "/srv/backups"
os.makedirs(D, exist_ok=True)
plan = {
    "web1": [("2026-09-01_020000", "full"), ("2026-09-02_020000", "incr"), ("2026-09-03_020000", "incr"),
             ("2026-09-04_020000", "diff"), ("2026-09-05_020000", "incr"), ("2026-09-08_020000", "full"),
             ("2026-09-09_020000", "incr"), ("2026-09-10_020000", "incr", 0), ("2026-09-11_020000", "incr"),
             ("2026-09-12_020000", "diff")],
    "db-2": [("2026-08-30_233000", "incr"), ("2026-09-01_233000", "full", 0), ("2026-09-02_233000", "diff"),
             ("2026-09-03_233000", "full"), ("2026-09-04_233000", "diff"), ("2026-09-05_233000", "diff"),
             ("2026-09-06_233000", "incr")],
    "mail": [("2026-07-01_010000", "full"), ("2026-09-01_010000", "incr")],
}
for host, items in plan.items():
    for it in items:
        size = it[2] if len(it) > 2 else 64
        with open(os.path.join(D, f"{host}_{it[0]}_{it[1]}.tar.gz"), "wb") as f:
            f.write(b"\x1f\x8b" + b"x" * (size - 2) if size else b"")
for extra in ["README", "web1_2026-09-13_020000_full.tar.gz.part", "Web1_2026-09-14_020000_full.tar.gz",
              "web1_2026-02-30_020000_full.tar.gz"]:
    with open(os.path.join(D, extra), "w") as f:
        f.write("not a backup\n")
