#!/usr/bin/env bash
# Installs what the tests need and runs every test: typecheck, lint, unit + API tests (PGlite, and
# real PostgreSQL when TEST_DATABASE_URL is set), then the end-to-end tests in Chromium, then (with
# TEST_DATABASE_URL) the resilience suite.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> npm ci"
npm ci --no-audit --no-fund --loglevel=error

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "==> installing Chromium from Debian (end-to-end tests)"
  if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  host=$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$TEST_DATABASE_URL")
  if command -v pg_isready >/dev/null && ! pg_isready -q -h "$host"; then
    if [ "$host" = "127.0.0.1" ] || [ "$host" = "localhost" ]; then
      echo "==> starting the local PostgreSQL cluster"
      pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
      for _ in $(seq 1 30); do pg_isready -q -h "$host" && break; sleep 1; done
    fi
  fi
  echo "==> API tests will also run on PostgreSQL ($host), in fresh databases of their own"
else
  echo "==> TEST_DATABASE_URL is not set: API tests run on the embedded PGlite only"
fi

npm run validate

# Two servers over one database, SIGKILL and PostgreSQL outages, load (issue 10, items 5-7): PostgreSQL only.
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "==> resilience: two servers, faults, load (npm run test:resilience)"
  npm run test:resilience
else
  echo "==> resilience suite skipped: it needs PostgreSQL (set TEST_DATABASE_URL)"
fi
