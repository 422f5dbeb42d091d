"""``socket_open`` (live/local.py) against a real Socket.IO server and the real Reflex app.

The live feed stops telling a tab whose socket is gone. It asks ``app.sio.get_environ(sid,
app.event_namespace.namespace)``: these tests fail if Reflex stops exposing its
``AsyncServer`` as ``app.sio`` with its event namespace, or if python-socketio stops knowing a
connected session (or keeps knowing a disconnected one).
"""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import socketio
import uvicorn
import websockets

from pifecacheta.live.local import socket_open

NAMESPACE = "/_event"


async def _serve(sio: socketio.AsyncServer) -> tuple[uvicorn.Server, asyncio.Task[None], int]:
    server = uvicorn.Server(
        uvicorn.Config(socketio.ASGIApp(sio), host="127.0.0.1", port=0, log_level="error")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, task, port


async def _connect(port: int) -> tuple[Any, str]:
    """A raw Engine.IO 4 websocket joining ``NAMESPACE``; returns it and its Socket.IO sid."""
    ws = await websockets.connect(f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket")
    opened = await ws.recv()
    assert str(opened).startswith("0")
    await ws.send(f"40{NAMESPACE},")
    joined = str(await ws.recv())
    assert joined.startswith(f"40{NAMESPACE},"), joined
    return ws, json.loads(joined.split(",", 1)[1])["sid"]


def test_a_connected_socket_is_open_and_a_closed_one_is_not():
    async def main() -> tuple[bool, bool, bool]:
        sio = socketio.AsyncServer(async_mode="asgi")
        sio.on("connect", lambda sid, environ, auth=None: None, namespace=NAMESPACE)
        app = SimpleNamespace(sio=sio, event_namespace=SimpleNamespace(namespace=NAMESPACE))
        server, task, port = await _serve(sio)
        try:
            ws, sid = await _connect(port)
            while_open = socket_open(app, sid)
            await ws.close()
            for _ in range(200):  # the server notices the close within a few ms
                if not socket_open(app, sid):
                    break
                await asyncio.sleep(0.01)
            after_close = socket_open(app, sid)
            return while_open, after_close, socket_open(app, "")
        finally:
            server.should_exit = True
            await task

    assert asyncio.run(main()) == (True, False, False)


def test_the_reflex_app_exposes_its_socket_server_and_event_namespace():
    from pifecacheta.pifecacheta import app

    assert isinstance(app.sio, socketio.AsyncServer)
    namespace = app.event_namespace.namespace
    assert namespace == NAMESPACE and app.sio.namespace_handlers[namespace] is app.event_namespace
    assert not socket_open(app, "no-such-session")
