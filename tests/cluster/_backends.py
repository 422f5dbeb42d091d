"""Real backend processes of the app for the cluster tests: ``reflex run --env prod
--backend-only --backend-port P`` (one granian worker), each in its own session so SIGKILL
reaches its whole process group, and the environment they share (one Redis, one database)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[2]


TAB_STATES = ("memory", "redis")  # where a cluster's backends keep the tabs' Reflex states


def backend_env(redis_url: str, db_url: str, tab_state: str = "memory", **extra: str) -> dict[str, str]:
    """The environment of a backend on ``redis_url`` and ``db_url`` (``extra`` added), its
    tabs' Reflex states in ``tab_state`` (one of :data:`TAB_STATES`): ``"memory"`` leaves
    ``REFLEX_STATE_MANAGER_MODE`` unset, so rxconfig.py's default is what runs (memory, also
    with a Redis); ``"redis"`` sets it to ``redis`` (Reflex's ``StateManagerRedis``). Raises
    ValueError for another place."""
    if tab_state not in TAB_STATES:
        raise ValueError(f"tab_state {tab_state!r}: expected one of {TAB_STATES}")
    env = dict(
        os.environ,
        REFLEX_REDIS_URL=redis_url,
        PIFECACHETA_DB_URL=db_url,
        GRANIAN_WORKERS="1",
        REFLEX_TELEMETRY_ENABLED="false",
        REFLEX_CHECK_LATEST_VERSION="false",
        REFLEX_USE_SYSTEM_BUN="1",
        **extra,
    )
    bun_dir = ROOT / ".tools" / "node_modules" / ".bin"
    env["PATH"] = f"{Path(sys.executable).parent}:{bun_dir}:{env.get('PATH', '')}"
    env.pop("REFLEX_STATE_MANAGER_MODE", None)
    if tab_state == "redis":
        env["REFLEX_STATE_MANAGER_MODE"] = "redis"
    return env


def stored_state_keys(client: redis.Redis, token: str) -> list[bytes]:
    """The keys of tab ``token``'s Reflex states in Redis (``<token>_<state name>``, what
    ``StateManagerRedis`` writes; none when the states are in the backends' memory)."""
    return sorted(client.scan_iter(match=f"{token}_*"))


class Backend:
    """One ``reflex run --env prod --backend-only`` process group on ``port`` (log in ``logs``)."""

    def __init__(self, name: str, port: int, env: dict[str, str], logs: Path) -> None:
        self.name, self.port = name, port
        self.log_path = logs / f"backend-{name}.log"
        reflex = Path(sys.executable).parent / "reflex"
        cmd = [str(reflex), "run", "--env", "prod", "--backend-only", "--backend-port", str(port)]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_up(self, timeout: float = 180.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"backend {self.name} exited:\n{self.log()}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/ping", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        raise AssertionError(f"backend {self.name} not up in {timeout} s:\n{self.log()}")

    def owns(self, pid: int) -> bool:
        """True when process ``pid`` is in this backend's process group."""
        try:
            return os.getpgid(pid) == self.proc.pid
        except ProcessLookupError:
            return False

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def freeze(self) -> None:
        """SIGSTOP the whole process group: its sockets stay open but nothing is read or
        answered (what a frame sent at the instant of a crash meets); :meth:`kill` ends it."""
        os.killpg(self.proc.pid, signal.SIGSTOP)

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]
