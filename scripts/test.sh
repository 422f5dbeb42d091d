#!/usr/bin/env bash
# Install what is missing (Python packages, bun, Chromium, PostgreSQL), then run the tests:
#   1. `pytest`: unit, property, service and state tests (fast); the database tests run on
#      SQLite and on a throwaway PostgreSQL server (PIFECACHETA_TEST_DB=both, the default);
#   2. a second pytest process for tests/browser (Playwright against a running app), kept apart
#      as Reflex's own suite does, because pytest-playwright keeps an event loop alive;
#   3. a third one for tests/cluster_browser (browsers on two backends behind nginx): it exports
#      the frontend into .web, which step 2's dev server watches, so it runs after it.
# Exits non-zero if any step fails. Extra arguments go to the first pytest run.
source "$(dirname "$0")/_env.sh"

# --- a Chromium for Playwright ------------------------------------------------
playwright_browser() { ls -d "${PLAYWRIGHT_BROWSERS_PATH:-$HOME/.cache/ms-playwright}"/chromium* >/dev/null 2>&1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

if [ -z "${PIFECACHETA_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ] && ! playwright_browser; then
    if command -v apt-get >/dev/null 2>&1; then
        log "installing Debian Chromium (apt-get install -y chromium)"
        export DEBIAN_FRONTEND=noninteractive
        if ! { as_root apt-get update -qq && as_root apt-get install -y -qq chromium; } </dev/null >&2; then
            log "apt-get could not install chromium; trying Playwright's own browser"
        fi
    fi
    if [ ! -x /usr/bin/chromium ] && ! playwright_browser; then
        python -m playwright install chromium </dev/null >&2 || log "no Chromium available: browser tests will fail"
    fi
fi
if [ -z "${PIFECACHETA_CHROMIUM:-}" ] && [ -x /usr/bin/chromium ]; then
    export PIFECACHETA_CHROMIUM=/usr/bin/chromium
fi

# --- PostgreSQL server programs (the tests start their own throwaway server) ---
pg_server_found() {
    [ -n "${PIFECACHETA_PG_BINDIR:-}" ] || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
        || command -v initdb >/dev/null 2>&1
}
export PIFECACHETA_TEST_DB="${PIFECACHETA_TEST_DB:-both}"
if [ "$PIFECACHETA_TEST_DB" != sqlite ] && ! pg_server_found && command -v apt-get >/dev/null 2>&1; then
    log "installing Debian PostgreSQL (apt-get install -y postgresql)"
    export DEBIAN_FRONTEND=noninteractive
    if ! { as_root apt-get update -qq && as_root apt-get install -y -qq postgresql; } </dev/null >&2; then
        log "apt-get could not install postgresql: the PostgreSQL tests fail on CI, are skipped elsewhere"
    fi
fi

# --- a redis-server for tests/cluster (Debian's redis-server) ---------------------
# The tests start their own server on a free port; CI=true makes a missing one fail them.
if ! command -v redis-server >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    log "installing Debian redis-server (apt-get install -y redis-server)"
    export DEBIAN_FRONTEND=noninteractive
    { as_root apt-get update -qq && as_root apt-get install -y -qq redis-server; } </dev/null >&2 \
        || log "apt-get could not install redis-server: tests/cluster will be skipped (failed in CI)"
fi

# --- nginx for tests/cluster_browser (Debian's nginx) -----------------------------
# CI=true makes a missing one fail that test.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ] && command -v apt-get >/dev/null 2>&1; then
    log "installing Debian nginx (apt-get install -y nginx)"
    export DEBIAN_FRONTEND=noninteractive
    { as_root apt-get update -qq && as_root apt-get install -y -qq nginx; } </dev/null >&2 \
        || log "apt-get could not install nginx: tests/cluster_browser will be skipped (failed in CI)"
fi

# --- 1. unit tests --------------------------------------------------------------
log "pytest (unit tests)"
unit_rc=0
python -m pytest "$@" || unit_rc=$?

# --- 2. browser tests, own process ------------------------------------------------
log "pytest tests/browser (Playwright)"
browser_rc=0
if [ -d tests/browser ]; then
    python -m pytest -o addopts="-ra" tests/browser || browser_rc=$?
else
    browser_rc=5
fi
if [ "$browser_rc" = 5 ] && ! ls tests/browser/test_*.py >/dev/null 2>&1; then
    log "tests/browser has no tests yet (pytest exit 5): not a failure"
    browser_rc=0
fi

# --- 3. the cluster under browsers, own process ---------------------------------------
log "pytest tests/cluster_browser (Playwright, two backends behind nginx)"
cluster_rc=0
python -m pytest -o addopts="-ra" tests/cluster_browser || cluster_rc=$?

if [ "$unit_rc" != 0 ] || [ "$browser_rc" != 0 ] || [ "$cluster_rc" != 0 ]; then
    log "FAILED: unit tests exit $unit_rc, browser tests exit $browser_rc, cluster browser tests exit $cluster_rc"
    exit 1
fi
log "all tests passed"
