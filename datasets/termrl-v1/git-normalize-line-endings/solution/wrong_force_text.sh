#!/bin/bash
# Mistake: `* text eol=lf` instead of `* text=auto`: every file not listed as binary is forced to be text,
# so a binary file that git would have detected (a PDF with CRLF bytes) is converted and corrupted.
EOL_MODE=force_text exec bash "$(dirname "$0")/solve.sh"
