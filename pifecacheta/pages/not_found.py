"""The page for an unknown address (Reflex's ``404`` route), translated, with a way back."""

from __future__ import annotations

import reflex as rx

from pifecacheta.components.common import page_shell
from pifecacheta.components.focus import page_title
from pifecacheta.state.viewer import ViewerState


def not_found_page() -> rx.Component:
    """Registered with ``app.add_page(not_found_page, route="404")``: Reflex shows it for every
    path no page matches (instead of its English "404: Page not found"), with a link to the
    lobby where a table is created."""
    t = ViewerState.t
    return page_shell(
        rx.vstack(
            rx.heading(t["notfound.title"], size="6", id="not-found-title", **page_title()),
            rx.text(t["notfound.body"], size="3"),
            rx.link(
                rx.button(t["btn.new_table"], color_scheme="amber", size="3"),
                href="/",
                id="not-found-home",
            ),
            align="center",
            spacing="4",
            padding="3em 1em",
            style={"text_align": "center"},
        )
    )
