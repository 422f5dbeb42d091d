"""The cluster under real browsers: Redis, one shared database, two backend processes and
nginx serving the exported frontend (``_nginx.py`` for the routes).

Run in their own pytest process, after tests/browser (``scripts/test.sh`` step 3): the export
writes ``.web``, which an AppHarness dev server of tests/browser would be watching.
``redis-server`` and ``nginx`` are Debian's (``scripts/test.sh`` installs them); without them
the test is skipped, and fails under ``CI=true``.

The test runs once per database of ``PIFECACHETA_TEST_DB`` (``sqlite``, ``postgresql`` or
``both``, the default, as for the service tests): a SQLite file (WAL) in a temp folder, or a
database on the session's throwaway PostgreSQL server (``tests/_pg.py``; missing, it fails on
CI and is skipped elsewhere). ``PIFECACHETA_CLUSTER_DB_URL`` replaces both with one database.
Each backend is ``reflex run --env prod --backend-only`` (one granian
worker, ``tests/cluster/_backends.py``), dealing with the seed the test module's
``deal_seed`` fixture gives.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))  # _frames, _planner, _replay, _flows

from _nginx import Nginx, write_config  # noqa: E402
from cluster._backends import Backend, backend_env  # noqa: E402
from cluster._proxy import nginx_exe  # noqa: E402
from cluster._redis import RedisServer, free_port  # noqa: E402
from cluster.conftest import redis_server  # noqa: E402,F401 - the session's redis-server fixture

from pifecacheta.db import make_engine, migrate  # noqa: E402

expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """System Chromium when present, as in tests/browser/conftest.py."""
    exe = os.environ.get("PIFECACHETA_CHROMIUM") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else ""
    )
    args = {**browser_type_launch_args, "args": ["--no-sandbox", "--disable-gpu", "--disable-sync"]}
    if exe:
        args["executable_path"] = exe
    return args


def export_frontend(api_url: str, into: Path) -> Path:
    """``reflex export --frontend-only`` for ``api_url``, copied to ``into`` (so that a later
    compile of ``.web`` cannot change what nginx serves); returns the copied folder."""
    env = backend_env("", "", REFLEX_API_URL=api_url)
    env.pop("REFLEX_REDIS_URL")
    env.pop("PIFECACHETA_DB_URL")
    cmd = [str(Path(sys.executable).parent / "reflex"), "export", "--frontend-only", "--no-zip"]
    done = subprocess.run(
        [*cmd, "--env", "prod", "--loglevel", "warning"], cwd=ROOT, env=env, capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stdout.decode(errors="replace")[-3000:] + done.stderr.decode()[-3000:]
    built = ROOT / ".web" / "build" / "client"
    assert (built / "index.html").exists(), f"no exported frontend in {built}"
    shutil.copytree(built, into)
    return into


@dataclass
class Cluster:
    """The running cluster: ``url(i)`` is the frontend pinned to backend ``i`` (1 or 2, the other
    as backup), ``url(0)`` the balanced one; ``backends[i - 1]`` is backend ``i``."""

    backends: list[Backend]
    nginx: Nginx
    db_url: str
    port: int

    def url(self, i: int) -> str:
        return f"http://127.0.0.{i or 3}:{self.port}/"

    def addr(self, i: int) -> str:
        return f"127.0.0.{i or 3}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """One cluster per chosen database (module scope: each is started once)."""
    if "cluster_db" in metafunc.fixturenames:
        choice = os.environ.get("PIFECACHETA_TEST_DB") or "both"
        names = ["sqlite", "postgresql"] if choice == "both" else [choice]
        if os.environ.get("PIFECACHETA_CLUSTER_DB_URL"):
            names = ["url"]
        metafunc.parametrize("cluster_db", names, indirect=True, scope="module")


@pytest.fixture(scope="module")
def cluster_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The URL of the database the backends share, migrated to head (see the module's doc)."""
    if request.param == "url":
        url = os.environ["PIFECACHETA_CLUSTER_DB_URL"]
    elif request.param == "postgresql":
        return str(request.getfixturevalue("_pg_database"))  # fresh: this process's only user
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'cluster.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    return url


@pytest.fixture(scope="session")
def frontend(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, Path]:
    """The nginx port every cluster of the session listens on, and the frontend exported for
    it (once: about 10 s)."""
    port = free_port()
    return port, export_frontend(f"http://localhost:{port}", tmp_path_factory.mktemp("frontend") / "static")


@pytest.fixture(scope="module")
def cluster(
    redis_server: RedisServer,  # noqa: F811 - the fixture imported above
    deal_seed: int,
    cluster_db: str,
    frontend: tuple[int, Path],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Cluster]:
    """Redis (emptied), the database, two backends, nginx serving the exported frontend."""
    nginx_exe()  # skip (or fail under CI=true) before anything is started
    run = tmp_path_factory.mktemp("cluster")
    db_url = cluster_db
    client = redis_server.client()
    client.flushall()
    client.close()
    os.environ["PIFECACHETA_DB_URL"] = db_url  # read by test_frames_secrecy.rebuild_round
    port, static = frontend
    env = backend_env(
        redis_server.url,
        db_url,
        PIFECACHETA_FIXED_SEED=str(deal_seed),
        PIFECACHETA_LEASE_TTL="3",
        REFLEX_API_URL=f"http://localhost:{port}",
    )
    backends: list[Backend] = []
    nginx = None
    try:
        for i in (1, 2):  # one after the other: each writes .web/backend at start
            bport = free_port()  # its name in nginx's server lines (_nginx.py): its bots' ring
            b = Backend(str(i), bport, env | {"PIFECACHETA_PROXY_ADDRESS": f"127.0.0.1:{bport}"}, run)
            backends.append(b)
            b.wait_up()
        nginx = Nginx(write_config(run, static, port, (backends[0].port, backends[1].port)), port)
        nginx.wait_up()
        yield Cluster(backends, nginx, db_url, port)
    finally:
        if nginx is not None:
            nginx.stop()
        for b in backends:
            b.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, add the tails of the backends' logs and nginx's error log to the report."""
    outcome = yield
    rep = outcome.get_result()
    c = item.funcargs.get("cluster") if hasattr(item, "funcargs") else None
    if rep.when == "call" and rep.failed and isinstance(c, Cluster):
        for b in c.backends:
            rep.sections.append((f"backend {b.name} log", b.log()))
        rep.sections.append(("nginx errors", c.nginx.errors()))
