import random
import shutil
import sys
from pathlib import Path

sys.path.insert(0, "/tmp/gen")
from workload import Primary  # noqa: E402

out = Path("/app/example")
p = Primary(random.Random(2024))
p.run(400)
p.finish()
p.state_db(out / "replica.db", 120)
p.write_log(out / "changelog", 150)
