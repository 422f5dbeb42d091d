#!/usr/bin/env bash
# Start the app as a cluster on this machine: Redis, N backend processes, nginx in front.
#   ./scripts/cluster.sh [N]          N backends (default 2); Ctrl-C stops everything
# Installs what is missing (the venv and bun as run.sh does; Debian's redis-server and nginx),
# then:
#   - Redis on 127.0.0.1:$CLUSTER_REDIS_PORT, its data in .data/redis/ (feed, leases, socket records);
#   - alembic upgrade head on the database (PIFECACHETA_DB_URL or REFLEX_DB_URL, else the SQLite
#     file .data/pifecacheta.db, which is fine for several processes on ONE machine);
#   - the frontend exported once (reflex export --frontend-only) for $CLUSTER_PUBLIC_URL;
#   - N times `reflex run --env prod --backend-only --backend-port P` (P = $CLUSTER_BACKEND_PORT,
#     +1, ...), logs in .data/cluster/backend-<i>.log;
#   - nginx on $CLUSTER_PORT serving the exported frontend and sending /_event (websockets),
#     /_upload, /ping and /_health to the backends, the tabs of one table to one backend (by the
#     cookie pc_table its page sets; pifecacheta/proxy_conf.py; config in .data/cluster/nginx.conf).
# Settings (environment): CLUSTER_PORT (8080), CLUSTER_BACKEND_PORT (8001), CLUSTER_REDIS_PORT
# (6380), CLUSTER_PUBLIC_URL (http://localhost:$CLUSTER_PORT: the address browsers use),
# REFLEX_REDIS_URL (an existing Redis instead of starting one), PIFECACHETA_DB_URL,
# CLUSTER_ROUTE (table: a table's tabs on one backend; least_conn: spread tab by tab),
# REFLEX_STATE_MANAGER_MODE (unset: each backend keeps its tabs' Reflex states in its memory, the
# default of rxconfig.py; redis: in Redis, 1.2-1.6x the CPU per move, bench/README.md).
source "$(dirname "$0")/_env.sh"

N="${1:-2}"
PORT="${CLUSTER_PORT:-8080}"
BACKEND_PORT="${CLUSTER_BACKEND_PORT:-8001}"
REDIS_PORT="${CLUSTER_REDIS_PORT:-6380}"
PUBLIC_URL="${CLUSTER_PUBLIC_URL:-http://localhost:$PORT}"
RUN="$ROOT/.data/cluster"
mkdir -p "$RUN" "$ROOT/.data/redis" "$RUN/nginx-tmp"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
need() {  # need <command> <debian package>
    command -v "$1" >/dev/null 2>&1 && return 0
    [ -x "/usr/sbin/$1" ] && return 0
    log "installing Debian $2 (apt-get install -y $2)"
    export DEBIAN_FRONTEND=noninteractive
    { as_root apt-get update -qq && as_root apt-get install -y -qq "$2"; } </dev/null >&2 \
        || { log "could not install $2"; exit 1; }
}
need nginx nginx
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

PIDS=()
cleanup() {
    log "stopping the cluster"
    for pid in "${PIDS[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM
start() {  # start <log file> <command...>: in its own process group, remembered for cleanup
    local logfile="$1"; shift
    setsid "$@" >"$logfile" 2>&1 &
    PIDS+=("$!")
}
wait_http() {  # wait_http <url> <what>
    for _ in $(seq 1 240); do
        python -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=2)" "$1" 2>/dev/null && return 0
        sleep 0.5
    done
    log "$2 did not answer at $1"; exit 1
}

# --- Redis --------------------------------------------------------------------
if [ -z "${REFLEX_REDIS_URL:-}" ]; then
    need redis-server redis-server
    log "Redis on 127.0.0.1:$REDIS_PORT (data in .data/redis)"
    start "$RUN/redis.log" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$ROOT/.data/redis" \
        --save 300 1 --appendonly no --daemonize no
    export REFLEX_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
    for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
log "REFLEX_REDIS_URL=$REFLEX_REDIS_URL"
log "tab states in ${REFLEX_STATE_MANAGER_MODE:-memory} (REFLEX_STATE_MANAGER_MODE: memory or redis)"

# --- database and frontend -------------------------------------------------------
log "applying database migrations (alembic upgrade head)"
alembic upgrade head
log "exporting the frontend for $PUBLIC_URL (reflex export --frontend-only)"
REFLEX_API_URL="$PUBLIC_URL" reflex export --frontend-only --no-zip --env prod --loglevel warning
STATIC="$ROOT/.web/build/client"
[ -f "$STATIC/index.html" ] || { log "no exported frontend in $STATIC"; exit 1; }

# --- backends -------------------------------------------------------------------
SERVERS=()
for i in $(seq 1 "$N"); do
    p=$((BACKEND_PORT + i - 1))
    log "backend $i on 127.0.0.1:$p (log .data/cluster/backend-$i.log)"
    # one after the other: each writes .web/backend at start
    # PIFECACHETA_PROXY_ADDRESS: its name in nginx's server lines below, so it plays the bots of
    # the tables whose tabs nginx sends it (pifecacheta/live/shards.py, live/ring.py); none with
    # least_conn (no table is anyone's: the bots go by shard leases)
    address="127.0.0.1:$p"; [ "${CLUSTER_ROUTE:-table}" = table ] || address=""
    GRANIAN_WORKERS="${GRANIAN_WORKERS:-1}" REFLEX_API_URL="$PUBLIC_URL" PIFECACHETA_PROXY_ADDRESS="$address" \
        start "$RUN/backend-$i.log" reflex run --env prod --backend-only --backend-port "$p"
    wait_http "http://127.0.0.1:$p/ping" "backend $i"
    SERVERS+=("127.0.0.1:$p")
done

# --- nginx ----------------------------------------------------------------------
# pifecacheta/proxy_conf.py: a full load of /mesa/<code> sets the cookie pc_table=<code>, and
# /_event is hashed on it, so the tabs of one table share a backend (CLUSTER_ROUTE=least_conn:
# the old spread, each tab to the backend with the fewest connections)
python -m pifecacheta.proxy_conf --run "$RUN" --listen "$PORT" --static "$STATIC" \
    --policy "${CLUSTER_ROUTE:-table}" --out "$RUN/nginx.conf" "${SERVERS[@]}"
log "nginx on port $PORT"
start "$RUN/nginx.log" "$NGINX" -c "$RUN/nginx.conf" -g "daemon off;"
wait_http "http://127.0.0.1:$PORT/ping" "nginx"
log "cluster up: $PUBLIC_URL ($N backends; Ctrl-C stops it)"
wait
