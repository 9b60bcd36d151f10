#!/usr/bin/env bash
# Builds the service and starts the build as production does (`npm run build`, then `node dist/main.js` with
# NODE_ENV=production) on PostgreSQL: waits up to 30 s for GET /healthz to answer 200, sends SIGTERM and checks the
# process exits 0 within 10 s. Called by .ci/run; by hand:
#   bash scripts/ci-start-prod.sh postgres://user@127.0.0.1:5432/db    (or with TEST_DATABASE_URL set)
# The secrets are throwaway values made up here; Slack is pointed at a closed local port, so nothing leaves the host.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DB_URL=${1:-${TEST_DATABASE_URL:-}}
[[ -n $DB_URL ]] || { echo "usage: $0 <postgres url> (or set TEST_DATABASE_URL)" >&2; exit 2; }
READY_S=30
STOP_S=10

t0=$SECONDS
npm run build >/dev/null
echo "build: $((SECONDS - t0)) s"

PORT=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
LOG=$(mktemp -t upbeat-start-prod.XXXXXX)
secret() { node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))'; }

env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$PORT" APP_URL="https://upbeat.example.test" \
  DATABASE_URL="$DB_URL" CHAT_CLIENT_ID=ci-client-id CHAT_CLIENT_SECRET="$(secret)" \
  CHAT_SIGNING_SECRET="$(secret)" SESSION_SECRET_KEY="$(secret)" \
  CHAT_API_URL=http://127.0.0.1:9/api/ CHAT_OAUTH_URL=http://127.0.0.1:9/oauth/v2/authorize LOG_LEVEL=INFO \
  node dist/main.js >"$LOG" 2>&1 &
PID=$!

fail() {
  echo "FAILED: $*" >&2
  echo "--- last 40 lines of the server's output ---" >&2
  tail -n 40 "$LOG" >&2
  kill -KILL "$PID" 2>/dev/null || true
  rm -f "$LOG"
  exit 1
}

healthz() {
  node -e 'fetch(process.argv[1]).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$PORT/healthz"
}

t1=$SECONDS
until healthz; do
  kill -0 "$PID" 2>/dev/null || fail "node dist/main.js exited before /healthz answered"
  ((SECONDS - t1 < READY_S)) || fail "/healthz did not answer 200 within $READY_S s"
  sleep 0.5
done
echo "node dist/main.js: /healthz 200 after $((SECONDS - t1)) s (port $PORT)"

kill -TERM "$PID"
t2=$SECONDS
while kill -0 "$PID" 2>/dev/null; do
  ((SECONDS - t2 <= STOP_S)) || fail "still running $STOP_S s after SIGTERM"
  sleep 0.2
done
rc=0
wait "$PID" || rc=$?
((rc == 0)) || fail "exited with code $rc after SIGTERM"
echo "SIGTERM: exited 0 after $((SECONDS - t2)) s"
rm -f "$LOG"
