"""A tab of the real app without a browser: a Socket.IO client on one backend's ``/_event``
websocket that opens ``/mesa/<code>`` as a new visitor (a spectator) and records the table
versions its ``ui`` var shows.

It speaks the Engine.IO 4 / Socket.IO 5 text protocol over ``websockets``, as Reflex's
frontend does: the open packet, ``40/_event,{"event": <hydrate_and_load>}`` (the boot event
in the CONNECT packet), ``42/_event,["event", {"delta": ...}]`` updates, ``2``/``3`` pings.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from typing import Any

import websockets

ROOT_STATE = "reflex___state____state"
TABLE_STATE = f"{ROOT_STATE}.pifecacheta___state___table____table_state"


class Spectator:
    """A thread holding one tab of table ``code`` on the backend at ``port``.

    ``token``: the tab's client token (default a new one; pass an old tab's to reconnect it).

    Attributes:
        seen: ``(monotonic time, ui.version)`` for each delta of the tab's ``ui``, in order.
        new_tokens: the tokens the backend handed this tab instead of its own (Reflex's
            duplicate-tab rule).
        error: what ended the connection, if anything did.
    """

    def __init__(self, port: int, code: str, token: str = "") -> None:
        self.port, self.code = port, code
        self.token = token or str(uuid.uuid4())
        self.seen: list[tuple[float, int]] = []
        self.new_tokens: list[str] = []
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()

    def versions_since(self, t: float) -> list[int]:
        """The table versions shown after monotonic time ``t``."""
        return [v for at, v in list(self.seen) if at > t]

    def last(self) -> int:
        """The last table version shown (-1 before the first)."""
        return self.seen[-1][1] if self.seen else -1

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)

    async def _run(self) -> None:
        url = f"ws://127.0.0.1:{self.port}/_event/?EIO=4&transport=websocket&token={self.token}"
        path = f"/mesa/{self.code}"
        boot = {
            "name": f"{ROOT_STATE}.hydrate_and_load",
            "payload": {},
            "router_data": {"pathname": path, "asPath": path, "query": {}},
        }
        try:
            async with websockets.connect(url) as ws:
                await ws.recv()  # the Engine.IO open packet
                await ws.send("40/_event," + json.dumps({"event": boot}))
                while not self._stop.is_set():
                    try:
                        frame = await asyncio.wait_for(ws.recv(), 0.2)
                    except TimeoutError:
                        continue
                    if frame == "2":
                        await ws.send("3")
                    elif isinstance(frame, str) and frame.startswith("42/_event,"):
                        self._delta(json.loads(frame[len("42/_event,") :]))
        except Exception as exc:  # noqa: BLE001 - kept for the test to report
            self.error = exc

    def _delta(self, packet: list[Any]) -> None:
        if len(packet) == 2 and packet[0] == "new_token":
            self.new_tokens.append(str(packet[1]))
            return
        if len(packet) < 2 or packet[0] != "event" or not isinstance(packet[1], dict):
            return
        table = (packet[1].get("delta") or {}).get(TABLE_STATE) or {}
        ui = table.get("ui_rx_state_")
        if isinstance(ui, dict) and ui.get("code") == self.code and isinstance(ui.get("version"), int):
            self.seen.append((time.monotonic(), ui["version"]))
