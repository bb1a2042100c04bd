#!/bin/bash
# deploy.sh - install, list and roll back releases of an application under a deploy root.
#
#   deploy.sh ROOT ARTIFACT.tar.gz   install a release
#   deploy.sh ROOT --rollback        go back one release
#   deploy.sh ROOT --list            list the installed releases
#
# Layout under ROOT (ROOT and its sub-directories are created when missing):
#   releases/ID/   one directory per installed release; ID is the artifact's file name without ".tar.gz"
#                  (letters, digits, ".", "_" and "-" only; anything else: exit 64)
#   current        a symbolic link whose target is exactly "releases/ID" (relative), the live release
#   shared/        files shared by all releases (configuration, uploads, ...)
#   shared.list    optional; one path per line, relative to a release (a path may contain spaces, empty
#                  lines are ignored): in every new release, that path becomes a symbolic link to
#                  ROOT/shared/<path> (absolute), replacing whatever the artifact had there
#   deploy.log     one line "<n> <ID>" per successful install, n = 1, 2, 3, ...: the deploy order
#
# Install: fails with exit 2 (and changes nothing) when releases/ID already exists. Otherwise unpacks the
# artifact (a gzip'ed tar of the release's files, no top-level directory) into releases/ID, creates the
# shared links, then, if the release has an executable bin/healthcheck, runs it with the release directory
# as working directory; when it fails, the new release directory is removed, nothing else changes and the
# exit status is 3. Then the install is appended to deploy.log, `current` is switched to the new release
# (atomically: at no moment is there no `current`, and `current` never becomes a directory or a link inside
# a release), and old releases are pruned: only the KEEP (environment variable, default 3) most recently
# deployed releases (by deploy order) are kept; the others' directories are deleted. Exit 0.
#
# Rollback: switches `current` to the release that was deployed immediately before the current one (in
# deploy order) and still exists; rolling back again goes further back. Nothing is deleted or logged. With
# no such release: message on stderr, exit 1, nothing changes.
#
# List: prints the installed releases (those in deploy.log that still exist) in deploy order, oldest first,
# one per line: "* ID" for the current release and "  ID" (two spaces) for the others.
set -euo pipefail

die() {
  echo "deploy: $2" >&2
  exit "$1"
}

[ $# -eq 2 ] || die 64 "usage: deploy.sh ROOT ARTIFACT.tar.gz | ROOT --rollback | ROOT --list"
mkdir -p "$1/releases" "$1/shared"
root=$(cd "$1" && pwd)
keep=${KEEP:-3}
log="$root/deploy.log"
touch "$log"

deployed_ids() {
  awk '{print $2}' "$log"
}

current_id() {
  if [ -L "$root/current" ]; then
    basename "$(readlink "$root/current")"
  fi
}

switch_to() {
  ln -s "releases/$1" "$root/.current.new"
  mv -T "$root/.current.new" "$root/current"
}

prune() {
  local ids count=0 i id
  mapfile -t ids < <(deployed_ids)
  for ((i = ${#ids[@]} - 1; i >= 0; i--)); do
    id=${ids[i]}
    [ -d "$root/releases/$id" ] || continue
    count=$((count + 1))
    if [ "$count" -gt "$keep" ]; then
      rm -rf "${root:?}/releases/$id"
    fi
  done
}

case $2 in
--list)
  cur=$(current_id)
  while read -r id; do
    [ -d "$root/releases/$id" ] || continue
    if [ "$id" = "$cur" ]; then echo "* $id"; else echo "  $id"; fi
  done < <(deployed_ids)
  ;;
--rollback)
  cur=$(current_id)
  [ -n "$cur" ] || die 1 "nothing is deployed"
  mapfile -t ids < <(deployed_ids)
  prev="" seen=""
  for ((i = ${#ids[@]} - 1; i >= 0; i--)); do
    if [ -n "$seen" ] && [ -d "$root/releases/${ids[i]}" ]; then
      prev=${ids[i]}
      break
    fi
    [ "${ids[i]}" = "$cur" ] && seen=1
  done
  [ -n "$prev" ] || die 1 "no earlier release to roll back to"
  switch_to "$prev"
  ;;
*)
  art=$2
  name=$(basename "$art")
  [[ $name == *.tar.gz ]] || die 64 "the artifact must be a .tar.gz file"
  id=${name%.tar.gz}
  [[ $id =~ ^[A-Za-z0-9._-]+$ ]] || die 64 "bad release id: $id"
  dir="$root/releases/$id"
  [ ! -e "$dir" ] || die 2 "release $id already exists"
  mkdir "$dir"
  tar -xzf "$art" -C "$dir"
  if [ -f "$root/shared.list" ]; then
    while IFS= read -r rel || [ -n "$rel" ]; do
      [ -n "$rel" ] || continue
      mkdir -p "$(dirname "$dir/$rel")"
      rm -rf "${dir:?}/$rel"
      ln -s "$root/shared/$rel" "$dir/$rel"
    done < "$root/shared.list"
  fi
  if [ -x "$dir/bin/healthcheck" ] && ! (cd "$dir" && ./bin/healthcheck); then
    rm -rf "$dir"
    die 3 "health check of $id failed"
  fi
  n=$(($(wc -l < "$log") + 1))
  echo "$n $id" >> "$log"
  switch_to "$id"
  prune
  ;;
esac
