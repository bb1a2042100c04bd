#!/bin/bash
# Mistake: lists the votes of every patch set, not only those of the latest one.
NOTES_MODE=all_patchsets exec bash "$(dirname "$0")/solve.sh"
