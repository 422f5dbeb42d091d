"""The cluster's nginx (``pifecacheta/proxy_conf.py``) routes a table's tabs to one backend.

Real nginx, two stub backends (HTTP servers in this process answering every request with
their own port), and the exported frontend replaced by three files. A full load of
``/mesa/<code>`` serves the SPA page with ``Set-Cookie: pc_table=<code>``; every ``/_event``
request carrying that cookie goes to one backend, 40 tables spread over both, requests without
the cookie too; when a table's backend dies its requests go to the other one (``proxy_next_upstream``),
and the ``least_conn`` policy kept for the benchmark ignores the cookie. The real websockets
through this configuration are tests/cluster_browser's.
"""

from __future__ import annotations

import http.server
import secrets
import threading
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pifecacheta import proxy_conf
from pifecacheta.live.ring import Ring

from ._proxy import NginxProcess, nginx_exe
from ._redis import free_port


class Stub:
    """An HTTP server on a free port answering every GET with its port number."""

    def __init__(self) -> None:
        self.port = free_port()
        port = self.port

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                body = str(port).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop serving and close the socket: connections are then refused."""
        self.server.shutdown()
        self.server.server_close()


Start = Callable[..., tuple[str, list[Stub]]]


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Start]:
    """``start(policy, n=2)``: ``n`` stubs and nginx in front of them with ``policy``; returns
    nginx's base URL and the stubs. Everything is stopped at the end of the test."""
    nginx_exe()  # skip (or fail under CI=true) before anything is started
    static = tmp_path / "static"
    static.mkdir()
    for name, text in (("index.html", "lobby"), ("__spa-fallback.html", "spa"), ("404.html", "404")):
        (static / name).write_text(text)
    started: list[NginxProcess] = []
    stubs: list[Stub] = []

    def start(policy: str, n: int = 2) -> tuple[str, list[Stub]]:
        stubs.extend(Stub() for _ in range(n))
        run = tmp_path / "run"
        (run / "nginx-tmp").mkdir(parents=True)
        port = free_port()
        servers = [f"127.0.0.1:{s.port}" for s in stubs]
        conf = run / "nginx.conf"
        conf.write_text(proxy_conf.config(run, f"127.0.0.1:{port}", servers, static=static, policy=policy))
        started.append(nginx := NginxProcess(conf))
        nginx.wait_up(f"http://127.0.0.1:{port}/ping")
        return f"http://127.0.0.1:{port}", stubs

    yield start
    for n in started:
        n.stop()
    for s in stubs:
        s.stop()


def get(url: str, table: str | None = None) -> tuple[str, str | None]:
    """GET ``url`` (with ``Cookie: pc_table=<table>`` when given): the body and the Set-Cookie."""
    headers = {"Cookie": f"pc_table={table}"} if table else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as r:
        return r.read().decode(), r.headers.get("Set-Cookie")


def backend_of(base: str, table: str | None) -> str:
    """The port of the backend that served a websocket-like request of ``table``."""
    return get(f"{base}/_event/?EIO=4&transport=websocket&token={secrets.token_hex(8)}", table)[0]


def test_a_tables_page_sets_the_cookie_the_others_do_not(proxy: Start) -> None:
    base, _ = proxy("table")
    code = "Ab3_x-9ZqLm0Tt7K"  # secrets.token_urlsafe(12), as service/lobby.py makes them
    assert get(f"{base}/mesa/{code}") == ("spa", f"pc_table={code}; Path=/; SameSite=Lax")
    assert get(f"{base}/mesa/{code}/?lang=es")[1] == f"pc_table={code}; Path=/; SameSite=Lax"
    assert get(f"{base}/") == ("lobby", None)
    assert get(f"{base}/regras") == ("spa", None)
    assert get(f"{base}/mesa/a%22b")[1] is None  # not a code: no cookie, the page still served


def test_a_tables_tabs_go_to_one_backend_and_tables_spread(proxy: Start) -> None:
    base, stubs = proxy("table")
    tables = [secrets.token_urlsafe(12) for _ in range(40)]
    where = {t: {backend_of(base, t) for _ in range(3)} for t in tables}
    assert all(len(w) == 1 for w in where.values()), where
    spread = Counter(next(iter(w)) for w in where.values())
    assert set(spread) == {str(s.port) for s in stubs}, spread  # both backends have tables
    lobby = Counter(backend_of(base, None) for _ in range(40))  # no cookie: spread at random
    assert set(lobby) == {str(s.port) for s in stubs}, lobby


def test_a_dead_backends_tables_go_to_the_other(proxy: Start) -> None:
    base, stubs = proxy("table")
    tables = [secrets.token_urlsafe(12) for _ in range(30)]
    before = {t: backend_of(base, t) for t in tables}
    dead = stubs[0]
    dead.stop()
    after = {t: backend_of(base, t) for t in tables}  # each answered: none refused
    alive = str(stubs[1].port)
    assert set(after.values()) == {alive}
    # the tables that were on the living backend stayed where they were
    assert all(after[t] == alive for t, b in before.items() if b == alive)
    assert any(b == str(dead.port) for b in before.values()), before


def _address(stub: Stub) -> str:
    return f"127.0.0.1:{stub.port}"  # as the fixture writes it in nginx's server lines


@pytest.mark.parametrize("n", [2, 3])
def test_the_ring_replica_predicts_nginxs_choice_and_its_failover(proxy: Start, n: int) -> None:
    """``live/ring.py`` against real nginx: for 150 table codes the predicted backend is the
    one nginx chose; with one backend stopped, the ring over the live ones is nginx's
    failover choice (nginx skips the dead server's points; the ring drops them)."""
    base, stubs = proxy("table", n)
    ring = Ring(_address(s) for s in stubs)
    port_of = {_address(s): str(s.port) for s in stubs}
    tables = [secrets.token_urlsafe(12) for _ in range(150)]
    tables += ["ABC123", "mesa-7", "x"]
    chosen = {t: backend_of(base, t) for t in tables}
    predicted = {t: port_of[ring.server(t)] for t in tables}  # type: ignore[index]
    assert chosen == predicted
    assert len(set(chosen.values())) == n
    dead = stubs[0]
    dead.stop()
    live = ring.without([_address(dead)])
    after = {t: backend_of(base, t) for t in tables}
    assert after == {t: port_of[live.server(t)] for t in tables}  # type: ignore[index]
    moved = [t for t in tables if chosen[t] == str(dead.port)]
    assert moved and all(after[t] == chosen[t] for t in tables if t not in moved)
    if n == 3:  # the dead one's tables went to both others: nginx's next point, not a fixed heir
        assert len({after[t] for t in moved}) == 2, {after[t] for t in moved}


def test_least_conn_ignores_the_cookie(proxy: Start) -> None:
    base, stubs = proxy("least_conn")
    seen = Counter(backend_of(base, "Ab3_x-9ZqLm0Tt7K") for _ in range(20))
    assert set(seen) == {str(s.port) for s in stubs}, seen  # one table, both backends


def test_the_config_refuses_an_unknown_policy() -> None:
    with pytest.raises(ValueError):
        proxy_conf.upstream("u", ["127.0.0.1:1"], "random")
    with pytest.raises(ValueError):
        proxy_conf.upstream("u", [], "table")
