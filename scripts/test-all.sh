#!/usr/bin/env bash
# Installs what the tests need and runs every test: typecheck, lint, unit + API tests (PGlite, and
# real PostgreSQL when there is one), the end-to-end tests in Chromium, then (on PostgreSQL) the
# resilience suite. Ends with each phase's time and one closing line, "tests: N passed, N failed".
#
# PostgreSQL: TEST_DATABASE_URL when set; else this machine's own cluster when one is installed
# (/etc/postgresql) and its postgres user connects without a password on 127.0.0.1 (started first
# if it is down); else none. TEST_DATABASE_URL=none runs on PGlite only.
#
# Two Node lines in one run (decision 0021): the unit tests and the PGlite half of the API tests run
# on Node 24 (fetched once into .cache/node24 by scripts/lib/node24.mjs); everything else, the
# PostgreSQL half of the API tests, the servers of the e2e and resilience runs, on this machine's
# Node (20.19+). Typecheck and lint run side by side, and so do the two API halves (each one worker;
# TEST_API_SERIAL=1: one after the other). The e2e specs run once: on PostgreSQL against two servers over one database (the
# two-server proof), on PGlite against one server.
#
# Object storage (decision 0023): the storage, attachments and storage:migrate tests and the
# resilience suite start their own S3-protocol server on 127.0.0.1 (s3rver, a dev dependency that
# `npm ci` installs; scripts/s3-server.mjs), so nothing else is installed or started for them.
set -euo pipefail
cd "$(dirname "$0")/.."

NAMES=()
SECS=()
STATES=()
STARTED=$SECONDS
# record NAME SECONDS STATE
record() {
  NAMES+=("$1")
  SECS+=("$2")
  STATES+=("$3")
}
# phase NAME COMMAND...: runs and times one phase; a failure ends the command (after the times).
phase() {
  local name=$1 t0=$SECONDS rc=0
  shift
  echo "==> $name"
  "$@" || rc=$?
  record "$name" $((SECONDS - t0)) "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc)")"
  return $rc
}
print_times() {
  [ ${#NAMES[@]} -gt 0 ] || return 0
  echo
  echo "==> phase times"
  local i
  for i in "${!NAMES[@]}"; do
    printf '  %-40s %3d:%02d  %s\n' "${NAMES[$i]}" $((SECS[i] / 60)) $((SECS[i] % 60)) "${STATES[$i]}"
  done
  local total=$((SECONDS - STARTED))
  printf '  %-40s %3d:%02d\n' "total" $((total / 60)) $((total % 60))
}
on_exit() {
  local rc=$?
  # On success the times come before the closing line (below); on a failure, here.
  if [ $rc != 0 ]; then print_times; fi
}
trap on_exit EXIT

phase "npm ci" npm ci --no-audit --no-fund --loglevel=error

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  install_chromium() {
    if [ "$(id -u)" = "0" ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  }
  phase "chromium install (Debian)" install_chromium
else
  record "chromium install (Debian)" 0 "already installed"
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

NODE24=""
fetch_node24() { NODE24=$(node scripts/lib/node24.mjs); }
phase "node 24 (.cache/node24)" fetch_node24
NODE20=$(command -v node)
echo "==> Node $("$NODE24" --version) for the unit and PGlite API tests, Node $("$NODE20" --version) for the rest"

rm -rf test-results/api*.json test-results/*.log test-results/*.seconds test-results/e2e.json test-results/resilience.json
mkdir -p test-results
# timed LOG COMMAND...: runs COMMAND with its output into LOG, and "seconds exit" into LOG.seconds.
timed() {
  local log=$1 t0=$SECONDS rc=0
  shift
  "$@" >"$log" 2>&1 || rc=$?
  echo "$((SECONDS - t0)) $rc" >"$log.seconds"
  return $rc
}
# report_runs "NAME|LOG"...: prints each run's output and records its time; fails if any failed.
report_runs() {
  local run label log secs rc failed=0
  for run in "$@"; do
    label=${run%|*}
    log=${run#*|}
    echo
    echo "----- $label ($log)"
    cat "$log"
    read -r secs rc <"$log.seconds"
    record "$label" "$secs" "$([ "$rc" = 0 ] && echo ok || echo "FAILED (exit $rc)")"
    [ "$rc" = 0 ] || failed=1
  done
  return $failed
}

# Typecheck and lint side by side: each is one process on one core.
echo "==> typecheck and lint, side by side"
timed test-results/typecheck.log npm run typecheck &
pid=$!
timed test-results/lint.log npm run lint || true
wait $pid || true
report_runs "typecheck|test-results/typecheck.log" "lint|test-results/lint.log"
VITEST=node_modules/vitest/vitest.mjs
REPORT=(--reporter=default --reporter=json)
# api_run NODE JSON LOG VITEST-ARGS...: one vitest run, timed into LOG.
api_run() {
  local node=$1 json=$2 log=$3
  shift 3
  timed "$log" "$node" "$VITEST" run "$@" "${REPORT[@]}" --outputFile.json="$json"
}
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  NODE20_ARGS=(--project api-pg)
  NODE20_NAME="API on PostgreSQL (Node 20)"
  NODE20_JSON=test-results/api-pg.json
else
  # No PostgreSQL half: the unit tests run on Node 20 too, so that both lines run tests here.
  NODE20_ARGS=(--project unit)
  NODE20_NAME="unit (Node 20)"
  NODE20_JSON=test-results/api-unit-node20.json
fi
API_REPORTS=(test-results/api-pglite.json "$NODE20_JSON")
echo "==> API tests: unit + PGlite on Node 24 and ${NODE20_NAME% (*} on Node 20, $([ "${TEST_API_SERIAL:-}" = 1 ] && echo "one after the other" || echo "side by side")"
t0=$SECONDS
api_run "$NODE24" test-results/api-pglite.json test-results/api-pglite.log --project unit --project api-pglite &
pid24=$!
if [ "${TEST_API_SERIAL:-}" = 1 ]; then wait $pid24 || true; fi
api_run "$NODE20" "$NODE20_JSON" test-results/api-node20.log "${NODE20_ARGS[@]}" || true
wait $pid24 || true
api_rc=0
report_runs "unit + API on PGlite (Node 24)|test-results/api-pglite.log" "$NODE20_NAME|test-results/api-node20.log" ||
  api_rc=1
record "API tests, wall clock" $((SECONDS - t0)) "$([ $api_rc = 0 ] && echo ok || echo FAILED)"
[ $api_rc = 0 ] || exit 1

# On PostgreSQL: two servers over one database (tests/e2e/across-servers.ts); else one on PGlite.
phase "e2e ($([ -n "${TEST_DATABASE_URL:-}" ] && echo "two servers, PostgreSQL" || echo "one server, PGlite"))" \
  node tests/e2e/run.mjs "${REPORT[@]}" --outputFile.json=test-results/e2e.json

SUMMARY=("${API_REPORTS[@]}" test-results/e2e.json)
# SIGKILL and PostgreSQL outages, load, two servers' sessions and reminders (issue 10): PostgreSQL only.
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  phase "resilience" npm run test:resilience
  SUMMARY+=(test-results/resilience.json)
else
  echo "==> resilience suite skipped: it needs PostgreSQL (set TEST_DATABASE_URL)"
fi

print_times
node scripts/lib/test-summary.mjs "${SUMMARY[@]}"
