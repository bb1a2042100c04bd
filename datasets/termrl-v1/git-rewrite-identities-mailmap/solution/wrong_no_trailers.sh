#!/bin/bash
# Mistake: rewrites author and committer but leaves the identities in the message trailers as they were.
MAILMAP_MODE=no_trailers exec bash "$(dirname "$0")/solve.sh"
