"""nginx in front of the cluster browser tests: the exported frontend and ``/_event`` (and the
other backend routes) on one port, at three loopback addresses that differ in where the
websockets go.

* ``127.0.0.1:<port>``: backend 1 first, backend 2 when backend 1 is down (nginx ``backup``);
* ``127.0.0.2:<port>``: backend 2 first, backend 1 as backup;
* ``127.0.0.3:<port>``: both, ``least_conn`` (as ``scripts/cluster.sh`` balances them).

The frontend is exported with the API URL ``http://localhost:<port>``: Reflex's frontend puts
the page's own host name in place of ``localhost`` (``getBackendURL`` in ``.web/utils/state.js``),
so a page opened from ``http://127.0.0.2:<port>`` opens its websocket there, and is thereby
pinned to backend 2 while that backend lives. The access log records, for every request,
the address it came in on and the backend that served it (``$upstream_addr``): a websocket's
line is written when it closes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROUTES = {"127.0.0.1": "first", "127.0.0.2": "second", "127.0.0.3": "both"}


def nginx_exe() -> str:
    """The nginx binary (Debian's ``nginx``; ``scripts/test.sh`` installs it when missing).
    Skips the test when there is none, fails it under ``CI=true``."""
    exe = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if exe is None:
        message = "nginx is not installed (scripts/test.sh installs Debian's nginx)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return exe


def write_config(run: Path, static: Path, port: int, backend_ports: tuple[int, int]) -> Path:
    """Write ``run/nginx.conf`` for the three routes above over ``backend_ports``; returns its path."""
    b1, b2 = (f"127.0.0.1:{p}" for p in backend_ports)
    tmp = run / "nginx-tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    upstreams = {
        "first": f"server {b1} max_fails=1 fail_timeout=60s; server {b2} backup;",
        "second": f"server {b2} max_fails=1 fail_timeout=60s; server {b1} backup;",
        "both": f"least_conn; server {b1}; server {b2};",
    }
    ups = "".join(f"    upstream {n} {{ {u} }}\n" for n, u in upstreams.items())
    servers = "".join(
        f"""
    server {{
        listen {addr}:{port};
        root {static};
        location ~ ^/(_event|_upload|ping|_health) {{
            proxy_pass http://{name};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
        }}
        location / {{
            try_files $uri $uri/ $uri.html /__spa-fallback.html /404.html;
        }}
    }}"""
        for addr, name in ROUTES.items()
    )
    conf = f"""# written by tests/cluster_browser/_nginx.py
{"user root;" if os.getuid() == 0 else ""}
worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    log_format routes '$server_addr|$upstream_addr|$status|$request_uri';
    access_log {run}/access.log routes;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
{ups}{servers}
}}
"""
    path = run / "nginx.conf"
    path.write_text(conf)
    return path


class Nginx:
    """nginx on ``conf`` in the foreground (``daemon off``), its own process group."""

    def __init__(self, conf: Path, port: int) -> None:
        self.conf, self.port, self.run = conf, port, conf.parent
        log = open(self.run / "nginx.log", "wb")  # noqa: SIM115 - closed in stop()
        self._log = log
        self.proc = subprocess.Popen(
            [
                nginx_exe(),
                "-p",
                str(self.run),
                "-e",
                str(self.run / "nginx-error.log"),
                "-c",
                str(conf),
                "-g",
                "daemon off;",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_up(self, timeout: float = 30.0) -> None:
        """Until every route answers ``/ping`` (through to a backend)."""
        deadline = time.monotonic() + timeout
        for addr in ROUTES:
            while True:
                assert self.proc.poll() is None, f"nginx exited: {self.errors()}"
                try:
                    with urllib.request.urlopen(f"http://{addr}:{self.port}/ping", timeout=2) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"nginx not up on {addr}: {self.errors()}"
                time.sleep(0.2)

    def served_by(self, addr: str) -> list[str]:
        """The backends of the ``/_event`` requests that came in on ``addr`` and have ended, as
        nginx logs them: ``127.0.0.1:<port>``, or ``<tried>, <served>`` after a failover."""
        path = self.run / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        rows = [ln.split("|") for ln in lines]
        return [r[1] for r in rows if len(r) == 4 and r[0] == addr and r[3].startswith("/_event")]

    def errors(self) -> str:
        path = self.run / "nginx-error.log"
        return path.read_text()[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()
