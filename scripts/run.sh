#!/usr/bin/env bash
# Install what is missing, apply the database migrations, and serve the app at http://localhost:3000.
# Extra arguments go to `reflex run` (e.g. ./scripts/run.sh --env prod).
# Database: SQLite file .data/pifecacheta.db by default; PIFECACHETA_DB_URL or REFLEX_DB_URL for PostgreSQL.
source "$(dirname "$0")/_env.sh"

log "applying database migrations (alembic upgrade head)"
alembic upgrade head

# the address Reflex serves: --frontend-port wins over REFLEX_FRONTEND_PORT, then 3000
port="${REFLEX_FRONTEND_PORT:-3000}"
args=("$@")
for i in "${!args[@]}"; do
  case "${args[$i]}" in
    --frontend-port) port="${args[$((i + 1))]:-$port}" ;;
    --frontend-port=*) port="${args[$i]#--frontend-port=}" ;;
  esac
done
log "starting Reflex at http://localhost:${port}"
exec reflex run "$@"
