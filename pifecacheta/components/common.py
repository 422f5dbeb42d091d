"""Pieces every page shares: the top bar with the language switch and the deck design chooser,
and the visually hidden text and polite live regions screen readers hear (:data:`SR_ONLY`,
:func:`polite_region`)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.focus import focus_keeper
from pifecacheta.components.reflex_private import connection_pulser, has_connection_errors, memo
from pifecacheta.state.document import DocumentState
from pifecacheta.state.viewer import ViewerState

# Reflex 0.10.1 exports its components (rx.box, rx.text, ...) untyped and types @rx.event
# handlers as EventNamespace: hence the narrow ignores on component returns and handler calls.

# its centre #277c41: white text 5.2:1 and the focus ring 3.6:1 on it (WCAG 1.4.3, 1.4.11)
FELT = "radial-gradient(ellipse at center, #277c41 0%, #1c6b35 55%, #0f4a24 100%)"


# Visually hidden, still read by screen readers (the usual "sr-only" rules)
SR_ONLY: dict[str, str] = {
    "position": "absolute",
    "width": "1px",
    "height": "1px",
    "padding": "0",
    "margin": "-1px",
    "overflow": "hidden",
    "clip": "rect(0, 0, 0, 0)",
    "white_space": "nowrap",
    "border": "0",
}


def mounted_on_change(event: Any, box_id: str, *keys: rx.Var[str]) -> rx.Component:
    """An invisible box that sends ``event`` each time it mounts, and mounts again whenever
    one of ``keys`` changes (the key sits on a wrapper: the box's own on_mount lives in its
    memo component)."""
    box = rx.box(on_mount=event, id=box_id, aria_hidden="true", style={"display": "none"})
    key = rx.Var.create(list(keys)).to(list).join("|")
    return rx.fragment(box, key=key)  # type: ignore[no-any-return]


def polite_region(*children: Any, id: str, atomic: bool = False) -> rx.Component:
    """A visually hidden polite live region (``<div id=... aria-live="polite">``, styled
    :data:`SR_ONLY`): a screen reader says what ``children`` show whenever it changes, after
    what it is saying. ``atomic``: ``aria-atomic="true"``, the whole region is read again on
    every change, not only the changed part."""
    atomic_attr: dict[str, str] = {"aria_atomic": "true"} if atomic else {}
    return rx.el.div(*children, aria_live="polite", id=id, style=SR_ONLY, **atomic_attr)  # type: ignore[no-any-return]


def close_button(
    label: Any, on_click: Any, *, id: str, style: dict[str, Any], title: Any = None
) -> rx.Component:
    """A small ghost "x" icon button that closes a notice: ``label`` is its accessible name
    (and, with ``title``, its hover text); ``style`` gives its colour or focus ring."""
    extra: dict[str, Any] = {} if title is None else {"title": title}
    return rx.icon_button(  # type: ignore[no-any-return]
        rx.icon("x", size=14),
        size="1",
        variant="ghost",
        color_scheme="gray",
        aria_label=label,
        on_click=on_click,
        id=id,
        style=style,
        **extra,
    )


def lang_button(code: str, label: str) -> rx.Component:
    """One language choice; pressed when it is the current language."""
    return rx.button(  # type: ignore[no-any-return]
        label,
        on_click=[ViewerState.set_language(code), DocumentState.sync_language],  # type: ignore[operator]
        size="1",
        variant=rx.cond(ViewerState.language == code, "solid", "soft"),
        color_scheme="amber",
        aria_pressed=rx.cond(ViewerState.language == code, "true", "false"),
        id=f"lang-{code}",
    )


def deck_chooser() -> rx.Component:
    """Deck design select (classic / four colours / large index), remembered per browser."""
    t = ViewerState.t
    return rx.select.root(  # type: ignore[no-any-return]
        rx.select.trigger(
            aria_label=t["deck.label"],
            variant="soft",
            color_scheme="gray",
            # a phone's top bar has room for "Clássico" but not "Quatro cores" beside the title
            # and PT / ES: the chosen name is cut with an ellipsis rather than widen the page
            style={
                "max_width": rx.breakpoints(initial="9.5em", sm="none"),
                "min_width": "0",
                "& > span": {"overflow": "hidden", "text_overflow": "ellipsis", "white_space": "nowrap"},
            },
        ),
        rx.select.content(
            rx.select.item(t["deck.classic"], value="classic"),
            rx.select.item(t["deck.four"], value="four"),
            rx.select.item(t["deck.large"], value="large"),
        ),
        value=ViewerState.deck_design,
        on_change=ViewerState.set_deck,
        size="1",
    )


def top_bar() -> rx.Component:
    """Title (a link home), the deck chooser and the PT / ES switch."""
    t = ViewerState.t
    return rx.hstack(  # type: ignore[no-any-return]
        rx.link(
            rx.hstack(
                rx.text(
                    "♠♥",  # decoration, left out on a phone to leave room for the deck's name
                    aria_hidden="true",
                    style={"color": "#ffd27f", "font_size": "1.3em", "white_space": "nowrap"},
                    display=rx.breakpoints(initial="none", sm="inline"),
                ),
                rx.heading(
                    t["app.title"],
                    role="none",  # the site's name, on every page, is no heading: each page's title is its h1
                    size=rx.breakpoints(initial="3", sm="5"),
                    style={
                        "color": "white",
                        "white_space": "nowrap",
                        "overflow": "hidden",
                        "text_overflow": "ellipsis",
                    },
                ),
                align="center",
                spacing="2",
                style={"min_width": "0"},
            ),
            href="/",
            underline="none",
            style={"min_width": "0"},
        ),
        rx.spacer(),
        deck_chooser(),
        lang_button("pt", "PT"),
        lang_button("es", "ES"),
        align="center",
        width="100%",
        spacing="2",
        padding="0.6em 0.8em",
        style={"background": "rgba(0,0,0,0.35)"},
    )


def page_shell(*children: Any) -> rx.Component:
    """The felt background, the top bar and a centred column for the page's content."""
    return rx.box(  # type: ignore[no-any-return]
        top_bar(),
        focus_keeper(),  # the focus after an action, a live update and a move to another page (WCAG 2.4.3)
        rx.box(
            *children,
            # overflow_wrap "anywhere": a long word (a 24-letter name, a chat line without spaces)
            # breaks instead of widening a phone screen; inherited by every text on the page.
            style={
                "max_width": "1100px",
                "margin": "0 auto",
                "padding": "0.6em 0.6em 2em",
                "overflow_wrap": "anywhere",
                "min_width": "0",
            },
        ),
        style={"min_height": "100vh", "background": FELT, "color": "white"},
        lang=ViewerState.language,
        id="page-shell",
    )


def toast_style(**extra: str) -> dict[str, str]:
    """Style of a box floating over the page, centred across it (a toast): fixed position, so
    showing or hiding it never moves the page under the player's finger. ``extra`` places it
    (``top`` or ``bottom``), sizes and colours it.

    >>> toast_style(top="1em")["position"], toast_style(top="1em")["top"]
    ('fixed', '1em')
    """
    return {
        "position": "fixed",
        "left": "50%",
        "transform": "translateX(-50%)",
        "box_shadow": "0 6px 18px rgba(0,0,0,0.45)",
        **extra,
    }


def toaster() -> rx.Component:
    """Reflex's toast provider (sonner's Toaster, the app's ``toaster=``) with its region named
    in the viewer's language ("Avisos"): sonner's ``customAriaLabel`` replaces its English
    "Notifications alt+T", which Reflex 0.10.1's ``rx.toast.provider`` has no prop for."""
    return rx.toast.provider(custom_attrs={"customAriaLabel": ViewerState.t["toast.region"]})  # type: ignore[no-any-return]


def connection_notice() -> rx.Component:
    """While the page has no connection to the server: a notice in the player's language.

    Replaces Reflex's default overlay toast ("Cannot connect to server: websocket error. Check
    if server is reachable at ws://…", English, for developers). Reflex keeps reconnecting by
    itself; the page comes back as it was (the hydrate on reconnect runs the page's on_load).
    The small pulsing "no wifi" icon of the default overlay stays.
    """
    # memo: its own React component, so the connection-errors hook reads the provider above it
    # (as Reflex's default overlay does)
    return rx.fragment(memo(_connection_notice)())  # type: ignore[no-any-return]


def _connection_notice() -> rx.Component:
    return rx.fragment(  # type: ignore[no-any-return]
        connection_pulser(),
        rx.cond(
            has_connection_errors,
            rx.box(
                ViewerState.t["conn.lost"],
                id="connection-lost",
                role="status",
                style=toast_style(
                    bottom="1em",
                    width="min(92vw, 30em)",
                    z_index="70",
                    padding="0.7em 1em",
                    border_radius="0.6em",
                    text_align="center",
                    background="#3a2a05",
                    border="1px solid #d4a017",
                    color="#ffe2a0",
                ),
            ),
        ),
    )
