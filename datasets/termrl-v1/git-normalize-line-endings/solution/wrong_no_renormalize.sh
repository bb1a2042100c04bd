#!/bin/bash
# Mistake: commits the right .gitattributes but never re-normalizes the files already in the repository,
# so their blobs keep their CRLF line endings.
EOL_MODE=no_renormalize exec bash "$(dirname "$0")/solve.sh"
