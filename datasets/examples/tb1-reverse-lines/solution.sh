#!/bin/bash
set -euo pipefail
cat > /app/reverse_lines.sh <<'SH'
#!/bin/bash
# Print stdin's lines last-first; a missing final newline still counts as a line end.
awk '{ lines[NR] = $0 } END { for (i = NR; i >= 1; i--) print lines[i] }'
SH
chmod +x /app/reverse_lines.sh
/app/reverse_lines.sh < /app/poem.txt > /app/poem_reversed.txt
