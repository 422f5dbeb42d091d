"""The display-name box of the lobby (CRIAR MESA) and of the waiting room (SENTAR À MESA), with
its limit said: the browser stops typing at ``NAME_MAX`` (24) characters, the hint under the box
says so and counts ("Até 24 letras · 7/24", described to a screen reader by the box's
``aria-describedby``), and a polite live region says "Chegou ao limite de 24 letras." when the
name reaches it. A longer name that arrives anyway (a forged event) is refused by the state's
setter (``state/name_limit.py``).
"""

from __future__ import annotations

from typing import Any

import reflex as rx

from pifecacheta.components.common import polite_region
from pifecacheta.state.name_limit import NAME_MAX


def name_limit(input_id: str, value: Any, t: Any) -> rx.Component:
    """The hint under the name box ``input_id``: "Até 24 letras · 7/24" / "Hasta 24 letras ·
    7/24" (``#<input_id>-limit``, ``t``: the viewer's catalog Var), and the polite region
    (``#<input_id>-at-limit``) that says when ``value`` (a string Var: the box's state)
    reached the limit."""
    length = rx.Var.create(value).to(str).length()
    full = length >= NAME_MAX
    return rx.box(  # type: ignore[no-any-return]
        rx.text(
            t["name.limit"],
            " · ",
            rx.el.span(length.to_string() + "/" + str(NAME_MAX), class_name="name-count"),
            size="1",
            id=f"{input_id}-limit",
            # gold at the limit (7:1 on the dark card), the usual soft white before it
            style={"opacity": rx.cond(full, "1", "0.85"), "color": rx.cond(full, "#ffd27f", "inherit")},
        ),
        polite_region(rx.cond(full, t["name.at_limit"], ""), id=f"{input_id}-at-limit"),
        style={"margin_top": "-0.4em", "width": "100%"},
    )


def name_input(
    input_id: str, value: Any, on_change: Any, *, on_enter: Any = None, **props: Any
) -> rx.Component:
    """The name box ``input_id`` itself: at most ``NAME_MAX`` characters (``maxlength``),
    described by its limit hint (:func:`name_limit`); ``props`` go to ``rx.input``.

    ``on_enter``: the event Enter in the box sends, as the button beside it would (CRIAR MESA,
    SENTAR À MESA). The box is then the only field of a form, so Enter submits it (the HTML
    form's implicit submission), after the box sent its last change (Reflex's debounced input
    sends it on Enter first)."""
    box = rx.input(
        id=input_id,
        value=value,
        on_change=on_change,
        max_length=NAME_MAX,
        custom_attrs={"aria-describedby": f"{input_id}-limit"},
        **props,
    )
    if on_enter is None:
        return box  # type: ignore[no-any-return]
    return rx.form(box, on_submit=on_enter, reset_on_submit=False, width="100%")  # type: ignore[no-any-return]
