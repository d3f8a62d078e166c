#!/usr/bin/env bash
# Installs what the tests need and runs every test: typecheck, lint, unit + API tests (PGlite, and
# real PostgreSQL when there is one), then the end-to-end tests in Chromium, then (on PostgreSQL) the
# resilience suite. PostgreSQL: TEST_DATABASE_URL when set; else this machine's own cluster when one
# is installed (/etc/postgresql) and its postgres user connects without a password on 127.0.0.1
# (started first if it is down); else none. TEST_DATABASE_URL=none runs on PGlite only.
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

LOCAL_PG_URL=postgres://postgres@127.0.0.1:5432/postgres
start_local_pg() {
  if command -v pg_isready >/dev/null && ! pg_isready -q -h 127.0.0.1; then
    echo "==> starting the local PostgreSQL cluster"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
  fi
}
if [ "${TEST_DATABASE_URL:-}" = "none" ]; then
  unset TEST_DATABASE_URL
elif [ -z "${TEST_DATABASE_URL:-}" ] && [ -d /etc/postgresql ] && command -v psql >/dev/null; then
  start_local_pg
  if psql -w -q -At -d "$LOCAL_PG_URL" -c "select 1" >/dev/null 2>&1; then
    export TEST_DATABASE_URL="$LOCAL_PG_URL"
    echo "==> found this machine's PostgreSQL at 127.0.0.1:5432"
  else
    echo "==> this machine's PostgreSQL does not let postgres connect on 127.0.0.1 without a password: set TEST_DATABASE_URL"
  fi
fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  host=$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$TEST_DATABASE_URL")
  if [ "$host" = "127.0.0.1" ] || [ "$host" = "localhost" ]; then start_local_pg; fi
  echo "==> API tests will also run on PostgreSQL ($host), in fresh databases of their own"
else
  echo "==> no PostgreSQL: API tests run on the embedded PGlite only"
fi

npm run validate

# Two servers over one database, SIGKILL and PostgreSQL outages, load (issue 10, items 5-7): PostgreSQL only.
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "==> resilience: two servers, faults, load (npm run test:resilience)"
  npm run test:resilience
else
  echo "==> resilience suite skipped: it needs PostgreSQL (set TEST_DATABASE_URL)"
fi
