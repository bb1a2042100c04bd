#!/bin/bash
# Mistake: keeps a commit for every commit in which the parser exists, including the ones that did not
# change it (the move, app-only and docs-only commits).
EXTRACT_MODE=keep_empty exec bash "$(dirname "$0")/solve.sh"
