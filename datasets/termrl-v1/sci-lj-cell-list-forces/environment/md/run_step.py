"""Times one force evaluation of the production-size system (what the nightly job does 10^5 times)."""
import sys
import time

import numpy as np

sys.path.insert(0, "/app/md")
module = __import__(sys.argv[1] if len(sys.argv) > 1 else "reference")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
rng = np.random.default_rng(1)
L = (n / 0.8) ** (1 / 3)
pos = rng.uniform(0, L, (n, 3))
t = time.process_time()
energy, forces, virial = module.compute(pos, L, 2.5)
print(f"N={n} energy={energy:.6f} virial={virial:.6f} cpu={time.process_time() - t:.2f}s")
