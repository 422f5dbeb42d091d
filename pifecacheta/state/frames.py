"""The Socket.IO text of a tab's state updates, written by msgspec in C when it is plain.

Every delta Reflex sends a tab is a Socket.IO ``EVENT`` packet ``["event", StateUpdate]`` that
python-socketio turns into text with its ``json.dumps(data, separators=(",", ":"))``; Reflex
gives it ``_sio_dumps``, i.e. the standard library's encoder with Reflex's ``serialize`` as
``default``. At a table every change sends each other tab its whole ``ui`` and ``history``
(several kilobytes each), and that encoding was 8-9% of the server's CPU at 150 tables.

:func:`dumps` writes the same packet with ``msgspec.json`` (one C call, no ``default``
callbacks) when everything in it is plain: the update has no events and only a delta whose
values are exactly ``str``, ``int``, ``bool``, ``None``, lists and ``str``-keyed dicts of
those, or the table's views (:data:`VIEWS`, which ``tests/state/test_wire.py`` shows hold
only such fields). The text is the one Reflex writes, byte for byte: ``{"delta": ...}`` with
``events`` and ``final`` left out as Reflex's ``serialize_state_update`` leaves them when
empty (``tests/state/test_frames.py`` compares both on every view of a whole match). Anything
else (a float, a datetime, an enum, a ``str`` subclass, a dataclass of another state, events
to run, a packet of another kind, a value msgspec refuses) goes to Reflex's own ``dumps``.

:func:`install` puts it on the app's Socket.IO server the way python-socketio applies its
documented ``json=`` option (``AsyncServer.packet_class.json``), keeping Reflex's ``loads``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import msgspec
from reflex.event import Event
from reflex.state import StateUpdate

from pifecacheta.state.hints import HintCard
from pifecacheta.state.history_ui import HistoryUi, RoundUi
from pifecacheta.state.ui_values import ChatUi, TableUi

#: The view types written whole without a look inside: their fields are only str, int, bool,
#: lists and these dataclasses (``tests/state/test_wire.py``, ``tests/state/test_frames.py``).
VIEWS = (TableUi, HistoryUi, RoundUi, ChatUi, HintCard)
_LEAVES = frozenset({str, int, bool, type(None), *VIEWS})
_SEPARATORS = (",", ":")  # what python-socketio asks for
_ENCODER = msgspec.json.Encoder()
log = logging.getLogger(__name__)


def plain(value: Any) -> bool:
    """True when msgspec writes ``value`` exactly as Reflex's encoder does: exact ``str``,
    ``int``, ``bool``, ``None``, a :data:`VIEWS` instance, or a ``list`` / ``str``-keyed
    ``dict`` of such values (exact types: no subclass, tuple, set, float or datetime).

    >>> plain({"a": [1, "x", None, True]}), plain({"a": 1.5}), plain({1: "x"}), plain(("x",))
    (True, False, False, False)
    """
    kind = type(value)
    if kind in _LEAVES:
        return True
    if kind is list:
        return all(plain(v) for v in value)
    if kind is dict:
        return all(type(k) is str and plain(v) for k, v in value.items())
    return False


def fast_text(data: Any) -> str | None:
    """The text of Socket.IO packet data ``data`` when it is ``[event name, StateUpdate]``
    with a plain delta (:func:`plain`) and plain events (``Event`` with plain ``router_data``
    and ``payload``, e.g. the page load's ``call_script``), written by msgspec; None otherwise
    (or when msgspec refuses a value, e.g. an int beyond 64 bits or a lone surrogate)."""
    if type(data) is not list or len(data) != 2 or type(data[0]) is not str:
        return None
    update = data[1]
    if type(update) is not StateUpdate or update.final is not None or not plain(update.delta):
        return None
    body: dict[str, Any] = {"delta": update.delta} if update.delta else {}
    if update.events:
        events = update.events
        if type(events) is not list or any(type(e) is not Event for e in events):
            return None
        # Reflex's dataclass serializer: the fields in declaration order
        body["events"] = [
            {"name": e.name, "router_data": e.router_data, "payload": e.payload} for e in events
        ]
        if not plain(body["events"]):
            return None
    try:
        return _ENCODER.encode([data[0], body]).decode()
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):
        return None


def make_dumps(fallback: Callable[..., str]) -> Callable[..., str]:
    """A Socket.IO ``json.dumps``: :func:`fast_text` for python-socketio's compact call,
    ``fallback(obj, **kwargs)`` (Reflex's ``_sio_dumps``) for everything else."""

    def dumps(obj: Any, **kwargs: Any) -> str:
        if kwargs.get("separators") == _SEPARATORS and len(kwargs) == 1:
            text = fast_text(obj)
            if text is not None:
                return text
        return fallback(obj, **kwargs)

    dumps.fast_frames = True  # type: ignore[attr-defined]
    return dumps


def install(app: Any) -> bool:
    """Write ``app``'s Socket.IO packets with :func:`make_dumps` over the current ``dumps``
    (``app.sio.packet_class.json``; its ``loads`` kept). Returns False when ``app`` has no
    Socket.IO server yet; installing twice changes nothing."""
    sio = getattr(app, "sio", None)
    packet_class: Any = getattr(sio, "packet_class", None)
    current = getattr(packet_class, "json", None)
    if packet_class is None or current is None:
        log.warning("no Socket.IO server on the app: its frames stay Reflex's")
        return False
    if getattr(current.dumps, "fast_frames", False):
        return True
    packet_class.json = SimpleNamespace(dumps=make_dumps(current.dumps), loads=current.loads)
    log.info("the tabs' state updates are written by msgspec")
    return True
