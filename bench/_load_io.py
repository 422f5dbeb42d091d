"""The I/O of ``bench_load.py``: a Reflex browser tab's websocket client, and the server process.

:class:`SioTab` is a minimal Socket.IO (v5) over Engine.IO (v4) websocket client, as a Reflex
tab speaks it. Reflex's frontend (``reflex_base/.templates/web/utils/state.js``) opens
``ws://host/_event/?EIO=4&transport=websocket&token=<client token>`` with the Reflex version as
websocket subprotocol, joins the namespace ``/_event`` with a CONNECT packet whose auth payload
carries the hydrate event (``{"event": {...}, "state_schema": ...}``), then sends each event as
``42/_event,["event", {name, payload, router_data}]`` and receives state updates as
``42/_event,["event", {"delta": ..., "events": [...], "final": ...}]``. The server pings
(``2``) and the client answers (``3``). python-socketio's ``AsyncClient`` needs aiohttp, which
is not a dependency of this project, so this speaks the few packet types a Reflex tab uses over
the ``websockets`` package (installed with Reflex's server). Text frames only: Reflex sends no
binary packets to a table page.

:class:`Server` is ``reflex run --env prod --backend-only`` of one checkout (:class:`Config`)
in its own process group, measured with psutil on the worker that listens on the port.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

NAMESPACE = "/_event"

# (t_monotonic_seconds, update dict) for every "event" the server sends this tab
OnUpdate = Callable[[float, dict[str, Any]], Awaitable[None] | None]
Headers = dict[str, str]


class SioTab:
    """One websocket connection of one simulated browser tab.

    ``on_update(t, update)`` is called for each ``event`` packet (``t``: ``time.monotonic()``
    when the frame arrived, ``update``: the decoded ``{"delta": ..., "events": ..., "final": ...}``).
    ``closed`` is set when the socket ends; ``close_reason`` says why (None for our own close).
    """

    def __init__(
        self, url: str, token: str, subprotocol: str, on_update: OnUpdate, headers: Headers | None = None
    ) -> None:
        """``url``: ``ws://127.0.0.1:<port>`` of the backend; ``token``: the tab's client token;
        ``headers``: extra handshake headers (``X-Forwarded-For``: a client behind a proxy)."""
        self.url = f"{url.rstrip('/')}/_event/?EIO=4&transport=websocket&token={token}"
        self.headers = headers or {}
        self.token = token
        self.subprotocol = subprotocol
        self.on_update = on_update
        self.ws: ClientConnection | None = None
        self.closed = asyncio.Event()
        self.close_reason: str | None = None
        self.connect_error: str | None = None
        self.frames_in = 0
        self.bytes_in = 0
        self._connected = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._closing = False

    async def connect(self, auth: dict[str, Any], timeout: float = 60.0) -> None:
        """Open the socket and join ``/_event`` with ``auth`` (the boot event); raises on failure."""
        self.ws = ws = await asyncio.wait_for(
            connect(
                self.url,
                subprotocols=[self.subprotocol],  # type: ignore[list-item]  # any string is sent
                origin="http://127.0.0.1:3000",  # type: ignore[arg-type]  # the page's, as a browser sends it
                additional_headers=self.headers,
                max_size=None,
                ping_interval=None,  # Engine.IO pings at its own level
                open_timeout=timeout,
                close_timeout=2,
            ),
            timeout,
        )
        opening = await asyncio.wait_for(ws.recv(), timeout)
        if not isinstance(opening, str) or not opening.startswith("0"):
            raise ConnectionError(f"unexpected Engine.IO open packet: {opening!r:.200}")
        await ws.send("40" + NAMESPACE + "," + json.dumps(auth, separators=(",", ":")))
        self._reader = asyncio.create_task(self._read())
        done, _ = await asyncio.wait(
            [asyncio.create_task(self._connected.wait()), asyncio.create_task(self.closed.wait())],
            timeout=timeout,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if not self._connected.is_set():
            raise ConnectionError(self.connect_error or self.close_reason or "no CONNECT ack")

    async def emit_event(self, event: dict[str, Any]) -> float:
        """Send one Reflex event; returns ``time.monotonic()`` just before the send."""
        assert self.ws is not None
        text = "42" + NAMESPACE + "," + json.dumps(["event", event], separators=(",", ":"))
        t = time.monotonic()
        await self.ws.send(text)
        return t

    async def close(self) -> None:
        """Leave the namespace and close the socket (as a tab that is closed)."""
        self._closing = True
        if self.ws is not None:
            try:
                await self.ws.send("41" + NAMESPACE + ",")
            except Exception:  # noqa: BLE001, S110 - already gone
                pass
            try:
                await asyncio.wait_for(self.ws.close(), 3)
            except Exception:  # noqa: BLE001, S110
                pass
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):  # noqa: BLE001, S110
                pass

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for msg in self.ws:
                t = time.monotonic()
                if not isinstance(msg, str):
                    continue
                self.frames_in += 1
                self.bytes_in += len(msg)
                if msg == "2":
                    await self.ws.send("3")
                    continue
                if not msg.startswith("4"):
                    continue
                self._packet(t, msg[1:])
                if msg.startswith("42"):
                    body = msg[2:]
                    if body.startswith(NAMESPACE + ","):
                        body = body[len(NAMESPACE) + 1 :]
                    data = json.loads(body)
                    if isinstance(data, list) and len(data) >= 2 and data[0] == "event":
                        res = self.on_update(t, data[1])
                        if res is not None:
                            await res
                    elif isinstance(data, list) and len(data) >= 2 and data[0] == "new_token":
                        self.token = str(data[1])  # the browser keeps it for its next reconnect
            if not self._closing:
                self.close_reason = f"socket closed by server ({self.ws.close_code})"
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a dropped connection is counted by the caller
            if not self._closing:
                self.close_reason = f"{type(exc).__name__}: {exc}"
        finally:
            self.closed.set()

    def _packet(self, t: float, sio: str) -> None:
        """Socket.IO control packets: CONNECT ack (0), DISCONNECT (1), CONNECT_ERROR (4)."""
        kind, rest = sio[:1], sio[1:]
        if rest.startswith(NAMESPACE):
            rest = rest[len(NAMESPACE) :].lstrip(",")
        if kind == "0":
            self._connected.set()
        elif kind == "1" and not self._closing:
            self.close_reason = "disconnected by server"
        elif kind == "4":
            self.connect_error = f"connect refused: {rest[:200]}"


# ---- the server ------------------------------------------------------------------------------------
@dataclass
class Config:
    """One configuration under test: a checkout (its ``.venv``) and extra environment."""

    label: str
    root: Path
    env: dict[str, str] = field(default_factory=dict)
    processes: int = 0  # 0: one process on SQLite; P > 0: P backends on PostgreSQL + Redis (_cluster_io)
    tab_state: str = "memory"  # with processes > 0: where the backends keep tab states, "memory" or "redis"
    # with processes > 0, where the tabs' websockets go: "nginx" (nginx hashes the table's cookie
    # pc_table, pifecacheta/proxy_conf.py, as scripts/cluster.sh), "least_conn" (nginx, fewest
    # connections: a table's tabs spread), "direct" (tab of table i straight to backend i % P)
    route: str = "nginx"

    def python(self) -> Path:
        """The checkout's own interpreter (its ``.venv``)."""
        return self.root / ".venv" / "bin" / "python"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the server's child before exec (Linux): SIGTERM it when the bench process dies, even
    by SIGKILL, so no server outlives a bench that could not clean up."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Server:
    """``reflex run --env prod --backend-only`` of one checkout in its own process group."""

    def __init__(self, cfg: Config, env: dict[str, str], workdir: Path) -> None:
        self.port = free_port()
        self.log_path = workdir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.cfg, self.env = cfg, env
        self.worker: Any = None  # psutil.Process listening on the port

    def start(self, timeout: float = 120.0) -> None:
        """Start it and wait for ``/ping``; find the worker process that serves the port."""
        import psutil  # type: ignore[import-untyped]  # no stubs in the project's environment

        cmd = [str(self.cfg.root / ".venv" / "bin" / "reflex"), "run", "--env", "prod", "--backend-only"]
        cmd += ["--backend-host", "127.0.0.1", "--backend-port", str(self.port), "--loglevel", "warning"]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=self.cfg.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited ({self.proc.returncode}); see {self.log_path}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/ping", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"server not up after {timeout:.0f}s; see {self.log_path}")
        tree = [psutil.Process(self.proc.pid), *psutil.Process(self.proc.pid).children(recursive=True)]
        for p in tree:
            try:
                if any(c.status == "LISTEN" and c.laddr.port == self.port for c in p.net_connections()):
                    self.worker = p
            except psutil.Error:
                pass
        self.worker = self.worker or tree[-1]

    def _worker_tree(self) -> list[Any]:
        """The serving worker and its live children (the bots' decision processes)."""
        try:
            return [self.worker, *self.worker.children(recursive=True)]
        except Exception:  # noqa: BLE001 - psutil.Error: the worker is gone
            return [self.worker]

    def cpu_seconds(self) -> float:
        """CPU time (user + system, seconds) the serving worker and its children (the bots'
        decision processes, ``pifecacheta/bots/offload.py``) have used so far."""
        total = 0.0
        for p in self._worker_tree():
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except Exception:  # noqa: BLE001 - psutil.Error: that child is gone
                pass
        return total

    def rss_mb(self) -> float:
        """The resident memory of the serving worker and its children, MiB."""
        total = 0
        for p in self._worker_tree():
            try:
                total += p.memory_info().rss
            except Exception:  # noqa: BLE001 - psutil.Error: that child is gone
                pass
        return float(total) / 2**20

    def profile(self, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
        """Start ``py-spy record --gil`` of the worker for ``seconds`` (the samples of the thread
        holding the GIL, i.e. its CPU), collapsed stacks written to ``out`` (:func:`top_frames`
        reads them). None when py-spy is not installed (``pip install py-spy``)."""
        exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        if not Path(exe).exists():
            return None
        cmd = [exe, "record", "--gil", "--nonblocking", "-r", "50", "-d", str(int(seconds)), "-f", "raw"]
        cmd += ["-o", str(out), "-p", str(self.worker.pid)]
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def side_cpu(self) -> dict[str, float]:
        """CPU of the parts beside the backend (see ``_cluster_io.Cluster``): none here."""
        return {}

    def log_errors(self) -> int:
        """Lines of the server's log that report an error or a traceback."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return 0
        return sum(1 for line in text.splitlines() if "Traceback" in line or "ERROR" in line)

    def stop(self) -> None:
        """SIGTERM the whole process group, SIGKILL what is left after 5 s."""
        if self.proc is None:
            return
        for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait)
                deadline = time.monotonic() + wait  # the group may outlive its leader
                while time.monotonic() < deadline:
                    os.killpg(self.proc.pid, 0)
                    time.sleep(0.1)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                pass
        self.proc = None


# ---- the report ---------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of ``values``; NaN when there are none."""
    if not values:
        return float("nan")
    s = sorted(values)
    return s[max(0, min(len(s) - 1, int(round(q / 100 * len(s) + 0.5)) - 1))]


def med(values: list[float]) -> float:
    """The median of ``values``; NaN when there are none."""
    return statistics.median(values) if values else float("nan")


HEADER = (
    "| config | tables | tabs | moves/s (people's) | server CPU | CPU ms per move | RSS MB | bench CPU"
    " | move -> other tab med / p95 / p99 ms | own reply med / p95 ms"
    " | bot wait beyond delay med / p95 ms | refusals | errors | dropped |"
)
ROW = (
    "| {label} | {n} | {tabs} | {moves_s:.1f} ({people_s:.1f}) | {cpu:.0f}% | {cpu_ms:.2f} | {rss:.0f}"
    " | {bench_cpu:.0f}%"
    " | {o50:.0f} / {o95:.0f} / {o99:.0f} | {r50:.0f} / {r95:.0f}"
    " | {b50:.0f} / {b95:.0f} | {refused} | {errors} | {dropped} |"
)
RATIOS = ("moves_s", "cpu", "cpu_ms", "rss", "o50", "o95", "o99", "r50", "r95", "b50", "b95")


def ratios(a: dict[str, Any], b: dict[str, Any]) -> str:
    """B/A of the main figures at one N (below 1: B is faster or cheaper, moves/s aside)."""
    parts = [f"{k} {b[k] / a[k]:.2f}" if a[k] and a[k] == a[k] and b[k] == b[k] else f"{k} -" for k in RATIOS]
    return f"  B/A at {a['n']} tables: " + ", ".join(parts)


_LAUNCH = ("<module>", "reflex/utils/", "reflex/reflex.py", "sweeper_task", "run_sweeper")  # whole-run frames


def top_frames(path: Path, n: int = 8, where: tuple[str, ...] = ("pifecacheta/", "reflex")) -> list[str]:
    """The ``n`` functions of files under ``where`` found in most samples of a py-spy raw
    (collapsed) profile, inclusive (counted once per sample however deep it recurs): ``"name
    12.3%"`` (share of all samples), most first."""
    counts: dict[str, int] = {}
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, k = line.rpartition(" ")
        if not k.isdigit():
            continue
        total += int(k)
        frames = {
            f.split(" (")[0]
            for f in stack.split(";")
            if any(w in f.partition(" (")[2] for w in where) and not any(x in f for x in _LAUNCH)
        }
        for name in frames:
            counts[name] = counts.get(name, 0) + int(k)
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:n]
    return [f"{name} {k / max(1, total):.1%}" for name, k in top]


def print_report(results: dict[str, list[dict[str, Any]]], knee_ms: float, served: bool = False) -> None:
    """The closing markdown table of every configuration's rows (``results``: label -> figures
    per N), then per configuration its knee (first N whose p95 move -> other tab is over
    ``knee_ms``) and, with ``served``, the largest N at or under it."""
    print("\n" + HEADER + "\n" + "|---" * (HEADER.count("|") - 1) + "|")
    for label, rows in results.items():
        for f in rows:
            print(ROW.format(label=label, **f))
    for label, rows in results.items():
        knee = next((f["n"] for f in rows if f["o95"] > knee_ms), "not reached" if rows else "no figures")
        print(f"knee {label} (first N with p95 move -> other tab over {knee_ms:.0f} ms): {knee}")
        if served:
            most = max((f["n"] for f in rows if f["o95"] <= knee_ms), default=0)
            print(f"tables served {label} (largest N at p95 <= {knee_ms:.0f} ms): {most}")
