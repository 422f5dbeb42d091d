"""A minimal Socket.IO (v5) over Engine.IO (v4) websocket client, as a Reflex browser tab speaks it.

Reflex's frontend (``reflex_base/.templates/web/utils/state.js``) opens
``ws://host/_event/?EIO=4&transport=websocket&token=<client token>`` with the Reflex version as
websocket subprotocol, joins the namespace ``/_event`` with a CONNECT packet whose auth payload
carries the hydrate event (``{"event": {...}, "state_schema": ...}``), then sends each event as
``42/_event,["event", {name, payload, router_data}]`` and receives state updates as
``42/_event,["event", {"delta": ..., "events": [...], "final": ...}]``. The server pings
(``2``) and the client answers (``3``).

python-socketio's ``AsyncClient`` needs aiohttp, which is not a dependency of this project, so
this speaks the few packet types a Reflex tab uses over the ``websockets`` package (installed
with Reflex's server). Only text frames: Reflex sends no binary packets to a table page.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

NAMESPACE = "/_event"

# (t_monotonic_seconds, update dict) for every "event" the server sends this tab
OnUpdate = Callable[[float, dict[str, Any]], Awaitable[None] | None]


class SioTab:
    """One websocket connection of one simulated browser tab.

    ``on_update(t, update)`` is called for each ``event`` packet (``t``: ``time.monotonic()``
    when the frame arrived, ``update``: the decoded ``{"delta": ..., "events": ..., "final": ...}``).
    ``closed`` is set when the socket ends; ``close_reason`` says why (None for our own close).
    """

    def __init__(self, url: str, token: str, subprotocol: str, on_update: OnUpdate) -> None:
        """``url``: ``ws://127.0.0.1:<port>`` of the backend; ``token``: the tab's client token."""
        self.url = f"{url.rstrip('/')}/_event/?EIO=4&transport=websocket&token={token}"
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
        self.ws = await asyncio.wait_for(
            connect(
                self.url,
                subprotocols=[self.subprotocol],  # type: ignore[list-item]  # any string is sent
                max_size=None,
                ping_interval=None,  # Engine.IO pings at its own level
                open_timeout=timeout,
                close_timeout=2,
            ),
            timeout,
        )
        opening = await asyncio.wait_for(self.ws.recv(), timeout)
        if not isinstance(opening, str) or not opening.startswith("0"):
            raise ConnectionError(f"unexpected Engine.IO open packet: {opening!r:.200}")
        await self.ws.send("40" + NAMESPACE + "," + json.dumps(auth, separators=(",", ":")))
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
