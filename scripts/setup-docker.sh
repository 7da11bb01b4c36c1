#!/usr/bin/env bash
# Makes sure a Docker engine answers, for Debian-like machines run as root.
# - An engine already answers: prints its version and changes nothing.
# - Otherwise: installs docker.io if dockerd is missing, starts dockerd (through systemd when it
#   runs the machine, else detached with setsid, logging to $DOCKERD_LOG), and waits for it.
# Where it cannot act (not root, not Debian-like) it says what to do and exits non-zero.
set -euo pipefail

LOG=${DOCKERD_LOG:-/var/log/dockerd.log}
WAIT_SECONDS=${DOCKERD_WAIT_SECONDS:-60}

say() { printf 'setup-docker: %s\n' "$*"; }
fail() { printf 'setup-docker: %s\n' "$*" >&2; exit 1; }

engine_version() {
  command -v docker >/dev/null 2>&1 || return 1
  timeout 15 docker version --format '{{.Server.Version}}' 2>/dev/null
}

if version=$(engine_version); then
  say "a Docker engine already answers (version $version); nothing to do"
  exit 0
fi
if [ -n "${DOCKER_HOST:-}" ]; then
  fail "DOCKER_HOST=$DOCKER_HOST is set but no engine answers there: start that engine, or unset DOCKER_HOST and run this again"
fi

if [ "$(id -u)" != 0 ]; then
  if [ -S /var/run/docker.sock ] && [ ! -w /var/run/docker.sock ]; then
    fail "an engine socket exists at /var/run/docker.sock but this user may not use it: \`sudo usermod -aG docker $(id -un)\` then log in again (or run as root)"
  fi
  fail "no Docker engine answers, and installing or starting one needs root: run \`sudo bash $0\`, or start Docker Desktop / \`systemctl start docker\`"
fi
if ! command -v apt-get >/dev/null 2>&1 || [ ! -e /etc/debian_version ]; then
  fail "no Docker engine answers and this is not a Debian-like machine: install and start Docker (https://docs.docker.com/engine/install/) or Podman with its Docker-compatible socket"
fi

if ! command -v dockerd >/dev/null 2>&1; then
  say "installing docker.io"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io >/dev/null
fi

if command -v pgrep >/dev/null 2>&1 && pgrep -x dockerd >/dev/null 2>&1; then
  say "dockerd is already running; waiting for it to answer"
elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  say "starting docker through systemd"
  systemctl start docker
else
  say "starting dockerd (log: $LOG)"
  mkdir -p "$(dirname "$LOG")"
  setsid dockerd >>"$LOG" 2>&1 </dev/null &
fi

deadline=$((SECONDS + WAIT_SECONDS))
until version=$(engine_version); do
  if [ "$SECONDS" -ge "$deadline" ]; then
    [ -f "$LOG" ] && tail -n 20 "$LOG" >&2
    fail "dockerd did not answer within ${WAIT_SECONDS}s (see $LOG above)"
  fi
  sleep 0.5
done
say "Docker engine $version answers (after ${SECONDS}s)"
