"""The page's document language follows the viewer's language (pt or es).

Reflex writes one ``lang`` for every page at build time (``rx.App(html_lang=...)``: "pt",
the default language); a viewer who reads in Spanish gets ``lang="es"`` on load and at each
switch, so browsers do not offer a translation and screen readers pick the right voice (WCAG
2.1 criterion 3.1.1). The pages' titles are the viewer's language's catalog texts
(``doc.title.*``, bound in ``pifecacheta.py``; 2.4.2).
"""

from __future__ import annotations

import reflex as rx
from reflex.event import EventSpec

from pifecacheta.state import browser_scripts
from pifecacheta.state.viewer import ViewerState


def set_document_language(lang: str) -> EventSpec:
    """The browser event that sets ``<html lang>`` to ``lang`` (a language code)."""
    return rx.call_script(browser_scripts.set_document_language(lang))


class DocumentState(rx.State):
    """Sets the document's language from the viewer's, after each page load and at each
    switch of language."""

    @rx.event
    async def sync_language(self) -> EventSpec:
        """``<html lang>`` := the viewer's effective language (run after ``ViewerState.init``
        and ``ViewerState.set_language``)."""
        viewer = await self.get_state(ViewerState)
        return set_document_language(viewer.language)
