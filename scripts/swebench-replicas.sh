#!/usr/bin/env bash
# Builds local replicas of published SWE-bench instance images, for the tests that run real
# SWE-bench rows where no image registry can be reached: one or more rows of each repository whose
# base commits the shared folder beside the project holds (../shared, or $SHARED). The builder and
# the rows come from there too. Replicas already present are kept; the builder caches the
# environment image the rows of a repository share.
#
# usage: scripts/swebench-replicas.sh [--if-possible]
#   --if-possible  exit 0 quietly where a replica cannot be built here (not root, no shared folder)
# Environment: SHARED; REPLICA_IDS (instance ids; default the rows below, which the tests run).
set -euo pipefail
cd "$(dirname "$0")/.."

SHARED=${SHARED:-../shared}
# One row a repository (two of sympy, and an xarray row whose conflicting variant adds a graded case), each of which
# resolves with its gold patch in its replica.
DEFAULT_IDS="sympy__sympy-24213 sympy__sympy-23534 django__django-16527 pylint-dev__pylint-7277
pytest-dev__pytest-10051 psf__requests-5414 mwaskom__seaborn-3069 pydata__xarray-4629 pydata__xarray-6599"
IDS=${REPLICA_IDS:-$DEFAULT_IDS}
ROWS=$SHARED/data/swebench/verified.jsonl
REPOS=$SHARED/data/swebench/repos
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

# The shared repository a row's base commit is in: the part of its id after the owner, before the number.
repo_of() {
  local name=${1#*__}
  printf '%s' "${name%-*}"
}

missing=()
for id in $IDS; do
  docker image inspect "$(image_of "$id")" >/dev/null 2>&1 || missing+=("$id")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "all present: $(echo $IDS)"
  exit 0
fi
[ -f "$ROWS" ] && [ -d "$REPOS" ] && [ -f "$BUILDER" ] || give_up "$mode" "no replica builder and data at $SHARED"
[ "$(id -u)" = 0 ] || give_up "$mode" "building replicas needs root (debootstrap)"
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for id in "${missing[@]}"; do
  name=$(repo_of "$id")
  tar=$REPOS/$name.git.tar
  [ -f "$tar" ] || give_up "$mode" "no repository $tar for $id"
  if [ ! -d "$work/$name" ]; then
    mkdir -p "$work/$name"
    tar -C "$work/$name" -xf "$tar"
  fi
  repo=$(find "$work/$name" -maxdepth 2 -name '*.git' -type d | head -n 1)
  say "building $(image_of "$id")"
  started=$SECONDS
  INSTANCE=$id HISTORY=base WORK="$work/build" bash "$BUILDER" "$ROWS" "$repo"
  say "built $id in $((SECONDS - started))s"
done
