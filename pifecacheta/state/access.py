"""Meu acesso / Mi acceso: the personal link that makes another browser the same player.

The link is ``<origin>/acesso/entrar#<player_id>.<secret>.<lang>``: the credential and the
player's language (``pt``/``es``, so that the other device speaks it at once) ride in the
fragment, which no HTTP request carries, and the page that opens it takes it out of the address
bar at once (:data:`~pifecacheta.state.browser_scripts.READ_ACCESS_FRAGMENT`), stores it in this
browser (``ViewerState.adopt``) and goes to the lobby. The link and its QR code (an SVG drawn by
segno, sent as a ``data:`` URL) reach the browser only in the delta of ``/acesso``'s on_load
(or of a new key): a page load's full state leaves them out (:meth:`AccessState.dict`), and no
other page changes them, so no other page's frames carry them. They stay in this tab's server
state, beside the secret that ``ViewerState`` keeps there anyway; nothing clears them on leaving
the page (an unmount event cannot say so: React's StrictMode, on in Reflex's development server,
unmounts and mounts every new component once, after the on_load).
"""

from __future__ import annotations

import asyncio
import builtins
import re
from typing import Any, NamedTuple

import reflex as rx
import segno
from reflex_base.constants.state import FIELD_MARKER

from pifecacheta import i18n
from pifecacheta.components.reflex_private import override_base_method
from pifecacheta.service import AccessReplaced, get_service
from pifecacheta.state.browser_scripts import READ_ACCESS_FRAGMENT
from pifecacheta.state.viewer import ViewerState

ENTER_PATH = "/acesso/entrar"
# a fragment as the link writes it: 32 hex digits, a dot, the token_urlsafe secret (no dot in
# its alphabet), then a dot and the language (older links have none)
_FRAGMENT = re.compile(r"^([0-9a-f]{32})\.([A-Za-z0-9_-]{20,100})(?:\.([a-z]{2}))?$")


class LinkKey(NamedTuple):
    """What a personal link's fragment carries: the player, its secret, and the language the
    player had chosen when the link was shown (one of :data:`~pifecacheta.i18n.LANGUAGES`, or
    None when the link has none or names another)."""

    player_id: str
    secret: str
    lang: str | None


def access_link(origin: str, player_id: str, secret: str, lang: str) -> str:
    """The personal link of ``player_id`` on the site at ``origin`` (no trailing slash), to be
    opened in ``lang``.

    >>> access_link("https://x.example", "ab" * 16, "s3cr3t", "es")
    'https://x.example/acesso/entrar#abababababababababababababababab.s3cr3t.es'
    """
    return f"{origin}{ENTER_PATH}#{player_id}.{secret}.{lang}"


def parse_fragment(fragment: str) -> LinkKey | None:
    """The :class:`LinkKey` of a personal link's fragment (without ``#``), or None.

    >>> parse_fragment("ab" * 16 + ".abcdefghijklmnopqrstuvwxyz012345.es").lang
    'es'
    >>> parse_fragment("ab" * 16 + ".abcdefghijklmnopqrstuvwxyz012345").lang is None
    True
    >>> parse_fragment("nonsense") is None
    True
    """
    m = _FRAGMENT.match(fragment.strip())
    if m is None:
        return None
    lang = m.group(3) if m.group(3) in i18n.LANGUAGES else None
    return LinkKey(m.group(1), m.group(2), lang)


def qr_data_url(link: str) -> str:
    """The QR code of ``link`` as an SVG ``data:`` URL (black on white, quiet zone of 4)."""
    return str(segno.make(link, error="m").svg_data_uri(scale=6, dark="#000", light="#fff", border=4))


class AccessState(rx.State):
    """The "Meu acesso" page (``/acesso``) and the page a personal link opens (``/acesso/entrar``)."""

    link: str = ""  # the personal link: a key (only while /acesso is open)
    qr: str = ""  # its QR code, a data: URL
    enters_as: str = ""  # the name the link enters as (the player's name on the server)
    copied: bool = False  # the link was just copied (said in a live region)
    renewed: bool = False  # the key was just replaced (said in a live region)
    enter_status: str = ""  # /acesso/entrar: "" reading, "replaced", "invalid"
    entered_pending: str = ""  # the name a personal link just made this browser, to be said
    entered_as: str = ""  # ... said on the lobby ("Você entrou como Ana"), until closed

    @override_base_method
    def dict(
        self, include_computed: bool = True, initial: bool = False, **kwargs: Any
    ) -> builtins.dict[str, Any]:
        """The state as a page load sends it: without the link and its QR code."""
        d = super().dict(include_computed=include_computed, initial=initial, **kwargs)
        mine = d.get(self.get_full_name(), {})
        for name in ("link", "qr"):
            mine[name + FIELD_MARKER] = ""
        return d

    @rx.event
    async def load(self) -> None:
        """on_load of ``/acesso`` (after ``ViewerState.init``): the link and QR of this player."""
        self.copied = self.renewed = False
        await self._show()

    async def _show(self) -> None:
        viewer = await self.get_state(ViewerState)
        if viewer.replaced or not viewer.player_id or not viewer.secret:
            self.link = self.qr = ""
            return
        origin = str(getattr(self.router.url, "origin", "") or "")
        self.link = access_link(origin, viewer.player_id, viewer.secret, viewer.language)
        self.enters_as = viewer.known_name()
        self.qr = qr_data_url(self.link)

    @rx.event
    async def relink(self) -> None:
        """The link and QR again, in the language just chosen (the language switch of ``/acesso``);
        nothing when the link already carries it (the box's first mount, after :meth:`load`)."""
        viewer = await self.get_state(ViewerState)
        if not self.link.endswith(f".{viewer.language}"):
            await self._show()

    @rx.event
    def copy(self) -> Any:
        """COPIAR LINK: the link to the clipboard, and a spoken "copied"."""
        self.copied = True
        return rx.set_clipboard(self.link)

    @rx.event
    async def renew(self) -> None:
        """TROCAR MINHA CHAVE (after a confirmation): a new secret; the old links and every
        other browser holding the old one are cut off (``service.replace_secret``)."""
        viewer = await self.get_state(ViewerState)
        await viewer.renew_secret()
        self.copied = False
        self.renewed = not viewer.replaced
        await self._show()

    @rx.event
    def enter(self) -> Any:
        """on_load of ``/acesso/entrar``: read the link's fragment in the browser (and take it
        out of the address bar); :meth:`claim` gets it."""
        self.enter_status = ""
        return rx.call_script(READ_ACCESS_FRAGMENT, callback=AccessState.claim)

    @rx.event
    async def claim(self, fragment: Any) -> Any:
        """The fragment of a personal link: when it names a player by its current secret, this
        browser becomes that player and goes to the lobby; else says the link was replaced or
        is not valid (nothing is stored, no player is created). The link's language becomes this
        browser's: the player moves to another device and keeps speaking the same language."""
        viewer = await self.get_state(ViewerState)
        viewer.pick_language()
        parsed = parse_fragment(str(fragment or ""))
        if parsed is None:
            self.enter_status = "invalid"
            return None
        try:
            who = await asyncio.to_thread(get_service().recognise, parsed.player_id, parsed.secret)
        except AccessReplaced:
            self.enter_status = "replaced"
            return None
        if who is None:
            self.enter_status = "invalid"
            return None
        viewer.adopt(who.player_id, who.secret, who.name)
        if parsed.lang is not None:
            viewer.lang = parsed.lang
        self.entered_pending, self.entered_as = who.name, ""
        return rx.redirect("/", replace=True)

    @rx.event
    def say_entered(self) -> None:
        """On mount of the lobby's confirmation line (empty at first, so that the polite live
        region exists before its words come): the name a personal link just entered with."""
        if self.entered_pending:
            self.entered_as, self.entered_pending = self.entered_pending, ""

    @rx.event
    def close_entered(self) -> None:
        """The confirmation line's close button."""
        self.entered_as = ""
