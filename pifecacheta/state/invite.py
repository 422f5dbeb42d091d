"""Sharing a table's invite link: WhatsApp (``wa.me``) and the system share sheet.

A Reflex state mixin that ``TableState`` inherits. The invitation's text is the viewer's
language's ``invite.share_text`` with the link in it ("Vem jogar Cacheta comigo: <link>");
WhatsApp takes it in its documented ``https://wa.me/?text=`` link (the text URL-encoded); the
system share sheet (``navigator.share``) is asked for through :func:`share_link`, and where
a browser has none the link is copied instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import reflex as rx

from pifecacheta import i18n
from pifecacheta.state.browser_scripts import share_link
from pifecacheta.state.viewer import ViewerState

WHATSAPP = "https://wa.me/?text="


def invitation(lang: str, url: str) -> str:
    """The invitation's text in ``lang`` with ``url`` in it.

    >>> invitation("es", "https://x/mesa/abc")
    'Ven a jugar conmigo a Pife o Cacheta: https://x/mesa/abc'
    """
    return i18n.text(i18n.normalise_language(lang), "invite.share_text").replace("{url}", url)


def whatsapp_link(lang: str, url: str) -> str:
    """The ``wa.me`` link that opens WhatsApp with the invitation typed in.

    >>> whatsapp_link("pt", "https://x/mesa/a b")
    'https://wa.me/?text=Vem%20jogar%20Pife%20ou%20Cacheta%20comigo%3A%20https%3A%2F%2Fx%2Fmesa%2Fa%20b'
    """
    return WHATSAPP + quote(invitation(lang, url), safe="")


class Invite(rx.State, mixin=True):
    """The WhatsApp link and the share sheet of the invite link (``invite_url``)."""

    if TYPE_CHECKING:
        invite_url: str

    @rx.var
    async def whatsapp_url(self) -> str:
        """``wa.me`` with the invitation in the viewer's language ("" before the page loads)."""
        viewer = await self.get_state(ViewerState)
        return whatsapp_link(viewer.lang, self.invite_url) if self.invite_url else ""

    @rx.event
    async def share(self) -> Any:
        """COMPARTILHAR: the system share sheet with the invitation, or a copy of the link."""
        if not self.invite_url:
            return None
        viewer = await self.get_state(ViewerState)
        lang = i18n.normalise_language(viewer.lang)
        return rx.call_script(share_link(i18n.text(lang, "app.title"), invitation(lang, ""), self.invite_url))
