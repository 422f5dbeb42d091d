"""A throwaway PostgreSQL server for the tests: ``initdb`` + ``pg_ctl`` in a temporary folder.

:func:`find_bindir` finds the server programs (Debian's ``postgresql`` package puts them in
``/usr/lib/postgresql/<major>/bin``, which is not on ``PATH``). :class:`PgServer` creates a
cluster in a fresh folder under the system temp dir, starts it on a free TCP port of
127.0.0.1 (no Unix socket outside that folder, nothing written to fsync: it is thrown away),
creates databases for the tests and removes everything at :meth:`PgServer.stop`.

``initdb`` and ``postgres`` refuse to run as root: as root, the cluster belongs to the
``postgres`` user (created by the Debian package; else ``nobody``) and the programs run through
``runuser -u <user> --``. The folder is made outside pytest's ``tmp_path`` because that one is
private to root (mode 700) and the server's user could not enter it.

The server's time zone is deliberately ``America/Sao_Paulo``, not UTC: a ``timestamptz``
comes back in the session's zone, so a test passes only if the app turns it back into UTC.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import sqlalchemy as sa

SERVER_TIMEZONE = "America/Sao_Paulo"
SUPERUSER = "postgres"


class PgUnavailable(RuntimeError):
    """No PostgreSQL server could be started here; the message says why."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``, or None when not installed.

    Env ``PIFECACHETA_PG_BINDIR``, when set, is the only place looked at; else, in order: the
    newest ``/usr/lib/postgresql/<major>/bin`` (Debian, Ubuntu); the folder of ``initdb`` on
    ``PATH``; the real folder of a ``pg_ctl`` on ``PATH`` (a symlink such as
    ``/usr/local/bin/pg_ctl`` leads to the server's own folder).
    """
    wanted = os.environ.get("PIFECACHETA_PG_BINDIR")
    candidates = [Path(wanted)] if wanted else _found_bindirs()
    for c in candidates:
        if all((c / prog).is_file() for prog in ("initdb", "pg_ctl", "postgres")):
            return c
    return None


def _found_bindirs() -> list[Path]:
    """Where the server programs may be, best first (see :func:`find_bindir`)."""
    candidates: list[Path] = []
    debian = glob.glob("/usr/lib/postgresql/*/bin")
    debian.sort(key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0, reverse=True)
    candidates += [Path(p) for p in debian]
    for prog in ("initdb", "pg_ctl"):
        found = shutil.which(prog)
        if found:
            candidates.append(Path(found).resolve().parent)
    return candidates


def free_port() -> int:
    """A TCP port of 127.0.0.1 that was free a moment ago (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One throwaway PostgreSQL cluster; :meth:`start` it, ask :meth:`url` for databases.

    Args:
        bindir: the server programs' folder (default :func:`find_bindir`).

    Attributes:
        port: the TCP port on 127.0.0.1 once started.
        folder: the temporary folder holding ``data/`` (the cluster) and ``server.log``.
    """

    def __init__(self, bindir: Path | None = None) -> None:
        self.bindir = bindir or find_bindir()
        self.folder: Path | None = None
        self.port = 0
        self._runas: list[str] = []

    def _run(self, *args: str) -> None:
        """Run a server program as the cluster's owner; raises PgUnavailable with its output."""
        assert self.bindir is not None
        cmd = [*self._runas, str(self.bindir / args[0]), *args[1:]]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            log = self.folder / "server.log" if self.folder else None
            tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise PgUnavailable(
                f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr or proc.stdout}{tail}"
            )

    def start(self) -> None:
        """initdb a new cluster (UTF8, trust auth for local use only) and start it on a free
        port; raises PgUnavailable when the programs are missing or the server does not start."""
        if self.bindir is None:
            wanted = os.environ.get("PIFECACHETA_PG_BINDIR")
            where = (
                f"PIFECACHETA_PG_BINDIR={wanted} lacks initdb, pg_ctl or postgres"
                if wanted
                else "no /usr/lib/postgresql/*/bin, no initdb on PATH"
            )
            raise PgUnavailable(
                f"PostgreSQL server programs not found ({where}): install Debian's `postgresql` "
                "package (scripts/test.sh does) or set PIFECACHETA_PG_BINDIR"
            )
        root = os.geteuid() == 0
        if root and shutil.which("runuser") is None:
            raise PgUnavailable("running as root without `runuser` to start PostgreSQL as another user")
        # as root, in /tmp: a TMPDIR of root's own may be closed to the server's user
        self.folder = Path(tempfile.mkdtemp(prefix="pifecacheta-pg-", dir="/tmp" if root else None))
        if root:
            user = _unprivileged_user()
            pw = pwd.getpwnam(user)
            os.chown(self.folder, pw.pw_uid, pw.pw_gid)
            self._runas = ["runuser", "-u", user, "--"]
        data = str(self.folder / "data")
        self._run("initdb", "-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C", "-N")
        last: PgUnavailable | None = None
        for _ in range(3):  # another process may take the free port before the server binds it
            self.port = free_port()
            try:
                self._start(data)
                return
            except PgUnavailable as e:
                last = e
        assert last is not None
        raise last

    def restart(self) -> None:
        """Stop the server (``-m fast``: open connections are cut, committed work is kept; an
        immediate stop would lose the last commits, as nothing here waits for the disk) and
        start it again on the same port."""
        assert self.folder is not None
        data = str(self.folder / "data")
        self._run("pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        self._start(data)

    def _start(self, data: str) -> None:
        """``pg_ctl start`` the cluster in ``data``, waiting until it accepts connections."""
        assert self.folder is not None
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "-o", self._options(), "start")

    def _options(self) -> str:
        """The server's settings (``pg_ctl -o``): port, local TCP only, no fsync, zone."""
        assert self.folder is not None
        return (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.folder} "
            f"-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            f"-c max_connections=300 -c timezone={SERVER_TIMEZONE}"
        )

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL (psycopg 3 driver) of ``database`` on this server."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """Run one statement outside a transaction on the ``postgres`` database
        (CREATE/DROP DATABASE cannot run inside one)."""
        engine = sa.create_engine(self.url(), isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
        try:
            with engine.connect() as conn:
                conn.exec_driver_sql(sql)
        finally:
            engine.dispose()

    def create_database(self, name: str, template: str | None = None) -> str:
        """Create database ``name`` (a copy of ``template`` if given); returns its URL."""
        self.admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop database ``name``, closing whatever connections it still has."""
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server at once and delete its folder (nothing in it is kept)."""
        if self.folder is None:
            return
        try:
            if (self.folder / "data" / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


def _unprivileged_user() -> str:
    """The user a root process runs the server as: ``postgres`` if it exists, else ``nobody``."""
    for name in (SUPERUSER, "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise PgUnavailable("running as root and neither a `postgres` nor a `nobody` user exists")
