"""One tab's real ``TableState`` for the state tests, from the real Reflex app's state manager.

The app's public ``modify_state(rx.BaseStateToken(...))`` gives the state of a tab (and its
``ViewerState``, through ``get_state``) as Reflex builds it - ``TableState`` with its ``TableView``
mixin - so a handler (``TableState.sit.fn`` ...) or the ``ui`` var runs against a real
``TableService`` with no browser. Nothing is pushed: the live feed of a unit test has no app.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import uuid
from collections.abc import Callable
from typing import Any

import reflex as rx

from pifecacheta.state import table, table_view, viewer
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState

UI = TableState.computed_vars["ui"]._fget  # the ui var's function


def use_service(monkeypatch: Any, service: Any) -> None:
    """Make the state modules (the events, the ``ui`` var, the viewer) call ``service``, and
    the snapshot cache hear its commits, as the app's lifespan task wires them."""
    for module in (table, table_view, viewer):
        monkeypatch.setattr(module, "get_service", lambda: service)
    service.on_change(CACHE.table_changed)


def _app() -> Any:
    from pifecacheta.pifecacheta import app

    return app


class RealTab:
    """One tab showing table ``code`` as viewer ``who`` (an ``Identity``; None: nobody yet).

    ``table_version``: the change count the tab last heard. Its client token (``token``, random)
    is also set in the state's ``router.session`` as a real event
    would. Fields read through this object come from the tab's state (``tab.message``); the
    ``ui`` var is evaluated only by :meth:`ui` and at the end of :meth:`run` and :meth:`set`
    (the delta of an event), as in the app.
    """

    def __init__(self, code: str, who: Any = None, *, table_version: int = 0) -> None:
        self.token = f"test-{uuid.uuid4().hex}"
        self.state: Any = None  # the tab's TableState, once read
        asyncio.run(self._modify(lambda tab: None))  # a new tab: no viewer yet, so no read
        # the fields as a loaded tab holds them, set without an event (no delta, no ui read)
        self._setup(self.state, code, who, table_version)

    def _setup(self, tab: TableState, code: str, who: Any, table_version: int) -> None:
        tab.table_code = code
        tab.me, tab._secret, tab._name = (who.player_id, who.secret, who.name) if who else ("", "", "")
        tab.message, tab.message_serial = "", 0
        tab.table_version = table_version
        router = tab.router
        tab.router = dataclasses.replace(
            router, session=dataclasses.replace(router.session, client_token=self.token)
        )

    async def _modify(self, fn: Callable[[TableState], Any]) -> None:
        # returns nothing: asyncio's repr of a task holding a state would touch its async var
        async with _app().modify_state(rx.BaseStateToken(ident=self.token, cls=TableState)) as root:
            self.state = tab = await root.get_state(TableState)
            result = fn(tab)
            if inspect.isawaitable(result):
                await result

    def run(self, handler: Any, *args: Any) -> None:
        """Run event handler ``handler`` (``TableState.sit`` ...) of this tab, as Reflex
        would: under the tab's state lock, its delta resolved (and sent to nobody) after."""
        asyncio.run(self._modify(lambda tab: handler.fn(tab, *args)))

    def set(self, **fields: Any) -> None:
        """Set fields of the tab's state, under its lock (as an event would)."""
        asyncio.run(self._modify(lambda tab: [setattr(tab, k, v) for k, v in fields.items()]))

    def session(self) -> Any:
        """This tab's real ``ViewerState`` state."""
        found: list[Any] = []

        async def get() -> None:
            async with _app().modify_state(rx.BaseStateToken(ident=self.token, cls=TableState)) as root:
                found.append(await root.get_state(viewer.ViewerState))

        asyncio.run(get())
        return found[0]

    def ui(self) -> Any:
        """The tab's ``ui`` var evaluated once (as for one delta)."""
        return asyncio.run(UI(self.state))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.state, name)
