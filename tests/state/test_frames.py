"""The tabs' Socket.IO frames (``state/frames.py``): msgspec writes a plain state update with
the very text Reflex writes, on every view of a whole match; anything else goes to Reflex."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import typing
from typing import Any

import pytest
import socketio
from _match import play_hostile_match
from reflex.app import _sio_dumps
from reflex.event import Event
from reflex.state import StateUpdate

from pifecacheta.service import Identity, TableService
from pifecacheta.state import frames
from pifecacheta.state.hints import HintCard, hint_card
from pifecacheta.state.history_ui import history_for
from pifecacheta.state.view_model import chat_ui, table_ui

TAB = "pifecacheta___state___table____table_state"
SEP = {"separators": (",", ":")}
dumps = frames.make_dumps(_sio_dumps)


def _packet(delta: dict[str, Any], **update: Any) -> list[Any]:
    return ["event", StateUpdate(delta=delta, **update)]


def test_every_frame_of_a_match_is_reflex_s_text(db_engine, clock) -> None:
    fast = 0

    async def frames_now(svc: TableService, code: str, ana: Identity) -> None:
        nonlocal fast
        for who in (ana, None):
            snap = svc.snapshot(code, who)
            hist = await history_for(svc, snap)
            hand = snap.view is not None and snap.view.hand
            delta = {
                TAB: {
                    "ui_rx_state_": table_ui(snap),
                    "history_rx_state_": hist,
                    "past_rounds_rx_state_": hist.rounds,
                    "chat_lines_rx_state_": chat_ui(snap),
                    "table_version_rx_state_": snap.version,
                    "me_rx_state_": ana.player_id,
                    "dragging_rx_state_": None,
                    "hand_order_rx_state_": ["AH", "2H"],
                    "open_rx_state_": False,
                    "hint_confirm_card_rx_state_": hint_card(snap.view.hand[0]) if hand else HintCard(),
                }
            }
            packet = _packet(delta)
            assert frames.fast_text(packet) is not None
            assert dumps(packet, **SEP) == _sio_dumps(packet, **SEP)
            fast += 1

    play_hostile_match(db_engine, clock, frames_now)
    assert fast > 100


class Colour(enum.Enum):
    RED = "red"


class Name(str):
    pass


def test_what_is_not_plain_is_written_by_reflex() -> None:
    odd: list[Any] = [
        1.5,
        float("nan"),
        datetime.datetime(2026, 12, 1, 20, 0, tzinfo=datetime.UTC),
        datetime.timedelta(seconds=3),
        Colour.RED,
        Name("Ana"),
        ("a", "b"),
        {"a"},
        {1: "one"},
        [1, 2.5],
    ]
    for value in [*odd, 1 << 70, "\ud800"]:  # and what msgspec may refuse: 70 bits, a lone surrogate
        packet = _packet({TAB: {"x_rx_state_": value}})
        if value in odd:
            assert frames.fast_text(packet) is None, value
        try:
            expected = _sio_dumps(packet, **SEP)
        except (UnicodeEncodeError, ValueError):
            continue
        assert dumps(packet, **SEP) == expected
    odd_event = _packet({}, events=[Event(name="state.x", payload={"a": 1.5})])
    assert frames.fast_text(odd_event) is None
    assert dumps(odd_event, **SEP) == _sio_dumps(odd_event, **SEP)
    # other packets and other calls: Reflex's text
    for data in (["event", {"a": 1}], {"sid": "x"}, "text", ["a", "b", "c"]):
        assert frames.fast_text(data) is None
        assert dumps(data, **SEP) == _sio_dumps(data, **SEP)
    assert dumps({"a": [1]}) == _sio_dumps({"a": [1]})


def test_empty_and_nested_updates_match_reflex() -> None:
    for delta in ({}, {TAB: {}}, {TAB: {"a_rx_state_": {"b": [{"c": None}], "d": ""}}}):
        packet = _packet(delta)
        assert frames.fast_text(packet) is not None
        assert dumps(packet, **SEP) == _sio_dumps(packet, **SEP)
        assert json.loads(dumps(packet, **SEP))[1] == ({"delta": delta} if delta else {})


def test_plain_events_are_written_as_reflex_writes_them() -> None:
    assert [f.name for f in dataclasses.fields(Event)] == ["name", "router_data", "payload"]
    script = Event(name="_call_script", payload={"javascript_code": "ask()", "callback": "(x) => x"})
    for packet in (
        _packet({}, events=[script]),
        _packet({TAB: {"v_rx_state_": 2}}, events=[script, Event(name="s.e", router_data={"a": "b"})]),
    ):
        assert frames.fast_text(packet) is not None
        assert dumps(packet, **SEP) == _sio_dumps(packet, **SEP)


@pytest.mark.parametrize("top", frames.VIEWS)
def test_the_views_written_whole_hold_only_plain_fields(top: type) -> None:
    seen: set[type] = set()
    todo = [top]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            tp = hints[f.name]
            while typing.get_origin(tp) is list:
                (tp,) = typing.get_args(tp)
            if dataclasses.is_dataclass(tp):
                todo.append(tp)  # type: ignore[arg-type]
            else:
                assert tp in (str, int, bool), f"{cls.__name__}.{f.name}: {tp}"


def test_install_writes_the_servers_event_packets() -> None:
    sio = socketio.AsyncServer(json=json)
    app = type("App", (), {"sio": sio})()
    before = sio.packet_class.json
    try:
        assert frames.install(app) is True
        assert frames.install(app) is True  # not wrapped twice
        assert sio.packet_class.json.loads is before.loads
        assert getattr(sio.packet_class.json.dumps, "fast_frames", False)
        packet = sio.packet_class(socketio.packet.EVENT, data=_packet({TAB: {"v_rx_state_": 3}}))
        assert packet.encode() == '2["event",{"delta":{"' + TAB + '":{"v_rx_state_":3}}}]'
    finally:
        sio.packet_class.json = before
    assert frames.install(object()) is False
