"""The parts of "Meu acesso" (``/acesso``) and of the page a personal link opens (``/acesso/entrar``)."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.common import mounted_on_change
from pifecacheta.components.focus import page_title
from pifecacheta.components.notices import notice_controls
from pifecacheta.components.table.dialogs import confirm
from pifecacheta.components.table.shared import fill_in
from pifecacheta.state.access import AccessState
from pifecacheta.state.viewer import ViewerState

# Reflex 0.10.1 exports its components untyped: hence the narrow ignores on component returns.

PANEL = {
    "max_width": "40em",
    "margin": "1.5em auto",
    "padding": "1.2em",
    "border_radius": "1em",
    "background": "rgba(0,0,0,0.3)",
}


def home_link() -> rx.Component:
    """VOLTAR AO INÍCIO, a link to the lobby styled as a button."""
    return rx.link(  # type: ignore[no-any-return]
        ViewerState.t["btn.home"],
        href="/",
        id="access-home",
        style={
            "padding": "0.45em 1em",
            "border_radius": "0.5em",
            "border": "1px solid rgba(255,255,255,0.5)",
            "color": "white",
            "font_weight": "bold",
        },
    )


def _link_and_qr() -> rx.Component:
    t = ViewerState.t
    return rx.flex(  # type: ignore[no-any-return]
        rx.image(
            src=AccessState.qr,
            alt=t["access.qr_alt"],
            id="access-qr",
            width="13em",
            height="13em",
            style={"border_radius": "0.4em", "background": "white", "flex": "0 0 auto"},
        ),
        rx.vstack(
            # htmlFor as a plain attribute: rx.text turns an html_for prop into CSS (Reflex 0.10.1)
            rx.text(
                t["access.link_label"], as_="label", custom_attrs={"htmlFor": "access-link"}, weight="bold"
            ),
            rx.input(value=AccessState.link, read_only=True, id="access-link", width="100%", size="3"),
            rx.text(
                fill_in(t["access.enters_as"], "{name}", AccessState.enters_as),
                size="2",
                id="access-enters-as",
            ),
            rx.button(t["btn.copy_link"], on_click=AccessState.copy, color_scheme="amber", id="access-copy"),
            rx.text(
                rx.cond(AccessState.copied, t["access.copied"], ""),
                size="2",
                role="status",
                id="access-copied",
            ),
            rx.text(t["access.qr_hint"], size="2", style={"opacity": "0.85"}),
            spacing="2",
            align="start",
            width="100%",
            min_width="0",
        ),
        gap="1.2em",
        direction=rx.breakpoints(initial="column", sm="row"),
        align=rx.breakpoints(initial="center", sm="start"),
        width="100%",
    )


def _renew() -> rx.Component:
    t = ViewerState.t
    return rx.vstack(  # type: ignore[no-any-return]
        rx.text(t["access.renew_title"], weight="bold", size="3"),
        rx.text(t["access.renew_body"], size="2"),
        confirm(
            rx.button(t["btn.renew"], color_scheme="red", variant="soft", id="access-renew"),
            t["confirm.renew.title"],
            t["confirm.renew.body"],
            t["btn.renew"],
            AccessState.renew,
            dialog_id="confirm-renew",
        ),
        rx.box(
            rx.cond(AccessState.renewed, rx.callout(t["access.renewed"], color_scheme="green", size="1")),
            role="status",
            aria_live="polite",
            id="access-renewed",
            width="100%",
        ),
        spacing="2",
        align="start",
        width="100%",
    )


def access_panel() -> rx.Component:
    """``/acesso``: the personal link and its QR code, the plain warning that it is a key, the
    key's replacement and the notice choices; or, when this browser's key was replaced, that
    state and a way to start again as a new player."""
    t = ViewerState.t
    replaced = rx.vstack(
        rx.heading(t["access.replaced_title"], size="6", id="access-replaced", **page_title()),
        rx.text(t["access.replaced_body"], size="3"),
        rx.button(
            t["btn.start_fresh"], on_click=ViewerState.start_fresh, color_scheme="amber", id="access-fresh"
        ),
        home_link(),
        spacing="4",
        align="start",
    )
    normal = rx.vstack(
        rx.heading(t["access.title"], size="6", id="access-title", **page_title()),
        rx.text(t["access.intro"], size="3"),
        rx.callout(
            t["access.warning"], icon="key-round", color_scheme="orange", role="note", id="access-warning"
        ),
        rx.cond(AccessState.link != "", _link_and_qr(), rx.center(rx.spinner(size="3"), width="100%")),
        # the link carries the language: shown again at each switch of language
        mounted_on_change(AccessState.relink, "access-relink", ViewerState.language),
        rx.separator(),
        _renew(),
        rx.separator(),
        notice_controls(),
        home_link(),
        spacing="4",
        align="start",
        width="100%",
    )
    return rx.box(  # type: ignore[no-any-return]
        rx.cond(ViewerState.replaced, replaced, normal),
        style=PANEL,
    )


def access_watch() -> rx.Component:
    """On the table page, while the viewer has no seat there: an invisible box whose mount asks
    ``ViewerState.check_access`` whether this browser's key was replaced elsewhere (a tab that
    was seated turns spectator at the next change after the replacement, then goes to
    ``/acesso``, which says so)."""
    from pifecacheta.state.table import TableState

    ui = TableState.ui
    return rx.cond(  # type: ignore[no-any-return]
        ui.found & ~ui.is_player,
        rx.box(on_mount=ViewerState.check_access, id="access-watch", style={"display": "none"}),
    )


def enter_panel() -> rx.Component:
    """``/acesso/entrar``: "opening your access" while the fragment is read (the page then goes
    to the lobby), or why the link did not work."""
    t = ViewerState.t
    reading = rx.hstack(
        rx.spinner(size="3"), rx.text(t["access.enter_reading"]), role="status", align="center"
    )
    return rx.box(  # type: ignore[no-any-return]
        rx.heading(t["access.title"], size="6", margin_bottom="0.6em", **page_title()),
        rx.match(
            AccessState.enter_status,
            (
                "replaced",
                rx.callout(t["access.enter_replaced"], color_scheme="red", role="alert", id="enter-bad"),
            ),
            (
                "invalid",
                rx.callout(t["access.enter_invalid"], color_scheme="red", role="alert", id="enter-bad"),
            ),
            reading,
        ),
        rx.box(home_link(), margin_top="1.2em"),
        style=PANEL,
    )
