"""The live feed of one process (``live/local.py``): a change reaches every watching tab.

A published change of a table gives every other watching tab of it the table's new change
count, each under that tab's own lock; the acting tab gets it in its own delta. Tabs whose
socket is gone, or that now show another table, stop watching. Here the Reflex app is a
stand-in whose ``modify_state`` records which tab's state was modified and in what order the
pushes held their locks, and the open sockets are the feed's ``is_open`` seam; the last tests
push through the real Reflex app's state manager.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

import pytest
import reflex as rx

from pifecacheta import live
from pifecacheta.live import LocalFeed, Tab
from pifecacheta.state.table import TableState


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
    """``modify_state`` of a Reflex app, one lock per tab."""

    def __init__(self, tabs: dict[str, _Tab], hold: float = 0.0) -> None:
        self.tabs, self.hold = tabs, hold
        self.locks = {t: asyncio.Lock() for t in tabs}
        self.inside: list[str] = []  # tokens whose state is being modified right now
        self.most_at_once = 0
        self.asked: list[str] = []  # tokens modify_state was asked for, in order

    @contextlib.asynccontextmanager
    async def modify_state(self, token: Any) -> Any:
        assert isinstance(token, rx.BaseStateToken) and token.cls is TableState
        self.asked.append(token.ident)
        async with self.locks[token.ident]:
            self.inside.append(token.ident)
            self.most_at_once = max(self.most_at_once, len(self.inside))
            try:
                await asyncio.sleep(self.hold)  # the tab's ui evaluated and sent
                yield _Root(self.tabs[token.ident])
            finally:
                self.inside.remove(token.ident)


def _feed(app: Any, connected: set[str]) -> LocalFeed:
    """A feed on ``app`` where tab ``t`` is on socket ``"sid-" + t``; ``connected``: open tabs."""
    return LocalFeed(app, TableState, is_open=lambda socket: socket.removeprefix("sid-") in connected)


def _watch(feed: LocalFeed, code: str, token: str) -> int:
    return feed.watch(code, Tab(token, "sid-" + token))


def test_a_change_reaches_every_other_tab_of_the_table_at_once():
    app = _App({t: _Tab("T1") for t in "abcd"} | {"z": _Tab("T2")}, hold=0.05)
    feed = _feed(app, connected=set("abcdz"))
    for t in "abcd":
        _watch(feed, "T1", t)
    _watch(feed, "T2", "z")

    async def main() -> None:
        done = feed.publish("T1", skip="a")
        assert done.count == 1 and len(done.pushes) == 3
        await done.delivered()

    asyncio.run(main())
    assert [app.tabs[t].table_version for t in "abcdz"] == [0, 1, 1, 1, 0]  # a: its own delta
    assert app.most_at_once == 3  # side by side: no table-wide lock between the tabs


def test_gone_and_moved_tabs_are_dropped_and_not_updated():
    app = _App({"a": _Tab("T1"), "b": _Tab("T2"), "c": _Tab("T1")})
    feed = _feed(app, connected={"b", "c"})
    for t in "abc":
        _watch(feed, "T1", t)  # b then went to T2 without its load being seen here

    async def main() -> None:
        await feed.publish("T1").delivered()

    asyncio.run(main())
    assert feed.watchers("T1") == ["c"]
    assert [app.tabs[t].table_version for t in "abc"] == [0, 0, 1]
    assert app.asked == ["b", "c"]  # the gone tab's state is not even loaded


def test_a_late_push_never_winds_a_tab_back():
    app = _App({"a": _Tab("T1", version=5)})
    feed = _feed(app, connected={"a"})
    _watch(feed, "T1", "a")

    async def main() -> None:
        await feed.publish("T1").delivered()  # count 1 < 5

    asyncio.run(main())
    assert app.tabs["a"].table_version == 5


def test_a_failed_push_is_raised_to_the_delivery_for_its_retry():
    app = _App({"a": _Tab("T1")})  # b: connected, but no state
    feed = _feed(app, connected={"a", "b"})
    _watch(feed, "T1", "a")
    _watch(feed, "T1", "b")

    async def main() -> None:
        await feed.publish("T1").delivered()

    with pytest.raises(KeyError):
        asyncio.run(main())
    assert app.tabs["a"].table_version == 1  # the other tab was still updated


def test_without_an_app_changes_are_counted_and_nothing_is_pushed():
    feed = LocalFeed()
    _watch(feed, "T1", "a")

    async def main() -> Any:
        return feed.publish("T1"), await feed.refresh("a")

    delivery, refreshed = asyncio.run(main())
    assert delivery.count == 1 and delivery.pushes == () and not refreshed
    assert feed.changes("T1") == 1 and _watch(feed, "T1", "b") == 1


def test_apublish_and_apublish_many_count_like_publish():
    feed = LocalFeed()

    async def main() -> Any:
        one = await feed.apublish("T1")
        many = await feed.apublish_many(["T1", "T2"])
        return one.count, [d.count for d in many]

    assert asyncio.run(main()) == (1, [2, 1])
    assert feed.changes("T1") == 2 and feed.changes("T2") == 1


@pytest.fixture
def installed() -> Any:
    """A fresh feed without an app as this process's feed (the previous one back after)."""
    previous = live.current()
    yield live.install(LocalFeed())
    live.install(previous)


def test_going_back_to_the_lobby_leaves_the_table_s_updates(installed):
    from pifecacheta.state import lobby

    feed = installed

    class _Lobby:
        name_input, message, choice = "", "old", ""
        router = type("R", (), {"session": type("S", (), {"client_token": "tab-a"})()})()

        async def get_state(self, cls: type) -> Any:
            return type("Session", (), {"name": "Ana"})()

    _watch(feed, "T1", "tab-a")
    _watch(feed, "T1", "tab-b")
    page = _Lobby()
    asyncio.run(lobby.LobbyState.load.fn(page))
    assert feed.watchers("T1") == ["tab-b"] and page.name_input == "Ana"


# ---- through the real Reflex app (its state manager; no browser, so no socket) ------------


def _real_app() -> Any:
    from pifecacheta.pifecacheta import app

    return app


async def _state_of(app: Any, token: str) -> TableState:
    async with app.modify_state(rx.BaseStateToken(ident=token, cls=TableState)) as root:
        return await root.get_state(TableState)


def test_a_push_sets_the_change_count_in_the_real_tab_state():
    app = _real_app()
    a, b = (f"test-{uuid.uuid4().hex}" for _ in range(2))
    feed = LocalFeed(app, TableState, is_open=lambda socket: True)

    async def main() -> tuple[int, int, list[str]]:
        for token, code in ((a, "T1"), (b, "T2")):
            async with app.modify_state(rx.BaseStateToken(ident=token, cls=TableState)) as root:
                (await root.get_state(TableState)).table_code = code
            feed.watch("T1", Tab(token, "sid"))  # b's state shows T2: it no longer watches T1
        await feed.publish("T1").delivered()
        await feed.publish("T1").delivered()
        return (
            (await _state_of(app, a)).table_version,
            (await _state_of(app, b)).table_version,
            feed.watchers("T1"),
        )

    assert asyncio.run(main()) == (2, 0, [a])


def test_a_refresh_goes_through_the_real_app():
    app = _real_app()
    feed = LocalFeed(app, TableState)
    assert asyncio.run(feed.refresh(f"test-{uuid.uuid4().hex}"))


def test_an_idle_tab_keeps_its_state_and_its_pushes_past_the_state_expiry():
    """Reflex's memory manager drops a state untouched for its expiry (1 h by default) even
    under a connected tab; without the feed's keep-alive the next push found an empty state,
    the tab stopped watching and its page stopped updating. Here Reflex's own memory manager
    (a fresh one, the app's tree) expires states after 2 s and the tab sits 5 s with nothing
    happening at its table."""
    from reflex.istate.manager.memory import StateManagerMemory

    _real_app()  # the app's state tree is built

    class _Server:
        def __init__(self) -> None:
            self.state_manager = StateManagerMemory(token_expiration=2)
            self.modify_state = self.state_manager.modify_state

    async def main(keep_alive: bool) -> tuple[str, int, list[str]]:
        app, token = _Server(), f"test-{uuid.uuid4().hex}"
        feed = LocalFeed(app, TableState, is_open=lambda socket: True)
        async with app.modify_state(rx.BaseStateToken(ident=token, cls=TableState)) as root:
            (await root.get_state(TableState)).table_code = "T1"
        feed.watch("T1", Tab(token, "sid"))
        kept = asyncio.create_task(feed.keep_alive_loop(ttl=2.0)) if keep_alive else None
        await asyncio.sleep(5.0)
        await feed.publish("T1").delivered()
        if kept is not None:
            kept.cancel()
        state = await _state_of(app, token)  # type: ignore[arg-type]
        await app.state_manager.close()
        return state.table_code, state.table_version, feed.watchers("T1")

    assert asyncio.run(main(keep_alive=False)) == ("", 0, [])  # the failure the keep-alive prevents
    code, version, watchers = asyncio.run(main(keep_alive=True))
    assert (code, version, len(watchers)) == ("T1", 1, 1)
