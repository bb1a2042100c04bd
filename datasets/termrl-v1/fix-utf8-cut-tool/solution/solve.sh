#!/bin/bash
# The fixed program: bytes handled as unsigned, well-formed UTF-8 checked (continuation bytes, overlong
# forms, surrogates, range), lines read whole into a growing buffer, open ranges run to the end of the line,
# each character printed once in line order, no newline invented after a last line, unreadable files skipped.
set -euo pipefail
cp "$(dirname "$0")/ucut.c" /app/ucut.c
cd /app && make -s
