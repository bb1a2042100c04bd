import random
import sys
from pathlib import Path

sys.path.insert(0, "/tmp/gen")
from drift import Drift  # noqa: E402

d = Drift(random.Random(31), n_users=30, n_teams=6)
out = Path("/app/example")
base = d.base(Path("/tmp/gen/base.db"))
d.drifted(base, out / "primary.db", 25)
d.drifted(base, out / "replica.db", 10)
