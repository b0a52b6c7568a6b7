#!/usr/bin/env bash
# Set up everything the tests need on a fresh Debian machine, from nothing:
# Debian's Chromium (browser tests), a running PostgreSQL (archive tests on the
# shared-archive backend), and a virtual environment .venv with the package
# and its test extras.  Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then $SUDO apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# 1. Chromium from Debian (never `playwright install`: it downloads a browser).
if [ ! -x /usr/bin/chromium ]; then
  echo "[setup] installing Debian's chromium"
  apt_install chromium
fi

# 2. PostgreSQL: start it if it is installed but down; install it if missing.
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "[setup] installing PostgreSQL"
  apt_install postgresql
fi
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "[setup] starting PostgreSQL"
  ver=$(ls /etc/postgresql | sort -n | tail -1)
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi
# the tests use database "test" with trust auth for the local user
if pg_isready -q -h 127.0.0.1 -p 5432; then
  if ! psql -h 127.0.0.1 -U postgres -d test -c "select 1" >/dev/null 2>&1; then
    $SUDO -u postgres createdb test 2>/dev/null || su postgres -c "createdb test" 2>/dev/null || true
  fi
fi

# 3. Python environment.
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "[setup] creating .venv"
  $PY -m venv .venv
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
# jsonschema imports rfc3987-syntax when present: 4-5 s in every kernel start
.venv/bin/python -m pip uninstall -q -y rfc3987-syntax >/dev/null 2>&1 || true
echo "[setup] ready"
