"""The views' serializers (``state/wire.py``) write the same frame text as Reflex's own
dataclass serializer, on real views of a whole match, and the views hold only types whose
text both write alike."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

import pytest
from _match import play_hostile_match
from reflex_base.utils.format import json_dumps
from reflex_base.utils.serializers import get_serializer

from pifecacheta.service import Identity, TableService
from pifecacheta.state import wire
from pifecacheta.state.history_ui import HistoryUi, RoundUi, history_for
from pifecacheta.state.ui_values import ChatUi, TableUi
from pifecacheta.state.view_model import chat_ui, table_ui


def reflex_text(value: Any) -> str:
    """The frame text of ``value`` as Reflex writes a dataclass without a serializer of its own:
    ``{field: value}`` for each instance, in declaration order (``_dataclass_serializer``)."""

    def fields(obj: Any) -> dict[str, Any]:
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}

    return json.dumps(value, default=fields, ensure_ascii=False)


def test_reflex_uses_the_views_serializers() -> None:
    assert get_serializer(TableUi) is wire.serialize_table_ui
    assert get_serializer(HistoryUi) is wire.serialize_history_ui
    assert get_serializer(RoundUi) is wire.serialize_round_ui
    assert get_serializer(ChatUi) is wire.serialize_chat_ui


PLAIN = (str, int, bool)


def _field_types(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f"{cls.__name__}.{f.name}", hints[f.name]) for f in dataclasses.fields(cls)]


@pytest.mark.parametrize("top", [TableUi, HistoryUi, RoundUi, ChatUi])
def test_the_views_hold_only_types_both_write_alike(top: type) -> None:
    seen: set[type] = set()
    todo = [top]
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for name, tp in _field_types(cls):
            while typing.get_origin(tp) is list:
                (tp,) = typing.get_args(tp)
            if dataclasses.is_dataclass(tp):
                todo.append(tp)  # type: ignore[arg-type]
            else:
                assert tp in PLAIN, f"{name}: {tp} (msgspec and Reflex may write it differently)"


def test_every_view_of_a_match_is_written_as_reflex_writes_it(db_engine, clock) -> None:
    seen: set[str] = set()
    views = 0

    async def texts_now(svc: TableService, code: str, ana: Identity) -> None:
        nonlocal views
        for who in (ana, None):
            snap = svc.snapshot(code, who)
            for value in (table_ui(snap), await history_for(svc, snap)):
                views += 1
                expected = reflex_text(value)
                assert json_dumps(value) == expected
                seen.add(type(value).__name__)
            lines = chat_ui(snap)  # TableState.chat_lines (the hostile line among them)
            assert json_dumps(lines) == reflex_text(lines)
            seen.update("ChatUi" for _ in lines)
            hist = await history_for(svc, snap)
            for r in hist.rounds:
                assert json_dumps(r) == reflex_text(r)
                seen.add("RoundUi")

    play_hostile_match(db_engine, clock, texts_now)
    assert seen == {"TableUi", "HistoryUi", "RoundUi", "ChatUi"}, seen  # a round ended with a go-out
    assert views > 100
