"""``/acesso`` (Meu acesso / Mi acceso) and ``/acesso/entrar`` (the page a personal link opens)."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.access import access_panel, enter_panel
from pifecacheta.components.common import page_shell


def access_page() -> rx.Component:
    """``/acesso``: the personal link, its QR code, the key's replacement, the notice choices."""
    return page_shell(access_panel())


def enter_page() -> rx.Component:
    """``/acesso/entrar#<player>.<secret>``: makes this browser that player, then the lobby."""
    return page_shell(enter_panel())
