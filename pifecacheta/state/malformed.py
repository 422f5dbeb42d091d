"""Events the server cannot even call: a clear refusal for the player, one line in the log.

A forged or truncated websocket event (say a discard without its ``version``) makes Reflex's
call of the handler raise ``TypeError`` before any of the handler runs, so nothing changed.
:func:`backend_exception_handler` (the app's ``backend_exception_handler``) answers it with
a toast in the player's language ("Pedido inválido: nada mudou.") and logs one warning line;
every other exception goes to Reflex's default handler (the traceback in the log, a generic
toast for the player).
"""

from __future__ import annotations

import logging
from typing import Any

import reflex as rx
from reflex.app import default_backend_exception_handler
from reflex.event import EventSpec

from pifecacheta.components.reflex_private import is_payload_error
from pifecacheta.state.viewer import ViewerState

log = logging.getLogger(__name__)

BAD_EVENT_KEY = "err.bad_event"
"""The catalog key of the refusal of a malformed event (pt and es)."""


class MalformedEventState(rx.State):
    """Says, in the viewer's language, that a malformed event was refused."""

    @rx.event
    async def refuse(self) -> Any:
        """A red toast "Pedido inválido: nada mudou." (``err.bad_event``), one per page."""
        viewer = await self.get_state(ViewerState)
        return rx.toast.error(viewer.t[BAD_EVENT_KEY], id="bad_event", position="top-center")


def backend_exception_handler(exception: Exception) -> EventSpec | None:
    """The app's handler of an exception raised while processing an event.

    (Reflex checks the signature: one argument named ``exception``, an ``EventSpec`` back.)
    A malformed event (:func:`~pifecacheta.components.reflex_private.is_payload_error`)
    gets :meth:`MalformedEventState.refuse` and one warning line without a traceback; any
    other exception Reflex's default handling (logged with its traceback).
    """
    if is_payload_error(exception):
        log.warning("refused a malformed event: %s", exception)
        return MalformedEventState.refuse()  # type: ignore[operator, no-any-return]  # EventHandler stub
    return default_backend_exception_handler(exception)
