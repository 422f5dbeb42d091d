"""nginx for the cluster tests: the binary, and a runner for a configuration written by
``pifecacheta/proxy_conf.py``."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest


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


class NginxProcess:
    """nginx on ``conf`` in the foreground (``daemon off``, its own process group), its pid,
    logs and temp files in ``conf``'s folder."""

    def __init__(self, conf: Path) -> None:
        self.conf, self.run = conf, conf.parent
        self._log = open(self.run / "nginx.log", "wb")  # noqa: SIM115 - closed in stop()
        cmd = [nginx_exe(), "-p", str(self.run), "-e", str(self.run / "nginx-error.log"), "-c", str(conf)]
        self.proc = subprocess.Popen(
            [*cmd, "-g", "daemon off;"], stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def wait_up(self, url: str, timeout: float = 20.0) -> None:
        """Until ``url`` answers 200 through nginx; raises AssertionError with nginx's errors."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, f"nginx exited: {self.errors()}"
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            assert time.monotonic() < deadline, f"nginx not up at {url}: {self.errors()}"
            time.sleep(0.1)

    def errors(self) -> str:
        """The tail of nginx's error log."""
        path = self.run / "nginx-error.log"
        return path.read_text()[-3000:] if path.exists() else ""

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()
