"""Helpers of the cluster tests (imported by their conftest and tests): a free port, a
running ``redis-server``."""

from __future__ import annotations

import socket
import subprocess
from dataclasses import dataclass

import redis


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class RedisServer:
    """A running ``redis-server``: its ``url`` (``redis://127.0.0.1:<port>/0``), ``port``
    and process."""

    url: str
    port: int
    process: subprocess.Popen[bytes]

    def client(self) -> redis.Redis:
        """A new blocking client."""
        return redis.Redis.from_url(self.url)
