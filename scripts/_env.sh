# shellcheck shell=bash
# Shared set-up for scripts/run.sh and scripts/test.sh (sourced, not run).
# Idempotent: every install step is skipped when already up to date, so the second run is fast.
#  - .venv (Python >= 3.11) with `pip install -e .[test]`, redone only when pyproject.toml changes
#    (stamp file keyed on its hash and on the interpreter version);
#  - bun >= 1.4.4 for Reflex's frontend: a bun already on PATH, else .tools/node_modules/.bin/bun,
#    else `npm install --prefix .tools bun@1.4.4` (npm registry only; no install script needed);
#  - the switches that stop Reflex from reaching for the internet (telemetry, version check, ...).

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

BUN_VERSION="1.4.4"

log() { printf '\033[1m[pifecacheta]\033[0m %s\n' "$*" >&2; }

# --- Python ---------------------------------------------------------------
pick_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
        [ -n "$candidate" ] || continue
        command -v "$candidate" >/dev/null 2>&1 || continue
        if "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

if [ ! -x .venv/bin/python ]; then
    PY="$(pick_python)" || { log "Python >= 3.11 is required (set PYTHON=/path/to/python3.11)"; exit 1; }
    log "creating .venv with $PY"
    "$PY" -m venv .venv
fi
VENV_PY="$ROOT/.venv/bin/python"

hash_of() { "$VENV_PY" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }
STAMP=".venv/.pifecacheta-installed"
WANT="$(hash_of pyproject.toml) $("$VENV_PY" -c 'import sys; print(sys.version.split()[0])') $ROOT"
if [ "$(cat "$STAMP" 2>/dev/null || true)" != "$WANT" ]; then
    log "installing Python packages (pip install -e .[test])"
    "$VENV_PY" -m pip install --quiet --disable-pip-version-check -e ".[test]"
    echo "$WANT" > "$STAMP"
else
    log "Python packages up to date"
fi

# --- bun (Reflex's JavaScript runtime) --------------------------------------
bun_ok() {  # $1 = bun executable; true when it runs and is >= BUN_VERSION
    local v
    v="$("$1" --version 2>/dev/null)" || return 1
    "$VENV_PY" - "$v" "$BUN_VERSION" <<'PY'
import sys
def key(s): return tuple(int(x) for x in s.strip().split("-")[0].split(".")[:3])
sys.exit(0 if key(sys.argv[1]) >= key(sys.argv[2]) else 1)
PY
}

BUN=""
if command -v bun >/dev/null 2>&1 && bun_ok "$(command -v bun)"; then
    BUN="$(command -v bun)"
elif bun_ok .tools/node_modules/.bin/bun; then
    BUN="$ROOT/.tools/node_modules/.bin/bun"
elif command -v npm >/dev/null 2>&1; then
    log "installing bun $BUN_VERSION into .tools (npm registry)"
    npm install --prefix .tools --no-audit --no-fund --loglevel=error "bun@$BUN_VERSION" >&2
    if bun_ok .tools/node_modules/.bin/bun; then
        BUN="$ROOT/.tools/node_modules/.bin/bun"
    fi
fi
if [ -n "$BUN" ]; then
    export PATH="$(dirname "$BUN"):$PATH"
    export REFLEX_USE_SYSTEM_BUN=1
    log "bun $("$BUN" --version) at $BUN"
else
    log "no bun >= $BUN_VERSION and no npm: letting Reflex install its own runtime (needs internet)"
fi

# --- environment ------------------------------------------------------------
export PATH="$ROOT/.venv/bin:$PATH"
export VIRTUAL_ENV="$ROOT/.venv"
export REFLEX_TELEMETRY_ENABLED=false
export REFLEX_CHECK_LATEST_VERSION=false
# Pin Reflex's package installs to the registry npm is configured with here: this skips
# Reflex's mirror speed test, which retries slowly on a machine without the internet.
if [ -z "${NPM_CONFIG_REGISTRY:-}" ] && command -v npm >/dev/null 2>&1; then
    NPM_CONFIG_REGISTRY="$(npm config get registry 2>/dev/null)"
    export NPM_CONFIG_REGISTRY
fi
export REFLEX_HTTP_CLIENT_BIND_ADDRESS="${REFLEX_HTTP_CLIENT_BIND_ADDRESS:-0.0.0.0}"
export PYTHONUNBUFFERED=1
