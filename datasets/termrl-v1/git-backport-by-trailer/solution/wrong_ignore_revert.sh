#!/bin/bash
# Mistake: backports every commit whose trailer names the branch, including one that main later reverted.
BACKPORT_MODE=ignore_revert exec bash "$(dirname "$0")/solve.sh"
