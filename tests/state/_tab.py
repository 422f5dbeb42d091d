"""A stand-in for one tab's ``TableState`` in the state tests: a plain object carrying the
real helper methods and the fields they read, so a handler (``TableState.sit.fn`` ...) or the
``ui`` var runs against a real ``TableService`` without Reflex."""

from __future__ import annotations

from typing import Any

from pifecacheta.state import table, table_view
from pifecacheta.state.table import TableState


def use_service(monkeypatch: Any, service: Any) -> None:
    """Make the state modules (the events and the ``ui`` var) call ``service``."""
    for module in (table, table_view):
        monkeypatch.setattr(module, "get_service", lambda: service)


class StandInTab:
    """The fields and helpers of one tab's ``TableState`` the handlers use.

    ``who``: the viewer's ``Identity`` (None: nobody yet); ``table_version``: the table counter
    the tab last heard. ``router`` is None (no real tab: nothing to push to) unless a test sets
    one. Subclasses add ``get_state`` when the handler reads other states.
    """

    _act = TableState._act
    _call = TableState._call
    _changed = TableState._changed
    _discard = TableState._discard
    _join = TableState._join
    _refused = TableState._refused
    _snapshot = TableState._snapshot
    _view_after_failure = TableState._view_after_failure
    _who = TableState._who
    router: Any = None

    def __init__(self, code: str, who: Any = None, *, table_version: int = 0) -> None:
        self.table_code = code
        self.me, self._secret, self._name = (who.player_id, who.secret, who.name) if who else ("", "", "")
        self.message, self.message_serial, self.message_version = "", 0, -1
        self.table_version = table_version
