#!/bin/bash
# Mistake: maps identities by e-mail address alone; the shared team address belonged to two people, so
# every commit under it is given to one of them.
MAILMAP_MODE=email_only exec bash "$(dirname "$0")/solve.sh"
