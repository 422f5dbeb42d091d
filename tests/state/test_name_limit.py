"""The name boxes' 24-character limit on the server side (issue 11, a newcomer's finding): the
browser stops typing at 24 (``maxlength``), so a longer name can only come from a forged event,
and the setters refuse it with ``err.name_too_long`` and change nothing.

The handlers run on a tab's real Reflex state (tests/state/_tab.py), the lobby's ``LobbyState``
through the app's own ``modify_state`` as for the table's tab.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
import reflex as rx
from _tab import RealTab, _app

from pifecacheta import i18n
from pifecacheta.state.lobby import LobbyState
from pifecacheta.state.name_limit import NAME_MAX, fits
from pifecacheta.state.table import TableState


def _lobby(*names: str) -> Any:
    """A lobby tab's ``LobbyState`` after ``set_name_input`` received each of ``names``."""
    token = f"test-{uuid.uuid4().hex}"
    found: list[Any] = []

    async def run() -> None:
        async with _app().modify_state(rx.BaseStateToken(ident=token, cls=LobbyState)) as root:
            state = await root.get_state(LobbyState)
            for name in names:
                LobbyState.set_name_input.fn(state, name)
            found.append(state)

    asyncio.run(run())
    return found[0]


def test_the_limit_is_the_services():
    assert NAME_MAX == 24
    assert fits("x" * 24) and not fits("x" * 25) and not fits(None)
    assert fits("😀" * 12)  # 24 UTF-16 units in the browser, 12 characters here


def test_lobby_refuses_a_forged_long_name_and_keeps_the_typed_one():
    state = _lobby("Ana", "A" * 25)
    assert state.name_input == "Ana"  # nothing changed (it used to keep the first 24)
    assert state.message == "err.name_too_long"
    # the next good keystroke takes the refusal away
    state = _lobby("Ana", "A" * 25, "Anas")
    assert state.name_input == "Anas" and state.message == ""


def test_lobby_takes_a_name_of_exactly_24():
    state = _lobby("B" * 24)
    assert state.name_input == "B" * 24 and state.message == ""


@pytest.mark.parametrize("lang", ["pt", "es"])
def test_the_refusal_and_the_hint_are_said_in_both_languages(lang):
    for key in ("err.name_too_long", "name.limit", "name.at_limit"):
        said = i18n.text(lang, key)
        assert said != key and "24" in said, (lang, key, said)


def test_waiting_room_refuses_a_forged_long_name(db_engine):
    tab = RealTab("ABCDE", table_version=3)
    tab.set(join_name="Bia")
    tab.run(TableState.set_join_name, "C" * 30)
    assert tab.join_name == "Bia"
    assert tab.message == "err.name_too_long" and tab.message_serial == 1
    tab.run(TableState.set_join_name, "C" * 24)
    assert tab.join_name == "C" * 24
