#!/usr/bin/env bash
# Install what is missing, apply the database migrations, and serve the app at http://localhost:3000.
# Extra arguments go to `reflex run` (e.g. ./scripts/run.sh --env prod).
# Database: SQLite file .data/pifecacheta.db by default; PIFECACHETA_DB_URL or REFLEX_DB_URL for PostgreSQL.
source "$(dirname "$0")/_env.sh"

log "applying database migrations (alembic upgrade head)"
alembic upgrade head

log "starting Reflex (http://localhost:3000 unless --frontend-port is given)"
exec reflex run "$@"
