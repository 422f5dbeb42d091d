"""The Reflex private and experimental APIs the UI relies on still work (Reflex 0.10.1).

``pifecacheta/components/reflex_private.py`` gathers them; a Reflex upgrade that moves or
changes one of them fails here, not only in a browser.
"""

from __future__ import annotations

import reflex as rx
from reflex_base.registry import RegistrationContext

from pifecacheta.components import reflex_private as rp


def _fresh_app() -> rx.App:
    """A new ``rx.App`` (Reflex allows one App per registration context: this one gets a fork)."""
    with RegistrationContext.ensure_context().fork():
        return rx.App()


def test_the_overlay_key_is_in_a_fresh_apps_wraps():
    app = _fresh_app()
    assert rp.OVERLAY_KEY in app.app_wraps


def test_replace_overlay_puts_ours_on_stateful_pages_only():
    app = _fresh_app()
    marker = rx.text("ours")
    rp.replace_overlay(app, lambda: marker)
    wrap = app.app_wraps[rp.OVERLAY_KEY]
    assert wrap(True) is marker
    assert wrap(False) is None


def test_a_client_state_var_reads_and_sets_in_the_browser():
    var = rp.client_state_var("pfc_test_var", default="")
    assert isinstance(var, rp.ClientStateVar)
    assert "pfc_test_var" in str(var.value)
    setter = str(var.set_value("7H"))
    assert "setPfc_test_var" in setter and '"7H"' in setter
    # the page's components accept it as a value and as an event
    page = str(rx.box(rx.text(var.value), on_click=var.set_value("")))
    assert "pfc_test_var" in page and "useContext" not in str(var.value)


def test_dnd_div_declares_the_drag_events():
    div = rp.DnDDiv.create("x", draggable=True, on_drop=rx.prevent_default)
    assert {"on_drag_start", "on_drag_end", "on_drag_over", "on_drop"} <= set(div.get_event_triggers())
    assert 'jsx("div"' in str(rp.DnDDiv.create("x"))


def test_drag_start_passes_the_dragged_elements_id():
    from pifecacheta.state.table import TableState

    div = rp.DnDDiv.create("x", on_drag_start=TableState.drag_start)
    assert "currentTarget" in str(div) and "id" in str(div)


def test_the_connection_overlay_pieces_import_and_render():
    from pifecacheta.components.common import connection_notice

    def body() -> rx.Component:
        return rx.cond(rp.has_connection_errors, rx.text("lost"))

    assert isinstance(rp.memo(body)(), rx.Component)
    assert isinstance(rp.connection_pulser(), rx.Component)
    assert "connectErrors" in str(rp.has_connection_errors)
    assert isinstance(connection_notice(), rx.Component)


def test_reflex_prepares_and_calls_event_handlers_in_the_payload_sites():
    """is_payload_error recognises a malformed event by the frames of Reflex's own payload
    handling (tests/state/test_malformed_event.py and tests/wire run it on real events)."""
    from reflex.state import EventHandlerSetVar
    from reflex_base.event.processor import base_state_processor as bsp

    from pifecacheta.components.reflex_private import _PAYLOAD_SITES

    found = {
        (fn.__code__.co_name, fn.__module__)
        for fn in (
            bsp.process_event,
            bsp._prepare_event_payload,
            bsp._transform_event_payload,
            EventHandlerSetVar.setvar,
        )
    }
    assert found == _PAYLOAD_SITES


def test_an_unknown_event_is_logged_as_one_line_without_its_payload(caplog):
    """Reflex's event queue logs an event of no handler with logger.exception: the filter
    turns it into one warning naming the event (checked against the real queue code)."""
    import inspect
    import logging

    from reflex_base.event.processor import event_processor

    rp.quiet_unknown_events()
    queue_code = inspect.getsource(event_processor.EventProcessor._process_queue)
    assert 'f"No registered handler found for event: {entry.event.name}"' in queue_code
    assert "logger.exception(" in queue_code
    log = logging.getLogger(event_processor.__name__)
    try:
        raise KeyError("No registered handler found for event: state.nope\nforged")
    except KeyError:
        with caplog.at_level(logging.WARNING, logger=event_processor.__name__):
            log.exception("Error processing event queue entry for Event(payload={'secret': 's3'}) [txid=1]:")
    (record,) = [r for r in caplog.records if r.name == event_processor.__name__]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == "refused an event no handler has: 'state.nope\\nforged'"
    assert "s3" not in record.getMessage()


def test_a_flood_of_unknown_events_is_logged_a_line_a_second(caplog):
    """Events of no handler never reach the per-tab FloodGuard: their lines are limited
    instead (a burst, then one a second, the next line saying how many were left out)."""
    import logging

    from pifecacheta.ratelimit import TokenBuckets

    class Clock:
        now = 10.0

        def __call__(self) -> float:
            return self.now

    clock = Clock()
    quiet = rp._UnknownEventFilter(TokenBuckets(rate=1.0, burst=3, clock=clock))
    log = logging.getLogger("test.unknown_events")
    log.addFilter(quiet)
    try:
        with caplog.at_level(logging.WARNING, logger="test.unknown_events"):
            for i in range(50):
                if i == 40:
                    clock.now += 1.0
                try:
                    raise KeyError(f"No registered handler found for event: s.nope{i}")
                except KeyError:
                    log.exception("Error processing event queue entry")
    finally:
        log.removeFilter(quiet)
    assert [r.getMessage() for r in caplog.records] == [
        "refused an event no handler has: 's.nope0'",
        "refused an event no handler has: 's.nope1'",
        "refused an event no handler has: 's.nope2'",
        "refused an event no handler has: 's.nope40' (37 more not logged)",
    ]


def test_override_base_method_marks_a_state_override():
    """The decorator Reflex checks before it lets a state redefine a BaseState method."""

    def dict(self, *args, **kwargs):  # noqa: A001 - the method's own name
        return {}

    marked = rp.override_base_method(dict)
    assert marked is dict and getattr(marked, "__override_base_method__", False) is True


def test_the_frontend_still_calls_the_instrumentation_hooks_the_page_head_script_uses():
    from pifecacheta.state.browser_scripts import UNANSWERED_MOVE_HOOK

    js = rp.frontend_state_js()
    for hook in rp.FRONTEND_HOOKS:
        assert f"window.__reflex_otel?.{hook}?.(" in js, hook
        assert f"{hook}(" in UNANSWERED_MOVE_HOOK, hook


def test_without_cached_values_drops_the_cached_value_of_a_computed_var_only() -> None:
    from pifecacheta.components.reflex_private import without_cached_values
    from pifecacheta.state.table import TableState

    ui = TableState.computed_vars["ui"]
    assert ui._cache_attr == "__cached_ui_rx_state_"  # Reflex 0.10.1's attribute name
    fields = {ui._cache_attr: object(), ui._last_updated_attr: 1, "table_code": "ABC"}
    state = object.__new__(TableState)
    assert without_cached_values(state, fields, ("ui",)) == {ui._last_updated_attr: 1, "table_code": "ABC"}
    assert ui._cache_attr in fields  # a copy: the state's own dict is left alone
