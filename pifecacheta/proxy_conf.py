"""nginx in front of a cluster: the configuration that puts a table's websockets on one backend.

Reflex's page opens its websocket at ``/_event/?EIO=4&transport=websocket&token=<tab token>``:
nothing in the URL says which table the tab shows. The browser does send its cookies with the
upgrade request (same origin: nginx serves the page and proxies ``/_event``), so nginx itself
names the table in a cookie and hashes on it:

* a full page load of ``/mesa/<code>`` (the invite link, a reload, a bookmark) is answered with
  ``Set-Cookie: pc_table=<code>; Path=/; SameSite=Lax`` (:data:`MAPS`' ``$pc_table_cookie``,
  taken from ``$request_uri``, so it holds through ``try_files``' fallback to the SPA page);
* ``/_event`` (and ``/_upload``, ``/ping``, ``/_health``) go to the upstream ``hash $pc_route
  consistent``: ``$pc_route`` is the cookie's table code, or, with no cookie (a lobby never
  at a table), ``$request_id`` (random: any spread will do for a lobby);
* so every tab of one table, opened by its link, lands on the same backend, different tables
  spread over the backends (consistent hashing: adding or losing one backend moves only that
  backend's share), and a backend that fails moves its tabs to the next one on the ring
  (``proxy_next_upstream error timeout`` on the connect, then ``max_fails`` / ``fail_timeout``
  keep the dead one out).

The cookie is a hint, per browser not per tab: a tab that reaches a table by the app's own
navigation (MINHAS MESAS) keeps its socket and backend until its next reconnect (the app sets
the same cookie when a table opens, ``state/table.py``, so that reconnect goes to the table's
backend; CRIAR MESA loads the new table's page in a cluster, ``state/lobby.py``), and two tabs
of one browser at two tables share the cookie of the last one opened. A wrong guess costs
CPU (the change relayed to a second backend, bench/README.md), never correctness.

``policy="least_conn"`` writes the old balancing (no cookie used), kept for the benchmark.
``python -m pifecacheta.proxy_conf --help`` writes a whole configuration (``scripts/cluster.sh``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

POLICIES = ("table", "least_conn")

# http-level maps: the websocket upgrade, the cookie to set on a page of a table, the hash key
MAPS = r"""    map $http_upgrade $connection_upgrade { default upgrade; '' close; }
    map $request_uri $pc_table_cookie {
        default "";
        "~^/mesa/(?<pc_code>[A-Za-z0-9_-]{1,64})(?:[/?#]|$)" "pc_table=$pc_code; Path=/; SameSite=Lax";
    }
    map $cookie_pc_table $pc_route {
        "" $request_id;
        default $cookie_pc_table;
    }
"""

# the body of the location that proxies the backend routes to upstream {name}
PROXY = """            proxy_pass http://{name};
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
            proxy_connect_timeout 2s;
"""

BACKEND_ROUTES = "^/(_event|_upload|ping|_health)"

# the exported frontend's location: every page, and the table cookie on a page of a table
STATIC = """            try_files $uri $uri/ $uri.html /__spa-fallback.html /404.html;
            add_header Set-Cookie $pc_table_cookie;
"""


def upstream(name: str, servers: Sequence[str], policy: str = "table", params: str = "") -> str:
    """An ``upstream`` block: ``servers`` (``host:port``) balanced by ``policy`` (``table``: the
    consistent hash of ``$pc_route``; ``least_conn``: nginx's fewest open connections), each
    server line ending with ``params`` (e.g. ``max_fails=1 fail_timeout=2s``). Raises
    ValueError for another policy or no server."""
    if policy not in POLICIES:
        raise ValueError(f"policy {policy!r}: one of {POLICIES}")
    if not servers:
        raise ValueError("no backend server")
    how = "hash $pc_route consistent;" if policy == "table" else "least_conn;"
    lines = "".join(f"        server {s}{' ' + params if params else ''};\n" for s in servers)
    return f"    upstream {name} {{\n        {how}\n{lines}    }}\n"


def server_block(listen: str, name: str, static: Path | None) -> str:
    """A ``server`` on ``listen`` (``port`` or ``host:port``): the backend routes proxied to
    upstream ``name``; with ``static``, every other path served from that exported frontend
    (the table cookie set on ``/mesa/<code>``), without it everything proxied (the benchmark's
    nginx, which serves no page)."""
    proxy = PROXY.format(name=name)
    if static is None:
        return f"    server {{\n        listen {listen};\n        location / {{\n{proxy}        }}\n    }}\n"
    return (
        f"    server {{\n        listen {listen};\n        root {static};\n"
        f"        location ~ {BACKEND_ROUTES} {{\n{proxy}        }}\n"
        f"        location / {{\n{STATIC}        }}\n    }}\n"
    )


def config(
    run: Path,
    listen: str,
    servers: Sequence[str],
    *,
    static: Path | None = None,
    policy: str = "table",
    params: str = "max_fails=1 fail_timeout=2s",
    access_log: bool = False,
    connections: int = 4096,
) -> str:
    """A whole nginx configuration (one worker, pid, logs and temp folders under ``run``) for
    one cluster: :func:`upstream` ``backends`` over ``servers`` and one :func:`server_block`.
    ``access_log``: log ``$remote_addr|$upstream_addr|$status|$request_uri|$cookie_pc_table``
    to ``run/access.log`` (a websocket's line is written when it closes)."""
    tmp = run / "nginx-tmp"
    log = (
        "    log_format routes '$remote_addr|$upstream_addr|$status|$request_uri|$cookie_pc_table';\n"
        f"    access_log {run}/access.log routes;\n"
        if access_log
        else "    access_log off;\n"
    )
    temps = "".join(
        f"    {k}_temp_path {tmp}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    mime = (
        "    include /etc/nginx/mime.types;\n"
        if static is not None and Path("/etc/nginx/mime.types").exists()
        else ""
    )
    return (
        "# written by pifecacheta/proxy_conf.py\n"
        f"{'user root;' if os.getuid() == 0 else ''}\n"
        f"worker_processes 1;\npid {run}/nginx.pid;\nerror_log {run}/nginx-error.log warn;\n"
        f"events {{ worker_connections {connections}; }}\n"
        f"http {{\n{mime}{log}{temps}{MAPS}"
        f"{upstream('backends', servers, policy, params)}"
        f"{server_block(listen, 'backends', static)}}}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Write :func:`config` to ``--out`` (``scripts/cluster.sh``)."""
    ap = argparse.ArgumentParser(description="Write the cluster's nginx configuration.")
    ap.add_argument("--run", type=Path, required=True, help="folder for pid, logs, temp files")
    ap.add_argument("--listen", required=True, help="port or host:port")
    ap.add_argument("--static", type=Path, help="the exported frontend (reflex export)")
    ap.add_argument("--policy", choices=POLICIES, default="table")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("servers", nargs="+", help="backends, host:port")
    a = ap.parse_args(argv)
    (a.run / "nginx-tmp").mkdir(parents=True, exist_ok=True)
    a.out.write_text(config(a.run, a.listen, a.servers, static=a.static, policy=a.policy))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
