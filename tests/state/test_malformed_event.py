"""Malformed events (a forged websocket frame): a clear refusal, nothing changed, one log line.

The events run through Reflex's own ``process_event`` (the function that calls a handler with
the frame's payload) on a tab's real state (tests/state/_tab.py), against a real service.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
import reflex as rx
from _tab import RealTab, _app, use_service
from reflex_base.event.processor.base_state_processor import process_event

from pifecacheta.components.reflex_private import is_payload_error
from pifecacheta.rules import CACHETA_7
from pifecacheta.service import TableService
from pifecacheta.state.malformed import MalformedEventState, backend_exception_handler
from pifecacheta.state.snapshots import CACHE
from pifecacheta.state.table import TableState
from pifecacheta.state.viewer import ViewerState


@pytest.fixture
def svc(db_engine, clock, monkeypatch) -> TableService:
    service = TableService(db_engine, clock=clock, bot_delay=0)
    use_service(monkeypatch, service)
    CACHE.clear()
    return service


def _started(svc: TableService) -> tuple[str, Any]:
    ana, bruno = svc.identify(None, None, "Ana"), svc.identify(None, None, "Bruno")
    code = svc.create_table(ana, CACHETA_7)
    svc.join(code, bruno)
    svc.start(code, ana)
    return code, bruno  # Bruno plays first


def _process(tab: RealTab, name: str, payload: dict[str, Any]) -> BaseException | None:
    """Run ``TableState.<name>`` with ``payload`` as Reflex runs a frame's event; the
    exception it raised (None if none)."""
    raised: list[BaseException] = []

    async def run(state: TableState) -> None:
        try:
            await process_event(TableState.event_handlers[name], payload, state, None)
        except Exception as exc:  # noqa: BLE001 - what Reflex would hand its exception handler
            raised.append(exc)

    asyncio.run(tab._modify(run))
    return raised[0] if raised else None


def test_a_discard_without_its_version_is_refused_and_changes_nothing(svc, caplog):
    code, bruno = _started(svc)
    tab = RealTab(code, bruno)
    tab.run(TableState.draw, svc.snapshot(code, None).version)
    drawn = svc.snapshot(code, bruno)
    exc = _process(tab, "card_double", {"card_id": str(drawn.view.hand[0])})  # no "version"
    assert isinstance(exc, TypeError) and is_payload_error(exc)
    with caplog.at_level(logging.WARNING, logger="pifecacheta.state.malformed"):
        answer = backend_exception_handler(exc)
    assert answer is not None and answer.handler.fn is MalformedEventState.refuse.fn
    lines = [r for r in caplog.records if r.name == "pifecacheta.state.malformed"]
    assert len(lines) == 1 and lines[0].exc_info is None and "\n" not in lines[0].getMessage()
    after = svc.snapshot(code, bruno)
    assert after.version == drawn.version and after.view.hand == drawn.view.hand


@pytest.mark.parametrize("payload", [{"version": 1, "extra": "x"}, {"versao": 1}])
def test_unknown_arguments_are_malformed_too(svc, payload):
    code, bruno = _started(svc)
    before = svc.snapshot(code, None).version
    exc = _process(RealTab(code, bruno), "draw", payload)
    assert exc is not None and is_payload_error(exc)
    assert svc.snapshot(code, None).version == before


@pytest.mark.parametrize("version", ["abc", None, 1.5, True, [1]])
def test_a_version_that_is_not_a_number_is_refused_with_bad_event(svc, version):
    code, bruno = _started(svc)
    before = svc.snapshot(code, bruno)
    tab = RealTab(code, bruno)
    # a value Reflex cannot turn into the hinted int reaches the handler as it came
    tab.run(TableState.draw, version)
    assert tab.message == "err.bad_event"
    after = svc.snapshot(code, bruno)
    assert after.version == before.version and after.view.hand == before.view.hand


def test_a_type_error_inside_a_handler_is_not_called_malformed():
    def handler(version: int) -> None:
        raise TypeError("a bug of ours")

    with pytest.raises(TypeError) as caught:
        handler(1)
    assert not is_payload_error(caught.value)
    assert not is_payload_error(ValueError("x"))
    answer = backend_exception_handler(caught.value)  # Reflex's own: a generic toast
    assert answer is not None and answer.handler.fn is not MalformedEventState.refuse.fn


@pytest.mark.parametrize(("lang", "text"), [("pt", "Pedido inválido"), ("es", "Solicitud inválida")])
def test_the_refusal_is_said_in_the_viewers_language(lang, text):
    said: list[Any] = []

    async def run() -> None:
        token = f"test-malformed-{lang}"
        async with _app().modify_state(rx.BaseStateToken(ident=token, cls=MalformedEventState)) as root:
            (await root.get_state(ViewerState)).lang = lang
            state = await root.get_state(MalformedEventState)
            said.append(await MalformedEventState.refuse.fn(state))

    asyncio.run(run())
    assert text in repr(said[0])


@pytest.mark.parametrize(
    ("name", "payload"),
    [("draw", None), ("draw", "xxx"), ("draw", [1]), ("setvar", {"var_name": "nope", "value": 1})],
)
def test_a_payload_that_is_no_object_or_a_setvar_of_no_variable_is_malformed(svc, name, payload):
    code, bruno = _started(svc)
    before = svc.snapshot(code, None).version
    exc = _process(RealTab(code, bruno), name, payload)
    assert exc is not None and is_payload_error(exc)
    assert backend_exception_handler(exc).handler.fn is MalformedEventState.refuse.fn
    assert svc.snapshot(code, None).version == before
