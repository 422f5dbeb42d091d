"""The Reflex private and experimental APIs the UI relies on, gathered in one place.

Checked against Reflex 0.10.1 (``reflex``, ``reflex_base``, ``reflex_components_core`` 0.10.1).
``tests/test_reflex_private.py`` fails when one of them stops working after an upgrade:

- :func:`client_state_var`: ``reflex.experimental.client_state.ClientStateVar``, React state
  kept in the browser (the selected card of the hand: a tap costs no round trip);
- :class:`DnDDiv`: a subclass of Reflex's ``Div`` element class with typed HTML5
  drag-and-drop event triggers (``rx.EventHandler`` fields with an event spec);
- :func:`replace_overlay`: the ``(5, "Overlay")`` key of ``rx.App.app_wraps``, the component
  Reflex wraps every page in to show its "cannot connect" toast;
- :func:`memo`, ``connection_pulser`` and ``has_connection_errors``: what Reflex's own overlay
  is built from, for the translated connection notice (components/common.py);
- :func:`is_call_binding_error`: the name of the function in which Reflex calls an event
  handler with the event's payload (``process_event``), to tell a malformed event from a
  handler's own failure (state/malformed.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.experimental.client_state import ClientStateVar
from reflex_base.components.memo import memo
from reflex_base.vars import ObjectVar, Var

# reflex_components_core ships no py.typed marker (Reflex 0.10.1)
from reflex_components_core.core.banner import (  # type: ignore[import-untyped]
    connection_pulser,
    has_connection_errors,
)
from reflex_components_core.el.elements.typography import Div  # type: ignore[import-untyped]

__all__ = [
    "OVERLAY_KEY",
    "DnDDiv",
    "client_state_var",
    "connection_pulser",
    "has_connection_errors",
    "memo",
    "is_call_binding_error",
    "replace_overlay",
]

# The function and module in which Reflex 0.10.1 calls ``fn(state, **payload)``.
_CALL_SITE: tuple[str, str] = ("process_event", "reflex_base.event.processor.base_state_processor")

# The app_wraps key of Reflex's default overlay (the "Cannot connect to server" toast).
OVERLAY_KEY: tuple[int, str] = (5, "Overlay")


def client_state_var(name: str, default: Any) -> ClientStateVar:
    """A browser-only variable (React state shared by every component of the page) named
    ``name``, starting at ``default``. ``.value`` reads it, ``.set_value(v)`` is an event that
    sets it without a round trip to the server."""
    return ClientStateVar.create(name, default=default)


def replace_overlay(app: rx.App, overlay: Callable[[], rx.Component]) -> None:
    """Show ``overlay()`` instead of Reflex's default connection overlay on ``app``'s stateful
    pages (pages without state keep no overlay, as with Reflex's own)."""
    app.app_wraps[OVERLAY_KEY] = lambda stateful: overlay() if stateful else None


@dataclasses.dataclass(frozen=True)
class _JsElement:
    id: str = ""


@dataclasses.dataclass(frozen=True)
class _JsDragEvent:
    currentTarget: _JsElement = _JsElement()  # noqa: N815 - the DOM's own name


def _drag_spec(e: ObjectVar[_JsDragEvent]) -> tuple[Var[str]]:
    return (e.currentTarget.id,)


class DnDDiv(Div):  # type: ignore[misc]  # Div is untyped (no py.typed marker)
    """A div with typed HTML5 drag-and-drop events (no hand-written JavaScript).

    ``on_drag_start`` passes the id of the dragged element to its handler; the other three
    pass nothing.
    """

    # Reflex's event-trigger declarations: EventHandler is generic at runtime only
    on_drag_start: rx.EventHandler[_drag_spec]  # type: ignore[type-arg, valid-type]
    on_drag_end: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]
    on_drag_over: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]
    on_drop: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]


def is_call_binding_error(exc: BaseException) -> bool:
    """True when ``exc`` is the ``TypeError`` of calling an event handler with arguments its
    signature refuses (a missing, unknown or doubled argument of a forged event): its
    traceback ends in Reflex's own call site, not inside the handler. A ``TypeError`` raised
    by the handler's own code has a deeper frame and gives False."""
    if not isinstance(exc, TypeError):
        return False
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    return (frame.f_code.co_name, frame.f_globals.get("__name__", "")) == _CALL_SITE
