"""Live updates of a table's open tabs (``state/tabs.py``, ``push_change`` in state/table.py).

A change at a table gives every other open tab of it the table's new counter, each under that
tab's own lock; the acting tab gets it in its own delta. Tabs whose socket is gone, or that now
show another table, are dropped from the table's tabs. Here the Reflex app is a stand-in that
records which tab's state was modified and in what order the pushes held their locks.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from pifecacheta.state import table as table_state
from pifecacheta.state.table import TableState, bump_table, push_change
from pifecacheta.state.tabs import TableTabs


class _Tab:
    def __init__(self, code: str, version: int = 0) -> None:
        self.table_code, self.table_version = code, version


class _Root:
    def __init__(self, tab: _Tab) -> None:
        self.tab = tab

    async def get_state(self, cls: type) -> Any:
        assert cls is TableState
        return self.tab


class _App:
    """``event_namespace.token_to_sid`` and ``modify_state`` of a Reflex app, one lock per tab."""

    def __init__(self, tabs: dict[str, _Tab], connected: set[str], hold: float = 0.0) -> None:
        self.tabs, self.hold = tabs, hold
        self.event_namespace = type("NS", (), {"token_to_sid": {t: "sid-" + t for t in connected}})()
        self.locks = {t: asyncio.Lock() for t in tabs}
        self.inside: list[str] = []  # tokens whose state is being modified right now
        self.most_at_once = 0

    @contextlib.asynccontextmanager
    async def modify_state(self, token: Any) -> Any:
        assert token.cls is TableState
        async with self.locks[token.ident]:
            self.inside.append(token.ident)
            self.most_at_once = max(self.most_at_once, len(self.inside))
            try:
                await asyncio.sleep(self.hold)  # the tab's ui evaluated and sent
                yield _Root(self.tabs[token.ident])
            finally:
                self.inside.remove(token.ident)


@pytest.fixture
def tabs(monkeypatch) -> TableTabs:
    registry = TableTabs()
    monkeypatch.setattr(table_state, "TABS", registry)
    return registry


def test_a_change_reaches_every_other_tab_of_the_table_at_once(tabs):
    app = _App({t: _Tab("T1") for t in "abcd"} | {"z": _Tab("T2")}, connected=set("abcdz"), hold=0.05)
    for t in "abcd":
        tabs.open("T1", t)
    tabs.open("T2", "z")

    async def main() -> None:
        done = push_change(app, "T1", tabs.bump("T1"), skip="a")
        assert len(done) == 3
        await asyncio.gather(*done)

    asyncio.run(main())
    assert [app.tabs[t].table_version for t in "abcdz"] == [0, 1, 1, 1, 0]  # a: its own delta
    assert app.most_at_once == 3  # side by side: no table-wide lock between the tabs


def test_gone_and_moved_tabs_are_dropped_and_not_updated(tabs):
    app = _App({"a": _Tab("T1"), "b": _Tab("T2"), "c": _Tab("T1")}, connected={"b", "c"})
    for t in "abc":
        tabs.open("T1", t)  # b then went to T2 without its load being seen here
    asyncio.run(bump_table(app, "T1"))
    assert tabs.tokens("T1") == ["c"]
    assert [app.tabs[t].table_version for t in "abc"] == [0, 0, 1]


def test_a_late_push_never_winds_a_tab_back(tabs):
    app = _App({"a": _Tab("T1", version=5)}, connected={"a"})
    tabs.open("T1", "a")

    async def main() -> None:
        await asyncio.gather(*push_change(app, "T1", 4))

    asyncio.run(main())
    assert app.tabs["a"].table_version == 5


def test_a_failed_push_is_raised_to_the_bump_for_its_retry(tabs):
    app = _App({"a": _Tab("T1")}, connected={"a", "b"})  # b: connected, but no state
    tabs.open("T1", "a")
    tabs.open("T1", "b")
    with pytest.raises(KeyError):
        asyncio.run(bump_table(app, "T1"))
    assert app.tabs["a"].table_version == 1  # the other tab was still updated


def test_outside_a_running_app_nothing_is_pushed(tabs, monkeypatch):
    monkeypatch.setattr(table_state, "_running_app", lambda: None)
    tabs.open("T1", "a")
    assert asyncio.run(_call(lambda: push_change(None, "T1", 1))) == []


async def _call(fn: Any) -> Any:
    return fn()


def test_going_back_to_the_lobby_leaves_the_table_s_updates(tabs, monkeypatch):
    from pifecacheta.state import lobby
    from pifecacheta.state import tabs as tabs_module

    monkeypatch.setattr(tabs_module, "TABS", tabs)

    class _Lobby:
        name_input, message = "", "old"
        router = type("R", (), {"session": type("S", (), {"client_token": "tab-a"})()})()

        async def get_state(self, cls: type) -> Any:
            return type("Session", (), {"name": "Ana"})()

    tabs.open("T1", "tab-a")
    tabs.open("T1", "tab-b")
    page = _Lobby()
    asyncio.run(lobby.LobbyState.load.fn(page))
    assert tabs.tokens("T1") == ["tab-b"] and page.name_input == "Ana"
