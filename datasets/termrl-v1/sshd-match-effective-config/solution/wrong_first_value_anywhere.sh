#!/bin/bash
# Mistake: "first value wins" applied in file order across global lines and matching Match blocks
# alike, so a global value given earlier beats a matching Match block.
set -euo pipefail
sed 's/                target = self.global_vals if block is None else self.match_vals/                target = self.global_vals/' /solution/sshd_eff.py > /app/sshd-eff
chmod +x /app/sshd-eff
