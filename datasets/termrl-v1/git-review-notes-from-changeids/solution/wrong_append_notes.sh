#!/bin/bash
# Mistake: appends to existing notes and leaves stale notes in place instead of replacing them.
NOTES_MODE=append exec bash "$(dirname "$0")/solve.sh"
