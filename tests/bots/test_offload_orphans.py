"""The bots' child processes (and multiprocessing's resource tracker) do not outlive a server
that dies without running its ``atexit`` (SIGKILL; SIGTERM with Python's default handling, as
a server worker or a test harness is stopped)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: the "server": starts the pool, prints its children's pids and the tracker's, then waits
PARENT = """
import sys, time
from multiprocessing import resource_tracker
from pifecacheta.bots import offload
assert offload.warm_up()
kids = sorted(offload._pool._processes)
print(*kids, resource_tracker._resource_tracker._pid, flush=True)
time.sleep(120)
"""

#: a server worker as granian starts one: a forked multiprocessing process that starts the
#: pool, prints the pids, and returns (its server stopped); the script ends when it has exited
FORKED_WORKER = """
import multiprocessing as mp
import os
from multiprocessing import resource_tracker
from pifecacheta.bots import offload

def serve():
    assert offload.warm_up()
    kids = sorted(offload._pool._processes)
    print(os.getpid(), *kids, resource_tracker._resource_tracker._pid, flush=True)

worker = mp.get_context("fork").Process(target=serve)
worker.start()
worker.join()
print("worker exited", worker.exitcode, flush=True)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie nobody has reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc here
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    """Poll until none of ``pids`` runs or ``seconds`` have passed; the pids still running."""
    deadline = time.monotonic() + seconds
    while (left := [p for p in pids if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and /proc: POSIX")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_the_children_and_the_tracker_exit_when_the_server_is_killed(sig: signal.Signals) -> None:
    env = dict(os.environ, PIFECACHETA_BOT_PROCESSES="2", PYTHONPATH=str(ROOT))
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    pids: list[int] = []
    try:
        assert parent.stdout is not None
        pids = [int(x) for x in parent.stdout.readline().split()]
        assert len(pids) == 3 and all(_alive(p) for p in pids)  # two children and the tracker
        parent.send_signal(sig)  # no atexit, no shutdown of the pool
        assert parent.wait(timeout=10) == -sig
        assert _wait_gone(pids, 15) == []
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for p in pids:  # whatever the outcome, leave nothing behind
            if _alive(p):
                os.kill(p, signal.SIGKILL)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and /proc: POSIX")
def test_a_child_of_a_living_server_stays() -> None:
    from pifecacheta.bots import offload

    offload.shutdown()
    try:
        assert offload.warm_up()
        pool = offload._pool
        assert pool is not None
        kids = list(pool._processes)
        # several of the watchers' checks later, the children still run and still answer
        deadline = time.monotonic() + 2 * offload.PARENT_CHECK_S
        while time.monotonic() < deadline:
            assert all(_alive(p) for p in kids)
            time.sleep(0.1)
        assert offload.warm_up() and offload._pool is pool and list(pool._processes) == kids
    finally:
        offload.shutdown()


@pytest.mark.skipif(sys.platform == "win32", reason="fork: POSIX")
def test_a_forked_server_worker_that_stops_does_not_wait_for_its_children_forever() -> None:
    env = dict(os.environ, PIFECACHETA_BOT_PROCESSES="2", PYTHONPATH=str(ROOT))
    script = subprocess.Popen(
        [sys.executable, "-c", FORKED_WORKER], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    pids: list[int] = []
    try:
        assert script.stdout is not None
        pids = [int(x) for x in script.stdout.readline().split()]  # the worker, 2 children, tracker
        assert len(pids) == 4
        out, _ = script.communicate(timeout=30)  # TimeoutExpired: the worker waits for its children
        assert out.strip() == "worker exited 0" and script.returncode == 0
        assert _wait_gone(pids, 15) == []
    finally:
        for p in [script.pid, *pids]:  # whatever the outcome, leave nothing behind
            if _alive(p):
                os.kill(p, signal.SIGKILL)
        script.wait()
