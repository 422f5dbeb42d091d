"""How the table's views go on the wire: Reflex serializers for ``TableUi``, ``HistoryUi``,
``RoundUi`` and ``ChatUi`` that convert them in C (``msgspec.to_builtins``).

Reflex turns a dataclass into JSON by calling its encoder's ``default`` once per instance, a
Python dict comprehension each time: a table view is about 80 instances (seats, every card
twice for the two hand orders, melds), a move's history some 100 more, and every change sends
both to every tab of the table; the chat (``TableState.chat_lines``, up to 100 ``ChatUi``) is
written, or digested to see whether it changed, at every delta of a tab.
``msgspec.to_builtins`` turns the whole value into plain dicts, lists and strings in one C
call, which the JSON encoder then writes without calling back into Python. The frame is the
same text, byte for byte (``tests/state/test_wire.py`` compares both on real views of every
phase).

The views hold only ``str``, ``int``, ``bool``, lists and these dataclasses (no datetime,
enum or tuple, whose text msgspec would write differently from Reflex): the test also checks
every field's type.

``rx.serializer`` is Reflex's public API for this; a serializer's return type would only
matter as a ``to`` type for ``has_serializer(type_, into_type)``, which the views' vars do not
use (their type on the page is the dataclass, from the computed var's annotation).
"""

from __future__ import annotations

from typing import Any

import msgspec
import reflex as rx

from pifecacheta.state.history_ui import HistoryUi, RoundUi
from pifecacheta.state.ui_values import ChatUi, TableUi


def plain(value: Any) -> Any:
    """``value`` (a view dataclass, or anything msgspec knows) as plain JSON-ready builtins:
    nested dataclasses become dicts of their fields in declaration order, lists stay lists."""
    return msgspec.to_builtins(value)


@rx.serializer
def serialize_table_ui(value: TableUi) -> dict[str, Any]:
    """A tab's table view (``TableState.ui``) as plain builtins (:func:`plain`)."""
    return plain(value)  # type: ignore[no-any-return]


@rx.serializer
def serialize_history_ui(value: HistoryUi) -> dict[str, Any]:
    """A tab's move history (``TableState.history``) as plain builtins (:func:`plain`)."""
    return plain(value)  # type: ignore[no-any-return]


@rx.serializer
def serialize_round_ui(value: RoundUi) -> dict[str, Any]:
    """One past round's result (an item of ``TableState.past_rounds``) as plain builtins."""
    return plain(value)  # type: ignore[no-any-return]


@rx.serializer
def serialize_chat_ui(value: ChatUi) -> dict[str, Any]:
    """One chat line (an item of ``TableState.chat_lines``) as plain builtins (:func:`plain`)."""
    return plain(value)  # type: ignore[no-any-return]
