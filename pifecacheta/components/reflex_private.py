"""The Reflex private and experimental APIs the UI relies on, gathered in one place.

Checked against Reflex 0.10.1 (``reflex``, ``reflex_base``, ``reflex_components_core`` 0.10.1).
``tests/test_reflex_private.py`` fails when one of them stops working after an upgrade:

- :func:`client_state_var`: ``reflex.experimental.client_state.ClientStateVar``, React state
  kept in the browser (the selected card of the hand: a tap costs no round trip);
- :class:`DnDDiv`: a subclass of Reflex's ``Div`` element class with typed HTML5
  drag-and-drop event triggers (``rx.EventHandler`` fields with an event spec) and, from
  :class:`KeyDiv`, ``on_key_down`` (Reflex's own ``key_event`` spec: the key, then the modifiers);
- :func:`js_function`: ``reflex_base.vars.function.ArgsFunctionOperation``, an arrow function
  built from Vars, run in the browser at once as an entry of an event chain (the keyboard's
  focus moves and ``preventDefault``, components/keys.py);
- :func:`replace_overlay`: the ``(5, "Overlay")`` key of ``rx.App.app_wraps``, the component
  Reflex wraps every page in to show its "cannot connect" toast;
- :func:`memo`, ``connection_pulser`` and ``has_connection_errors``: what Reflex's own overlay
  is built from, for the translated connection notice (components/common.py);
- :func:`is_payload_error`: the functions in which Reflex turns an event's payload into
  a handler's arguments and calls it (``process_event`` ...), to tell a malformed event from a
  handler's own failure (state/malformed.py);
- :func:`override_base_method`: ``reflex.state._override_base_method``, the decorator that lets
  a state class override a method of ``BaseState`` such as ``dict`` or ``get_delta`` (the
  viewer's secret left out of page-load frames: state/viewer.py, state/access.py);
- :func:`quiet_unknown_events`: the logger and the message with which Reflex reports an event
  whose name no handler has (``reflex_base.event.processor.event_processor``, a ``KeyError``
  "No registered handler found for event: ..." logged with its traceback and the whole event).
- :data:`FRONTEND_HOOKS`: the frontend's instrumentation hooks ``window.__reflex_otel``
  (``onEventSend``, ``onSocketConnect``, ``onSocketDisconnect``, called by the template
  ``reflex_base/.templates/web/utils/state.js``), on which the page-head script
  ``state/browser_scripts.py: UNANSWERED_MOVE_HOOK`` sees the moves a page sent.
- :func:`without_cached_values`: ``ComputedVar._cache_attr``, the instance attribute
  (``"__cached_<var>_rx_state_"``) in which a cached computed var keeps its value, and
  ``BaseState.__getstate__``, whose dict the Redis state manager pickles for every event: the
  table's views are left out of it (state/table_view.py), since the next change computes
  them again anyway.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import reflex as rx
from reflex.experimental.client_state import ClientStateVar
from reflex.state import _override_base_method as override_base_method
from reflex_base.components.memo import memo
from reflex_base.vars import ObjectVar, Var
from reflex_base.vars.function import ArgsFunctionOperation, FunctionVar

# reflex_components_core ships no py.typed marker (Reflex 0.10.1)
from reflex_components_core.core.banner import (  # type: ignore[import-untyped]
    connection_pulser,
    has_connection_errors,
)
from reflex_components_core.el.elements.typography import Div  # type: ignore[import-untyped]

from pifecacheta.ratelimit import TokenBuckets

__all__ = [
    "OVERLAY_KEY",
    "DnDDiv",
    "KeyDiv",
    "client_state_var",
    "connection_pulser",
    "has_connection_errors",
    "memo",
    "is_payload_error",
    "js_function",
    "override_base_method",
    "quiet_unknown_events",
    "replace_overlay",
    "without_cached_values",
]

# Where Reflex 0.10.1 turns an event's payload into a handler's arguments and calls it
# (``fn(state, **payload)``), and where its generic ``setvar`` looks the setter up.
_CALL_SITE: tuple[str, str] = ("process_event", "reflex_base.event.processor.base_state_processor")
_PAYLOAD_SITES: frozenset[tuple[str, str]] = frozenset(
    {
        _CALL_SITE,
        ("_prepare_event_payload", "reflex_base.event.processor.base_state_processor"),
        ("_transform_event_payload", "reflex_base.event.processor.base_state_processor"),
        ("setvar", "reflex.state"),
    }
)

# The app_wraps key of Reflex's default overlay (the "Cannot connect to server" toast).
OVERLAY_KEY: tuple[int, str] = (5, "Overlay")


def without_cached_values(state: Any, fields: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """A copy of ``fields`` (``state``'s ``__getstate__`` dict, what a Redis state manager
    pickles) without the cached values of ``state``'s computed vars ``names``; their
    last-updated times stay, so an ``interval`` var does not fall due at once. Such a var is
    computed again, when it is next read, as on a tab's first event.

    Raises:
        KeyError: a name that is not a computed var of ``state``.
    """
    computed = type(state).computed_vars
    drop = {computed[name]._cache_attr for name in names}
    return {key: value for key, value in fields.items() if key not in drop}


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


def js_function(args: tuple[str, ...], body: Var[Any]) -> FunctionVar[Any]:
    """The browser function ``(args) => body``: ``body`` a Var whose JavaScript may name the
    ``args``. In an event chain it runs at once, with the DOM event as its first argument."""
    function: FunctionVar[Any] = ArgsFunctionOperation.create(args, body)
    return function


class KeyDiv(Div):  # type: ignore[misc]  # Div is untyped (no py.typed marker)
    """A div with an ``on_key_down`` trigger (Reflex's ``Div`` declares none): its handler gets
    the DOM ``KeyboardEvent.key`` ("Enter", " ", "ArrowLeft") and a ``KeyInputInfo`` of the
    modifiers (``alt_key``, ``ctrl_key``, ``meta_key``, ``shift_key``)."""

    on_key_down: rx.EventHandler[rx.event.key_event]  # type: ignore[type-arg, valid-type]


class DnDDiv(KeyDiv):
    """A div with typed HTML5 drag-and-drop events and ``on_key_down`` (no hand-written
    JavaScript).

    ``on_drag_start`` passes the id of the dragged element to its handler; the other three
    pass nothing.
    """

    # Reflex's event-trigger declarations: EventHandler is generic at runtime only
    on_drag_start: rx.EventHandler[_drag_spec]  # type: ignore[type-arg, valid-type]
    on_drag_end: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]
    on_drag_over: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]
    on_drop: rx.EventHandler[rx.event.no_args_event_spec]  # type: ignore[type-arg, valid-type]


def is_payload_error(exc: BaseException) -> bool:
    """True when ``exc`` was raised by Reflex itself while it turned a forged event's payload
    into a handler's arguments, before any of the handler ran: a ``TypeError`` of a missing,
    unknown or doubled argument, the ``AttributeError`` of a payload that is not an object or
    of ``setvar`` naming no variable. Its traceback ends in one of Reflex's payload sites;
    an exception of the handler's own code ends deeper and gives False."""
    if not isinstance(exc, TypeError | AttributeError | ValueError | KeyError):
        return False
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    return (frame.f_code.co_name, frame.f_globals.get("__name__", "")) in _PAYLOAD_SITES


_EVENT_PROCESSOR_LOGGER = "reflex_base.event.processor.event_processor"
_NO_HANDLER = "No registered handler found for event: "


class _UnknownEventFilter(logging.Filter):
    """Turns Reflex's traceback for an event of an unknown name into one warning line that
    names the event (its first 80 characters, quoted) and not its payload. A flood of them
    (they never reach the per-tab ``FloodGuard``: no handler, no middleware) is logged at
    most ``burst`` lines at once and one a second after that; the next line logged says how
    many were left out."""

    def __init__(self, buckets: TokenBuckets | None = None) -> None:
        super().__init__()
        self.lines = buckets or TokenBuckets(rate=1.0, burst=20)
        self.left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else ""
        if text.startswith(_NO_HANDLER):
            if not self.lines.take("unknown events"):
                self.left_out += 1
                return False
            more, self.left_out = (f" ({self.left_out} more not logged)" if self.left_out else ""), 0
            record.msg = "refused an event no handler has: %r%s"
            record.args = (text[len(_NO_HANDLER) :][:80], more)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_unknown_events() -> None:
    """Log a forged event of an unknown name as one warning line (the client is sent
    nothing; nothing changes), instead of a traceback holding the event's payload."""
    target = logging.getLogger(_EVENT_PROCESSOR_LOGGER)
    if not any(isinstance(f, _UnknownEventFilter) for f in target.filters):
        target.addFilter(_UnknownEventFilter())


FRONTEND_HOOKS = ("onEventSend", "onSocketConnect", "onSocketDisconnect")
"""The ``window.__reflex_otel`` hooks Reflex 0.10.1's frontend calls (``utils/state.js``): for
every event sent on the socket (with the event), and when the socket connects or drops."""


def frontend_state_js() -> str:
    """The text of the installed Reflex frontend template ``utils/state.js`` (where the
    :data:`FRONTEND_HOOKS` are called).

    Raises:
        FileNotFoundError: the template is not where Reflex 0.10.1 keeps it.
    """
    from pathlib import Path

    import reflex_base

    return (Path(reflex_base.__file__).parent / ".templates" / "web" / "utils" / "state.js").read_text()
