#!/usr/bin/env bash
# Builds local replicas of published SWE-bench instance images, for the tests that run real
# SWE-bench rows where no image registry can be reached. The builder, the rows and a repository
# holding their base commits come from the shared folder beside the project (../shared, or
# $SHARED). Replicas already present are kept; the builder caches the environment image they share.
#
# usage: scripts/swebench-replicas.sh [--if-possible]
#   --if-possible  exit 0 quietly where a replica cannot be built here (not root, no shared folder)
# Environment: SHARED, REPLICA_IDS (instance ids; default two sympy rows of SWE-bench Verified).
set -euo pipefail
cd "$(dirname "$0")/.."

SHARED=${SHARED:-../shared}
IDS=${REPLICA_IDS:-"sympy__sympy-24213 sympy__sympy-23534"}
ROWS=$SHARED/data/swebench/verified.jsonl
REPOS=$SHARED/data/swebench/repos/sympy.git.tar
BUILDER=$SHARED/tools/swebench-replica/build.sh

say() { printf 'swebench-replicas: %s\n' "$*"; }
give_up() {
  if [ "${1:-}" = --if-possible ]; then say "$2; skipped"; exit 0; fi
  say "$2" >&2
  exit 1
}
mode=${1:-}

image_of() {
  local lower
  lower=$(printf '%s' "$1" | tr 'A-Z' 'a-z')
  printf 'swebench/sweb.eval.x86_64.%s:latest' "${lower//__/_1776_}"
}

missing=()
for id in $IDS; do
  docker image inspect "$(image_of "$id")" >/dev/null 2>&1 || missing+=("$id")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "all present: $IDS"
  exit 0
fi
[ -f "$ROWS" ] && [ -f "$REPOS" ] && [ -f "$BUILDER" ] || give_up "$mode" "no replica builder and data at $SHARED"
[ "$(id -u)" = 0 ] || give_up "$mode" "building replicas needs root (debootstrap)"
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xf "$REPOS"
repo=$(find "$work" -maxdepth 2 -name '*.git' -type d | head -n 1)
for id in "${missing[@]}"; do
  say "building $(image_of "$id")"
  started=$SECONDS
  INSTANCE=$id HISTORY=base WORK="$work/build" bash "$BUILDER" "$ROWS" "$repo"
  say "built $id in $((SECONDS - started))s"
done
