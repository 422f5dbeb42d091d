"""nginx in front of the cluster browser tests: the exported frontend and ``/_event`` (and the
other backend routes) on one port, at three loopback addresses that differ in where the
websockets go.

* ``127.0.0.1:<port>``: backend 1 first, backend 2 when backend 1 is down (nginx ``backup``);
* ``127.0.0.2:<port>``: backend 2 first, backend 1 as backup;
* ``127.0.0.3:<port>``: both, as ``scripts/cluster.sh`` balances them (``pifecacheta/proxy_conf.py``):
  a full load of ``/mesa/<code>`` sets the cookie ``pc_table=<code>`` and the websockets are
  hashed on it, so the tabs of one table opened there share a backend.

The frontend is exported with the API URL ``http://localhost:<port>``: Reflex's frontend puts
the page's own host name in place of ``localhost`` (``getBackendURL`` in ``.web/utils/state.js``),
so a page opened from ``http://127.0.0.2:<port>`` opens its websocket there, and is thereby
pinned to backend 2 while that backend lives. The access log records, for every request,
the address it came in on, the backend that served it (``$upstream_addr``) and the table
cookie it carried: a websocket's line is written when it closes.
"""

from __future__ import annotations

import os
import time
import urllib.request
from pathlib import Path

from cluster._proxy import NginxProcess

from pifecacheta import proxy_conf

ROUTES = {"127.0.0.1": "first", "127.0.0.2": "second", "127.0.0.3": "both"}


def write_config(run: Path, static: Path, port: int, backend_ports: tuple[int, int]) -> Path:
    """Write ``run/nginx.conf`` for the three routes above over ``backend_ports``; returns its path."""
    b1, b2 = (f"127.0.0.1:{p}" for p in backend_ports)
    tmp = run / "nginx-tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    pinned = {  # one backend, the other as backup
        "first": f"server {b1} max_fails=1 fail_timeout=60s; server {b2} backup;",
        "second": f"server {b2} max_fails=1 fail_timeout=60s; server {b1} backup;",
    }
    ups = "".join(f"    upstream {n} {{ {u} }}\n" for n, u in pinned.items())
    ups += proxy_conf.upstream("both", [b1, b2], "table")  # as scripts/cluster.sh
    servers = "".join(
        proxy_conf.server_block(f"{addr}:{port}", name, static) for addr, name in ROUTES.items()
    )
    conf = f"""# written by tests/cluster_browser/_nginx.py
{"user root;" if os.getuid() == 0 else ""}
worker_processes 1;
pid {run}/nginx.pid;
error_log {run}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    log_format routes '$server_addr|$upstream_addr|$status|$request_uri|$cookie_pc_table';
    access_log {run}/access.log routes;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{proxy_conf.MAPS}{ups}{servers}}}
"""
    path = run / "nginx.conf"
    path.write_text(conf)
    return path


class Nginx(NginxProcess):
    """nginx on ``conf`` in the foreground (``daemon off``), its own process group, serving
    the routes of :data:`ROUTES` on ``port``."""

    def __init__(self, conf: Path, port: int) -> None:
        super().__init__(conf)
        self.port = port

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

    def served_by(self, addr: str, table: str | None = None) -> list[str]:
        """The backends of the ``/_event`` requests that came in on ``addr`` (with the cookie
        ``pc_table=<table>`` when given) and have ended, as nginx logs them:
        ``127.0.0.1:<port>``, or ``<tried>, <served>`` after a failover."""
        path = self.run / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        rows = [ln.split("|") for ln in lines]
        return [
            r[1]
            for r in rows
            if len(r) == 5 and r[0] == addr and r[3].startswith("/_event") and table in (None, r[4])
        ]

    def routed(self, addr: str, path: str, table: str) -> set[str]:
        """The backends that served the ended requests to ``path`` (a prefix) that came in on
        ``addr`` with the cookie ``pc_table=<table>``."""
        log = self.run / "access.log"
        rows = [ln.split("|") for ln in (log.read_text().splitlines() if log.exists() else [])]
        return {
            r[1] for r in rows if len(r) == 5 and r[0] == addr and r[3].startswith(path) and r[4] == table
        }
